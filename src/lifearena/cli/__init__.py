"""The ``lifearena`` command: one Typer app with a sub-command group per system.

Each group lives in its own module (``cli/life.py``, ``cli/war_of_life.py``, ...) and only
parses and presents; the rules live in the library. Every ``play`` command runs the one
terminal loop of ``cli/terminal_play.py`` (prompt, the game's notation, agents' turns,
simultaneous turns, save and replay) with its own seats and drawing. :func:`main` turns every
:class:`~lifearena.errors.LifeArenaError` (and unreadable files) into one line on stderr and
exit status 2, never a traceback. :func:`build_command` is the click command tree that
:func:`main` runs (help text escaped for rich, flags shown without a ``<bool>`` type), so
tests can walk every command and option.
"""

from __future__ import annotations

import functools
import importlib
import re
import sys
from collections.abc import Callable, Sequence
from importlib.metadata import version
from pathlib import Path
from typing import Annotated, Any, get_args, get_origin

import typer
from rich.markup import escape

from lifearena.cli.usage_errors import param_bounds, usage_line
from lifearena.errors import LifeArenaError

HELP = "Competitive cellular-automaton games: play, pit agents against each other, study."


def _print_version(value: bool) -> None:
    if value:
        typer.echo(f"lifearena {version('lifearena')}")
        raise typer.Exit()


def _root(
    show_version: Annotated[bool, typer.Option(
        "--version", callback=_print_version, is_eager=True,
        help="Print lifearena's version and exit.")] = False,
) -> None:
    """Competitive cellular-automaton games: play, pit agents against each other, study."""


def _group(module: str, name: str, game: str | None = None) -> Callable[[typer.Typer], None]:
    """A loader adding ``module``'s ``app`` as the group ``name`` (with the game's rules
    card, ``lifearena <game> rules``, when ``game`` is given)."""
    def load(root: typer.Typer) -> None:
        group = importlib.import_module(f"lifearena.cli.{module}").app
        if game is not None:
            from lifearena.cli.rules_card import add_rules_command

            add_rules_command(group, game)
        root.add_typer(group, name=name)
    return load


def _registered(module: str) -> Callable[[typer.Typer], None]:
    """A loader calling ``module``'s ``register(app)``."""
    def load(root: typer.Typer) -> None:
        importlib.import_module(f"lifearena.cli.{module}").register(root)
    return load


COMMANDS: dict[str, tuple[Callable[[typer.Typer], None], str]] = {
    "tournament": (_registered("tournament"),
                   "Round robin between a game's agents, stored and resumable."),
    "ladder": (_registered("ladder"),
               "Rate a game's agents: Elo ladder with confidence intervals."),
    "serve": (_registered("serve"),
              "Serve the games in a browser: hot-seat, online (your own link and an invitation "
              "for your opponent) or against an agent. Prints the URL and the database file."),
    "analyse": (_registered("analyse"),
                "Judge every move of a game record with its game's search (see "
                "docs/analysis.md)."),
    "life": (_group("life", "life"),
             "The two-colour Life engine: run, step and inspect patterns."),
    "war-of-life": (_group("war_of_life", "war-of-life", "war_of_life"),
                    "War of Life (8x8): play, replay, test strategies."),
    "life-for-two": (_group("life_for_two", "life-for-two", "life_for_two"),
                     "Life for Two (5x5, simultaneous hidden placement)."),
    "losat": (_group("losat", "losat", "losat"),
              "Losat, Life One Step at a Time (19x19 Go board)."),
    "p2life": (_group("p2life", "p2life", "p2life"),
               "p2life: the Levene-Roussos two-player Life, studied and played."),
    "queen": (_group("queen", "queen", "blocking_queen"),
              "The blocking queen game: palace numbers, pictures, play."),
    "bot": (_registered("bot"), "Play online as a bot account through a server's bot API."),
    "puzzles": (_registered("puzzles"), "Puzzles mined from games: generate, show, check."),
    "rl": (_group("rl", "rl"), "Reinforcement learning: versioned environments, frozen "
                               "evaluation sets, a policy's standard table."),
    "deploy": (_group("deploy", "deploy"), "Configuration for running the site: nginx in "
                                           "front of the replicas."),
}
"""Every command and group of ``lifearena`` in the order the help lists them: how to load
it and its one-line summary. A command's module is imported only when that command runs (or
every one of them, by :func:`build_command`), so that ``lifearena --help`` and a run of one
command never load the engine, the web server or the plots another needs; the summaries
are the commands' own (``tests/cli/test_cli_startup.py`` holds them to it)."""


