"""The "Learn" pages and their API: a short lesson per game (:mod:`lifearena.lessons`),
played step by step against the game's own rules.

* ``GET /learn``: a card per game; ``GET /learn/{game}``: that game's lesson (static pages
  under ``static/learn/``).
* ``GET /api/lessons``: the lessons, in the home page's order of the games, each with its
  title, summary, number of steps and the first step's picture.
* ``GET /api/lessons/{game}``: the steps, each with its words (not its solution) and its
  start as a game page draws it: the ``display``, the game's ``look`` and the learner's
  ``legal`` view (the interaction and the listed moves, as ``GET /api/games/{id}`` gives a
  seat).
* ``POST /api/lessons/{game}/{step}`` with ``{"move": "...", "before": [...]}`` (``before``:
  the plies of the learner's turn already played, the queen game's move before its blocks):
  the display after the move and its generation (births and deaths marked), whether the
  goal is met, what is said, and, while the turn goes on (``more``), the learner's next
  legal view. An unknown game or step is a 404, text that is no move a 400 and an illegal
  move a 422, each one line (the game's own explanation of an illegal move).

Lessons are small boards: a step's view is built once and kept; an answer to a move is kept
too (the same move on the same step always gives the same answer), and the routes are plain
functions, which FastAPI runs off the event loop.
"""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Any

from fastapi import APIRouter
from fastapi.responses import FileResponse, JSONResponse, Response
from pydantic import Field
from starlette.exceptions import HTTPException as StarletteHTTPException

from lifearena.core import SIMULTANEOUS, State, presentation_of
from lifearena.errors import IllegalMoveError, LifeArenaError
from lifearena.lessons import Lesson, Step, UnknownLesson, attempt, lesson, start
from lifearena.web.catalog import GAMES
from lifearena.web.live import MAX_LEGAL_SENT
from lifearena.web.models import Declared, MoveText

STATIC = Path(__file__).parent / "static"
LEARN = STATIC / "learn"
MAX_PLIES = 8
"""Most plies of one turn a request may name (the queen game's move and its blocks)."""
KEPT_ANSWERS = 4096
"""Answers to moves kept (each a few kilobytes: a bounded memory whatever is asked)."""


class LessonMove(Declared):
    """``POST /api/lessons/{game}/{step}``: the learner's move, after the plies of the same
    turn already played."""

    move: MoveText = Field(description="the move in the game's notation")
    before: list[MoveText] = Field(default_factory=list, max_length=MAX_PLIES - 1,
                                   description="the plies of this turn already played")


def legal_view(state: State, seat: int) -> dict[str, Any]:
    """``seat``'s legal moves with the cells a click picks, and what the board asks of it:
    the shape of a game view's ``legal`` entry (the list left out above
    :data:`~lifearena.web.live.MAX_LEGAL_SENT` moves)."""
    shown = presentation_of(state)
    interaction = shown.interaction(state, seat).to_dict()
    count = len(state.legal_actions(seat))
    if count > MAX_LEGAL_SENT:
        return {"count": count, "moves": None, "interaction": interaction}
    return {"count": count, "interaction": interaction,
            "moves": [choice.to_dict() for choice in shown.choices(state, seat)]}


def _step_view(game: str, number: int, step: Step) -> dict[str, Any]:
    state = start(game, step)
    return {"number": number, "title": step.title, "text": step.text, "task": step.task,
            "hint": step.hint, "learner": step.learner,
            "simultaneous": state.current_player() == SIMULTANEOUS,
            "display": presentation_of(state).display(state, step.learner),
            "legal": legal_view(state, step.learner)}


def _found(game: str) -> Lesson:
    """The lesson of ``game``, one of the served games; :class:`UnknownLesson` otherwise."""
    if game not in GAMES:
        raise UnknownLesson(f"no lesson for {game[:40]!r}; expected one of {', '.join(GAMES)}")
    return lesson(game)


