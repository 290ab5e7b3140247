"""Lessons: a few short steps that teach a game on small positions, each played by the game's
own rules.

A :class:`Lesson` is a game's name and its :class:`Step` s. A step is a position in the
game's own setup notation with the game's parameters (so the real rules run it), the words
around it (title, text, task, hint, the words said on success), one move known to solve it
(:attr:`Step.solution`, kept with the data so a test proves every step solvable) and its
:class:`Goal` s: what must be true of the position after the learner's move and the
generation it brings, checked on that position by the rules and the game's presentation
(:func:`attempt`). Where the game is simultaneous, the step says what the other side chooses
at the same time (:attr:`Step.reply`), revealed with the learner's choice.

Each game keeps its lesson in ``lifearena.games.<game>.lessons`` (a module-level
``LESSON``); :func:`lesson` finds it by the game's name, as :func:`lifearena.core.game_type`
finds a game. This module sits beside :mod:`lifearena.core` (the protocol layer): it knows
the protocol and no game, so the games below the interfaces can hold their lessons as data,
and the web and any other interface read them through one API.

Cells in goals are written as the game's notation names them (``"4,4"`` in War of Life,
``"D4"`` in Losat): the display's ``cell_name`` and labels turn them into grid cells.

>>> from lifearena.core import get_game
>>> step = Step("Birth", "An empty cell with exactly 3 neighbours is born.", "make 2,2 be born",
...             "[[[1,1],[1,2],[3,3]],[[7,7],[7,8],[8,7],[8,8]]]", "[3,3,2,3]",
...             (Goal("born", ("2,2",), colour=1),), "three around 2,2", "Born!")
>>> result = attempt("war_of_life", step, "[3,3,2,3]")
>>> result.met, result.message
(True, 'Born!')
>>> attempt("war_of_life", step, "[3,3,4,4]").met
False
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from lifearena.core import SIMULTANEOUS, State, get_game, presentation_of
from lifearena.errors import BadParameterError, IllegalMoveError

GoalKind = Literal["born", "died", "holds", "empty", "collision", "captures", "win"]
"""What a goal asks for: ``born``/``died`` the cells that the last generation brought to
life / killed (with ``colour``, born in that colour); ``holds`` the cells occupied by
``colour``; ``empty`` the cells empty; ``collision`` the cells both players chose (left
empty); ``captures`` the learner's count (a display's ``counts``) at least ``count``;
``win`` the game won by the learner."""

KINDS: tuple[str, ...] = ("born", "died", "holds", "empty", "collision", "captures", "win")


@dataclass(frozen=True)
class Goal:
    """One thing that must be true of the position after the learner's move.

    >>> Goal("born", ("3,3",), colour=1).to_dict()
    {'kind': 'born', 'cells': ['3,3'], 'colour': 1, 'count': 0}
    """

    kind: GoalKind
    cells: tuple[str, ...] = ()
    """Cells in the game's notation (``born``, ``died``, ``holds``, ``empty``,
    ``collision``)."""
    colour: int | None = None
    """1 or 2, the colour a cell must be born in or hold (``None``: any colour)."""
    count: int = 0
    """The learner's count a ``captures`` goal asks for."""

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise BadParameterError(f"goal kind {self.kind!r}; expected one of "
                                    f"{', '.join(KINDS)}")

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "cells": list(self.cells), "colour": self.colour,
                "count": self.count}


@dataclass(frozen=True)
class Step:
    """One step of a lesson: a position, what to do there and what is said about it."""

    title: str
    text: str
    """What the step teaches, in two or three sentences."""
    task: str
    """What the learner must do, one line (``"Make the cell at 4,4 be born."``)."""
    setup: str
    """The start, in the game's setup notation."""
    solution: str
    """A move (in the game's notation) that meets the goals; where the learner plays several
    plies in one turn (the queen game's move, then its blocks), those moves joined by
    ``" ; "``."""
    goals: tuple[Goal, ...]
    """All must be true after the learner's move and its generation."""
    hint: str
    success: str
    """What is said when the goals are met."""
    params: Mapping[str, Any] = field(default_factory=dict)
    """The game's parameters (its rules: a small board, a move limit...)."""
    prelude: tuple[str, ...] = ()
    """Moves played from the setup before the learner's turn (a queen already moved, so the
    step starts in the blocking phase)."""
    reply: str | None = None
    """At a simultaneous turn, what the other side chooses at the same time."""
    learner: int = 0
    """The seat the learner plays."""
    failure: str = "Not yet: that move did not do it. Look again, or ask for a hint."
    """What is said when a legal move misses the goals."""


@dataclass(frozen=True)
class Lesson:
    """A game's lesson: its steps, in order."""

    game: str
    title: str
    summary: str
    steps: tuple[Step, ...]

    def step(self, number: int) -> Step:
        """The step numbered ``number`` (from 1); :class:`LookupError` naming the range."""
        if isinstance(number, bool) or not isinstance(number, int) \
                or not 1 <= number <= len(self.steps):
            raise UnknownLesson(f"{self.game} lesson has no step {number!r:.20}; expected "
                                f"1..{len(self.steps)}")
        return self.steps[number - 1]


class UnknownLesson(LookupError):
    """No lesson for that game, or no step of that number."""


@dataclass(frozen=True)
class Attempt:
    """What the learner's move did: the position after it, whether the goals are met and
    what is said about it."""

    state: State
    met: bool
    message: str
    move: str
    more: bool = False
    """The learner has another ply to play in this turn (nothing judged yet)."""


