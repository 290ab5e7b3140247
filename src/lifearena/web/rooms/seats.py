"""Who plays each seat of the rooms' games, and what their games do to their ratings.

Every way of making a game names the players it seats (:meth:`Seats.seat_players`); the
seats are stored (:class:`~lifearena.web.players.PlayerStore`) and each
:class:`~lifearena.web.live.LiveGame` carries its holders (a player's session or token then
acts as its seat's private link) and ``people``, the names and ratings its pages show. When
a game ends, :meth:`Seats.close_seats` closes its seats and rates it if it is rated
(:mod:`lifearena.web.rated`), once. Whoever follows the players' games (the bot API's event
streams, :mod:`lifearena.web.bot_events`) is a :class:`GameListener` of the rooms, told of
every game that seats players and of every change of a game.
"""

from __future__ import annotations

import logging
from typing import Any, Protocol

from lifearena.errors import BadParameterError
from lifearena.web.live import LiveGame
from lifearena.web.players import COMPUTER, Player, PlayerStore
from lifearena.web.rated import Ratings
from lifearena.web.refusals import SeatError

log = logging.getLogger("lifearena.web")


def seat_refusal(rated: bool, player: Player | None) -> None:
    """Refuse a seat of a rated game to a player without an account (403)."""
    if rated and (player is None or not player.has_account):
        raise SeatError("this game is rated: sign up or log in to take its seat")


class GameListener(Protocol):
    """Told of the rooms' games, from the event loop; must never await or raise."""

    def seated(self, live: LiveGame) -> None:
        """Players were seated in ``live`` (a new game, or a claimed invitation)."""

    def changed(self, live: LiveGame, finished: bool) -> None:
        """``live`` changed (every broadcast); ``finished``: it has just ended."""


class Seats:
    """Players on the seats of the rooms' games: ``players`` their store (``None``: games
    seat nobody), ``ratings`` the ratings of rated games over it, ``listeners`` told of
    every game that seats players and every change of a game."""

    def __init__(self, players: PlayerStore | None, ratings: Ratings | None,
                 listeners: list[GameListener]) -> None:
        self.players = players
        self.ratings = ratings
        self.listeners = listeners

    def seat_players(self, live: LiveGame, holders: dict[int, str]) -> None:
        """Store that ``holders`` (seat to player id) hold the seats of the new game
        ``live``, and show them on its pages (:meth:`record`, then :meth:`announce`)."""
        self.record(live, holders)
        self.announce(live, holders)

    def record(self, live: LiveGame, holders: dict[int, str]) -> None:
        """The store's part of :meth:`seat_players`: the seats written, ``live``'s holders
        and the names its pages show read back. It touches no other game and no listener,
        so a replica runs it in a worker thread, under the game's lock."""
        if self.players is None or not holders:
            return
        self.players.seat_all(live.row.id, holders, live.row.game, live.rated)
        live.holders = dict(holders)
        self.describe(live)

    def announce(self, live: LiveGame, holders: dict[int, str]) -> None:
        """Tell the listeners (the bot API's streams) of the seats :meth:`record` wrote; on
        the event loop."""
        if self.players is None or not holders:
            return
        for listener in self.listeners:
            try:
                listener.seated(live)
            except Exception:  # a listener's bug must not undo a game being made
                log.exception("a game listener failed on the seats of %s", live.row.id)

    def load_people(self, live: LiveGame) -> None:
        """Give a game rebuilt from the store its holders and their names."""
        if self.players is None:
            return
        live.holders = self.players.seated(live.row.id)
        self.describe(live)

    def describe(self, live: LiveGame) -> None:
        """Refresh the names and ratings ``live``'s pages show for its seats."""
        if self.players is None or not live.holders:
            return
        people: list[dict[str, Any] | None] = [None, None]
        for seat, (player, before, change) in self.players.people_of(live.row.id).items():
            if seat not in (0, 1):
                continue
            entry: dict[str, Any] = {"id": player.id, "name": player.shown,
                                     "kind": player.kind,
                                     "page": f"/@/{player.name}" if player.name else None}
            if player.has_account or player.kind == COMPUTER:
                entry["rating"] = self.players.rating(player.id, live.row.game).to_json()
            if change is not None and before is not None:
                entry["rating_change"] = round(float(change))
                entry["rating_before"] = round(float(before))
            people[seat] = entry
        live.people = people

    def close_seats(self, live: LiveGame, outcome: dict[str, Any] | None) -> None:
        """Close the seats of the ended game ``live`` (results, and ratings if it is rated),
        once; its pages then show the ratings' changes."""
        if self.ratings is None or not live.holders:
            return
        changes = self.ratings.finish(live.row.id, live.row.game, live.rated, outcome,
                                      len(live.row.moves))
        if changes is not None:  # the pages show each side's change
            self.describe(live)

    def holders_for(self, opponent: str, side: int, player: Player | None,
                    rated: bool, level: str | None = None, game: str | None = None
                    ) -> dict[int, str]:
        """The seats a new game gives its maker ``player`` (both seats of a game at one
        screen, else ``side``) and the computer's level (its own seat); a rated game is
        refused unless it can be rated."""
        if rated:
            if opponent == "hotseat":
                raise BadParameterError("a game at one screen cannot be rated; choose "
                                        "casual")
            if player is None or not player.has_account:
                raise SeatError("rated games need an account: sign up or log in, or play "
                                "casual")
        if player is None:
            return {}
        if opponent == "hotseat":
            return {0: player.id, 1: player.id}
        holders = {side: player.id}
        if opponent == "agent" and level is not None and game is not None \
                and self.ratings is not None:
            holders[1 - side] = self.ratings.computer(game, level)
        return holders
