"""Tournament and ladder pages: the runs of an arena results file, read only.

* ``GET /lab/tournaments``: the page.
* ``GET /api/lab/tournaments``: the arena results files and, for each, its runs (name, kind,
  status, games stored and expected), and the launcher's bounds and what is used of them
  (``launcher: {limit, running, max_launches, disk_used, disk_budget}``, ``null`` on a
  server that starts none).
* ``GET /api/lab/tournaments/{file}/{run}``: a tournament run's report, computed by
  :func:`lifearena.arena.tournament.report` exactly as ``lifearena tournament`` prints it (the
  printed texts come along, formatted by the same rules), plus a crosstable of scores, Elo
  ratings with bootstrap intervals (:func:`lifearena.arena.ratings.bootstrap`) and the
  progress (games done / total). Polling it follows a running tournament.
  A ladder run (``lifearena ladder --db``) is rated as that command rates it
  (:func:`lifearena.arena.ladder.rate`, its default bootstrap) with the same texts; its total
  is the one it planned (``None`` in files written before ladders stored their plan).
* ``GET /api/lab/tournaments/{file}/{run}/games?pairing=A|B&offset=0&limit=100``: one page
  of the stored games of a pairing (key, players, winner, termination, length), each a link
  to its replay, with the pairing's ``total``; ``limit`` is at most :data:`MAX_GAMES_PAGE`.
* ``GET /api/lab/tournaments/{file}/{run}/record?pairing=&index=&seat=``: one game's record.

Tournaments started from the page (:mod:`lifearena.web.lab.launcher`) are results files
too, with ids ``lab-1``, ``lab-2``, ...:

* ``GET /api/lab/tournaments/form?game=G``: the games, the entrants offered for ``G``, the
  caps of the form's numbers, whether this server starts tournaments (``enabled``), whether
  the request's ``X-Admin-Token`` is the operator's (``admin``) and, when either is not,
  why (``reason``, one line).
* ``POST /api/lab/tournaments/start`` :class:`~lifearena.web.lab.models.LaunchBody`: 201 and
  the launch (its id is the file's); 400 for a bad field, 429 past a bound of the launcher.
* ``POST /api/lab/tournaments/{id}/stop`` and ``.../resume``: the launch afterwards.

Starting, stopping and resuming need the operator's token (:mod:`lifearena.web.lab.admin`):
403 without it. Reports, ratings, listings and pages of games are computed by module-level
functions of paths and names (:func:`report_of`, :func:`runs_listing`, :func:`games_of`,
:func:`record_of`) run through the app's slow-work pool, never on the event loop. The file
is opened with SQLite's ``mode=ro``: a tournament still writing to it goes on.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Query, Request
from fastapi import Path as PathParam
from fastapi.responses import FileResponse, JSONResponse, Response
from starlette.concurrency import run_in_threadpool

from lifearena import caps
from lifearena.arena.ladder import planned_total, rate
from lifearena.arena.ratings import Match, bootstrap, crosstable
from lifearena.arena.storage import APPLICATION_ID, GameKey, ResultsDB, Run
from lifearena.arena.tournament import TournamentConfig, TournamentReport, report
from lifearena.errors import BadParameterError
from lifearena.web import catalog
from lifearena.web.lab.admin import AdminHeader, admin_gate, refusal
from lifearena.web.lab.common import STATIC_LAB, slow
from lifearena.web.lab.launcher import Launcher, LaunchSpec, entrants_of
from lifearena.web.lab.models import MAX_NAME, LaunchBody
from lifearena.web.lab.results import ResultsFile, ResultsFiles, UnknownResults

RATING_SAMPLES = 200
GAMES_PAGE = 100
"""Games of a pairing sent at once unless the request asks for another ``limit``."""
MAX_GAMES_PAGE = 500
MAX_RUN_NAME = 200
"""Longest run name or file id in a path (``tournament-<game>``, ``ladder-<game>``, ...)."""

FileId = Annotated[str, PathParam(max_length=MAX_RUN_NAME)]
RunName = Annotated[str, PathParam(max_length=MAX_RUN_NAME)]
Pairing = Annotated[str, Query(max_length=2 * MAX_NAME + 1, description="A|B")]


class ReadOnlyResultsDB(ResultsDB):
    """A :class:`ResultsDB` opened read only (``mode=ro``): no schema set-up, no writes."""

    def __init__(self, path: str | Path) -> None:
        self.path = str(path)
        uri = f"{Path(path).resolve().as_uri()}?mode=ro"
        try:
            self._conn = sqlite3.connect(uri, uri=True, isolation_level=None, timeout=30)
            app_id = self._conn.execute("PRAGMA application_id").fetchone()[0]
        except sqlite3.Error as error:
            # the name only: a client never learns where the server keeps its files
            raise BadParameterError(f"cannot read results file {Path(path).name!r}: {error}"
                                    ) from None
        if app_id != APPLICATION_ID:
            self._conn.close()
            raise BadParameterError(f"{Path(path).name!r} is not a lifearena results database")


def _pct(rate: float, low: float, high: float) -> str:
    # the format of `lifearena tournament`'s printed tables
    return f"{100 * rate:5.1f}% [{100 * low:.1f}, {100 * high:.1f}]".strip()


def _signed(rate: float, low: float, high: float) -> str:
    return f"{100 * rate:+.1f} pts [{100 * low:+.1f}, {100 * high:+.1f}]"


def report_json(result: TournamentReport, summaries: list[dict[str, Any]]) -> dict[str, Any]:
    """A report as the page shows it: the numbers and the CLI's texts for them."""
    wins, decisive, share, low, high = result.decisive
    order = [a.label for a in result.config.agents]
    matches = [Match(s["player0"], s["player1"],
                     0.5 if s["winner"] is None else 1.0 - s["winner"]) for s in summaries]
    table = crosstable(matches) if matches else None
    cells: list[list[dict[str, Any] | None]] = []
    for a in order:
        row: list[dict[str, Any] | None] = []
        for b in order:
            games = [s for s in summaries if {s["player0"], s["player1"]} == {a, b}
                     and (a != b or s["player0"] == s["player1"])]
            if not games:
                row.append(None)
                continue
            won = sum(1 for s in games if s["winner"] is not None
                      and s[f"player{s['winner']}"] == a and a != b)
            lost = sum(1 for s in games if s["winner"] is not None
                       and s[f"player{s['winner']}"] == b and a != b)
            rate = table.rate(a, b) if table is not None and a != b else None
            row.append({"games": len(games), "wins": won, "losses": lost,
                        "draws": sum(1 for s in games if s["winner"] is None),
                        "score": rate, "pairing": games[0]["pairing"]})
        cells.append(row)
    ratings: list[dict[str, Any]] = []
    rating_error = None
    if len({p for m in matches for p in (m.first, m.second)}) >= 2:
        anchor = "random" if "random" in order else order[0]
        fitted = bootstrap(matches, samples=RATING_SAMPLES, seed=0, anchor=anchor)
        for label in fitted.ranking():
            lo, hi = fitted.intervals.get(label, (float("nan"), float("nan")))
            ratings.append({"agent": label, "elo": round(fitted.elo[label], 1),
                            "low": round(lo, 1), "high": round(hi, 1),
                            "games": fitted.games[label]})
        ratings_anchor: str | None = fitted.anchor
    else:
        rating_error, ratings_anchor = "ratings need games between two agents", None
    return {
        "game": result.config.game, "games": result.games,
        "per_pairing": result.config.games, "seed": result.config.seed,
        "total": result.config.total_games(), "agents": order,
        "title": f"{result.config.game}: {result.games} games, {result.config.games} per "
                 f"pairing (seed {result.config.seed})",
        "table": [{**r.as_dict(), "avg_length_text": f"{r.avg_length:.2f}",
                   "avg_time_text": f"{1000 * r.avg_time:.3f}"} for r in result.table],
        "ranking": [{**r.as_dict(), "score_text": f"{r.score:.3f}",
                     "win_text": _pct(r.win_rate, r.win_low, r.win_high)}
                    for r in result.ranking],
        "first_player": [{**r.as_dict(),
                          "first_text": _pct(r.first_rate, r.first_low, r.first_high),
                          "second_text": _pct(r.second_rate, r.second_low, r.second_high),
                          "advantage_text": _signed(r.advantage, r.advantage_low,
                                                    r.advantage_high)}
                         for r in result.first_player],
        "decisive": {"wins": wins, "decisive": decisive, "share": share, "low": low,
                     "high": high, "text": f"The first player won {wins} of {decisive} "
                                           f"decisive games: {_pct(share, low, high)}."},
        "crosstable": {"agents": order, "cells": cells},
        "ratings": ratings, "ratings_anchor": ratings_anchor, "ratings_error": rating_error,
    }


