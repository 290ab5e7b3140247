"""The web application of ``lifearena serve``: play every game in a browser, hot-seat,
online or against an agent.

:mod:`~lifearena.web.app` is the FastAPI server (routes that parse and call),
:mod:`~lifearena.web.rooms` the match runner under it (no FastAPI),
:mod:`~lifearena.web.live` a game being played, :mod:`~lifearena.web.store` the store,
:mod:`~lifearena.web.catalog` what the new-game form offers; the pages are static files
under ``static/``.
"""

from lifearena.web.app import create_app
from lifearena.web.settings import Settings

__all__ = ["Settings", "create_app"]
