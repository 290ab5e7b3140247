"""Checks of option values shared by the command groups, raising the library's errors.

Numbers are checked by click while parsing (every numeric option takes a closed range from
:mod:`lifearena.caps`; a negative seed never reaches numpy). What a range cannot say is
checked here, before any work: an output path of the wrong type or in a missing folder (found
after an hour of runs it would lose the hour), entrants, bot programs.
Game names and their aliases are resolved by :mod:`lifearena.arena.game_names`, which the
web lab shares.

>>> check_output(Path("/nope/x.png"), "--png", (".png",))
Traceback (most recent call last):
...
lifearena.errors.BadParameterError: --png '/nope/x.png': folder '/nope' does not exist
>>> check_output(Path("x.gif"), "--png", (".png",))  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
lifearena.errors.BadParameterError: --png 'x.gif' has the wrong file type; expected ... .png
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable, Sequence
from pathlib import Path

from lifearena.agents.bot import BotError
from lifearena.errors import BadParameterError, LifeArenaError


def check_output(path: Path | None, option: str, suffixes: tuple[str, ...] = ()) -> None:
    """Refuse, before any work, an output path of the wrong type or in a missing folder.

    ``suffixes`` are the accepted endings (lower case, with the dot); empty accepts any name.
    """
    if path is None:
        return
    if suffixes and path.suffix.lower() not in suffixes:
        raise BadParameterError(f"{option} {str(path)!r} has the wrong file type; expected a "
                                f"name ending in {' or '.join(suffixes)}")
    if path.is_dir():
        raise BadParameterError(f"{option} {str(path)!r} is a folder; expected a file name")
    if not path.parent.is_dir():
        raise BadParameterError(f"{option} {str(path)!r}: folder {str(path.parent)!r} does not "
                                "exist")
    _check_writable(path, option)


def _check_writable(path: Path, option: str) -> None:
    """Open ``path`` for appending (nothing is written; a file made for the trial is removed)
    so that a folder that takes no files (``/proc``, read-only) is refused now; the
    permission bits alone do not tell, for instance when running as root."""
    existed = path.exists()
    try:
        with open(path, "ab"):
            pass
    except OSError as error:
        raise BadParameterError(f"{option} {str(path)!r} cannot be written "
                                f"({error.strerror or error}); expected a file name in a "
                                "folder you can write to") from None
    if not existed:
        path.unlink(missing_ok=True)


def split_entrants(values: Sequence[str] | None) -> list[str] | None:
    """Entrants from repeatable ``-a`` values, each of which may list several separated by
    commas; ``None`` when no ``-a`` was given. A comma also separates the ``key=value``
    options of an entrant with a ``:``, so a ``key=value`` piece after such an entrant
    belongs to it (give an entrant with options last in its value, or its own ``-a``).

    >>> split_entrants(["random,greedy", "deep=minimax:depth=3,ties=random", "x=random"])
    ['random', 'greedy', 'deep=minimax:depth=3,ties=random', 'x=random']
    >>> split_entrants(None) is None
    True
    >>> split_entrants([" , "])
    Traceback (most recent call last):
    ...
    lifearena.errors.BadParameterError: --agents ' , ' names no agent; expected NAME[,NAME...]
    """
    if values is None:
        return None
    entrants: list[str] = []
    for value in values:
        found: list[str] = []
        for piece in (p.strip() for p in value.split(",")):
            if not piece:
                continue
            if found and ":" in found[-1] and ":" not in piece and "=" in piece:
                found[-1] += "," + piece
            else:
                found.append(piece)
        if not found:
            raise BadParameterError(f"--agents {value!r} names no agent; expected "
                                    "NAME[,NAME...]")
        entrants += found
    return entrants


def check_built(text: str, build: Callable[[], object], option: str = "--agents") -> None:
    """Build an agent once, now, so that a bad option of an entrant is refused before the
    games start, naming the entrant (the factories raise TypeError for unknown keywords).

    An agent that can check its program up front (``check_loads``: a Prolog strategy file
    that does not load or lacks its predicate) is checked too, instead of forfeiting every
    game it is given.
    """
    try:
        agent = build()
        check_loads = getattr(agent, "check_loads", None)
        if callable(check_loads):
            try:
                check_loads()
            finally:
                close = getattr(agent, "close", None)
                if callable(close):
                    close()
    except LifeArenaError:
        raise
    except (TypeError, ValueError, BotError) as error:
        raise BadParameterError(f"{option} {text!r}: {error}") from None


# the file endings of scripts that an interpreter named first on a bot's command line runs
SCRIPT_SUFFIXES = (".py", ".js", ".mjs", ".rb", ".pl", ".pro", ".lua", ".sh", ".jl", ".r",
                   ".jar", ".php", ".tcl")


def check_bot_command(label: str, argv: Sequence[str], option: str = "--bot") -> None:
    """Refuse, before any game, a bot whose program cannot be started: a program that is not
    on ``PATH`` or not an executable file, or a script given to an interpreter (the first
    argument that is not an option and ends in ``.py``, ``.js``...) that does not exist.
    A bot that cannot start would otherwise forfeit every game it is given.

    >>> check_bot_command("ok", ["sh", "-c", "true"])
    >>> check_bot_command("mine", ["/nonexistent/bot"])  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    lifearena.errors.BadParameterError: --bot mine: program '/nonexistent/bot' does not exist; ...
    """
    program = argv[0]
    if os.sep in program or (os.altsep and os.altsep in program):
        path = Path(program)
        if not path.exists():
            problem = "does not exist"
        elif path.is_dir():
            problem = "is a folder"
        elif not os.access(path, os.X_OK):
            problem = "is not executable (chmod +x, or name its interpreter first)"
        else:
            problem = ""
    else:
        problem = "" if shutil.which(program) else "is not a command on PATH"
    if problem:
        raise BadParameterError(f"{option} {label}: program {program!r} {problem}; expected "
                                "an executable file or a command on PATH")
    script = next((a for a in argv[1:] if not a.startswith("-")), None)
    if script is not None and Path(script).suffix.lower() in SCRIPT_SUFFIXES \
            and not Path(script).is_file():
        raise BadParameterError(f"{option} {label}: script {script!r} does not exist; expected "
                                f"a file that {Path(program).name} can run")

