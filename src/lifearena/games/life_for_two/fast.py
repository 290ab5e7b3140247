"""Life for Two on bitboards, compiled with numba: the rules' kernels and the compiled
opponents (``random``, ``greedy``, ``nash``) that the vector environment
(:mod:`lifearena.interop.vector.life_for_two`) runs inside its batch.

A position is two ``uint64`` masks, one per colour, in War of Life's 8x8 bitboard layout:
cell ``(y - 1) * 5 + (x - 1)`` (:mod:`.notation`) at bit ``(y - 1) * 8 + (x - 1)``. So one
generation is :func:`lifearena.games.war_of_life.fast.crank_bits`, the same Immigration rule
on its bounded 8x8 board, with what it would bear outside the 5x5 :data:`REGION` cut off
(those cells are permanently empty, so they never feed a count either): :func:`generation`.
A turn (:func:`play_turn`) places both choices, a cell chosen by both staying empty, then
runs one generation.

Said once here, for the protocol state and the compiled kernels alike: the ending rules,
:func:`ending` (:class:`~lifearena.games.life_for_two.LifeForTwoState` calls it as Python,
the kernels compiled), and the agents' :data:`WIN` score. The state keeps its own placement
and generation: it runs the engine's table-driven step (:mod:`lifearena.life`, where rules
are data) on its ``int8`` board, and its legality reads a move's cells; the tests check the
bitboard path equals it on random play.

The opponents pick what the protocol agents of :mod:`lifearena.agents.life_for_two` pick, at
their default budget, on one board's masks, drawing from that board's SplitMix64 stream
(:mod:`lifearena.life.kernels.splitmix`) where the agent draws from its own generator:

* :func:`random_choice`: uniform among the legal choices.
* :func:`greedy_choice`: ``agents.make("greedy", game="life_for_two")``: the legal choice
  with the best expected score one generation on against every opponent choice (on the
  first turn, against :data:`GREEDY_SAMPLES` distinct opponent triples drawn from the
  stream); ties broken uniformly from the stream.
* :func:`nash_choice`: ``agents.make("nash", game="life_for_two")``: the same candidate
  sets (every legal cell; on the first turn each side's :data:`NASH_CANDIDATES` best
  triples, ties ordered by a jitter drawn from the stream as the agent draws it), the same
  payoff matrix (:func:`nash_payoff`, bit for bit), an optimal mixed strategy of it by the
  simplex method (:func:`solve_matrix_game`: the agent's linear program, solved by a
  different method, so where the matrix game has several optimal strategies it may pick
  another one of them), and the move drawn from that strategy with the stream.

>>> import numpy as np
>>> board = np.zeros((5, 5), dtype=np.int8); board[1, 2] = 1; board[2, 3] = board[3, 2] = 2
>>> ones, twos = board_to_bits(board)
>>> bits_to_board(*play_turn(ones, twos, 4, 0)).tolist()[2]   # "5,1 | 1,1": the example
[0, 0, 2, 2, 0]
>>> int(OUTCOME_WINNERS[ending(0, 2, 3, 0, False)])
1
"""

from __future__ import annotations

import numpy as np
from numba import njit

from lifearena.games.life_for_two.notation import CELLS, NUM_ACTIONS, SIZE, TRIPLES
from lifearena.games.war_of_life.fast import crank_bits, lowest, popcount
from lifearena.life.kernels.splitmix import below, next_double

# -- the ending rules, said once ----------------------------------------------------------------

DIED_OUT, FIRST_WINS, SECOND_WINS, EXHAUST, LIMIT_FIRST, LIMIT_SECOND, LIMIT_EVEN, GOES_ON = \
    range(8)
"""The ending codes: how a position after a generation ends the game (both players died
out; one of them did; the turn limit with ``limit_result="draw"``; the limit with
``limit_result="population"``: more pieces wins, or even), or :data:`GOES_ON`."""
OUTCOME_WINNERS = np.array([2, 0, 1, 2, 0, 1, 2, -1], dtype=np.int64)
"""``OUTCOME_WINNERS[code]``: the winner an ending code means (0 or 1), 2 for a draw, -1
while the game goes on."""


