"""What the lab's pages share: where their static files are, the bound of their bodies, and
how their slow work is run."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from fastapi import Request

T = TypeVar("T")

STATIC_LAB = Path(__file__).parents[1] / "static" / "lab"
MAX_LAB_BODY = 262_144
"""Largest JSON body of a lab request, in bytes (a 256 x 256 grid is 65,536 digits)."""


def client_of(request: Request) -> str:
    """The address a request's slow work is counted against."""
    return request.client.host if request.client else "?"


async def slow(request: Request, fn: Callable[..., T], *args: Any,
               ready: Callable[[], None] | None = None) -> T:
    """``fn(*args)`` run by the app's :class:`~lifearena.web.heavy.HeavyWork`
    (``app.state.heavy``): off the event loop, in a worker process, within the bound of
    this request's client (:class:`~lifearena.web.heavy.TooBusy` past it). ``fn`` is a
    module-level function of plain data (it is pickled to the worker). ``ready``: checked
    once a worker is free for it (:meth:`HeavyWork.run`)."""
    result: T = await request.app.state.heavy.run(client_of(request), fn, *args, ready=ready)
    return result
