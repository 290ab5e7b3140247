"""What the lab's pages share: where their static files are and how a JSON body is read."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from fastapi import Request

from lifearena.errors import LifeArenaError, ParseError

STATIC_LAB = Path(__file__).parents[1] / "static" / "lab"
MAX_LAB_BODY = 262_144
"""Largest JSON body of a lab request, in bytes (a 256 x 256 grid is 65,536 digits)."""


class LabTooLarge(LifeArenaError):
    """A lab request over its size bound."""


async def read_json(request: Request, bound: int = MAX_LAB_BODY) -> dict[str, Any]:
    """The request's JSON object, refusing bodies over ``bound`` bytes and non-objects."""
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