def ending(ones: int, twos: int, turn: int, limit: int, population: bool) -> int:
    """The ending code after a generation that leaves ``ones`` pieces of player 1 (``*``) and
    ``twos`` of player 2 (``#``), ``turn`` being the number of the turn to be played next,
    ``limit`` the turn limit (0 for none) and ``population`` whether the limit goes to the
    larger side: Life for Two's ending rules, the one definition the state (as Python) and
    the compiled kernels use.

    In this order: both died out -> a draw; one died out -> the other wins; past the limit
    -> a draw, or with ``population`` the side with more pieces wins (a draw when even).

    >>> ending(0, 0, 2, 0, False) == DIED_OUT, ending(3, 0, 9, 8, True) == FIRST_WINS
    (True, True)
    >>> ending(2, 3, 9, 8, False) == EXHAUST, ending(2, 3, 9, 8, True) == LIMIT_SECOND
    (True, True)
    """
    if ones == 0 and twos == 0:
        return DIED_OUT
    if twos == 0:
        return FIRST_WINS
    if ones == 0:
        return SECOND_WINS
    if limit > 0 and turn > limit:
        if not population:
            return EXHAUST
        if ones == twos:
            return LIMIT_EVEN
        return LIMIT_FIRST if ones > twos else LIMIT_SECOND
    return GOES_ON


_ending = njit(cache=True)(ending)

# -- bitboards ----------------------------------------------------------------------------------

