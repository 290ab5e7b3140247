"""Lanes: a game's requests sent to the replica that owns it, as lichess splits its games
over lanes by id.

Every replica may answer any request (it forwards a change of a game it does not own to
the owner through Redis, :mod:`lifearena.web.rooms.cluster`), but forwarding is dear:
two replicas read the move, the broker carries the call, its answer and the views (without
lanes the benchmark's replicas spent 7.6 ms of CPU a move, with them 4.5; docs/deploy.md).
So a replica started with ``serve --lane K`` makes its games' ids begin with the letter of
lane ``K``
(:func:`new_game_id`), and the nginx block (:mod:`lifearena.web.nginx`) sends every request
naming such a game (its page, its socket, its API) to replica ``K`` first, the others
behind it as backups. The replica that made a game owns it until it dies, so nearly every
move is played where it arrives; after a failover the others forward to the new owner, as
without lanes. A lane is a preference, never a rule: ids without one (one process, a
replica without ``--lane``, games made before) are routed to any replica and still work.

>>> gid = new_game_id(2)
>>> len(gid), gid[0], lane_of(gid)
(12, 'C', 2)
>>> lane_of(new_game_id(None)) in (None, *range(MAX_LANES))
True
"""

from __future__ import annotations

import secrets

from lifearena.errors import BadParameterError

LANE_LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
"""The first letter of the ids of lane ``K``'s games is ``LANE_LETTERS[K]`` (a URL-safe
letter, as the rest of an id)."""
MAX_LANES = len(LANE_LETTERS)

GAME_PATHS = ("play", "game", "analysis", "ws", "api/games", "api/bot/game",
              "api/bot/game/stream")
"""The paths whose next segment is a game id: ``/play/{id}``, ``/ws/{id}``,
``/api/games/{id}/moves``, ``/api/bot/game/stream/{id}`` and the rest (the routes of
:mod:`lifearena.web.app`, :mod:`~lifearena.web.bot_api`, :mod:`~lifearena.web.analysis_routes`
and :mod:`~lifearena.web.learning_routes`; a test holds this list to them)."""
NOT_GAMES = ("/ws/lobby",)
"""Paths of that shape that name no game."""


def check_lane(lane: int) -> int:
    """``lane`` when it is a lane's number, else :class:`BadParameterError`.

    >>> check_lane(64)
    Traceback (most recent call last):
    ...
    lifearena.errors.BadParameterError: --lane 64; expected 0 to 63 (the replica's place ...
    """
    if not 0 <= lane < MAX_LANES:
        raise BadParameterError(f"--lane {lane}; expected 0 to {MAX_LANES - 1} (the "
                                f"replica's place in lifearena deploy nginx's -r list)")
    return lane


def new_game_id(lane: int | None) -> str:
    """A new game's id: 12 URL-safe letters, 72 random bits (66 with a lane, whose letter
    comes first)."""
    token = secrets.token_urlsafe(9)
    return token if lane is None else LANE_LETTERS[check_lane(lane)] + token[1:]


def lane_of(game_id: str) -> int | None:
    """The lane ``game_id``'s first letter names (``None`` for an empty id). Any id names
    one: an id made without a lane is routed to a lane by chance, which costs nothing but
    a forward.

    >>> lane_of("Bxyzxyzxyzxy"), lane_of("")
    (1, None)
    """
    return LANE_LETTERS.index(game_id[0]) if game_id and game_id[0] in LANE_LETTERS else None
