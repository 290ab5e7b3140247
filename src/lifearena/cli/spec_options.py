"""Command-line options made from a game's parameter specs, so that an option's range and
help are the game's own (the web form and the research adapters read the same specs).

>>> from lifearena.games.losat import LosatGame
>>> option = spec_option(LosatGame.spec("width"))
>>> option.min, option.max
(5, 25)
"""

from __future__ import annotations

from typing import Any

import typer

from lifearena.params import ParamSpec


def spec_option(spec: ParamSpec, *names: str, help: str | None = None) -> Any:
    """A ``typer.Option`` for ``spec``: its range (numbers), and ``help`` or the spec's own
    help (or label)."""
    text = help or spec.help or spec.label or spec.name
    if spec.kind in ("int", "float"):
        assert spec.low is not None and spec.high is not None
        low: float = 0 if spec.optional else spec.low
        if spec.kind == "int":
            return typer.Option(*names, help=text, min=int(low), max=int(spec.high))
        return typer.Option(*names, help=text, min=float(low), max=float(spec.high))
    if spec.kind == "choice" and all(isinstance(c, int) for c in spec.choices):
        # a choice among numbers (Losat's 8 or 4): the option takes the numbers' range and
        # the game's own check names the choices
        return typer.Option(*names, help=text, min=min(spec.choices), max=max(spec.choices))
    return typer.Option(*names, help=text)
