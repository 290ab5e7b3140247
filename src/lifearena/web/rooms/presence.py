"""Who has each game open: the pages of every game and the seats each holds.

The view's ``connected`` says whether each seat's holder has a page open; when that
changes, the pages are told once, at most every :data:`PRESENCE_DELAY` seconds (a page
reconnecting in a loop does not make a storm of messages): :meth:`Presence.changed` waits,
then hands the game to the ``settled`` callback, which tells the pages if it must.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Mapping

from lifearena.web.rooms.transport import Page

PRESENCE_DELAY = 0.25
"""Seconds the pages' news of a seat's page opening or closing waits, so that several
changes make one message."""


class Presence:
    """The open pages of every game (game id to page to the seats it holds)."""

    def __init__(self, settled: Callable[[str], None]) -> None:
        self.pages: dict[str, dict[Page, list[int]]] = {}
        self.timers: dict[str, asyncio.TimerHandle] = {}
        self._settled = settled

    def open(self, game_id: str, page: Page, seats: list[int]) -> None:
        """``page`` of ``game_id`` opened, holding ``seats`` (none: a spectator)."""
        self.pages.setdefault(game_id, {})[page] = seats

    def close(self, game_id: str, page: Page) -> None:
        """``page`` of ``game_id`` closed."""
        pages = self.pages.get(game_id, {})
        pages.pop(page, None)
        if not pages:
            self.pages.pop(game_id, None)

    def audience(self, game_id: str) -> Mapping[Page, list[int]]:
        """The open pages of ``game_id`` and the seats each holds."""
        return self.pages.get(game_id, {})

    def watched(self, game_id: str) -> bool:
        """Whether any page has ``game_id`` open."""
        return bool(self.pages.get(game_id))

    def open_games(self) -> list[str]:
        """The games some page has open."""
        return [game_id for game_id, pages in self.pages.items() if pages]

    def spectators(self, game_id: str) -> int:
        """How many pages watch ``game_id`` without a seat (a player's own page is not
        someone watching)."""
        return sum(1 for seats in self.pages.get(game_id, {}).values() if not seats)

    def watchers(self, game_id: str) -> int:
        """How many pages watch ``game_id`` on the site (here: :meth:`spectators`)."""
        return self.spectators(game_id)

    def listed_games(self) -> set[str]:
        """The games some page of the site has open (here: :meth:`open_games`)."""
        return set(self.open_games())

    def present(self, game_id: str) -> list[bool]:
        """Whether each seat has a page of ``game_id`` open (one with that seat's token)."""
        held = [False, False]
        for seats in self.pages.get(game_id, {}).values():
            for seat in seats:
                held[seat] = True
        return held

    def changed(self, game_id: str) -> None:
        """A page of ``game_id`` opened or closed: once :data:`PRESENCE_DELAY` has passed,
        the ``settled`` callback looks whether who is here changed (one call for any number
        of changes)."""
        if game_id in self.timers:
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return
        self.timers[game_id] = loop.call_later(PRESENCE_DELAY, self._settle, game_id)

    def _settle(self, game_id: str) -> None:
        self.timers.pop(game_id, None)
        self._settled(game_id)
