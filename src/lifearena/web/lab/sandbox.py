"""The automaton sandbox: the page and the little API it needs from the engine.

The page steps the automaton itself (``static/lab/lifestep.js``, a port of the rule-table step
and of :mod:`lifearena.life.coin`, tested against the engine); the server gives it what only
the engine knows:

* ``GET /lab/sandbox``: the page.
* ``GET /api/lab/rules``: the named rules, each with its description and its (3, 9, 9) table
  flattened to 243 numbers (``table[(state * 9 + n1) * 9 + n2]``, 3 meaning a fair coin).
* ``GET /api/lab/rule?spec=...``: a typed rule (a name, ``B.../S...`` or the clause format of
  docs/rules.md, clauses separated by ``;`` or new lines) as the same JSON. Never a file.
* ``GET /api/lab/soup?height=&width=&density=&seed=``: the engine's random soup
  (:func:`lifearena.life.random_grid`, the p2life paper's start), so a seed means the same soup
  here as in ``lifearena life run``.
* ``POST /api/lab/rle/read`` ``{"text": ...}`` and ``POST /api/lab/rle/write``
  ``{"height", "width", "cells", "rule"}``: Golly RLE in and out through
  :func:`lifearena.life.read_rle` and :func:`lifearena.life.write_rle`.

Grids travel as a string of digits, row by row (``"0120..."``). Nothing larger than
:data:`MAX_SIDE` on a side is accepted.

>>> rule_json(Rule.named("life"))["table"][:9 * 9][3]
1
>>> grid_text(np.array([[0, 1], [2, 0]], dtype=np.int8))
'0120'
"""

from __future__ import annotations

import re
from typing import Any

import numpy as np
from fastapi import APIRouter, Request
from fastapi.responses import FileResponse, Response

from lifearena.errors import BadParameterError, ParseError
from lifearena.life import Rule, available_rules, random_grid, read_rle, write_rle
from lifearena.web.lab.common import STATIC_LAB, read_json

MAX_SIDE = 256
"""The largest sandbox grid side, in cells (the page stays fluid up to 256 x 256)."""
MAX_SEED = 2**63 - 1
_RLE_SIZE = re.compile(r"^\s*x\s*=\s*(\d+)\s*,\s*y\s*=\s*(\d+)", re.IGNORECASE | re.MULTILINE)
_DIGITS = re.compile(r"^[012]*$")


def check_side(label: str, value: int) -> None:
    """Refuse a grid side outside 1..:data:`MAX_SIDE`, naming the limit.

    >>> check_side("width", 300)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    lifearena.errors.BadParameterError: width 300 is over the sandbox's limit; expected 1 to 256...
    """
    if not 1 <= value <= MAX_SIDE:
        problem = "is over the sandbox's limit" if value > MAX_SIDE else "is too small"
        raise BadParameterError(f"{label} {value} {problem}; expected 1 to {MAX_SIDE} cells")


def rule_json(rule: Rule) -> dict[str, Any]:
    """A rule as the page uses it: name, description, coin flag and flat table."""
    return {"name": rule.name, "description": rule.description, "coin": rule.uses_coin,
            "table": [int(v) for v in rule.table.ravel()], "text": rule.to_table_text()}


def parse_rule(spec: str) -> Rule:
    """A rule typed on the page: a name, ``B.../S...``, or clauses (``;`` or new lines).

    Unlike :meth:`Rule.from_string` it never reads a file.

    >>> parse_rule("b36/s23").name
    'B36/S23'
    >>> parse_rule("0 if n1 == 3 -> 1; 1 if n1 in {2, 3} -> 1").next_state(0, 3, 0)
    1
    """
    text = spec.strip()
    if not text:
        raise BadParameterError("empty rule; expected a rule name, B.../S... or a rule table")
    if len(text) > 4_000:
        raise BadParameterError(f"rule text of {len(text)} characters; expected at most 4000")
    if "->" in text:
        return Rule.from_table_text(text.replace(";", "\n"))
    return Rule.named(text)


def grid_text(cells: np.ndarray) -> str:
    """A grid as the page sends it: its digits, row by row."""
    return "".join(map(str, cells.ravel().tolist()))


def grid_from_text(height: int, width: int, text: str) -> np.ndarray:
    """The inverse of :func:`grid_text`, checking the size and the digits.

    >>> grid_from_text(2, 2, "0120").tolist()
    [[0, 1], [2, 0]]
    """
    check_side("height", height)
    check_side("width", width)
    if len(text) != height * width or not _DIGITS.match(text):
        raise ParseError(f"cells: expected {height * width} digits 0, 1 or 2 "
                         f"(height x width), got {len(text)} characters")
    return np.frombuffer(text.encode("ascii"), dtype=np.uint8).astype(np.int8).reshape(
        height, width) - ord("0")


def read_pattern(text: str) -> dict[str, Any]:
    """Parse Golly RLE for the page, refusing oversize patterns before building them."""
    size = _RLE_SIZE.search(text)
    if size is None:
        raise ParseError("RLE: no header line 'x = W, y = H' found")
    check_side("RLE pattern width", int(size.group(1)))
    check_side("RLE pattern height", int(size.group(2)))
    pattern = read_rle(text)
    height, width = pattern.cells.shape
    return {"height": height, "width": width, "cells": grid_text(pattern.cells),
            "rule": pattern.rule, "comments": pattern.comments}


def _int(value: Any, label: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise BadParameterError(f"{label} {value!r} is not an integer")
    return value


router = APIRouter()


@router.get("/lab/sandbox", include_in_schema=False)
async def page() -> Response:
    return FileResponse(STATIC_LAB / "sandbox.html")


@router.get("/api/lab/rules")
async def rules() -> dict[str, Any]:
    return {"rules": [rule_json(Rule.named(name)) for name in available_rules()],
            "max_side": MAX_SIDE, "life_like_example": "B36/S23"}


@router.get("/api/lab/rule")
async def rule(spec: str) -> dict[str, Any]:
    return rule_json(parse_rule(spec))


@router.get("/api/lab/soup")
async def soup(height: int, width: int, density: float = 0.5, seed: int = 0) -> dict[str, Any]:
    check_side("height", height)
    check_side("width", width)
    if not 0 <= seed <= MAX_SEED:
        raise BadParameterError(f"seed {seed} is out of range; expected 0 to {MAX_SEED}")
    cells = random_grid(height, width, density=density, seed=seed)
    return {"height": height, "width": width, "cells": grid_text(cells)}


@router.post("/api/lab/rle/read")
async def rle_read(request: Request) -> dict[str, Any]:
    body = await read_json(request)
    text = body.get("text")
    if not isinstance(text, str):
        raise ParseError("expected {\"text\": \"<RLE>\"}")
    return read_pattern(text)


@router.post("/api/lab/rle/write")
async def rle_write(request: Request) -> dict[str, Any]:
    body = await read_json(request)
    cells = body.get("cells")
    if not isinstance(cells, str):
        raise ParseError("cells: expected a string of digits 0, 1 or 2")
    grid = grid_from_text(_int(body.get("height"), "height"), _int(body.get("width"), "width"),
                          cells)
    name = body.get("rule")
    rule_name = parse_rule(name).name if isinstance(name, str) and "->" not in name else None
    return {"text": write_rle(grid, rule=rule_name,
                              comments=["made in the lifearena sandbox"])}


__all__ = ["MAX_SIDE", "grid_from_text", "grid_text", "parse_rule", "read_pattern",
           "router", "rule_json"]
