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
* ``POST /api/lab/rle/read`` :class:`~lifearena.web.lab.models.RleText` and ``POST
  /api/lab/rle/write`` :class:`~lifearena.web.lab.models.RleGrid`: Golly RLE in and out
  through :func:`lifearena.life.read_rle` and :func:`lifearena.life.write_rle`, run in the
  app's slow-work pool (a 256 x 256 pattern takes a fifth of a second).

Grids travel as a string of digits, row by row (``"0120..."``). Nothing larger than
:data:`MAX_SIDE` on a side is accepted: the query's and bodies' numbers are declared with
their bounds (400 past them).

>>> rule_json(Rule.named("life"))["table"][:9 * 9][3]
1
>>> grid_text(np.array([[0, 1], [2, 0]], dtype=np.int8))
'0120'
"""

from __future__ import annotations

import re
from typing import Annotated, Any

import numpy as np
from fastapi import APIRouter, Query, Request
from fastapi.responses import FileResponse, Response

from lifearena.errors import BadParameterError, ParseError
from lifearena.life import Rule, available_rules, random_grid, read_rle, write_rle
from lifearena.web.lab import models
from lifearena.web.lab.common import STATIC_LAB, slow
from lifearena.web.lab.models import MAX_RULE, RleGrid, RleText

MAX_SIDE = models.MAX_SIDE
"""The largest sandbox grid side, in cells (the page stays fluid up to 256 x 256)."""
MAX_SEED = 2**63 - 1
Side = Annotated[int, Query(ge=1, le=MAX_SIDE)]
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
    if len(text) > MAX_RULE:
        raise BadParameterError(f"rule text of {len(text)} characters; expected at most "
                                f"{MAX_RULE}")
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


def write_pattern(height: int, width: int, cells: str, rule: str | None) -> dict[str, Any]:
    """The sandbox's grid as Golly RLE, naming ``rule`` when it is a name or ``B/S`` (a
    typed table has no RLE name).

    >>> print(write_pattern(1, 3, "110", "life")["text"].splitlines()[-1])
    2o!
    """
    grid = grid_from_text(height, width, cells)
    rule_name = parse_rule(rule).name if rule is not None and "->" not in rule else None
    return {"text": write_rle(grid, rule=rule_name, comments=["made in the lifearena sandbox"])}


router = APIRouter()


@router.get("/lab/sandbox", include_in_schema=False)
async def page() -> Response:
    return FileResponse(STATIC_LAB / "sandbox.html")


@router.get("/api/lab/rules")
async def rules() -> dict[str, Any]:
    return {"rules": [rule_json(Rule.named(name)) for name in available_rules()],
            "max_side": MAX_SIDE, "life_like_example": "B36/S23"}


@router.get("/api/lab/rule")
async def rule(spec: Annotated[str, Query(max_length=MAX_RULE)]) -> dict[str, Any]:
    return rule_json(parse_rule(spec))


@router.get("/api/lab/soup")
async def soup(height: Side, width: Side,
               density: Annotated[float, Query(ge=0, le=1)] = 0.5,
               seed: Annotated[int, Query(ge=0, le=MAX_SEED)] = 0) -> dict[str, Any]:
    # 256 x 256 cells take about a millisecond: answered here
    cells = random_grid(height, width, density=density, seed=seed)
    return {"height": height, "width": width, "cells": grid_text(cells)}


@router.post("/api/lab/rle/read")
async def rle_read(body: RleText, request: Request) -> dict[str, Any]:
    return await slow(request, read_pattern, body.text)


@router.post("/api/lab/rle/write")
async def rle_write(body: RleGrid, request: Request) -> dict[str, Any]:
    return await slow(request, write_pattern, body.height, body.width, body.cells, body.rule)


__all__ = ["MAX_SIDE", "grid_from_text", "grid_text", "parse_rule", "read_pattern",
           "router", "rule_json", "write_pattern"]
