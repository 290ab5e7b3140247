"""The web application of ``lifearena serve``: play every game in a browser, hot-seat,
online or against an agent.

:mod:`~lifearena.web.app` is the FastAPI server, :mod:`~lifearena.web.live` a game being
played, :mod:`~lifearena.web.store` the SQLite store, :mod:`~lifearena.web.catalog` what the
new-game form offers; the pages are static files under ``static/``.
"""

from lifearena.web.app import Settings, create_app

__all__ = ["Settings", "create_app"]