def _run(db: ResultsDB, name: str) -> Run:
    # the file's path stays on the server: the message names the run only
    if name not in {info.name for info in db.runs()}:
        raise UnknownResults(f"no run {name!r} in this results file")
    run = db.get_run(name)
    if run.kind not in ("tournament", "ladder"):
        raise BadParameterError(f"run {name!r} is a {run.kind}; this page shows tournaments "
                                "and ladders")
    return run


def ladder_json(run: Run, samples: int = RATING_SAMPLES, seed: int = 0) -> dict[str, Any]:
    """A ladder run rated as ``lifearena ladder`` rates it (its default bootstrap: 200
    samples, seed 0), with the same texts."""
    game = run.config.get("game", "?")
    results = [result for _, result in run.games()]
    if not results:
        return {"kind": "ladder", "game": game, "title": f"{game} ladder (0 games)",
                "games": 0, "rows": [], "ratings": [], "crosstable": None, "first_text": ""}
    ladder = rate(game, results, samples=samples, seed=seed)
    rows = ladder.rows()
    order = [r["agent"] for r in rows]
    first, n, (lo, hi) = ladder.first_score
    adv_lo, adv_hi = ladder.ratings.advantage_interval or (float("nan"), float("nan"))
    summaries = run.summaries()
    cells = []
    for a in order:
        row: list[dict[str, Any] | None] = []
        for b in order:
            rate_ab = ladder.table.rate(a, b) if a != b else None
            pairing = next((s["pairing"] for s in summaries
                            if {s["player0"], s["player1"]} == {a, b}), None)
            i, j = ladder.table.players.index(a), ladder.table.players.index(b)
            row.append(None if rate_ab is None else
                       {"games": int(ladder.table.games[i, j]), "score": rate_ab,
                        "pairing": pairing})
        cells.append(row)
    return {
        "kind": "ladder", "game": game, "games": len(results),
        "title": f"{game} ladder ({len(ladder.matches)} games)",
        "rows": [{**r, "elo_text": f"{r['elo']:.0f}",
                  "interval_text": f"[{r['low']:.0f}, {r['high']:.0f}]",
                  "score_text": f"{100 * r['score']:.1f}%"} for r in rows],
        "ratings": [{"agent": r["agent"], "elo": round(r["elo"], 1), "low": round(r["low"], 1),
                     "high": round(r["high"], 1), "games": r["games"]} for r in rows],
        "ratings_anchor": ladder.ratings.anchor,
        "crosstable": {"agents": order, "cells": cells},
        "first_text": f"first player scores {100 * first:.1f}% (Wilson 95% [{100 * lo:.1f}%, "
                      f"{100 * hi:.1f}%]) over {n} games; fitted first-move advantage "
                      f"{ladder.ratings.advantage:+.0f} Elo [{adv_lo:+.0f}, {adv_hi:+.0f}]",
    }


