"""Tournament and ladder pages: the runs of an arena results file, read only.

* ``GET /lab/tournaments``: the page.
* ``GET /api/lab/tournaments``: the arena results files and, for each, its runs (name, kind,
  status, games stored and expected).
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

* ``GET /api/lab/tournaments/form?game=G``: the games, the entrants offered for ``G`` and the
  caps of the form's numbers.
* ``POST /api/lab/tournaments/start`` ``{"game", "agents": [...], "games", "seed"}``: 201 and
  the launch (its id is the file's); 400 for a bad field, 429 past the running bound.
* ``POST /api/lab/tournaments/{id}/stop`` and ``.../resume``: the launch afterwards.

The file is opened with SQLite's ``mode=ro``: a tournament still writing to it goes on.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import FileResponse, JSONResponse, Response

from lifearena.arena.ladder import planned_total, rate
from lifearena.arena.ratings import Match, bootstrap, crosstable
from lifearena.arena.storage import APPLICATION_ID, GameKey, ResultsDB, Run
from lifearena.arena.tournament import TournamentConfig, TournamentReport, report
from lifearena.cli import caps
from lifearena.errors import BadParameterError
from lifearena.web import catalog
from lifearena.web.lab.common import STATIC_LAB, read_json
from lifearena.web.lab.launcher import Launcher, LaunchSpec, entrants_of
from lifearena.web.lab.results import ResultsFile, ResultsFiles, UnknownResults

RATING_SAMPLES = 200
GAMES_PAGE = 100
"""Games of a pairing sent at once unless the request asks for another ``limit``."""
MAX_GAMES_PAGE = 500


def page_bounds(offset: int, limit: int) -> tuple[int, int]:
    """Check a page of games: ``offset`` >= 0, ``limit`` 1..:data:`MAX_GAMES_PAGE`.

    >>> page_bounds(0, 0)
    Traceback (most recent call last):
    ...
    lifearena.errors.BadParameterError: limit=0; expected 1..500 games a page
    """
    if offset < 0:
        raise BadParameterError(f"offset={offset}; expected 0 or more")
    if not 1 <= limit <= MAX_GAMES_PAGE:
        raise BadParameterError(f"limit={limit}; expected 1..{MAX_GAMES_PAGE} games a page")
    return offset, limit


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


def router_for(results: ResultsFiles, launcher: Launcher | None = None) -> APIRouter:
    """The tournament pages' routes over the server's results files and the tournaments its
    ``launcher`` started."""
    router = APIRouter()

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
    def files() -> dict[str, Any]:
        given = [{**f, "runs": runs_of(results.get(f["id"]))}
                 for f in results.describe() if f["kind"] == "arena"]
        started = [{"id": launch["id"], "name": f"started here ({launch['game']})",
                    "kind": "arena", "launch": launch, "runs": runs_of(arena(launch["id"]))}
                   for launch in (launcher.describe()["launches"] if launcher else [])]
        return {"files": given + started,
                "launcher": None if launcher is None else
                {"limit": launcher.limit, "running": launcher.running()}}

    @router.get("/api/lab/tournaments/form")
    def form(game: str = catalog.GAMES[0]) -> dict[str, Any]:
        catalog.entry_of(game)
        return {"games": list(catalog.GAMES), "game": game, "agents": entrants_of(game),
                "games_per_pairing": [1, caps.MAX_GAMES], "seed": [0, caps.MAX_SEED],
                "total": caps.MAX_TOTAL_GAMES, "enabled": launcher is not None,
                "limit": launcher.limit if launcher else 0}

    @router.post("/api/lab/tournaments/start")
    async def start(request: Request) -> Response:
        spec = LaunchSpec.from_json(await read_json(request))
        launch = launching().start(spec)
        return JSONResponse({**launch.describe(), "file": launch.id}, status_code=201)

    @router.post("/api/lab/tournaments/{launch_id}/stop")
    def stop(launch_id: str) -> dict[str, Any]:
        return {**launching().stop(launch_id).describe(), "file": launch_id}

    @router.post("/api/lab/tournaments/{launch_id}/resume")
    def resume(launch_id: str) -> dict[str, Any]:
        return {**launching().resume(launch_id).describe(), "file": launch_id}

    @router.get("/api/lab/tournaments/{file_id}/{run_name}")
    def tournament(file_id: str, run_name: str) -> dict[str, Any]:
        # a launch's state is read first: "done" then means the games read below are all
        launched = (launcher.get(file_id).describe()
                    if launcher is not None and file_id.startswith("lab-") else None)
        with ReadOnlyResultsDB(arena(file_id).path) as db:
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
            data.update(file=file_id, run=run_name, status=run.status,
                        done=data["games"], total=total)
        if launched is not None:
            data["launch"] = launched
        return data

    @router.get("/api/lab/tournaments/{file_id}/{run_name}/games")
    def games(file_id: str, run_name: str, pairing: str, offset: int = 0,
              limit: int = GAMES_PAGE) -> dict[str, Any]:
        offset, limit = page_bounds(offset, limit)
        with ReadOnlyResultsDB(arena(file_id).path) as db:
            run = _run(db, run_name)
            rows = [s for s in run.summaries() if s["pairing"] == pairing]
            if not rows:
                raise UnknownResults(f"no games of pairing {pairing!r} in run {run_name!r}")
            return {"pairing": pairing, "total": len(rows), "offset": offset, "limit": limit,
                    "games": [{key: s[key] for key in ("game_index", "seat", "player0",
                                                       "player1", "winner", "termination",
                                                       "length")}
                              for s in rows[offset:offset + limit]]}

    @router.get("/api/lab/tournaments/{file_id}/{run_name}/record")
    def record(file_id: str, run_name: str, pairing: str, index: int,
               seat: int) -> dict[str, Any]:
        with ReadOnlyResultsDB(arena(file_id).path) as db:
            run = _run(db, run_name)
            row = run._conn.execute(
                "SELECT result FROM games WHERE run_id=? AND pairing=? AND game_index=? "
                "AND seat=?", (run.id, pairing, index, seat)).fetchone()
            if row is None:
                key = GameKey(pairing, index, seat)
                raise UnknownResults(f"no game {tuple(key)} in run {run_name!r}")
            result = json.loads(row[0])
            return {"record": result.get("record"), "players": result.get("players")}

    return router
