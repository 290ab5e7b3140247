"""The browser lab of ``lifearena serve``: pages for researchers and spectators.

Each page family is an :class:`fastapi.APIRouter` of its own module, included by
:func:`lab_router`; their HTML, CSS and JavaScript live under ``static/lab/``.

* :mod:`~lifearena.web.lab.sandbox`: the automaton sandbox (``/lab/sandbox``).
* :mod:`~lifearena.web.lab.palace`: the palace explorer (``/lab/palace``).
"""

from __future__ import annotations

from fastapi import APIRouter

from lifearena.web.lab import palace, sandbox


def lab_router() -> APIRouter:
    """One router holding every lab page and its API."""
    router = APIRouter()
    router.include_router(sandbox.router)
    router.include_router(palace.router)
    return router


__all__ = ["lab_router"]
