"""The ``lifearena`` command: one Typer app with a sub-command group per system.

Each group lives in its own module (``cli/life.py``, ``cli/war_of_life.py``, ...) and only
parses and presents; the rules live in the library. :func:`main` turns every
:class:`~lifearena.errors.LifeArenaError` (and unreadable files) into one line on stderr and
exit status 2, never a traceback.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

import click
import typer

from lifearena.cli import ladder, life, life_for_two, losat, p2life, queen, war_of_life
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


def main(argv: Sequence[str] | None = None) -> None:
    """Run the command line; exit 2 with one line on stderr for bad input."""
    try:
        result = app(args=list(argv) if argv is not None else None,
                     standalone_mode=False, prog_name="lifearena")
    except click.ClickException as error:
        error.show()
        sys.exit(error.exit_code)
    except click.exceptions.Abort:
        print("aborted", file=sys.stderr)
        sys.exit(130)
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
    sys.exit(result if isinstance(result, int) else 0)