def runs_of(results: ResultsFile) -> list[dict[str, Any]]:
    """The runs of an arena file with their progress."""
    with ReadOnlyResultsDB(results.path) as db:
        out = []
        for info in db.runs():
            total = None
            if info.kind == "tournament":
                total = TournamentConfig.from_dict(db.get_run(info.name).config).total_games()
            elif info.kind == "ladder":
                total = planned_total(db.get_run(info.name).config)
            out.append({"name": info.name, "kind": info.kind, "status": info.status,
                        "games": info.games, "total": total})
        return out


def runs_listing(paths: list[str]) -> list[list[dict[str, Any]]]:
    """The runs of each arena file (:func:`runs_of`), for the listing: slow work.

    >>> runs_listing([])
    []
    """
    return [runs_of(ResultsFile(str(i), Path(path), "arena")) for i, path in enumerate(paths)]


def report_of(path: str, run_name: str) -> dict[str, Any]:
    """A run's report as the page shows it (a tournament's or a ladder's), with its
    progress: slow work (the ratings are bootstrapped)."""
    with ReadOnlyResultsDB(path) as db:
        # one read transaction: the report, crosstable and count see the same games
        db._conn.execute("BEGIN")
        run = _run(db, run_name)
        if run.kind == "ladder":
            data = ladder_json(run)
            total = planned_total(run.config)
        else:
            data = {"kind": "tournament", **report_json(report(run), run.summaries())}
            total = data["total"]
        # the games the report counts: a run still written may have more by now
        data.update(run=run_name, status=run.status, done=data["games"], total=total)
    return data


