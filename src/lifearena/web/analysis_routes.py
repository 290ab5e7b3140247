"""The analysis board's routes: a finished game's analysis, any record's, and one position's
(for variations), run in the slow-work workers and cached for everyone who asks.

* ``GET /analysis`` and ``GET /analysis/{id}``: the analysis board's page
  (``static/analysis.html``), for a pasted or uploaded record, or for a game of the server.
* ``GET /api/games/{id}/analysis``: the analysis of a finished game
  (:meth:`lifearena.analysis.Analysis.to_dict`, and the ``record`` it analysed, as JSON);
  409 while the game goes on.
* ``POST /api/analysis`` ``{"record": "..."}``: the analysis of any record (JSON or text,
  at most :data:`~lifearena.web.models.MAX_RECORD` characters, as ``POST /api/records``).
* ``POST /api/analysis/position`` ``{"record": "..."}``: the record's last position as a
  board draws it, each acting side's interaction and choices, and the search's verdict there
  (:func:`lifearena.analysis.analyse_position`): a variation's every move asks for one. It
  stores nothing and never touches a game.

Every analysis runs through :meth:`HeavyWork.run <lifearena.web.heavy.HeavyWork.run>` under
the asking address's bound. Answers are kept in an in-memory LRU (:class:`SharedResults`),
keyed by game id (a finished game never changes) or by the hash of the record's canonical
JSON, and everyone asking for a key being computed awaits the same computation.
"""

from __future__ import annotations

import asyncio
import collections
import hashlib
import json
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

from fastapi import APIRouter, Request
from fastapi.responses import FileResponse, Response
from pydantic import Field
from starlette.exceptions import HTTPException

from lifearena.analysis import MAX_PLIES, analyse, analyse_position
from lifearena.core import Record
from lifearena.errors import BadParameterError
from lifearena.web import catalog
from lifearena.web.heavy import client_of
from lifearena.web.models import MAX_RECORD, Declared

if TYPE_CHECKING:
    from lifearena.web.rooms import Rooms

ANALYSES_KEPT = 64
"""Whole-game analyses kept in memory."""
POSITIONS_KEPT = 1024
"""Position verdicts kept in memory."""


class AnalysisRequest(Declared):
    """``POST /api/analysis`` and ``/api/analysis/position``: a record, JSON or text."""

    record: Annotated[str, Field(max_length=MAX_RECORD,
                                 description="a game record, JSON or PGN-like text")]


class SharedResults:
    """An LRU of finished results and the computations under way, by key: a key asked for
    while it is computed awaits that one computation; a failed one is not kept.

    >>> async def demo():
    ...     shared, calls = SharedResults(2), []
    ...     async def work():
    ...         calls.append(1); await asyncio.sleep(0); return {"x": 1}
    ...     results = await asyncio.gather(*(shared.get("k", work) for _ in range(3)))
    ...     return results, len(calls)
    >>> asyncio.run(demo())
    ([{'x': 1}, {'x': 1}, {'x': 1}], 1)
    """

    def __init__(self, size: int) -> None:
        self.size = size
        self._done: collections.OrderedDict[str, dict[str, Any]] = collections.OrderedDict()
        self._running: dict[str, asyncio.Future[dict[str, Any]]] = {}

    def __contains__(self, key: str) -> bool:
        return key in self._done

    async def get(self, key: str, compute: Callable[[], Awaitable[dict[str, Any]]]
                  ) -> dict[str, Any]:
        """The result of ``key``: kept, being computed, or computed now by ``compute``."""
        if key in self._done:
            self._done.move_to_end(key)
            return self._done[key]
        running = self._running.get(key)
        if running is None:
            running = asyncio.ensure_future(compute())
            self._running[key] = running
            running.add_done_callback(lambda done: self._finish(key, done))
        # shielded: one asker leaving does not end the computation the others await
        return await asyncio.shield(running)

    def _finish(self, key: str, done: asyncio.Future[dict[str, Any]]) -> None:
        self._running.pop(key, None)
        if done.cancelled() or done.exception() is not None:
            return
        self._done[key] = done.result()
        while len(self._done) > self.size:
            self._done.popitem(last=False)


def analysis_of(record: Record) -> dict[str, Any]:
    """Run in a worker: the analysis of ``record`` as JSON data, with the record itself
    (``record``: its JSON form), which a page replays positions of."""
    return {**analyse(record).to_dict(), "record": json.loads(record.to_json())}


def position_of(record: Record) -> dict[str, Any]:
    """Run in a worker: the last position of ``record`` and the search's verdict on it."""
    return analyse_position(record)


def checked_record(text: str) -> Record:
    """The record in ``text``, of a game the server plays and short enough to analyse;
    :class:`ParseError` or :class:`BadParameterError` (400) otherwise."""
    record = Record.load(text)
    if record.game not in catalog.GAMES:
        raise BadParameterError(f"record of game {record.game[:40]!r}; expected one of "
                                f"{', '.join(catalog.GAMES)}")
    if len(record.moves) > MAX_PLIES:
        raise BadParameterError(f"record of {len(record.moves)} moves; expected at most "
                                f"{MAX_PLIES} to analyse")
    return record


def record_key(record: Record) -> str:
    """The cache key of a record: the hash of its game, parameters, start and moves (the
    players' names and the result change no analysis)."""
    canonical = Record(record.game, record.params, record.setup, [], record.moves,
                       version=record.version).to_json()
    return hashlib.sha256(canonical.encode()).hexdigest()


def router_for(server: Rooms, static: Path) -> APIRouter:
    """The analysis routes of ``server``; the page
    is ``static / "analysis.html"``."""
    router = APIRouter()
    analyses = SharedResults(ANALYSES_KEPT)
    positions = SharedResults(POSITIONS_KEPT)

    @router.get("/analysis", include_in_schema=False)
    async def blank_board() -> Response:
        return FileResponse(static / "analysis.html")

    @router.get("/analysis/{game_id}", include_in_schema=False)
    async def game_board(game_id: str) -> Response:
        if not server.exists(game_id):
            raise HTTPException(404, f"no game {game_id[:40]!r}")
        return FileResponse(static / "analysis.html")

    @router.get("/api/games/{game_id}/analysis")
    async def game_analysis(game_id: str, request: Request) -> dict[str, Any]:
        client = client_of(request.client)
        key = f"game:{game_id}"
        if key in analyses:
            return await analyses.get(key, _never)
        live = await server.game(game_id, client)
        if live.outcome() is None:
            raise HTTPException(409, f"game {game_id} is not finished; expected a finished "
                                     "game (analyse a record with POST /api/analysis)")
        record = live.record()
        return await analyses.get(key, lambda: server.heavy.run(client, analysis_of, record))

    @router.post("/api/analysis")
    async def record_analysis(body: AnalysisRequest, request: Request) -> dict[str, Any]:
        record = checked_record(body.record)
        return await analyses.get(f"record:{record_key(record)}", lambda: server.heavy.run(
            client_of(request.client), analysis_of, record))

    @router.post("/api/analysis/position")
    async def position_analysis(body: AnalysisRequest, request: Request) -> dict[str, Any]:
        record = checked_record(body.record)
        return await positions.get(record_key(record), lambda: server.heavy.run(
            client_of(request.client), position_of, record))

    return router


async def _never() -> dict[str, Any]:  # pragma: no cover - only asked for a kept key
    raise AssertionError("a kept key is never computed")
