"""The rooms (:mod:`lifearena.web.rooms`) played without HTTP or sockets: a store, a
transport that records what it tells, and pages that are plain objects."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lifearena.web import catalog
from lifearena.web.live import LiveGame
from lifearena.web.models import Move, NewGame
from lifearena.web.rooms import Rooms
from lifearena.web.settings import Settings
from lifearena.web.store import GameRow, Store


class Page:
    """A page as the rooms see it: it takes what it is offered."""

    def __init__(self) -> None:
        self.got: list[dict[str, Any]] = []
        self.closed = False

    def offer(self, message: dict[str, Any] | str) -> bool:
        self.got.append(json.loads(message) if isinstance(message, str) else message)
        return True


class Recorder:
    """A transport that offers each page its message and counts the messages made."""

    def __init__(self) -> None:
        self.made = 0

    def tell(self, pages: Mapping[Any, Sequence[int]],
             message_of: Callable[[list[int]], dict[str, Any] | str]) -> int:
        texts: dict[tuple[int, ...], dict[str, Any] | str] = {}
        for page, seats in pages.items():
            if tuple(seats) not in texts:
                self.made += 1
                texts[tuple(seats)] = message_of(list(seats))
            page.offer(texts[tuple(seats)])
        return len(pages)


def test_a_game_is_made_played_and_resigned_through_the_rooms_alone(tmp_path: Path) -> None:
    store = Store(tmp_path / "games.sqlite")
    transport = Recorder()
    rooms = Rooms(Settings(tmp_path / "games.sqlite", agent_workers="thread"), store,
                  transport)

    async def scenario() -> None:
        made = rooms.create(NewGame(game="blocking_queen", opponent="hotseat"), "203.0.113.7")
        live = await rooms.game(made["id"])
        player, spectator = Page(), Page()
        rooms.open_page(live, player, [0, 1])
        rooms.open_page(live, spectator, [])
        text = live.view([0, 1])["legal"]["0"]["moves"][0]["move"]
        await rooms.move(made["id"], made["token"], None, Move(move=text, ply=0),
                         "203.0.113.7")
        assert player.got[-1]["ply"] == spectator.got[-1]["ply"] == 1
        assert "legal" not in spectator.got[-1] or not spectator.got[-1]["legal"]
        await rooms.act(made["id"], "resign", made["token"], None, None, "203.0.113.7")
        assert player.got[-1]["outcome"] is not None and transport.made == 4
        rooms.close_page(made["id"], spectator)
        assert rooms.presence.spectators(made["id"]) == 0

    try:
        asyncio.run(scenario())
        row = store.get(rooms.recent()["finished"][0]["id"])
        assert row is not None and len(row.moves) == 1
    finally:
        store.close()


@pytest.mark.parametrize("game", catalog.GAMES)
@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, catalog.MAX_SEED), plies=st.integers(0, 3))
def test_a_game_started_from_its_state_plays_as_one_replayed_from_its_setup(
        game: str, seed: int, plies: int) -> None:
    """The fast start (:meth:`LiveGame.started`, the form's state itself) and the simple one
    (:meth:`LiveGame.from_row`, its setup parsed back) show the same game, and go on alike."""
    drawn = catalog.drawn_values(game, {}, draw=lambda n: seed % n)
    state = catalog.start_of(catalog.served_game(game, drawn))
    row = GameRow("started1", game, dict(state.params), state.setup(), {"kind": "hotseat"},
                  ["t", "t"])
    fast = LiveGame.started(row, state)
    simple = LiveGame.from_row(GameRow(**{**vars(row), "moves": [], "pending": {}}))
    for ply in range(plies + 1):
        shown = fast.view([0, 1])
        assert shown == simple.view([0, 1]), f"{game} differs at ply {ply}"
        legal = shown["legal"]
        if fast.over or not legal:
            return
        seat = int(min(legal))
        actions = fast.state.legal_actions(seat)
        text = fast.state.action_to_string(actions[(seed + ply) % len(actions)], seat)
        number = len(fast.row.moves)  # a simultaneous choice leaves it as it is
        fast.play(text, seat, number)
        simple.play(text, seat, number)
