"""The optional parts of lifearena and the packages each needs.

The default install (``pip install lifearena``) is the engine, the games, the agents, the
arena and the command line. The rest are extras, installed by name:

========  ====================================  ==========================================
extra     what it adds                          packages
========  ====================================  ==========================================
web       ``lifearena serve`` and its lab,      fastapi, uvicorn, httpx
          ``lifearena bot connect``
cluster   tournaments on a Dask cluster         dask[distributed]
studies   plots: reports, palace pictures       matplotlib
interop   OpenSpiel, PettingZoo, Gymnasium      open_spiel, pettingzoo, gymnasium
all       every extra above
========  ====================================  ==========================================

Code that needs an extra calls :func:`require` first: without the extra it raises
:class:`MissingExtra`, a :class:`~lifearena.errors.BadParameterError` whose one line says
what to install, which the command line prints before exiting with status 2.

>>> require("studies", "this picture")  # matplotlib is installed here
>>> require("chess", "a chess board")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
ValueError: unknown extra 'chess'; expected one of web, cluster, studies, interop
"""

from __future__ import annotations

import importlib

from lifearena.errors import BadParameterError

EXTRAS: dict[str, tuple[str, ...]] = {
    "web": ("fastapi", "uvicorn", "httpx"),
    "cluster": ("distributed",),
    "studies": ("matplotlib",),
    "interop": ("pyspiel", "pettingzoo", "gymnasium"),
}
"""Each extra and the modules whose import proves it is installed."""


class MissingExtra(BadParameterError):
    """A part of lifearena was asked for whose optional packages are not installed."""


def require(extra: str, what: str) -> None:
    """Return if ``extra`` is installed; else raise :class:`MissingExtra` saying that
    ``what`` needs it and which ``pip install`` adds it."""
    if extra not in EXTRAS:
        raise ValueError(f"unknown extra {extra!r}; expected one of {', '.join(EXTRAS)}")
    for module in EXTRAS[extra]:
        try:
            importlib.import_module(module)
        except ImportError:
            raise MissingExtra(f"{what} needs lifearena's {extra} extra ({module} is not "
                               f"installed); install it with: pip install "
                               f"'lifearena[{extra}]'") from None


__all__ = ["EXTRAS", "MissingExtra", "require"]
