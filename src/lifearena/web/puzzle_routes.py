"""The puzzles' routes: puzzles mined from real games, solved on the site, with a puzzle
rating for every player (thin FastAPI routes over :mod:`lifearena.puzzles.round`,
:mod:`lifearena.puzzles.collection` and :mod:`lifearena.web.puzzle_store`).

* ``GET /puzzles``, ``/puzzles/{game}`` (``?id=`` one puzzle), ``/puzzles/daily``: the pages.
* ``GET /api/puzzles``: the games with puzzles, how many each, how many of them the
  request's player solved, its puzzle rating, and the daily puzzle (its id, game, what to
  find and its position's picture: enough for the home page's card).
* ``GET /api/puzzles/{game}/next``: a puzzle of ``game`` near the player's puzzle rating that
  it has not tried (then one it has tried and not solved); ``?exclude=ID`` skips one.
* ``GET /api/puzzles/id/{id}``: one puzzle; ``GET /api/puzzles/daily``: the puzzle of the
  UTC date, the same for everyone; ``GET /api/puzzles/id/{id}/record``: the game it came
  from, as a record (JSON).
* ``POST /api/puzzles/id/{id}/moves`` ``{"moves": [...], "move": "..."}``: judge the
  solver's move after the attempt's moves so far (as the previous answer listed them):
  ``right`` (the reply is played and returned), ``solved`` or ``wrong`` (the solution is
  revealed). The end of a player's first try of a puzzle is rated (an anonymous player is
  made for a browser that has none); a retry is judged the same and rated never.

A puzzle as a page gets it holds its position's display, the game's look and the solver's
legal view, as a game's view does (:mod:`lifearena.web.live`). Its theme is told only once
the attempt is over. Replays and searches run in the server's slow-work pool
(:mod:`lifearena.web.heavy`), never on the event loop.
"""

from __future__ import annotations

import datetime
import random
from pathlib import Path
from typing import Annotated, Any

from fastapi import APIRouter, HTTPException, Query, Request, Response
from fastapi import Path as PathParam
from fastapi.responses import FileResponse
from pydantic import Field

from lifearena.core import State, presentation_of
from lifearena.puzzles.collection import Collection
from lifearena.puzzles.model import Puzzle
from lifearena.puzzles.round import MAX_ATTEMPT_MOVES, MEMO, RIGHT, judge, main_line, start
from lifearena.web import catalog
from lifearena.web.heavy import client_of
from lifearena.web.identity import Identity
from lifearena.web.live import MAX_LEGAL_SENT
from lifearena.web.models import Declared, MoveText
from lifearena.web.puzzle_store import PuzzleStore

STATIC = Path(__file__).parent / "static"
NEAREST = 5
"""A next puzzle is drawn among the this many untried puzzles nearest the player's rating."""
MAX_PUZZLE_ID = 80
PuzzleId = Annotated[str, PathParam(min_length=1, max_length=MAX_PUZZLE_ID,
                                    pattern=r"^[A-Za-z0-9_.:-]+$")]
GameName = Annotated[str, PathParam(min_length=1, max_length=32, pattern=r"^[a-z0-9_]+$")]


class PuzzleMove(Declared):
    """``POST /api/puzzles/id/{id}/moves``: the solver's move after the attempt's moves."""

    moves: list[MoveText] = Field(default_factory=list, max_length=MAX_ATTEMPT_MOVES,
                                  description="the attempt's moves so far, as the previous "
                                              "answer's moves listed them ([] at the start)")
    move: MoveText = Field(description="the solver's move in the game's notation")


# -- what the slow-work pool computes (module functions: they pickle) -----------------------


def legal_view(state: State, seat: int) -> dict[str, Any]:
    """``seat``'s legal moves and interaction, as a game's view gives them."""
    shown = presentation_of(state)
    interaction = shown.interaction(state, seat).to_dict()
    count = len(state.legal_actions(seat))
    if count > MAX_LEGAL_SENT:
        return {"count": count, "moves": None, "interaction": interaction}
    return {"count": count, "interaction": interaction,
            "moves": [choice.to_dict() for choice in shown.choices(state, seat)]}


