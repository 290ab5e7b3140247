"""Each game's judge: the search the analysis asks about a position, and at what budget.

A judge takes a position and the record's move(s) there and gives a
:class:`~lifearena.analysis.verdict.Verdict`. Every budget is fixed (depth, nodes or
simulations with a fixed seed, never time), so an analysis is the same on every machine and
can be cached:

* **War of Life** — alpha-beta, :data:`WAR_OF_LIFE_DEPTH` plies, compiled on bitboards
  (:mod:`lifearena.analysis.war_of_life_search`); land-grab at the horizon, squashed with
  :data:`WAR_OF_LIFE_PIECES` pieces.
* **Losat** — the game's alpha-beta (``agents.make("alphabeta", game="losat")``) to
  :data:`LOSAT_DEPTH` plies; its evaluation in [-1, 1] times 0.9.
* **p2life** — MCTS (``agents.make("mcts")``), :data:`P2LIFE_SIMULATIONS` simulations,
  playouts cut at :data:`P2LIFE_ROLLOUT` turns, seed :data:`SEED`; the mean return of the
  root's choices (the coin is the game's own seeded coin; the playouts' randomness makes
  the value an expectation).
* **blocking queen** — exact, from the palace numbers
  (:mod:`lifearena.analysis.queen`).
* **Life for Two** — the matrix-game solver of the ``nash`` agent: its payoff model, solved
  by linear programming for both sides' optimal mixed strategies; a turn where every joint
  move ends the game is solved exactly on the games' results
  (:mod:`lifearena.analysis.life_for_two`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from lifearena.analysis.scale import ESTIMATE_CAP, squash
from lifearena.analysis.verdict import SideVerdict, Verdict
from lifearena.core import SIMULTANEOUS, State

Judge = Callable[[State, Sequence[int] | None], Verdict]
"""``judge(state, played)``: the verdict on a position that goes on; ``played`` is the
record's action there (one per side on a simultaneous turn), or ``None``."""

SEED = 0
"""The seed of every search that draws random numbers."""
WAR_OF_LIFE_DEPTH = 5
"""War of Life's search depth, plies."""
WAR_OF_LIFE_PIECES = 16.0
"""A lead of this many pieces is an expected score of 0.9 * tanh(1) = 0.69 (one piece
is 0.056, four 0.22)."""
LOSAT_DEPTH = 2
"""Losat's search depth, plies."""
P2LIFE_SIMULATIONS = 100
"""p2life's MCTS simulations per position and side."""
P2LIFE_ROLLOUT = 10
"""p2life's playouts stop after this many turns and score the position by the game's
evaluation (the token difference over the total): whole playouts of up to 256 generations
cost ten times as much for little more."""


def _war_of_life(state: State, played: Sequence[int] | None) -> Verdict:
    from lifearena.analysis.war_of_life_search import WIN, move_value, search

    def scaled(value: float) -> float:
        if abs(value) > 1.5:  # a finished game inside the horizon: proven
            return 1.0 if value > 0 else -1.0
        return squash(value * 64, WAR_OF_LIFE_PIECES)

    player = state.current_player()
    value, best = search(state, WAR_OF_LIFE_DEPTH)
    side = SideVerdict(player, [state.action_to_string(best, player)])
    if played:
        kept = scaled(move_value(state, played[0], WAR_OF_LIFE_DEPTH))
        side = SideVerdict(player, side.best, None, state.action_to_string(played[0], player),
                           max(0.0, scaled(value) - kept))
    exact = abs(value) > 1.5 and abs(value) <= WIN
    mine = scaled(value)
    return Verdict(mine if player == 0 else -mine, exact, [side])


def _alphabeta(depth: int) -> Judge:
    """A sequential game's judge by its registered alpha-beta at ``depth`` plies: the value
    of the position, and of the played move as the value of the position after it searched
    one ply less."""

    def scaled(value: float) -> float:
        if abs(value) > 1.5:
            return 1.0 if value > 0 else -1.0
        return ESTIMATE_CAP * max(-1.0, min(1.0, value))

    def value_of(state: State, depth: int) -> tuple[float, int | None]:
        from lifearena import agents
        from lifearena.agents.base import Limit

        player = state.current_player()
        if state.is_terminal():
            return 0.0, None
        agent = agents.make("alphabeta", game=state.info.name, seed=SEED)
        action = agent.act(state, player, Limit(depth=depth))
        return scaled(agent.stats.value), int(action)

    def judge(state: State, played: Sequence[int] | None) -> Verdict:
        player = state.current_player()
        value, best = value_of(state, depth)
        assert best is not None
        side = SideVerdict(player, [state.action_to_string(best, player)])
        if played:
            child = state.clone()
            child.apply_action(played[0])
            if child.is_terminal():
                kept = float(child.returns()[player])
            else:
                after, _ = value_of(child, max(1, depth - 1))
                kept = after if child.current_player() == player else -after
            side = SideVerdict(player, side.best, None,
                               state.action_to_string(played[0], player),
                               max(0.0, value - kept))
        return Verdict(value if player == 0 else -value, abs(value) == 1.0, [side])

    return judge


def _p2life(state: State, played: Sequence[int] | None) -> Verdict:
    from lifearena.analysis.p2life import judge

    return judge(state, played, P2LIFE_SIMULATIONS, P2LIFE_ROLLOUT, SEED)


def _queen(state: State, played: Sequence[int] | None) -> Verdict:
    from lifearena.analysis.queen import judge

    return judge(state, played)


def _life_for_two(state: State, played: Sequence[int] | None) -> Verdict:
    from lifearena.analysis.life_for_two import judge

    return judge(state, played, SEED)


JUDGES: dict[str, Judge] = {
    "war_of_life": _war_of_life,
    "losat": _alphabeta(LOSAT_DEPTH),
    "p2life": _p2life,
    "blocking_queen": _queen,
    "life_for_two": _life_for_two,
}
"""Each game's judge, by the game's name."""

METHODS: dict[str, str] = {
    "war_of_life": f"alpha-beta, depth {WAR_OF_LIFE_DEPTH} (compiled)",
    "losat": f"alpha-beta, depth {LOSAT_DEPTH}",
    "p2life": (f"MCTS, {P2LIFE_SIMULATIONS} simulations a side, playouts of "
               f"{P2LIFE_ROLLOUT} turns, seed {SEED}"),
    "blocking_queen": "exact (palace numbers)",
    "life_for_two": "matrix-game solver (nash model); last turns exact",
}
"""The search behind each game's analysis, in words (the analysis says it)."""


def acting(state: State) -> list[int]:
    """The sides that act in ``state``: both on a simultaneous turn, else the mover."""
    current = state.current_player()
    return [0, 1] if current == SIMULTANEOUS else [current]
