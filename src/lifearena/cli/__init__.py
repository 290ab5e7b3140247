"""The ``lifearena`` command: one Typer app with a sub-command group per system.

Each group lives in its own module (``cli/life.py``, ``cli/war_of_life.py``, ...) and only
parses and presents; the rules live in the library. :func:`main` turns every
:class:`~lifearena.errors.LifeArenaError` (and unreadable files) into one line on stderr and
exit status 2, never a traceback.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

import typer

from lifearena.cli import ladder, life, life_for_two, losat, p2life, queen, serve, war_of_life
from lifearena.cli import tournament as tournament_cli
from lifearena.errors import LifeArenaError

app = typer.Typer(
    name="lifearena",
    help="Competitive cellular-automaton games: play, pit agents against each other, study.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    add_completion=False,
)
app.add_typer(life.app, name="life")
app.add_typer(war_of_life.app, name="war-of-life")
app.add_typer(life_for_two.app, name="life-for-two")
app.add_typer(losat.app, name="losat")
app.add_typer(p2life.app, name="p2life")
app.add_typer(queen.app, name="queen")
tournament_cli.register(app)
ladder.register(app)
serve.register(app)


def main(argv: Sequence[str] | None = None) -> None:
    """Run the command line; exit 2 with one line on stderr for bad input."""
    try:
        result = app(args=list(argv) if argv is not None else None,
                     standalone_mode=False, prog_name="lifearena")
    except LifeArenaError as error:
        print(f"error: {error}", file=sys.stderr)
        sys.exit(2)
    except OSError as error:
        name = f" {error.filename!r}" if getattr(error, "filename", None) else ""
        print(f"error: cannot use file{name}: {error.strerror or error}", file=sys.stderr)
        sys.exit(2)
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        sys.exit(130)
    except Exception as error:
        # Usage errors and aborts come from the click that typer uses, which recent typer
        # versions vendor; recognise them by behaviour rather than by class.
        if callable(getattr(error, "format_message", None)) and isinstance(
            getattr(error, "exit_code", None), int
        ):
            context = getattr(error, "ctx", None)
            hint = f" (see '{context.command_path} --help')" if context is not None else ""
            print(f"error: {error.format_message()}{hint}", file=sys.stderr)
            sys.exit(error.exit_code)
        if type(error).__name__ == "Abort":
            print("aborted", file=sys.stderr)
            sys.exit(130)
        raise
    sys.exit(result if isinstance(result, int) else 0)