def position_view(puzzle: Puzzle) -> dict[str, Any]:
    """The puzzle's position as a page draws it and the solver's legal view (remembered)."""
    def build() -> dict[str, Any]:
        state = start(puzzle)
        shown = presentation_of(state)
        return {"display": shown.display(state, puzzle.solver), "look": shown.look.to_dict(),
                "legal": legal_view(state, puzzle.solver),
                "simultaneous": state.info.dynamics.value == "simultaneous",
                "side": shown.look.sides[puzzle.solver].name}
    return dict(MEMO.get((puzzle.id, "view"), build))


def judged_view(puzzle: Puzzle, moves: list[str], move: str) -> dict[str, Any]:
    """The verdict of ``move`` after ``moves`` with the positions a page shows; once the
    attempt is over, the theme and the solution (each move with the position after it)."""
    judged = judge(puzzle, moves, move)
    shown = presentation_of(judged.after)
    answer: dict[str, Any] = {
        "verdict": judged.verdict, "move": judged.move, "reply": judged.reply,
        "moves": judged.moves, "over": judged.over,
        "shown": shown.display(judged.shown, puzzle.solver),
        "display": shown.display(judged.after, puzzle.solver),
        "legal": legal_view(judged.after, puzzle.solver) if judged.verdict == RIGHT else None,
        "winning": judged.winning}
    if judged.over:
        answer.update(theme=puzzle.theme, solutions=list(puzzle.solutions),
                      solution=solution_view(puzzle))
    return answer


def solution_view(puzzle: Puzzle) -> list[dict[str, Any]]:
    """The solution's moves from the puzzle's position, each with the position after it."""
    def build() -> list[dict[str, Any]]:
        line = main_line(puzzle)
        state = start(puzzle)
        shown = presentation_of(state)
        steps = []
        for text in line:
            if state.is_simultaneous_node():
                parts = [part.strip() for part in text.split("|")]
                state.apply_actions([state.string_to_action(p, i) for i, p in enumerate(parts)])
            else:
                player = state.current_player()
                state.apply_action(state.string_to_action(text, None if player < 0 else player))
            steps.append({"move": text, "display": shown.display(state, puzzle.solver)})
        return steps
    return list(MEMO.get((puzzle.id, "solution"), build))


# -- the routes -----------------------------------------------------------------------------


