"""Analysing a record: every position judged by its game's search (:mod:`.engines`).

>>> from lifearena.core import Record
>>> record = Record("blocking_queen", {"k": 1}, "2,2", ["a", "b"], ["1,1", "0,0"])
>>> result = analyse(record)   # from 2,2 the origin is in reach; 1,1 gives it away
>>> [(p.eval, p.sides[0].played, p.sides[0].mark) for p in result.plies]
[(1.0, '1,1', 'blunder'), (1.0, '0,0', None)]
>>> result.final, result.finished
(-1.0, True)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from lifearena.analysis.engines import JUDGES, METHODS, acting
from lifearena.analysis.model import Analysis, PlyAnalysis
from lifearena.analysis.verdict import Verdict
from lifearena.core import SIMULTANEOUS, Record, State, presentation_of, replay_positions
from lifearena.errors import BadParameterError, ParseError

Progress = Callable[[int, int], None]
"""``progress(done, total)``: told after each position judged."""

MAX_PLIES = 1000
"""The most moves a record may have to be analysed (the longest game of the five, War of
Life's, has 250; a queen game at most about 3 * 127 * k plies)."""


def _check(record: Record) -> None:
    if record.game not in JUDGES:
        raise BadParameterError(f"no analysis of game {record.game[:40]!r}; expected one of "
                                f"{', '.join(JUDGES)}")
    if len(record.moves) > MAX_PLIES:
        raise BadParameterError(f"record of {len(record.moves)} moves; expected at most "
                                f"{MAX_PLIES} to analyse")


def played_actions(state: State, text: str) -> list[int]:
    """The action(s) ``text`` plays in ``state`` (one per side on a simultaneous turn), as
    :func:`~lifearena.core.replay_positions` reads them."""
    if state.current_player() == SIMULTANEOUS:
        parts = [p.strip() for p in text.split("|")]
        return [state.string_to_action(p, i) for i, p in enumerate(parts)]
    return [state.string_to_action(text, state.current_player())]


def positions(record: Record) -> list[State]:
    """Every position of ``record`` (copies), start first; :class:`ParseError` naming the
    first bad move."""
    return [state.clone() for state in replay_positions(record)]


def judge(state: State, played: Sequence[int] | None = None) -> Verdict:
    """The verdict of ``state``'s game's search on ``state`` (one that goes on)."""
    return JUDGES[state.info.name](state, played)


def analyse(record: Record, progress: Progress | None = None) -> Analysis:
    """The analysis of every position of ``record`` (see :mod:`lifearena.analysis.model`);
    :class:`BadParameterError` for a game without one or a record too long, and
    :class:`ParseError` for a record that does not replay."""
    _check(record)
    states = positions(record)
    plies: list[PlyAnalysis] = []
    total = len(record.moves)
    for number, (state, text) in enumerate(zip(states, record.moves, strict=False)):
        verdict = judge(state, played_actions(state, text))
        mover = acting(state)[0]
        plies.append(PlyAnalysis(number, verdict.value_for(mover), verdict.value,
                                 verdict.exact, verdict.sides))
        if progress is not None:
            progress(number + 1, total)
    last = states[-1]
    final = float(last.returns()[0]) if last.is_terminal() else judge(last).value
    return Analysis(record.game, list(record.players), METHODS[record.game], plies, final,
                    last.is_terminal())


def analyse_position(record: Record) -> dict[str, Any]:
    """The last position of ``record`` as a board shows it (the presentation's ``display``,
    and each side's ``interaction`` and ``choices``) with the search's verdict on it
    (``None`` once the game is over): what an analysis board needs to play a variation."""
    _check(record)
    state = positions(record)[-1]
    shown = presentation_of(state)
    verdict = None if state.is_terminal() else judge(state)
    sides = acting(state) if not state.is_terminal() else []
    outcome = state.outcome()
    return {
        "game": record.game,
        "ply": len(record.moves),
        "display": shown.display(state, None),
        "to_move": sides,
        "interaction": {str(p): shown.interaction(state, p).to_dict() for p in sides},
        "choices": {str(p): [c.to_dict() for c in shown.choices(state, p)] for p in sides},
        "over": state.is_terminal(),
        "outcome": None if outcome is None else outcome.to_dict(),
        "method": METHODS[record.game],
        "verdict": None if verdict is None else {
            "eval_first": round(verdict.value, 4),
            "exact": verdict.exact,
            "sides": [s.to_dict() for s in verdict.sides]},
    }


__all__ = ["MAX_PLIES", "ParseError", "analyse", "analyse_position", "judge",
           "played_actions", "positions"]
