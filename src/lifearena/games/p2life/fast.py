"""p2life's rules in numba's subset: the kernels of the compiled paths (the vector
environment :mod:`lifearena.interop.vector.p2life` wraps them) and the rules the protocol
state shares with them.

A board here is a flat ``int8`` row of ``height * width`` cells in reading order (0 empty,
1 white, 2 black); actions are the game's (:mod:`lifearena.games.p2life.notation`): 0 pass,
``1 + cell`` place, ``1 + n + cell`` remove.

**Said once.** The ending rules (:func:`ending`), legality (:func:`is_legal`) and how both
choices of a turn land on the board (:func:`apply_choices`) are plain functions that the
protocol state (:class:`~lifearena.games.p2life.rules.P2LifeState`) calls as Python and the
kernels here call compiled. The generation is the exception: the state runs it with the
engine's :func:`lifearena.life.step.step` (the engine's rule as data, tested against the
engine's reference step, and vectorised over the board), while :func:`run_generation` here loops
over one board's cells with the neighbour table of :mod:`lifearena.life.kernels.neighbours`
and the compiled coin of :mod:`lifearena.life.kernels.coin`; run as Python it would make
the state hundreds of times slower, so the two are checked equal by the tests instead.

**Opponents.** :func:`random_choice` and :func:`greedy_choice` pick, on one board and from
that board's SplitMix64 stream (:mod:`lifearena.life.kernels.splitmix`), the moves of
``agents.make("random", game="p2life")`` and ``agents.make("greedy", game="p2life")``:
random is uniform over the legal moves (pass, the places, the removals);
greedy scores each legal move exactly as :func:`lifearena.agents.p2life.score_moves` does
(the opponent passing, the coming generation with its very coins) and draws among the best
from the board's stream, where the protocol agent draws from its own generator: the tests
check the compiled choice is always one of the agent's best.

A kernel that calls these keeps their code in numba's cache of it, which is renewed only when
the caller's own file changes: after editing this module, delete the cached kernels of its
callers (``__pycache__/*.nbi`` and ``*.nbc`` beside :mod:`lifearena.interop.vector.p2life`)
before timing or testing them.

>>> from lifearena.life.kernels.neighbours import neighbour_table
>>> cells = np.array([0, 1, 0, 0, 1, 0, 0, 1, 0], np.int8)  # a blinker
>>> scratch = np.zeros(10, np.int8)
>>> run_generation(cells, scratch, neighbour_table(3, 3, False), np.uint64(0), 0)
>>> cells.reshape(3, 3).tolist()
[[0, 0, 0], [1, 1, 1], [0, 0, 0]]
>>> names = ("died out", "white wins", "black wins", "white ahead", "black ahead", "level")
>>> names[ending(4, 0, 3, 64)], names[ending(5, 4, 64, 64)], ending(5, 4, 3, 64) == GOES_ON
('white wins', 'white ahead', True)
"""

from __future__ import annotations

import numpy as np
from numba import njit

from lifearena.life.kernels.coin import coin_colour
from lifearena.life.kernels.splitmix import below, next_double
from lifearena.life.rules import COIN, Rule

TABLE = Rule.named("p2life").table.astype(np.int8)
"""The engine's p2life rule: ``TABLE[state, white neighbours, black neighbours]`` is the next
state, :data:`~lifearena.life.rules.COIN` for a 3-vs-3 birth."""
WEIGHT = np.array([0, 1, 9], np.int8)
"""What a cell adds to its neighbours' sums: 1 for white, 9 for black, so that one sum over
the eight neighbours, ``white + 9 * black`` (at most 72), says both counts."""


def _summed_table() -> np.ndarray:
    """:data:`TABLE` indexed by a cell's weight and its neighbours' weighted sum."""
    summed = np.zeros((int(WEIGHT[2]) + 1, 9 * 8 + 1), np.int8)
    for state in range(3):
        for white in range(9):
            for black in range(9 - white):
                summed[WEIGHT[state], white + 9 * black] = TABLE[state, white, black]
    return summed


SUMMED = _summed_table()
"""``SUMMED[WEIGHT[state], white + 9 * black] == TABLE[state, white, black]``: the rule as
the generation reads it, one sum per cell instead of two counts (a fifth faster)."""


# -- the ending rules, said once ----------------------------------------------------------------

DIED_OUT, WHITE_WINS, BLACK_WINS, WHITE_AHEAD, BLACK_AHEAD, LEVEL, GOES_ON = range(7)
"""The ending codes: how a position ends the game (both sides died out, one did, or the
generation limit with white ahead, black ahead or level), or :data:`GOES_ON`."""


def ending(white: int, black: int, generation: int, max_generations: int) -> int:
    """The ending code of a position with ``white`` and ``black`` tokens after
    ``generation`` generations of at most ``max_generations``: p2life's ending rules, the one
    definition the state (as Python) and the compiled kernels use.

    In this order: no tokens at all -> died out (a draw); no black -> white wins; no white ->
    black wins; the generation limit reached -> the side with more tokens wins (level: a
    draw).
    """
    if white == 0 and black == 0:
        return DIED_OUT
    if black == 0:
        return WHITE_WINS
    if white == 0:
        return BLACK_WINS
    if generation >= max_generations:
        return WHITE_AHEAD if white > black else BLACK_AHEAD if black > white else LEVEL
    return GOES_ON