_ONE = np.uint64(1)
_ZERO = np.uint64(0)
BIT_OF = np.array([(c // SIZE) * 8 + c % SIZE for c in range(CELLS)], dtype=np.int64)
"""``BIT_OF[cell]``: the bitboard bit of a Life for Two cell index."""
CELL_BITS = np.array([1 << int(b) for b in BIT_OF], dtype=np.uint64)
"""``CELL_BITS[cell]``: the mask of one cell."""
REGION = np.uint64(sum(1 << int(b) for b in BIT_OF))
"""The 25 cells of the board, as a mask."""
TRIPLE_MASKS = np.array([sum(1 << int(BIT_OF[c]) for c in cells) for cells in TRIPLES],
                        dtype=np.uint64)
"""``TRIPLE_MASKS[k]``: the cells of action ``25 + k`` (a first-turn choice), as a mask."""
NUM_TRIPLES = len(TRIPLES)


def board_to_bits(board: np.ndarray) -> tuple[np.uint64, np.uint64]:
    """The two masks (player 1's, player 2's) of a 5x5 board (0 empty, 1, 2)."""
    flat = np.asarray(board).reshape(-1)
    ones = sum(int(CELL_BITS[c]) for c in np.flatnonzero(flat == 1))
    twos = sum(int(CELL_BITS[c]) for c in np.flatnonzero(flat == 2))
    return np.uint64(ones), np.uint64(twos)


def bits_to_board(ones: np.uint64, twos: np.uint64) -> np.ndarray:
    """The 5x5 ``int8`` board of two masks."""
    flat = np.zeros(CELLS, dtype=np.int8)
    for cell in range(CELLS):
        bit = CELL_BITS[cell]
        flat[cell] = 1 if ones & bit else 2 if twos & bit else 0
    return flat.reshape(SIZE, SIZE)


@njit(cache=True)
def cells_of(action: int) -> np.uint64:
    """The mask of the cells an action places (a triple or one cell)."""
    if action >= CELLS:
        return TRIPLE_MASKS[action - CELLS]  # type: ignore[no-any-return]
    return CELL_BITS[action]  # type: ignore[no-any-return]


@njit(cache=True)
def is_legal(occupied: np.uint64, turn: int, action: int) -> bool:
    """Whether ``action`` may be chosen on turn ``turn`` with the cells ``occupied`` taken
    (the same for both players): three empty cells on turn 1, one empty cell later."""
    if turn == 1:
        return CELLS <= action < NUM_ACTIONS and (TRIPLE_MASKS[action - CELLS] & occupied) == 0
    return 0 <= action < CELLS and (CELL_BITS[max(action, 0)] & occupied) == 0


@njit(cache=True)
def legal_actions(occupied: np.uint64, turn: int) -> np.ndarray:
    """The legal actions, ascending (the state's ``legal_actions`` order)."""
    if turn == 1:
        out = np.empty(NUM_TRIPLES, dtype=np.int64)
        count = 0
        for k in range(NUM_TRIPLES):
            if (TRIPLE_MASKS[k] & occupied) == 0:
                out[count] = CELLS + k
                count += 1
        return out[:count]
    out = np.empty(CELLS, dtype=np.int64)
    count = 0
    for cell in range(CELLS):
        if (CELL_BITS[cell] & occupied) == 0:
            out[count] = cell
            count += 1
    return out[:count]


@njit(cache=True)
def generation(ones: np.uint64, twos: np.uint64) -> tuple[np.uint64, np.uint64]:
    """One Immigration generation on the 5x5 board."""
    a, b = crank_bits(ones, twos)
    return a & REGION, b & REGION


@njit(cache=True)
def play_turn(ones: np.uint64, twos: np.uint64, first: int, second: int
              ) -> tuple[np.uint64, np.uint64]:
    """The masks after a turn: player 1 chooses ``first``, player 2 ``second`` (both legal),
    a cell chosen by both stays empty, then one generation."""
    cells0, cells1 = cells_of(first), cells_of(second)
    both = cells0 & cells1
    return generation(ones | (cells0 & ~both), twos | (cells1 & ~both))


@njit(cache=True)
def outcome_code(ones: np.uint64, twos: np.uint64, turn: int, limit: int, population: bool
                 ) -> int:
    """:func:`ending` of two masks (``turn`` the turn to be played next)."""
    return _ending(popcount(ones), popcount(twos), turn, limit, population)


# -- the opponents ------------------------------------------------------------------------------

OPPONENTS = ("random", "greedy", "nash")
"""The compiled opponents, by kind number (their index here)."""
RANDOM, GREEDY, NASH = range(3)
WIN = 100.0
"""The agents' score of a position where only my pieces are left (minus it where only the
opponent's are)."""
GREEDY_SAMPLES = 16
"""How many opponent triples the greedy player's first-turn model samples."""
NASH_CANDIDATES, NASH_REPLIES, NASH_FOLLOW, NASH_LOOKAHEAD = 24, 10, 1.0, 1.0
"""The matrix-game player's default budget (``candidates``, ``replies``, ``follow``,
``lookahead`` of :class:`~lifearena.agents.life_for_two.NashAgent`)."""


@njit(cache=True)
def score(ones: np.uint64, twos: np.uint64, player: int, win: float) -> float:
    """``player``'s pieces minus the opponent's, ``+-win`` when one side is extinct, 0 when
    both are (the agents' ``scores``)."""
    a, b = popcount(ones), popcount(twos)
    own, other = (a, b) if player == 0 else (b, a)
    if other == 0 and own > 0:
        return win
    if own == 0 and other > 0:
        return -win
    return float(own - other)


@njit(cache=True)
def random_choice(occupied: np.uint64, turn: int, rng: np.ndarray, i: int) -> int:
    """A choice uniform among the legal ones, from stream ``i`` (on turn 1 triples drawn
    until one is free)."""
    if turn == 1:
        while True:
            k = below(rng, i, NUM_TRIPLES)
            if (TRIPLE_MASKS[k] & occupied) == 0:
                return CELLS + k
    empty = REGION & ~occupied
    for _ in range(below(rng, i, popcount(empty))):  # the k-th empty cell, in cell order
        empty &= empty - _ONE
    bit = lowest(empty)
    return (bit >> 3) * SIZE + (bit & 7)


@njit(cache=True)
def greedy_model(occupied: np.uint64, turn: int, rng: np.ndarray, i: int, samples: int
                 ) -> np.ndarray:
    """The opponent choices the greedy player weighs, ascending: every legal one, or on turn
    1, when there are more than ``samples``, ``samples`` distinct ones drawn uniformly from
    stream ``i``."""
    theirs = legal_actions(occupied, turn)
    if turn != 1 or len(theirs) <= samples:
        return theirs
    taken = np.zeros(len(theirs), dtype=np.bool_)
    for _ in range(samples):
        k = below(rng, i, len(theirs))
        while taken[k]:
            k = below(rng, i, len(theirs))
        taken[k] = True
    return theirs[taken]


@njit(cache=True)
def greedy_best(ones: np.uint64, twos: np.uint64, turn: int, player: int, theirs: np.ndarray
                ) -> np.ndarray:
    """``player``'s legal choices with the best expected score one generation on, the
    opponent choosing uniformly among ``theirs`` (ascending)."""
    mine = legal_actions(ones | twos, turn)
    totals = np.empty(len(mine), dtype=np.float64)
    for r in range(len(mine)):
        total = 0.0  # integer-valued: exact, so equal totals are equal means
        for c in range(len(theirs)):
            if player == 0:
                a, b = play_turn(ones, twos, mine[r], theirs[c])
            else:
                a, b = play_turn(ones, twos, theirs[c], mine[r])
            total += score(a, b, player, WIN)
        totals[r] = total
    best: np.ndarray = mine[totals == totals.max()]
    return best


@njit(cache=True)
def greedy_choice(ones: np.uint64, twos: np.uint64, turn: int, player: int, rng: np.ndarray,
                  i: int) -> int:
    """The greedy player's choice for ``player`` (see the module doc), drawing from stream
    ``i``: the sample of opponent triples on turn 1, then the tie-break."""
    theirs = greedy_model(ones | twos, turn, rng, i, GREEDY_SAMPLES)
    best = greedy_best(ones, twos, turn, player, theirs)
    return best[below(rng, i, len(best))]  # type: ignore[no-any-return]


@njit(cache=True)
def triple_shortlist(ones: np.uint64, twos: np.uint64, player: int, legal: np.ndarray,
                     jitter: np.ndarray, keep: int) -> np.ndarray:
    """The ``keep`` first-turn choices of ``legal`` that leave ``player`` most pieces after
    one and two generations played alone, ascending; ``1e-3 * jitter[k]`` orders the ties
    (the agent's ``_shortlist``)."""
    n = len(legal)
    value = np.empty(n, dtype=np.float64)
    for k in range(n):
        cells = cells_of(legal[k])
        a, b = (ones | cells, twos) if player == 0 else (ones, twos | cells)
        a1, b1 = generation(a, b)
        a2, b2 = generation(a1, b1)
        pops = popcount(a1) + popcount(a2) if player == 0 else popcount(b1) + popcount(b2)
        value[k] = pops + 1e-3 * jitter[k]
    taken = np.zeros(n, dtype=np.bool_)
    for _ in range(min(keep, n)):
        best = -1
        for k in range(n):  # the first of the largest, as a stable sort of -value
            if not taken[k] and (best < 0 or value[k] > value[best]):
                best = k
        taken[best] = True
    return legal[taken]


@njit(cache=True)
def cell_shortlist(ones: np.uint64, twos: np.uint64, player: int, k: int) -> np.ndarray:
    """The masks of the ``k`` empty cells that look best for ``player`` played alone (score
    after one generation plus after one more, a wipe-out there counting ``WIN / 2``), best
    first, ties by cell; 0 (placing nothing) in the slots of occupied cells when fewer than
    ``k`` are empty (the agent's ``_cell_shortlist``)."""
    occupied = ones | twos
    value = np.empty(CELLS, dtype=np.float64)
    for cell in range(CELLS):
        bit = CELL_BITS[cell]
        if bit & occupied:
            value[cell] = -np.inf
            continue
        a, b = (ones | bit, twos) if player == 0 else (ones, twos | bit)
        a1, b1 = generation(a, b)
        a2, b2 = generation(a1, b1)
        value[cell] = score(a1, b1, player, WIN) + score(a2, b2, player, WIN / 2)
    out = np.zeros(min(k, CELLS), dtype=np.uint64)
    taken = np.zeros(CELLS, dtype=np.bool_)
    for slot in range(len(out)):
        best = -1
        for cell in range(CELLS):
            if not taken[cell] and (best < 0 or value[cell] > value[best]):
                best = cell
        taken[best] = True
        out[slot] = CELL_BITS[best] & ~occupied
    return out


@njit(cache=True)
def reply_value(ones: np.uint64, twos: np.uint64, player: int, k: int, follow: float
                ) -> float:
    """The estimate of next turn's matrix game on a board (the agent's ``_reply_values``):
    each side among its ``k`` best cells (:func:`cell_shortlist`), the payoff the score
    after that generation (a wipe-out counting ``WIN / 2``) plus ``follow`` times the score
    one generation later (``WIN / 4``); the midpoint of the pure maximin and minimax."""
    mine = cell_shortlist(ones, twos, player, k)
    theirs = cell_shortlist(ones, twos, 1 - player, k)
    rows, cols = len(mine), len(theirs)
    matrix = np.empty((rows, cols), dtype=np.float64)
    for r in range(rows):
        for c in range(cols):
            put_mine, put_theirs = mine[r] & ~theirs[c], theirs[c] & ~mine[r]
            if player == 0:
                a, b = generation(ones | put_mine, twos | put_theirs)
            else:
                a, b = generation(ones | put_theirs, twos | put_mine)
            value = score(a, b, player, WIN / 2)
            if follow != 0.0 and abs(value) < WIN / 2:
                a, b = generation(a, b)
                value += follow * score(a, b, player, WIN / 4)
            matrix[r, c] = value
    maximin = -np.inf
    for r in range(rows):
        maximin = max(maximin, matrix[r].min())
    minimax = np.inf
    for c in range(cols):
        minimax = min(minimax, matrix[:, c].max())
    return 0.5 * (maximin + minimax)


@njit(cache=True)
def nash_payoff(ones: np.uint64, twos: np.uint64, player: int, mine: np.ndarray,
                theirs: np.ndarray, replies: int, follow: float, lookahead: float,
                horizon: int) -> np.ndarray:
    """``player``'s payoff for each (my choice, their choice) pair: the score after the
    turn's generation, plus where no side was wiped out ``lookahead`` times
    :func:`reply_value` (or with ``replies=0`` the scores of ``horizon`` more generations
    without placements, each weighted by a further factor ``lookahead``): the agent's
    ``payoff``, bit for bit."""
    out = np.empty((len(mine), len(theirs)), dtype=np.float64)
    for r in range(len(mine)):
        for c in range(len(theirs)):
            if player == 0:
                a, b = play_turn(ones, twos, mine[r], theirs[c])
            else:
                a, b = play_turn(ones, twos, theirs[c], mine[r])
            value = score(a, b, player, WIN)
            if abs(value) < WIN:
                if replies > 0:
                    value += lookahead * reply_value(a, b, player, replies, follow)
                elif lookahead != 0.0:
                    weight = 1.0
                    for _ in range(horizon):
                        weight *= lookahead
                        a, b = generation(a, b)
                        value += weight * score(a, b, player, WIN / 2)
            out[r, c] = value
    return out


_PIVOT_EPS = 1e-9
_MAX_PIVOTS = 10_000


@njit(cache=True)
def solve_matrix_game(payoff: np.ndarray) -> tuple[np.ndarray, float]:
    """An optimal mixed strategy of the row player and the value of the zero-sum game
    ``payoff`` (rows: my moves; entries: my payoff): the linear program of
    :func:`lifearena.agents.life_for_two.solve_matrix_game`, solved by the simplex method.

    The payoff is shifted to be at least 1 (the game's value then positive); the column
    player's program, maximise ``sum(q)`` subject to ``B q <= 1``, ``q >= 0``, starts
    feasible at 0; Bland's rule (lowest entering column, then lowest leaving basis index)
    cannot cycle. At the optimum the slacks' reduced costs are the row player's dual
    solution ``p`` (``sum(p) = sum(q) = 1 / value``), whose normalisation is the strategy.
    """
    m, n = payoff.shape
    shift = 1.0 - payoff.min()
    width = n + m + 1
    table = np.zeros((m + 1, width), dtype=np.float64)
    for r in range(m):
        for c in range(n):
            table[r, c] = payoff[r, c] + shift
        table[r, n + r] = 1.0
        table[r, width - 1] = 1.0
    for c in range(n):
        table[m, c] = -1.0
    basis = np.arange(n, n + m)
    for _ in range(_MAX_PIVOTS):
        col = -1
        for c in range(width - 1):
            if table[m, c] < -_PIVOT_EPS:
                col = c
                break
        if col < 0:
            break
        row = -1
        best = np.inf
        for r in range(m):
            if table[r, col] > _PIVOT_EPS:
                ratio = table[r, width - 1] / table[r, col]
                if row < 0 or ratio < best - _PIVOT_EPS or (
                        ratio <= best + _PIVOT_EPS and basis[r] < basis[row]):
                    row, best = r, min(ratio, best)
        pivot = table[row, col]
        for c in range(width):
            table[row, c] /= pivot
        for r in range(m + 1):
            factor = table[r, col]
            if r != row and factor != 0.0:
                for c in range(width):
                    table[r, c] -= factor * table[row, c]
        basis[row] = col
    strategy = np.empty(m, dtype=np.float64)
    for r in range(m):
        strategy[r] = max(table[m, n + r], 0.0)
    total = strategy.sum()
    strategy /= total
    return strategy, 1.0 / total - shift


@njit(cache=True)
def draw_index(strategy: np.ndarray, rng: np.ndarray, i: int) -> int:
    """An index drawn with the probabilities ``strategy`` from stream ``i`` (one double
    against the cumulative sums, as numpy's ``Generator.choice`` with ``p`` draws)."""
    cdf = np.cumsum(strategy)
    cdf /= cdf[-1]
    u = next_double(rng, i)
    for k in range(len(cdf)):
        if cdf[k] > u:
            return k
    return len(cdf) - 1


@njit(cache=True)
def nash_candidates(ones: np.uint64, twos: np.uint64, turn: int, player: int,
                    rng: np.ndarray, i: int, candidates: int
                    ) -> tuple[np.ndarray, np.ndarray]:
    """The matrix game's rows (``player``'s choices) and columns (the opponent's): every
    legal choice, or on turn 1 each side's :func:`triple_shortlist`, the jitter drawn from
    stream ``i`` (``player``'s first, one double per legal triple, as the agent draws it)."""
    mine = legal_actions(ones | twos, turn)
    theirs = mine.copy()  # legality depends on the occupied cells only
    if turn == 1:
        if len(mine) > candidates:
            jitter = np.empty(len(mine), dtype=np.float64)
            for k in range(len(mine)):
                jitter[k] = next_double(rng, i)
            mine = triple_shortlist(ones, twos, player, mine, jitter, candidates)
        if len(theirs) > candidates:
            jitter = np.empty(len(theirs), dtype=np.float64)
            for k in range(len(theirs)):
                jitter[k] = next_double(rng, i)
            theirs = triple_shortlist(ones, twos, 1 - player, theirs, jitter, candidates)
    return mine, theirs


@njit(cache=True)
def nash_choice(ones: np.uint64, twos: np.uint64, turn: int, player: int, rng: np.ndarray,
                i: int) -> int:
    """The matrix-game player's choice for ``player`` at the default budget (see the module
    doc), drawing from stream ``i``."""
    mine, theirs = nash_candidates(ones, twos, turn, player, rng, i, NASH_CANDIDATES)
    payoff = nash_payoff(ones, twos, player, mine, theirs, NASH_REPLIES, NASH_FOLLOW,
                         NASH_LOOKAHEAD, 1)
    strategy, _ = solve_matrix_game(payoff)
    return mine[draw_index(strategy, rng, i)]  # type: ignore[no-any-return]


@njit(cache=True)
def opponent_choice(kind: int, ones: np.uint64, twos: np.uint64, turn: int, player: int,
                    rng: np.ndarray, i: int) -> int:
    """The choice of the compiled opponent ``kind`` (:data:`OPPONENTS`) playing ``player``
    on board ``i``."""
    if kind == GREEDY:
        return greedy_choice(ones, twos, turn, player, rng, i)
    if kind == NASH:
        return nash_choice(ones, twos, turn, player, rng, i)
    return random_choice(ones | twos, turn, rng, i)
