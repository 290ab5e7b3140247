"""What the lab's pages share: where their static files are, how slow work is run, and (for
``app.py`` until it reads bodies through models) how a JSON body is read."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from fastapi import Request

from lifearena.errors import LifeArenaError, ParseError

T = TypeVar("T")

STATIC_LAB = Path(__file__).parents[1] / "static" / "lab"
MAX_LAB_BODY = 262_144
"""Largest JSON body of a lab request, in bytes (a 256 x 256 grid is 65,536 digits)."""


def client_of(request: Request) -> str:
    """The address a request's slow work is counted against."""
    return request.client.host if request.client else "?"


async def slow(request: Request, fn: Callable[..., T], *args: Any) -> T:
    """``fn(*args)`` run by the app's :class:`~lifearena.web.heavy.HeavyWork`
    (``app.state.heavy``): off the event loop, in a worker process, within the bound of
    this request's client (:class:`~lifearena.web.heavy.TooBusy` past it). ``fn`` is a
    module-level function of plain data (it is pickled to the worker)."""
    return await request.app.state.heavy.run(client_of(request), fn, *args)


class LabTooLarge(LifeArenaError):
    """A lab request over its size bound."""


async def read_json(request: Request, bound: int = MAX_LAB_BODY) -> dict[str, Any]:
    """The request's JSON object, refusing bodies over ``bound`` bytes and non-objects.

    The lab reads its bodies through declared models (:mod:`lifearena.web.lab.models`);
    this stays while ``web/app.py`` imports it.
    """
    body = await request.body()
    if len(body) > bound:
        raise LabTooLarge(f"request body of {len(body)} bytes; expected at most {bound}")
    try:
        data = json.loads(body or b"{}")
    except (json.JSONDecodeError, UnicodeDecodeError, RecursionError):
        raise ParseError("request body is not JSON") from None
    if not isinstance(data, dict):
        raise ParseError("request body must be a JSON object")
    return data
