"""The blocking queen game judged exactly, from its palace numbers.

A palace is a square such that whoever moves the queen there wins
(:mod:`lifearena.games.blocking_queen.palace`: fewer than k palaces in reach). So:

* the side about to move the queen wins exactly when an unblocked palace is in reach;
* the side blocking, the queen on q with ``b`` blocks left, wins exactly when at most ``b``
  palaces in reach of q are still unblocked (it blocks them all; whatever the opponent then
  reaches is no palace, or nothing at all).

A winning position is worth +1 to its side to move, a lost one -1; the best moves of a won
position are every move that keeps the win (the test checks them against a brute-force
search of the game tree), of a lost one the perfect player's choice.

>>> from lifearena.games.blocking_queen import BlockingQueen
>>> wins(BlockingQueen.from_setup("2,2", k=1)), wins(BlockingQueen.from_setup("3,5", k=1))
(True, False)
"""

from __future__ import annotations

from collections.abc import Sequence

from lifearena.agents.blocking_queen import PerfectAgent, is_palace
from lifearena.analysis.verdict import SideVerdict, Verdict
from lifearena.core import State
from lifearena.games.blocking_queen import BlockingQueen, options


def wins(state: State) -> bool:
    """Whether the side to act in the queen game ``state`` (one that goes on) wins with
    perfect play."""
    assert isinstance(state, BlockingQueen) and not state.is_terminal()
    k = state.k
    if not state.blocking:
        return any(is_palace(k, s) for s in state.queen_moves())
    open_palaces = [s for s in options(*state.queen) if is_palace(k, s)
                    and s not in state.blocked]
    return len(open_palaces) <= state.blocks_left


def wins_after(state: State, action: int) -> bool:
    """Whether the side acting in ``state`` wins once it has played the legal ``action``."""
    mover = state.current_player()
    child = state.clone()
    child.apply_action(action)
    if child.is_terminal():
        return child.returns()[mover] > 0
    return wins(child) if child.current_player() == mover else not wins(child)


def winning_moves(state: State) -> list[int]:
    """Every legal action of the side acting in ``state`` that keeps a win."""
    return [a for a in state.legal_actions() if wins_after(state, a)]


def judge(state: State, played: Sequence[int] | None) -> Verdict:
    """The exact verdict on a queen-game position that goes on."""
    player = state.current_player()
    won = wins(state)
    value = 1.0 if won else -1.0
    best = winning_moves(state) if won else [PerfectAgent().act(state, player)]
    side = SideVerdict(player, [state.action_to_string(a, player) for a in best])
    if played:
        kept = 1.0 if wins_after(state, played[0]) else -1.0
        side = SideVerdict(player, side.best, None,
                           state.action_to_string(played[0], player), value - kept)
    return Verdict(value if player == 0 else -value, True, [side])