def winner(code: int) -> int:
    """The winner an ending code means: 0 (white), 1 (black), 2 for a draw, -1 while the
    game goes on."""
    if code in (WHITE_WINS, WHITE_AHEAD):
        return 0
    if code in (BLACK_WINS, BLACK_AHEAD):
        return 1
    return -1 if code == GOES_ON else 2


ending_compiled = njit(cache=True)(ending)
winner_compiled = njit(cache=True)(winner)
"""The ending rules compiled, for the kernels here and the vector environment's."""


@njit(cache=True)
def outcome(cells: np.ndarray, generation: int, max_generations: int) -> int:
    """The ending code of the flat board ``cells`` (:func:`ending` on its populations)."""
    white, black = 0, 0
    for cell in range(cells.shape[0]):
        white += cells[cell] & 1  # cells hold 0, 1 or 2
        black += cells[cell] >> 1
    return ending_compiled(white, black, generation, max_generations)


# -- a turn: legality, both choices, the generation ---------------------------------------------


def is_legal(cells: np.ndarray, player: int, action: int) -> bool:
    """Whether ``player`` may play ``action`` on the flat board ``cells`` of a game that goes
    on: pass always; place on an empty cell; remove one of their own tokens."""
    n = cells.shape[0]
    if action == 0:
        return True
    if action < 0 or action > 2 * n:
        return False
    if action <= n:
        return bool(cells[action - 1] == 0)
    return bool(cells[action - 1 - n] == player + 1)


def apply_choices(cells: np.ndarray, first: int, second: int) -> None:
    """Both players' legal choices of a turn (seat 0's, seat 1's) on the flat board
    ``cells``, in place: a removal empties its cell; a placement fills its cell unless the
    other player placed on the same cell (a collision leaves it empty)."""
    n = cells.shape[0]
    for player in range(2):
        action = first if player == 0 else second
        other = second if player == 0 else first
        if action == 0:
            continue
        if action > n:
            cells[action - 1 - n] = 0
        elif action != other:
            cells[action - 1] = player + 1


is_legal_compiled = njit(cache=True)(is_legal)
apply_choices_compiled = njit(cache=True)(apply_choices)
"""The turn's rules compiled, for the kernels here and the vector environment's."""


@njit(inline="always")
def _weigh(cells: np.ndarray, scratch: np.ndarray) -> None:
    """``scratch``: each cell's :data:`WEIGHT`, then one always-empty cell past the board."""
    n = cells.shape[0]
    for cell in range(n):
        scratch[cell] = WEIGHT[cells[cell]]
    scratch[n] = 0


@njit(inline="always")  # a call per cell (not inlined) slows the vector step by 40%
def _next_state(scratch: np.ndarray, neighbours: np.ndarray, cell: int, seed: np.uint64,
                generation: int) -> int:
    """``cell``'s state after the generation, read from ``scratch`` (the board's weights,
    :func:`_weigh`)."""
    total = 0
    for k in range(8):
        total += scratch[neighbours[cell, k]]
    value = SUMMED[scratch[cell], total]
    if value == COIN:
        return coin_colour(seed, generation, cell)
    return int(value)


@njit(cache=True)
def run_generation(cells: np.ndarray, scratch: np.ndarray, neighbours: np.ndarray,
                   seed: np.uint64, generation: int) -> None:
    """One p2life generation of the flat board ``cells`` in place (``neighbours``: the
    board's :func:`~lifearena.life.kernels.neighbours.neighbour_table`; ``scratch``:
    ``n + 1`` cells of work space; ``seed`` and ``generation`` toss the coins)."""
    _weigh(cells, scratch)
    for cell in range(cells.shape[0]):
        cells[cell] = _next_state(scratch, neighbours, cell, seed, generation)


@njit(cache=True)
def play_turn(cells: np.ndarray, first: int, second: int, moved: int, generations: int,
              moves: int, scratch: np.ndarray, neighbours: np.ndarray, seed: np.uint64
              ) -> tuple[int, int]:
    """Both legal choices of a turn on ``cells``, then the generation when this was the
    ``moves``-th turn since the last one: the new ``(moved, generations)`` counters."""
    apply_choices_compiled(cells, first, second)
    moved += 1
    if moved == moves:
        run_generation(cells, scratch, neighbours, seed, generations)
        return 0, generations + 1
    return moved, generations


# -- starts ---------------------------------------------------------------------------------


