"""Checks of option values shared by the command groups, raising the library's errors.

numpy's generators refuse negative seeds with a bare ``ValueError`` deep inside an agent or a
soup, so the commands check seeds up front and name the option that was wrong. Output paths
are checked the same way before any work (a missing folder or a wrong file type found after
an hour of runs loses the hour).

>>> check_seed(7)
7
>>> check_seed(-1, "--agent-seed")
Traceback (most recent call last):
...
lifearena.errors.BadParameterError: --agent-seed -1 is negative; expected a non-negative integer
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

from pathlib import Path

from lifearena.errors import BadParameterError


def check_seed(value: int, option: str = "--seed") -> int:
    """``value`` if it can seed ``numpy.random.default_rng``; else a BadParameterError."""
    if value < 0:
        raise BadParameterError(f"{option} {value} is negative; expected a non-negative integer")
    return value


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