def _list_element(annotation: Any) -> Any:
    """The element type of a repeatable option's ``list[X]`` (or ``list[X] | None``)."""
    for candidate in (annotation, *get_args(annotation)):
        if get_origin(candidate) is list and get_args(candidate):
            return get_args(candidate)[0]
    return None


def _tidy(command: Any) -> None:
    """Make ``command``'s help say what its authors wrote: brackets such as ``[r,c]`` are
    text, not rich markup (rich would swallow them), an on/off flag shows no type, a
    repeatable option shows its element's type (``<path>``, not ``<list[Path]>``), and the
    line in a group's command list is the first paragraph without its line breaks."""
    if command.help:
        command.help = escape(command.help)
        if command.short_help is None:
            command.short_help = " ".join(command.help.split("\n\n")[0].split())
    # the context class of the click that typer uses (recent typer versions vendor click)
    helper = command.get_help_option(command.context_class(command, info_name=command.name))
    for param in [*command.params, *([helper] if helper is not None else [])]:
        if getattr(param, "help", None):
            param.help = escape(param.help)
        if getattr(param, "is_flag", False):
            param.metavar = ""
        element = _list_element(getattr(getattr(param, "type_descriptor", None), "annotation",
                                        None))
        if element is not None and param.metavar is None:
            name = "path" if element is Path else getattr(element, "__name__", str(element))
            param.metavar = f"<{name.lower()}>"
    for sub in getattr(command, "commands", {}).values():
        _tidy(sub)


class Interrupted(Exception):
    """Ctrl-C inside a command, carried past typer (which would end the command with a silent
    status 130) so that :func:`main` says ``interrupted``."""


def _carry_interrupts(command: Any) -> None:
    """Wrap the callback of ``command`` and of every subcommand so that a KeyboardInterrupt
    leaves it as :class:`Interrupted` (a command with more to say, such as where its results
    are kept, catches the KeyboardInterrupt itself, prints its line and exits with 130)."""
    callback = command.callback
    if callback is not None:
        @functools.wraps(callback)
        def run(*args: Any, **kwargs: Any) -> Any:
            try:
                return callback(*args, **kwargs)
            except KeyboardInterrupt as error:
                raise Interrupted from error

        command.callback = run
    for sub in getattr(command, "commands", {}).values():
        _carry_interrupts(sub)


def _loaded(names: Sequence[str] | None) -> typer.Typer:
    """The root app with the commands ``names`` loaded (``None``: every one)."""
    root = typer.Typer(name="lifearena", help=HELP, no_args_is_help=True,
                       pretty_exceptions_enable=False, add_completion=False)
    root.callback()(_root)
    for name, (load, _) in COMMANDS.items():
        if names is None or name in names:
            load(root)
    return root


def _summaries() -> typer.Typer:
    """The root app with every command a stub that holds only its summary: what the root's
    help lists, at no cost."""
    root = _loaded([])
    for name, (_, summary) in COMMANDS.items():
        root.command(name, help=summary, add_help_option=False)(lambda: None)
    return root


@functools.cache
def _whole() -> typer.Typer:
    return _loaded(None)


def __getattr__(name: str) -> Any:
    """``app``: the Typer app with every command loaded (made on first use)."""
    if name == "app":
        return _whole()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def build_command(names: Sequence[str] | None = None) -> Any:
    """The click command tree of ``lifearena`` (what :func:`main` runs): every command, or
    only ``names`` (the others left out, never imported)."""
    command = typer.main.get_command(_loaded(names))
    _tidy(command)
    _carry_interrupts(command)
    return command


