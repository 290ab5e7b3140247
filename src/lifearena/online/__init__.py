"""Playing on a lifearena server from elsewhere: the client of the server's bot API
(``lifearena bot connect``), which plays any agent the arena knows in online games.

* :mod:`lifearena.online.api`: the HTTP calls and NDJSON streams (httpx);
* :mod:`lifearena.online.rules`: which challenges to accept, and time controls as text;
* :mod:`lifearena.online.player`: an online game's position rebuilt from its moves, and the
  agent's move within the clock;
* :mod:`lifearena.online.runner`: the event loop of a connected bot: games in threads,
  reconnection with backoff, challenges and seeks.

This package sits beside ``studies`` in the layers (it uses the agents and the arena, and
the command line uses it); it never imports the server.
"""