@functools.cache
def lessons_view() -> dict[str, Any]:
    """``GET /api/lessons``: every served game's lesson, in the home page's order."""
    listed = []
    for game in GAMES:
        found = lesson(game)
        state = start(game, found.steps[0])
        shown = presentation_of(state)
        listed.append({"game": game, "title": found.title, "summary": found.summary,
                       "steps": len(found.steps), "link": f"/learn/{game}",
                       "look": shown.look.to_dict(),
                       "picture": shown.display(state, found.steps[0].learner)})
    return {"lessons": listed}


@functools.cache
def lesson_view(game: str) -> dict[str, Any]:
    """``GET /api/lessons/{game}``: the steps and their starts (built once per game)."""
    found = _found(game)
    state = start(game, found.steps[0])
    return {"game": game, "title": found.title, "summary": found.summary,
            "look": presentation_of(state).look.to_dict(),
            "play": f"/?game={game}#new-game",
            "steps": [_step_view(game, number, step)
                      for number, step in enumerate(found.steps, start=1)]}


@functools.lru_cache(maxsize=KEPT_ANSWERS)
def move_answer(game: str, number: int, moves: tuple[str, ...]) -> dict[str, Any]:
    """``POST /api/lessons/{game}/{number}``: the learner's ``moves`` (the plies of one turn)
    played on the step's start and judged (kept: a step and its moves always give the same
    answer; a refused move raises and is not kept)."""
    found = _found(game)
    step = found.step(number)
    result = attempt(game, step, moves)
    state = result.state
    outcome = state.outcome()
    # the other side's choice at a simultaneous turn, revealed with the learner's
    reply = step.reply if isinstance(state.history()[-1], tuple) else None
    return {"step": number, "met": result.met, "more": result.more,
            "message": result.message, "moves": list(moves), "reply": reply,
            "display": presentation_of(state).display(state, step.learner),
            "legal": legal_view(state, step.learner) if result.more else None,
            "outcome": None if outcome is None else {"text": str(outcome),
                                                      "winner": outcome.winner},
            "last_step": number == len(found.steps)}


def _refusal(error: Exception) -> JSONResponse:
    """One line of JSON for a refused request: 404 unknown, 422 illegal, 400 unreadable."""
    status = 404 if isinstance(error, UnknownLesson) else \
        422 if isinstance(error, IllegalMoveError) else 400
    return JSONResponse({"error": str(error).split("\n")[0]}, status_code=status)


def router_for() -> APIRouter:
    """The Learn pages and the lessons' API."""
    router = APIRouter()

    @router.get("/learn", include_in_schema=False)
    def learn_page() -> Response:
        return FileResponse(LEARN / "index.html")

    @router.get("/learn/{game}", include_in_schema=False)
    def lesson_page(game: str) -> Response:
        if game not in GAMES:  # the app answers a browser with its page for a missing address
            raise StarletteHTTPException(404, f"no lesson for {game[:40]!r}")
        return FileResponse(LEARN / "lesson.html")

    @router.get("/api/lessons")
    def list_lessons() -> dict[str, Any]:
        return lessons_view()

    @router.get("/api/lessons/{game}", response_model=None)
    def one_lesson(game: str) -> dict[str, Any] | JSONResponse:
        try:
            return lesson_view(game)
        except (UnknownLesson, LifeArenaError) as error:
            return _refusal(error)

    @router.post("/api/lessons/{game}/{number}", response_model=None)
    def play_step(game: str, number: str, body: LessonMove) -> dict[str, Any] | JSONResponse:
        try:
            return move_answer(game, _step_number(number),
                               tuple(m.strip() for m in (*body.before, body.move)))
        except (UnknownLesson, LifeArenaError) as error:
            return _refusal(error)

    return router


def _step_number(text: str) -> int:
    """A step's number from its path segment; :class:`UnknownLesson` for anything else."""
    if not (text.isascii() and text.isdigit() and len(text) <= 3):
        raise UnknownLesson(f"no step {text[:20]!r}; expected a step's number")
    return int(text)