def _command_for(argv: Sequence[str]) -> Any:
    """The command tree :func:`main` needs for ``argv``: only the command named (the root's
    summaries when none is), every command when the name is unknown (so that the error
    suggests the near ones)."""
    name = next((token for token in argv if not token.startswith("-")), None)
    if name is None:
        command = typer.main.get_command(_summaries())
        _tidy(command)
        return command
    if name in COMMANDS:
        return build_command([name])
    return build_command()


def _interrupted(error: BaseException) -> bool:
    """True when ``error`` is, or was caused by, Ctrl-C (numba turns a KeyboardInterrupt
    inside a compiled kernel into a SystemError whose cause is the interrupt)."""
    seen: set[int] = set()
    current: BaseException | None = error
    while current is not None and id(current) not in seen:
        if isinstance(current, KeyboardInterrupt):
            return True
        seen.add(id(current))
        current = current.__cause__ or current.__context__
    return False


def _given(argv: Sequence[str], error: Exception) -> tuple[str, str] | None:
    """The option and the value the user typed for the parameter a usage error is about,
    so that the one line names the input (``--seed '-1'``), not only the option."""
    opts = getattr(getattr(error, "param", None), "opts", None) or []
    long = next((o for o in opts if o.startswith("--")), None)
    for index, token in enumerate(argv):
        for option in opts:
            if token == option and index + 1 < len(argv):
                # a short alias is named by the long name --help lists first
                return (long if long and not option.startswith("--") else option,
                        argv[index + 1])
            if option.startswith("--") and token.startswith(option + "="):
                return option, token.split("=", 1)[1]
    return None


def main(argv: Sequence[str] | None = None) -> None:
    """Run the command line; exit 2 with one line on stderr for bad input."""
    try:
        arguments = list(argv) if argv is not None else sys.argv[1:]
        result = _command_for(arguments).main(args=arguments, standalone_mode=False,
                                              prog_name="lifearena")
    except LifeArenaError as error:
        print(f"error: {error}", file=sys.stderr)
        sys.exit(2)
    except UnicodeDecodeError as error:
        # a binary file given where text was expected (a rule @FILE, a pattern, a record)
        print(f"error: cannot read a binary file as text ({error.reason} at byte "
              f"{error.start}); expected a text file", file=sys.stderr)
        sys.exit(2)
    except OSError as error:
        name = f" {error.filename!r}" if getattr(error, "filename", None) else ""
        print(f"error: cannot use file{name}: {error.strerror or error}", file=sys.stderr)
        sys.exit(2)
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        sys.exit(130)
    except Exception as error:
        if _interrupted(error):
            print("interrupted", file=sys.stderr)
            sys.exit(130)
        if type(error).__name__ == "NoArgsIsHelpError":
            # 'lifearena' (or a group) alone: the help has been printed; that is the answer
            sys.exit(0)
        # Usage errors and aborts come from the click that typer uses, which recent typer
        # versions vendor; recognise them by behaviour rather than by class.
        if callable(getattr(error, "format_message", None)) and isinstance(
            getattr(error, "exit_code", None), int
        ):
            context = getattr(error, "ctx", None)
            hint = f" (see '{context.command_path} --help')" if context is not None else ""
            message = " ".join(error.format_message().split())
            given = _given(argv if argv is not None else sys.argv[1:], error)
            invalid = re.match(r"^Invalid value for '[^:]*': (.*)$", message)
            if given is not None and invalid is not None:
                option, value = given
                message = usage_line(option, value, invalid.group(1),
                                     *param_bounds(getattr(error, "param", None)))
            print(f"error: {message}{hint}", file=sys.stderr)
            sys.exit(error.exit_code)
        if type(error).__name__ == "Abort":
            print("aborted", file=sys.stderr)
            sys.exit(130)
        raise
    sys.exit(result if isinstance(result, int) else 0)
