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
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from fastapi import APIRouter, FastAPI
from fastapi.responses import RedirectResponse

from lifearena.web.lab import p2life, palace, replays, sandbox, tournaments
from lifearena.web.lab.launcher import Launcher
from lifearena.web.lab.results import ResultsFiles


def install(app: FastAPI, results: Sequence[Path] = (), launcher: Launcher | None = None
            ) -> None:
    """Mount the lab on ``app``: its router over ``results`` and ``launcher``. Its errors
    are answered by the app's handler as every other error of the server (JSON
    ``{"error": ...}``; :func:`lifearena.web.app.status_of` gives 404 for an unknown results
    file, run or game and 429 for a tournament over the running bound)."""
    app.include_router(lab_router(results, launcher))


def lab_router(results: Sequence[Path] = (), launcher: Launcher | None = None) -> APIRouter:
    """One router holding every lab page and its API, over the server's results files
    (checked here: a missing or foreign file is a :class:`BadParameterError`) and the
    tournaments it starts (none can be started without a ``launcher``)."""
    files = ResultsFiles(results)
    router = APIRouter()
    router.include_router(sandbox.router)
    router.include_router(palace.router)
    router.include_router(p2life.router_for(files))
    router.include_router(tournaments.router_for(files, launcher))
    router.include_router(replays.router_for())

    @router.get("/lab", include_in_schema=False)
    async def lab_home() -> RedirectResponse:
        return RedirectResponse("/lab/sandbox")

    @router.get("/api/lab/results")
    async def all_results() -> dict[str, object]:
        return {"files": files.describe()}

    return router


__all__ = ["install", "lab_router"]