def lesson(game: str) -> Lesson:
    """The lesson of ``game`` (from ``lifearena.games.<game>.lessons``); :class:`UnknownLesson`
    for a game without one.

    >>> lesson("war_of_life").steps[0].title
    'The rule of Life: births'
    """
    key = str(game).strip().lower().replace("-", "_")
    if not key.isidentifier() or len(key) > 40:
        raise UnknownLesson(f"no lesson for {str(game)[:40]!r}")
    try:
        module = importlib.import_module(f"lifearena.games.{key}.lessons")
    except ModuleNotFoundError as error:
        if error.name is not None and error.name.startswith(f"lifearena.games.{key}"):
            raise UnknownLesson(f"no lesson for {str(game)[:40]!r}") from None
        raise
    found = getattr(module, "LESSON", None)
    if not isinstance(found, Lesson):
        raise UnknownLesson(f"no lesson for {key!r}")
    return found


def start(game: str, step: Step) -> State:
    """The step's start: the setup under its parameters, the prelude played on it."""
    state = get_game(game, dict(step.params)).state_from_setup(step.setup)
    for text in step.prelude:
        state.apply_action(state.read_move(text))
    return state


def play(game: str, step: Step, moves: Sequence[str]) -> State:
    """The position after the learner's ``moves`` (one, or the plies of one turn: each but
    the last must leave the learner to move), with the step's reply at a simultaneous turn
    and the generation it brings. :class:`~lifearena.errors.ParseError` for text that is no
    move, :class:`~lifearena.errors.IllegalMoveError` (the presentation's reason) for an
    illegal one."""
    state = start(game, step)
    if not moves:
        raise BadParameterError("no move given; expected the learner's move")
    for number, move in enumerate(moves):
        if number and not learner_to_move(state, step):
            raise IllegalMoveError(f"{move.strip()!r:.40}: the turn has passed; the step is "
                                   "over")
        action = state.read_move(move, step.learner)
        if state.current_player() == SIMULTANEOUS:
            if step.reply is None:
                raise BadParameterError("a simultaneous step needs the other side's reply")
            other = 1 - step.learner
            actions = [0, 0]
            actions[step.learner] = action
            actions[other] = state.read_move(step.reply, other)
            state.apply_actions(actions)
        else:
            state.apply_action(action)
    return state


def learner_to_move(state: State, step: Step) -> bool:
    """Whether the learner still has a ply to play in this turn (a sequential game whose turn
    has not passed: the queen moved, the blocks to come)."""
    return state.current_player() == step.learner


def solution_moves(step: Step) -> list[str]:
    """The moves of the step's solution (one, or the plies of one turn)."""
    return [move.strip() for move in step.solution.split(";")]


def attempt(game: str, step: Step, moves: str | Sequence[str]) -> Attempt:
    """Play the learner's ``moves`` (a move's text, or the plies so far of one turn) on the
    step's start and judge them by the step's goals; while the learner still has a ply to
    play, nothing is judged yet (:attr:`Attempt.more`)."""
    played = [moves] if isinstance(moves, str) else list(moves)
    state = play(game, step, played)
    if learner_to_move(state, step):
        return Attempt(state, False, "", played[-1].strip(), more=True)
    met = goals_met(state, step.goals, step.learner)
    return Attempt(state, met, step.success if met else step.failure, played[-1].strip())


def goals_met(state: State, goals: Sequence[Goal], learner: int) -> bool:
    """Whether every goal holds in ``state`` (the position after the learner's move)."""
    display = presentation_of(state).display(state, None)
    return all(_met(goal, state, display, learner) for goal in goals)


def _met(goal: Goal, state: State, display: Mapping[str, Any], learner: int) -> bool:
    if goal.kind == "win":
        outcome = state.outcome()
        return outcome is not None and outcome.winner == learner
    if goal.kind == "captures":
        return int(display.get("counts", [0, 0])[learner]) >= goal.count
    cells = [cell_of(display, name) for name in goal.cells]
    grid = display["grid"]["cells"]
    marked = {"born": display.get("births"), "died": display.get("deaths"),
              "collision": display.get("collisions")}.get(goal.kind)
    if marked is not None and not all(list(cell) in marked for cell in cells):
        return False
    if goal.kind == "empty" or goal.kind == "died":
        return all(grid[r][c] == 0 for r, c in cells)
    if goal.kind in ("holds", "born"):
        return all(grid[r][c] != 0 and (goal.colour is None or grid[r][c] == goal.colour)
                   for r, c in cells)
    return True


def cell_of(display: Mapping[str, Any], name: str) -> tuple[int, int]:
    """The ``(row, column)`` grid cell that the game's notation calls ``name``, from the
    display's labels and its ``cell_name`` template; :class:`BadParameterError` if none.

    >>> shown = {"grid": {"row_labels": ["2", "1"], "col_labels": ["A", "B"]},
    ...          "cell_name": "{col}{row}"}
    >>> cell_of(shown, "B2")
    (0, 1)
    """
    grid = display.get("grid")
    if not grid:
        raise BadParameterError(f"cell {name!r}: this display has no grid")
    template = display.get("cell_name") or "{col},{row}"
    for r, row in enumerate(grid["row_labels"]):
        for c, col in enumerate(grid["col_labels"]):
            if template.replace("{row}", row).replace("{col}", col) == name:
                return r, c
    raise BadParameterError(f"cell {name!r} is not on this board")