def router_for(server: Any, identity: Identity) -> APIRouter:
    """The puzzles' routes over ``server`` (its database, slow-work pool and settings:
    ``puzzles_dir`` names a folder of puzzles in place of the shipped ones)."""
    router = APIRouter()
    folder: Path | None = getattr(server.settings, "puzzles_dir", None)
    shelf = Collection(folder, catalog.GAMES)
    book = PuzzleStore(server.store.engine)

    def today() -> datetime.date:
        return datetime.datetime.now(datetime.UTC).date()

    def found(puzzle_id: str) -> Puzzle:
        puzzle = shelf.get(puzzle_id)
        if puzzle is None:
            raise HTTPException(404, f"no puzzle {puzzle_id!r}; expected an id that "
                                     "/api/puzzles/{game}/next gave")
        return puzzle

    def source_of(puzzle: Puzzle) -> dict[str, Any]:
        web_game = puzzle.source.extra.get("web_game")
        record = f"/api/puzzles/id/{puzzle.id}/record"
        if isinstance(web_game, str) and server.exists(web_game):
            return {"game_id": web_game, "link": f"/game/{web_game}", "record": record,
                    "ply": puzzle.ply}
        return {"game_id": None, "link": record, "record": record, "ply": puzzle.ply}

    async def view_of(puzzle: Puzzle, request: Request) -> dict[str, Any]:
        position = await server.heavy.run(client_of(request.client), position_view, puzzle)
        player = identity.player_of(request)
        tried = [] if player is None else book.attempts(player.id, puzzle.id)
        rating = book.puzzle_rating(puzzle.id, puzzle.rating)
        return {"id": puzzle.id, "game": puzzle.game,
                "title": catalog.CATALOG[puzzle.game].title, "solver": puzzle.solver,
                "depth": puzzle.depth, "rating": round(rating.rating),
                "prompt": f"{position['side']} to move — find the win",
                "moves": [], "source": source_of(puzzle),
                "tried": {"attempts": len(tried), "solved": any(t["solved"] for t in tried)},
                **position}

    @router.get("/puzzles", include_in_schema=False)
    async def puzzles_page() -> Response:
        return FileResponse(STATIC / "puzzles.html")

    @router.get("/puzzles/{game}", include_in_schema=False)
    async def puzzle_page(game: str) -> Response:
        if game != "daily" and game not in catalog.GAMES:  # a browser gets the missing page
            raise HTTPException(404, f"no puzzles of {game[:40]!r}")
        return FileResponse(STATIC / "puzzle.html")

    @router.get("/api/puzzles")
    async def puzzle_games(request: Request) -> dict[str, Any]:
        player = identity.player_of(request)
        solved = {} if player is None else book.tried(player.id)
        daily = shelf.daily(today())
        shown = None
        if daily is not None:  # enough to draw its card (the home page's one request)
            position = await server.heavy.run(client_of(request.client), position_view, daily)
            shown = {"id": daily.id, "game": daily.game,
                     "title": catalog.CATALOG[daily.game].title,
                     "prompt": f"{position['side']} to move — find the win",
                     "display": position["display"], "look": position["look"]}
        return {
            "games": [{"game": game, "title": catalog.CATALOG[game].title, "count": count,
                       "solved": sum(1 for p in shelf.of(game) if solved.get(p.id))}
                      for game, count in shelf.counts().items()],
            "rating": None if player is None else book.player_rating(player.id).to_json(),
            "daily": shown}

    @router.get("/api/puzzles/daily")
    async def daily_puzzle(request: Request) -> dict[str, Any]:
        day = today()
        puzzle = shelf.daily(day)
        if puzzle is None:
            raise HTTPException(404, "this server has no puzzles")
        return {**await view_of(puzzle, request), "date": day.isoformat()}

    @router.get("/api/puzzles/id/{puzzle_id}")
    async def one_puzzle(puzzle_id: PuzzleId, request: Request) -> dict[str, Any]:
        return await view_of(found(puzzle_id), request)

    @router.get("/api/puzzles/id/{puzzle_id}/record")
    async def puzzle_record(puzzle_id: PuzzleId) -> Response:
        puzzle = found(puzzle_id)
        return Response(puzzle.source.to_json(), media_type="application/json", headers={
            "Content-Disposition": f'attachment; filename="{puzzle.id}-game.json"'})

    @router.get("/api/puzzles/{game}/next")
    async def next_puzzle(game: GameName, request: Request,
                          exclude: Annotated[str | None, Query(max_length=MAX_PUZZLE_ID)] = None
                          ) -> dict[str, Any]:
        if game not in catalog.GAMES:
            raise HTTPException(404, f"no game {game!r}; expected one of "
                                     f"{', '.join(catalog.GAMES)}")
        offered = [p for p in shelf.of(game) if p.id != exclude]
        if not offered:
            raise HTTPException(404, f"no puzzles of {game} here")
        player = identity.player_of(request)
        tried = {} if player is None else book.tried(player.id, game)
        mine = (1500.0 if player is None else book.player_rating(player.id).rating.rating)
        fresh = [p for p in offered if p.id not in tried]
        unsolved = [p for p in offered if not tried.get(p.id)]
        pool = fresh or unsolved
        if not pool:
            raise HTTPException(404, f"you have solved every puzzle of {game} here")
        moved = book.puzzle_ratings(game)
        pool.sort(key=lambda p: (abs(moved.get(p.id, p.rating) - mine), p.id))
        return await view_of(random.choice(pool[:NEAREST]), request)

    @router.post("/api/puzzles/id/{puzzle_id}/moves")
    async def puzzle_move(puzzle_id: PuzzleId, body: PuzzleMove, request: Request,
                          response: Response) -> dict[str, Any]:
        puzzle = found(puzzle_id)
        answer: dict[str, Any] = await server.heavy.run(
            client_of(request.client), judged_view, puzzle, list(body.moves), body.move)
        if answer["over"]:
            player = identity.maybe(request, response)
            if player is None:  # past the address's bound of new players: judged, unrated
                answer["rating"] = {"rated": False, "player": None, "puzzle": None}
            else:
                done = book.finish(player.id, puzzle.id, puzzle.game, puzzle.rating,
                                   solved=answer["verdict"] == "solved")
                answer["rating"] = done.to_json()
                answer["your_rating"] = book.player_rating(player.id).to_json()
        return answer

    return router