def games_of(path: str, run_name: str, pairing: str, offset: int, limit: int
             ) -> dict[str, Any]:
    """One page of a pairing's games (key, players, winner, termination, length)."""
    with ReadOnlyResultsDB(path) as db:
        run = _run(db, run_name)
        rows = [s for s in run.summaries() if s["pairing"] == pairing]
        if not rows:
            raise UnknownResults(f"no games of pairing {pairing!r} in run {run_name!r}")
        return {"pairing": pairing, "total": len(rows), "offset": offset, "limit": limit,
                "games": [{key: s[key] for key in ("game_index", "seat", "player0",
                                                   "player1", "winner", "termination",
                                                   "length")}
                          for s in rows[offset:offset + limit]]}


def record_of(path: str, run_name: str, pairing: str, index: int, seat: int
              ) -> dict[str, Any]:
    """One stored game's record and players."""
    with ReadOnlyResultsDB(path) as db:
        run = _run(db, run_name)
        row = run._conn.execute(
            "SELECT result FROM games WHERE run_id=? AND pairing=? AND game_index=? "
            "AND seat=?", (run.id, pairing, index, seat)).fetchone()
        if row is None:
            key = GameKey(pairing, index, seat)
            raise UnknownResults(f"no game {tuple(key)} in run {run_name!r}")
        result = json.loads(row[0])
        return {"record": result.get("record"), "players": result.get("players")}


