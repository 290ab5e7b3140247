"""The browser lab of ``lifearena serve``: pages for researchers and spectators.

Each page family is an :class:`fastapi.APIRouter` of its own module, included by
:func:`lab_router`; their HTML, CSS and JavaScript live under ``static/lab/``.

* :mod:`~lifearena.web.lab.sandbox`: the automaton sandbox (``/lab/sandbox``).
* :mod:`~lifearena.web.lab.palace`: the palace explorer (``/lab/palace``).
* :mod:`~lifearena.web.lab.p2life`: the p2life study (``/lab/p2life``).
* :mod:`~lifearena.web.lab.tournaments`: tournaments of a results file (``/lab/tournaments``).
* :mod:`~lifearena.web.lab.replays`: replays of any record and the live games list.
* :mod:`~lifearena.web.lab.results`: the results files of ``lifearena serve --results``.
* :mod:`~lifearena.web.lab.launcher`: tournaments started from the page.
* :mod:`~lifearena.web.lab.models`: the declared bodies of the lab's POST requests.

Starting, stopping and resuming tournaments is the operator's: those requests carry the
header ``X-Admin-Token``, the secret of the private link the server prints when started with
``lifearena serve --lab-admin`` (:func:`admin_link`); without it the tournament pages are
read only. Slow work (reports, replays, tiles, mean fields) runs through the app's
:class:`~lifearena.web.heavy.HeavyWork` (``app.state.heavy``), off the event loop and bounded
per client.

>>> admin_link("http://127.0.0.1:8000/", "s3cret")
'http://127.0.0.1:8000/lab/tournaments#admin=s3cret'
>>> len(new_admin_token())
32
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from pathlib import Path

from fastapi import APIRouter, FastAPI
from fastapi.responses import RedirectResponse

from lifearena.web.lab import p2life, palace, replays, sandbox, tournaments
from lifearena.web.lab.admin import ADMIN_HEADER, NEEDS_ADMIN
from lifearena.web.lab.launcher import Launcher
from lifearena.web.lab.results import ResultsFiles


def new_admin_token() -> str:
    """A fresh operator secret for ``serve --lab-admin`` (32 URL-safe characters)."""
    return secrets.token_urlsafe(24)


def admin_link(base_url: str, token: str) -> str:
    """The operator's private link to the tournaments page: the secret rides in the
    fragment, which the browser never sends; the page moves it to the tab's session
    storage and out of the address bar."""
    return f"{base_url.rstrip('/')}/lab/tournaments#admin={token}"


def install(app: FastAPI, results: Sequence[Path] = (), launcher: Launcher | None = None,
            admin_token: str | None = None) -> None:
    """Mount the lab on ``app``: its router over ``results``, ``launcher`` and the
    operator's ``admin_token``. Its errors are answered by the app's handlers as every
    other error of the server (JSON ``{"error": ...}``; :func:`lifearena.web.app.status_of`
    gives 404 for an unknown results file, run or game, 429 for a tournament over a bound
    of the launcher or a client over its slow work; a missing or wrong admin token is 403).
    The slow routes run their work through ``app.state.heavy``, which the app sets."""
    app.include_router(lab_router(results, launcher, admin_token))


def lab_router(results: Sequence[Path] = (), launcher: Launcher | None = None,
               admin_token: str | None = None) -> APIRouter:
    """One router holding every lab page and its API, over the server's results files
    (checked here: a missing or foreign file is a :class:`BadParameterError`) and the
    tournaments it starts (none without a ``launcher``, and only for requests carrying
    ``admin_token``; with none, the pages are read only)."""
    files = ResultsFiles(results)
    router = APIRouter()
    router.include_router(sandbox.router)
    router.include_router(palace.router)
    router.include_router(p2life.router_for(files))
    router.include_router(tournaments.router_for(files, launcher, admin_token))
    router.include_router(replays.router_for())

    @router.get("/lab", include_in_schema=False)
    async def lab_home() -> RedirectResponse:
        return RedirectResponse("/lab/sandbox")

    @router.get("/api/lab/results")
    async def all_results() -> dict[str, object]:
        return {"files": files.describe()}

    return router


__all__ = ["ADMIN_HEADER", "NEEDS_ADMIN", "admin_link", "install", "lab_router",
           "new_admin_token"]
