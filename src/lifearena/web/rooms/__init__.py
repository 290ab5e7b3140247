"""The rooms: the match runner of ``lifearena serve``, apart from HTTP and sockets.

As boardgame.io's ``master`` takes a game, a storage and a transport, :class:`Rooms` takes
the server's :class:`~lifearena.web.settings.Settings`, its
:class:`~lifearena.web.store.Store` and a :class:`Transport` to the pages, and plays every
game: making and seating them, moves, clocks and flags, offers and endings, the agents'
searches, who has a game open, and letting go of games nobody needs. Nothing here (nor
anything it imports) imports FastAPI or Starlette (``tests/test_import_layers.py`` checks);
the routes (:mod:`lifearena.web.app`) only parse and call it.

* :mod:`~lifearena.web.rooms.runner`: :class:`Rooms`, making games, moves, offers and
  endings, abandoned games, the pages' news;
* :mod:`~lifearena.web.rooms.agents`: the computer's turns (its searches and moves);
* :mod:`~lifearena.web.rooms.cache`: the games in memory, their locks and eviction;
* :mod:`~lifearena.web.rooms.clocks`: flag timers, clocks paused and resumed;
* :mod:`~lifearena.web.rooms.presence`: the open pages of every game, who is here;
* :mod:`~lifearena.web.rooms.seats`: the players on the seats and their ratings;
* :mod:`~lifearena.web.rooms.transport`: what a page and a transport are to the rooms.
"""

from lifearena.web.rooms.cache import NotFound, valid_id
from lifearena.web.rooms.runner import ABORT_AFTER, LISTED, LIVE_WITHIN, Rooms
from lifearena.web.rooms.seats import GameListener, seat_refusal
from lifearena.web.rooms.transport import Page, Transport

__all__ = ["ABORT_AFTER", "LISTED", "LIVE_WITHIN", "GameListener", "NotFound", "Page", "Rooms",
           "Transport", "seat_refusal", "valid_id"]