@njit(cache=True)
def draw_soup(cells: np.ndarray, density: float, rng: np.ndarray, i: int) -> None:
    """A start on the flat board ``cells`` from stream ``i`` of ``rng``, with the distribution
    of :func:`~lifearena.games.p2life.rules.symmetric_soup` (not its draws): each cell of the
    first half live with probability ``density`` and of a fair colour, the rest its point
    reflection with the colours swapped, a centre cell empty."""
    n = cells.shape[0]
    for cell in range(n // 2):
        live = next_double(rng, i) < density
        colour = 1 + below(rng, i, 2)
        cells[cell] = colour if live else 0
        cells[n - 1 - cell] = (3 - colour) if live else 0
    if n % 2:
        cells[n // 2] = 0


# -- opponents --------------------------------------------------------------------------------


@njit(cache=True)
def _nth_legal(cells: np.ndarray, player: int, k: int) -> int:
    """The ``k``-th of ``player``'s legal actions in their order (pass, places, removals)."""
    n: int = cells.shape[0]
    if k == 0:
        return 0
    k -= 1
    for cell in range(n):
        if cells[cell] == 0:
            if k == 0:
                return 1 + cell
            k -= 1
    for cell in range(n):
        if cells[cell] == player + 1:
            if k == 0:
                return 1 + n + cell
            k -= 1
    return 0


@njit(cache=True)
def random_choice(cells: np.ndarray, player: int, rng: np.ndarray, i: int) -> int:
    """The random agent's move for ``player``: uniform over the legal actions, drawn from
    stream ``i`` of ``rng`` (the ``int(u * count)``-th, ``u`` the stream's next double; the
    protocol's random agent draws from its own generator)."""
    count = 1
    for cell in range(cells.shape[0]):
        if cells[cell] == 0 or cells[cell] == player + 1:
            count += 1
    return _nth_legal(cells, player, below(rng, i, count))


@njit(cache=True)
def _worth(value: int, player: int) -> int:
    """A cell's part in ``player``'s score: +1 for an own token, -1 for the opponent's."""
    if value == 0:
        return 0
    return 1 if value == player + 1 else -1


@njit(cache=True)
def greedy_scores(cells: np.ndarray, player: int, seed: np.uint64, generations: int,
                  neighbours: np.ndarray, scratch: np.ndarray, after: np.ndarray,
                  scores: np.ndarray) -> int:
    """The greedy agent's scores (:func:`lifearena.agents.p2life.score_moves`: own minus
    opponent tokens after the coming generation, the opponent passing) of ``player``'s legal
    actions, in their order, into ``scores``; returns how many there are (``neighbours``:
    the board's :func:`~lifearena.life.kernels.neighbours.neighbour_table`; ``after``:
    ``n`` cells and ``scratch``: ``n + 1`` cells of work space).

    A move changes one cell, so only that cell and its neighbours can come out of the
    generation otherwise than after a pass: each move's score is the pass's corrected on
    those few cells, not a whole generation per move.
    """
    n = cells.shape[0]
    # Only on a torus less than 3 wide does a cell meet a neighbour twice (or itself), and
    # a torus is alike at every cell: cell 0 tells whether to look for repeats.
    repeats = False
    for k in range(8):
        first = neighbours[0, k]
        for j in range(k):
            repeats = repeats or (first != n and neighbours[0, j] == first)
        repeats = repeats or first == 0
    _weigh(cells, scratch)
    base = 0
    for cell in range(n):
        after[cell] = _next_state(scratch, neighbours, cell, seed, generations)
        base += _worth(after[cell], player)
    scores[0] = base
    count = 1
    own = player + 1
    for removing in range(2):  # the places first, then the removals, as the actions go
        for cell in range(n):
            value = cells[cell]
            if (removing == 0 and value != 0) or (removing == 1 and value != own):
                continue
            scratch[cell] = WEIGHT[0 if removing else own]
            score = base
            # the cell itself, then each distinct neighbour (a neighbour of the cell is
            # exactly a cell it neighbours: the offsets are symmetric)
            for k in range(-1, 8):
                other = cell if k < 0 else neighbours[cell, k]
                if other == n or (k >= 0 and other == cell):
                    continue
                seen = False
                for j in range(k if repeats else 0):
                    if neighbours[cell, j] == other:
                        seen = True
                        break
                if seen:
                    continue
                now = _next_state(scratch, neighbours, other, seed, generations)
                score += _worth(now, player) - _worth(after[other], player)
            scratch[cell] = WEIGHT[value]
            scores[count] = score
            count += 1
    return count


@njit(cache=True)
def greedy_choice(cells: np.ndarray, player: int, seed: np.uint64, generations: int,
                  neighbours: np.ndarray, scratch: np.ndarray, after: np.ndarray,
                  scores: np.ndarray, rng: np.ndarray, i: int) -> int:
    """The greedy agent's move for ``player``: a best-scoring legal action
    (:func:`greedy_scores`), ties broken uniformly from stream ``i`` of ``rng`` (the protocol
    agent breaks them from its own generator, so the two pick among the same best moves)."""
    count = greedy_scores(cells, player, seed, generations, neighbours, scratch, after,
                          scores)
    best, ties = scores[0], 0
    for k in range(count):
        if scores[k] > best:
            best, ties = scores[k], 1
        elif scores[k] == best:
            ties += 1
    pick = below(rng, i, ties)
    for k in range(count):
        if scores[k] == best:
            if pick == 0:
                return _nth_legal(cells, player, k)
            pick -= 1
    return 0