def router_for(results: ResultsFiles, launcher: Launcher | None = None,
               admin_token: str | None = None) -> APIRouter:
    """The tournament pages' routes over the server's results files and the tournaments its
    ``launcher`` started; starting, stopping and resuming need ``admin_token``."""
    router = APIRouter()
    operator = [Depends(admin_gate(admin_token))]

    def arena(file_id: str) -> ResultsFile:
        if launcher is not None and file_id.startswith("lab-"):
            return ResultsFile(file_id, launcher.get(file_id).path, "arena")
        return results.get(file_id, "arena")

    def launching() -> Launcher:
        if launcher is None:
            raise BadParameterError("this server starts no tournaments; run lifearena "
                                    "tournament --db FILE and serve --results FILE")
        return launcher

    @router.get("/lab/tournaments", include_in_schema=False)
    async def page() -> Response:
        return FileResponse(STATIC_LAB / "tournaments.html")

    @router.get("/api/lab/tournaments")
    async def files(request: Request) -> dict[str, Any]:
        given = [f for f in results.describe() if f["kind"] == "arena"]
        described = (await run_in_threadpool(launcher.describe)
                     if launcher is not None else None)
        launches = described["launches"] if described else []
        paths = ([str(results.get(f["id"]).path) for f in given]
                 + [str(launcher.get(d["id"]).path) for d in launches if launcher])
        runs = await slow(request, runs_listing, paths)
        started = [{"id": launch["id"], "name": f"started here ({launch['game']})",
                    "kind": "arena", "launch": launch} for launch in launches]
        return {"files": [{**f, "runs": r} for f, r in zip(given + started, runs, strict=True)],
                "launcher": None if described is None else
                {key: described[key] for key in ("limit", "running", "max_launches",
                                                 "disk_used", "disk_budget")}}

    @router.get("/api/lab/tournaments/form")
    async def form(game: Annotated[str, Query(max_length=MAX_NAME)] = catalog.GAMES[0],
                   x_admin_token: AdminHeader = None) -> dict[str, Any]:
        catalog.entry_of(game)
        enabled = launcher is not None and admin_token is not None
        reason = ("" if launcher is not None else
                  "this server starts no tournaments (serve --tournaments 0); run lifearena "
                  "tournament --db FILE and serve --results FILE")
        if launcher is not None:
            reason = refusal(x_admin_token, admin_token)
        return {"games": list(catalog.GAMES), "game": game, "agents": entrants_of(game),
                "games_per_pairing": [1, caps.MAX_GAMES], "seed": [0, caps.MAX_SEED],
                "total": caps.MAX_TOTAL_GAMES, "enabled": enabled,
                "admin": enabled and not reason, "reason": reason,
                "limit": launcher.limit if launcher else 0}

    @router.post("/api/lab/tournaments/start", status_code=201, dependencies=operator)
    async def start(body: LaunchBody) -> Response:
        spec = LaunchSpec.from_body(body)
        # builds the entrants, writes the file and starts a process: not on the event loop
        launch = await run_in_threadpool(launching().start, spec)
        described = await run_in_threadpool(launch.describe)
        return JSONResponse({**described, "file": launch.id}, status_code=201)

    @router.post("/api/lab/tournaments/{launch_id}/stop", dependencies=operator)
    async def stop(launch_id: FileId) -> dict[str, Any]:
        # waits for the process to store its last block
        launch = await run_in_threadpool(launching().stop, launch_id)
        return {**await run_in_threadpool(launch.describe), "file": launch_id}

    @router.post("/api/lab/tournaments/{launch_id}/resume", dependencies=operator)
    async def resume(launch_id: FileId) -> dict[str, Any]:
        launch = await run_in_threadpool(launching().resume, launch_id)
        return {**await run_in_threadpool(launch.describe), "file": launch_id}

    @router.get("/api/lab/tournaments/{file_id}/{run_name}")
    async def tournament(request: Request, file_id: FileId, run_name: RunName
                         ) -> dict[str, Any]:
        # a launch's state is read first: "done" then means the games read below are all
        launched = (await run_in_threadpool(launcher.get(file_id).describe)
                    if launcher is not None and file_id.startswith("lab-") else None)
        data = await slow(request, report_of, str(arena(file_id).path), run_name)
        data["file"] = file_id
        if launched is not None:
            data["launch"] = launched
        return data

    @router.get("/api/lab/tournaments/{file_id}/{run_name}/games")
    async def games(request: Request, file_id: FileId, run_name: RunName, pairing: Pairing,
                    offset: Annotated[int, Query(ge=0, le=caps.MAX_TOTAL_GAMES)] = 0,
                    limit: Annotated[int, Query(ge=1, le=MAX_GAMES_PAGE)] = GAMES_PAGE
                    ) -> dict[str, Any]:
        return await slow(request, games_of, str(arena(file_id).path), run_name, pairing,
                          offset, limit)

    @router.get("/api/lab/tournaments/{file_id}/{run_name}/record")
    async def record(request: Request, file_id: FileId, run_name: RunName, pairing: Pairing,
                     index: Annotated[int, Query(ge=0, le=caps.MAX_TOTAL_GAMES)],
                     seat: Annotated[int, Query(ge=0, le=1)]) -> dict[str, Any]:
        return await slow(request, record_of, str(arena(file_id).path), run_name, pairing,
                          index, seat)

    return router
