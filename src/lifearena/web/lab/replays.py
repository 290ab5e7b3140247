"""Replays and the live games list.

* ``GET /lab/replay``: the replay page. It opens a record from an uploaded file or pasted
  text, from a game of this server (``#game=ID``, its record as saved from play) or from a
  game stored in a results file (``#file=&run=&pairing=&index=&seat=``), and links to a move
  (``&move=N``).
* ``POST /api/lab/replay`` :class:`~lifearena.web.lab.models.ReplayBody` (``{"record":
  "<JSON or text record>"}`` or the record's fields): every position of the record, as the
  game page draws it (:meth:`State.display` for a spectator), after 0, 1, ... moves, with
  the moves in the game's notation and the outcome. Positions come from
  :func:`lifearena.core.replay_positions`, computed and encoded by :func:`replay_answer` in
  the app's slow-work pool; at most :data:`MAX_MOVES` moves. The answer (17 MiB for 1,000
  moves of p2life on 64x64) is streamed, and its bytes count against the client's address
  until it is read (:mod:`lifearena.web.answers`: past 32 MiB unread, 429). A text that is
  binary (a picture given as a record, an archive, a database) is refused with one line
  naming what it seems to be, never quoted, and a bad line is quoted cut short, as
  everywhere a record is read (:meth:`lifearena.core.Record.load`).
* ``GET /lab/live``, ``GET /api/lab/live``: the games in progress on this server, each with
  its spectator link (simultaneous choices stay hidden until revealed, as for any spectator),
  and the last :data:`RECENT` finished ones with their replays: the store's lists, as
  ``GET /api/games`` gives them (:meth:`lifearena.web.rooms.Rooms.recent`), so a restarted
  server lists them all the same.
"""

from __future__ import annotations

import json
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import FileResponse, Response

from lifearena.core import Record, presentation_of
from lifearena.core import replay_positions as core_positions
from lifearena.errors import BadParameterError, ParseError
from lifearena.web import catalog
from lifearena.web.answers import GONE, AnswerBudget, unless_gone
from lifearena.web.lab.common import STATIC_LAB, client_of, slow
from lifearena.web.lab.models import MAX_RECORD_MOVES, ReplayBody
from lifearena.web.limits import address_key

MAX_MOVES = MAX_RECORD_MOVES
"""The longest record the replay page opens, in moves."""
RECENT = 20
"""Finished games of this server the live page lists, with their replays."""


def positions(record: Record) -> dict[str, Any]:
    """Every position of ``record`` for the replay page.

    >>> data = positions(Record("blocking_queen", {"k": 2}, "9,14", ["", ""], ["5,10", "3,8"]))
    >>> len(data["positions"]), data["moves"]
    (3, ['5,10', '3,8'])
    """
    if record.game not in catalog.GAMES:
        raise BadParameterError(f"record of game {record.game!r}; expected one of "
                                f"{', '.join(catalog.GAMES)}")
    if not isinstance(record.params, dict) or not isinstance(record.moves, list):
        raise ParseError("record params must be an object and moves a list")
    if len(record.moves) > MAX_MOVES:
        raise BadParameterError(f"record of {len(record.moves)} moves; the replay page opens "
                                f"at most {MAX_MOVES}")
    moves = [str(m) for m in record.moves]
    shown = []
    state = None
    for state in core_positions(Record(record.game, dict(record.params), record.setup,
                                       list(record.players), moves, record.result,
                                       record.extra, record.outcome, record.version)):
        shown.append(presentation_of(state).display(state, None))
    assert state is not None
    final = state.outcome()
    return {"game": record.game, "title": catalog.CATALOG[record.game].title,
            "players": [str(p) for p in record.players], "moves": moves,
            "positions": shown, "outcome": None if final is None else str(final),
            "result": catalog.outcome_json(final)}


def replay_positions(record: str | dict[str, Any]) -> dict[str, Any]:
    """:func:`positions` of a record given as its text (JSON or PGN-like) or its fields, as
    a request declares it: slow work, run in a worker.

    >>> replay_positions({"game": "blocking_queen", "params": {"k": 2}, "setup": "9,14",
    ...                   "players": ["", ""], "moves": ["5,10"]})["moves"]
    ['5,10']
    """
    if isinstance(record, str):
        return positions(Record.load(record))
    return positions(Record(**record).checked())


def replay_answer(record: str | dict[str, Any]) -> bytes:
    """:func:`replay_positions` encoded as the JSON the page reads: slow work, run in a
    worker, which hands back bytes (megabytes for a long game on a big board), so the event
    loop neither builds nor encodes them.

    >>> json.loads(replay_answer({"game": "blocking_queen", "params": {"k": 2}, "setup":
    ...                           "9,14", "players": ["", ""], "moves": ["5,10"]}))["moves"]
    ['5,10']
    """
    return json.dumps(replay_positions(record), separators=(",", ":"),
                      ensure_ascii=False).encode()


def router_for() -> APIRouter:
    """The replay and live-games routes."""
    router = APIRouter()

    @router.get("/lab/replay", include_in_schema=False)
    async def page() -> Response:
        return FileResponse(STATIC_LAB / "replay.html")

    @router.get("/lab/live", include_in_schema=False)
    async def live_page() -> Response:
        return FileResponse(STATIC_LAB / "live.html")

    @router.post("/api/lab/replay")
    async def open_record(body: ReplayBody, request: Request) -> Response:
        record = body.record if isinstance(body.record, str) else body.record.model_dump()
        answers: AnswerBudget = request.app.state.answers
        address = address_key(client_of(request))
        answers.check(address)  # refused at once while this address's answers are unread
        # replaying a long record takes a while: in a worker, within this client's bound,
        # which encodes the answer too; then streamed, its bytes held against the address
        data = await unless_gone(request.receive, slow(
            request, replay_answer, record, ready=lambda: answers.check(address)))
        if data is None:  # the client left before its answer was built
            return Response(status_code=GONE)
        return answers.answer(address, data)

    @router.get("/api/lab/live")
    async def live(request: Request) -> dict[str, Any]:
        # the same lists as the home page's (GET /api/games), from the store
        recent: dict[str, Any] = request.app.state.server.recent(RECENT)
        return recent

    return router
