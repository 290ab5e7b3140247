"""Losat's rules written once, in numba's subset: what a change needs (:func:`changes`), what
it does (:func:`change_result`, :func:`set_point`), the superko hash after it
(:func:`hash_after`), the candidate and legal moves, the ending rules (:func:`ending`), the
heuristic's arithmetic (:func:`board_features`, :func:`term_values`, :func:`weighted`) and
the compiled ``greedy`` opponent (:func:`greedy_choices`, :func:`greedy_move`).

Who uses what:

* the protocol state (:class:`~lifearena.games.losat.LosatState`) calls the compiled
  :func:`set_point` on each change and :func:`candidates` for its legal moves, and calls
  :func:`change_result` and :func:`ending` as plain Python (a numba call costs more than
  these few comparisons); its evaluation (:mod:`lifearena.games.losat.evaluation`) calls
  :func:`board_features` compiled and :func:`term_values` and :func:`weighted` as Python;
* the compiled paths (the vector environment,
  :mod:`lifearena.interop.vector.losat`) call all of them compiled, on the positions of
  :data:`COLUMNS`-wide int64 state rows and open-addressing superko sets.

The two differ in one place only, the superko memory: the protocol keeps a Python set of the
hashes seen (a search takes moves back, so hashes must leave the set again, and a clone copies
it), the compiled paths an open-addressing table per board that only grows within an episode
and is emptied by a new stamp (:func:`seen`, :func:`remember`). Both hash the same way: the
Zobrist table of :class:`~lifearena.games.losat.geometry.Geometry` and :func:`hash_after`.

Everything the compiled kernels call lives in this module, because numba's cache of a kernel
holds the code of what it calls and is renewed only when the kernel's own file changes.

>>> changes(0, 3, 0, 0, False, False) == 1 << ADD_BLACK   # an empty point, 3 black around
True
>>> change_result(CAPTURE, 1)   # a captured black stone turns white, White scores
(2, 1)
>>> ending(0, 0, 0, 0, 5, 2, 10, 400, 0) == PASSES
True
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from lifearena.games.losat.notation import ADD_BLACK, ADD_WHITE, CAPTURE, REMOVE
from lifearena.life.kernels.splitmix import below

# -- the compiled position ------------------------------------------------------------------

TO_MOVE, PASSES, PLY, CAPTURES, ON_GOAL, ENDING, HAS_MOVE, STAMP = 0, 1, 2, 3, 5, 7, 8, 9
"""Columns of a compiled position's int64 state row: the side to move, passes in a row,
plies played, captures of Black and White (two columns), stones of each colour on its own
goal line (two), the :func:`ending` code, whether the side to move has a move other than
pass, and the episode's stamp in the superko set."""
COLUMNS = 10
WIDTH, CAPTURES_TO_WIN, MAX_MOVES, OWN_ONLY, OR_MORE, GOALS, LENGTH = 0, 1, 2, 3, 4, 5, 7
"""Entries of the compiled ``rules`` vector: width, captures to win, move limit, own colour
only, capture with 3 or more, Black's and White's goal rows (two), length."""
RULES = 8

# -- the ending rules ----------------------------------------------------------------------

GOES_ON, PASSES_DRAW, EXHAUST = 0, 1, 2
"""Ending codes that are no win: the game goes on, two passes, the move limit."""
WON, BY_CAPTURES, BOTH = 4, 8, 16
"""Flags of a won game's ending code: ``WON | winner`` (0 Black, 1 White), with
``BY_CAPTURES`` when the winner won by captures rather than on the goal line and ``BOTH``
when the move satisfied both players' conditions (the mover takes it)."""
PASSES = PASSES_DRAW


def ending(on_goal_black: int, on_goal_white: int, captures_black: int, captures_white: int,
           captures_to_win: int, passes: int, ply: int, max_moves: int, mover: int) -> int:
    """The ending code after ``mover``'s move: Losat's ending rules, the one definition the
    protocol state (as Python) and the compiled paths use.

    A colour wins with a stone on its goal line or with ``captures_to_win`` captures (the
    goal line named first when both hold); when both colours win, the mover takes it; else
    two passes in a row, then ``max_moves`` plies, end it drawn.

    >>> code = ending(1, 0, 0, 5, 5, 0, 9, 400, 1)   # both won, White moved
    >>> winner(code), bool(code & BY_CAPTURES), bool(code & BOTH)
    (1, True, True)
    >>> ending(0, 0, 0, 0, 5, 0, 400, 400, 0) == EXHAUST
    True
    """
    black = on_goal_black > 0 or captures_black >= captures_to_win
    white = on_goal_white > 0 or captures_white >= captures_to_win
    if black and white:
        by_captures = (on_goal_white if mover == 1 else on_goal_black) == 0
        return WON | BOTH | mover | (BY_CAPTURES if by_captures else 0)
    if black:
        return WON | (BY_CAPTURES if on_goal_black == 0 else 0)
    if white:
        return WON | 1 | (BY_CAPTURES if on_goal_white == 0 else 0)
    if passes >= 2:
        return PASSES_DRAW
    if ply >= max_moves:
        return EXHAUST
    return GOES_ON


def winner(code: int) -> int:
    """The winner (0 Black, 1 White) an ending code names, or -1 (going on, or a draw)."""
    return code & 1 if code & WON else -1


_ending = njit(cache=True)(ending)
_winner = njit(cache=True)(winner)

# -- a change --------------------------------------------------------------------------------


def changes(v: int, cb: int, cw: int, player: int, own_only: bool, or_more: bool) -> int:
    """The changes Life's conditions allow ``player`` on a point holding ``v`` (0 empty,
    1 black, 2 white) with ``cb`` black and ``cw`` white neighbours (superko aside), as bits:
    bit ``k`` for the change kind ``k`` (``REMOVE``, ``ADD_BLACK``, ``ADD_WHITE``,
    ``CAPTURE``).

    Remove a stone with fewer than 2 or more than 3 neighbours of its colour; add a stone of
    a colour on an empty point with exactly 3 neighbours of that colour; capture a stone with
    exactly 3 (``or_more``: 3 or more) neighbours of the other colour. ``own_only``: the
    player removes and adds only its own colour and captures only the other's.
    """
    if v == 0:
        bits = 0
        if cb == 3 and not (own_only and player != 0):
            bits |= 1 << ADD_BLACK
        if cw == 3 and not (own_only and player != 1):
            bits |= 1 << ADD_WHITE
        return bits
    same, opposite = (cb, cw) if v == 1 else (cw, cb)
    bits = 0
    if (same < 2 or same > 3) and not (own_only and v != player + 1):
        bits |= 1 << REMOVE
    if (opposite >= 3 if or_more else opposite == 3) and not (own_only and v == player + 1):
        bits |= 1 << CAPTURE
    return bits


def change_result(kind: int, old: int) -> tuple[int, int]:
    """What the change ``kind`` makes of a point holding ``old``: ``(new value, scorer)``,
    the scorer being the colour (0, 1) that scores a capture, or -1."""
    if kind == REMOVE:
        return 0, -1
    if kind == CAPTURE:
        return 3 - old, 2 - old
    return kind, -1


_changes = njit(cache=True)(changes)
_change_result = njit(cache=True)(change_result)


@njit(cache=True)
def hash_after(board: np.ndarray, zobrist: np.ndarray, h: np.uint64, kind: int, point: int
               ) -> np.uint64:
    """The arrangement's hash ``h`` after the change ``kind`` at ``point``."""
    if kind == REMOVE:
        return h ^ zobrist[board[point] - 1, point]  # type: ignore[no-any-return]
    if kind == CAPTURE:
        return h ^ zobrist[0, point] ^ zobrist[1, point]  # type: ignore[no-any-return]
    return h ^ zobrist[kind - 1, point]  # type: ignore[no-any-return]


@njit(cache=True)
def set_point(board: np.ndarray, counts: np.ndarray, adjacent: np.ndarray,
              degree: np.ndarray, zobrist: np.ndarray, h: np.uint64, on_goal: np.ndarray,
              goals: np.ndarray, width: int, point: int, value: int) -> np.uint64:
    """Put ``value`` on ``point``: the board, both colours' neighbour counts of the points
    around it, the stones on each goal line (``on_goal``, against the goal rows ``goals``);
    returns the new hash."""
    old = board[point]
    row = point // width
    if old:
        for k in range(degree[point]):
            counts[old - 1, adjacent[point, k]] -= 1
        h ^= zobrist[old - 1, point]
        if row == goals[old - 1]:
            on_goal[old - 1] -= 1
    if value:
        for k in range(degree[point]):
            counts[value - 1, adjacent[point, k]] += 1
        h ^= zobrist[value - 1, point]
        if row == goals[value - 1]:
            on_goal[value - 1] += 1
    board[point] = value
    return h


@njit(cache=True)
def candidates(board: np.ndarray, counts: np.ndarray, zobrist: np.ndarray, h: np.uint64,
               player: int, own_only: bool, or_more: bool, actions: np.ndarray,
               hashes: np.ndarray) -> int:
    """Every change Life's conditions allow ``player`` (superko not yet asked), in action
    order, into ``actions`` (room for ``4 * points``) with the hash after each in
    ``hashes``; returns how many. One pass over the points, each kind gathered in its own
    quarter of ``actions``, then closed up."""
    n = board.shape[0]
    found = np.zeros(4, np.int64)
    for point in range(n):
        bits = _changes(board[point], counts[0, point], counts[1, point], player, own_only,
                        or_more)
        if bits == 0:
            continue
        for kind in range(4):
            if bits >> kind & 1:
                slot = kind * n + found[kind]
                actions[slot] = kind * n + point
                hashes[slot] = hash_after(board, zobrist, h, kind, point)
                found[kind] += 1
    count = found[0]
    for kind in range(1, 4):  # reads stay at or ahead of writes: in place
        for j in range(found[kind]):
            actions[count] = actions[kind * n + j]
            hashes[count] = hashes[kind * n + j]
            count += 1
    return count  # type: ignore[no-any-return]


# -- the compiled superko memory --------------------------------------------------------------


@njit(cache=True)
def seen(keys: np.ndarray, stamps: np.ndarray, stamp: int, h: np.uint64) -> bool:
    """Whether the set (``keys`` with ``stamps`` equal to ``stamp``) holds ``h``."""
    mask = keys.shape[0] - 1
    slot = np.int64(h & np.uint64(mask))
    while stamps[slot] == stamp:
        if keys[slot] == h:
            return True
        slot = (slot + 1) & mask
    return False


@njit(cache=True)
def remember(keys: np.ndarray, stamps: np.ndarray, stamp: int, h: np.uint64) -> None:
    """Add ``h`` to the set (linear probing in a power-of-two table)."""
    mask = keys.shape[0] - 1
    slot = np.int64(h & np.uint64(mask))
    while stamps[slot] == stamp:
        if keys[slot] == h:
            return
        slot = (slot + 1) & mask
    stamps[slot] = stamp
    keys[slot] = h


def superko_slots(max_moves: int) -> int:
    """The size of a board's superko table: a power of two over twice the arrangements an
    episode can meet (the start and one a move), so that probes stay short."""
    return 1 << max(4, (2 * (max_moves + 1)).bit_length())


# -- compiled play ---------------------------------------------------------------------------


@njit(cache=True)
def legal_moves(board: np.ndarray, counts: np.ndarray, zobrist: np.ndarray, h: np.uint64,
                keys: np.ndarray, stamps: np.ndarray, s: np.ndarray, rules: np.ndarray,
                player: int, out: np.ndarray, hashes: np.ndarray) -> int:
    """``player``'s legal moves but pass, in action order, into ``out`` (the hash after each
    in ``hashes``; both with room for ``4 * points``); how many."""
    count = candidates(board, counts, zobrist, h, player, rules[OWN_ONLY] != 0,
                       rules[OR_MORE] != 0, out, hashes)
    kept = 0
    for k in range(count):
        if not seen(keys, stamps, s[STAMP], hashes[k]):
            out[kept] = out[k]
            hashes[kept] = hashes[k]
            kept += 1
    return kept


@njit(cache=True)
def is_legal(board: np.ndarray, counts: np.ndarray, zobrist: np.ndarray, h: np.uint64,
             keys: np.ndarray, stamps: np.ndarray, s: np.ndarray, rules: np.ndarray,
             action: int) -> bool:
    """Whether ``action`` is the side to move's legal move (pass: legal exactly when
    ``s[HAS_MOVE]`` says there is no other)."""
    n = board.shape[0]
    if action == 4 * n:
        return not s[HAS_MOVE]
    if action < 0 or action > 4 * n:
        return False
    kind, point = action // n, action % n
    bits = _changes(board[point], counts[0, point], counts[1, point], s[TO_MOVE],
                    rules[OWN_ONLY] != 0, rules[OR_MORE] != 0)
    return bool(bits >> kind & 1) and \
        not seen(keys, stamps, s[STAMP], hash_after(board, zobrist, h, kind, point))


@njit(cache=True)
def play(board: np.ndarray, counts: np.ndarray, adjacent: np.ndarray, degree: np.ndarray,
         zobrist: np.ndarray, h: np.uint64, s: np.ndarray, rules: np.ndarray,
         keys: np.ndarray, stamps: np.ndarray, action: int) -> np.uint64:
    """Play the side to move's legal ``action`` (remembered in the superko set); returns the
    new hash and leaves :func:`ending`'s code in ``s[ENDING]``."""
    n = board.shape[0]
    mover = s[TO_MOVE]
    if action == 4 * n:
        s[PASSES] += 1
    else:
        s[PASSES] = 0
        point = action % n
        value, scorer = _change_result(action // n, board[point])
        h = set_point(board, counts, adjacent, degree, zobrist, h, s[ON_GOAL:ON_GOAL + 2],
                      rules[GOALS:GOALS + 2], rules[WIDTH], point, value)
        if scorer >= 0:
            s[CAPTURES + scorer] += 1
        remember(keys, stamps, s[STAMP], h)
    s[PLY] += 1
    s[TO_MOVE] = 1 - mover
    s[ENDING] = _ending(s[ON_GOAL], s[ON_GOAL + 1], s[CAPTURES], s[CAPTURES + 1],
                        rules[CAPTURES_TO_WIN], s[PASSES], s[PLY], rules[MAX_MOVES], mover)
    return h


@njit(cache=True)
def random_move(board: np.ndarray, counts: np.ndarray, zobrist: np.ndarray, h: np.uint64,
                keys: np.ndarray, stamps: np.ndarray, s: np.ndarray, rules: np.ndarray,
                rng: np.ndarray, i: int, out: np.ndarray, hashes: np.ndarray) -> int:
    """The ``random`` opponent: a legal move of the side to move drawn uniformly (the
    ``int(u * count)``-th in action order) from stream ``i`` of ``rng``, pass when there is
    none (no draw then)."""
    count = legal_moves(board, counts, zobrist, h, keys, stamps, s, rules, s[TO_MOVE], out,
                        hashes)
    if count == 0:
        return int(4 * board.shape[0])
    return out[below(rng, i, count)]  # type: ignore[no-any-return]


# -- the heuristic's arithmetic ----------------------------------------------------------------

W_PROGRESS, W_CAPTURES, W_MATERIAL, W_MOBILITY = 0.45, 0.3, 0.1, 0.15
"""The weights of the heuristic's four terms (:mod:`lifearena.games.losat.evaluation`)."""


@njit(cache=True)
def board_features(board: np.ndarray, counts: np.ndarray, width: int, or_more: bool,
                   out: np.ndarray) -> None:
    """One pass over the board: ``out`` gets the top row of a black stone, the bottom row of
    a white stone (-1 if none), the stones of each colour, the growth changes of each colour
    (additions and captures into it) and the changes touching each colour (see
    :meth:`LosatState.liveness <lifearena.games.losat.LosatState.liveness>`)."""
    top, bottom = -1, -1
    n_b = n_w = grow_b = grow_w = live_b = live_w = 0
    for point in range(board.size):
        v = board[point]
        cb, cw = counts[0, point], counts[1, point]
        if v == 0:
            if cb == 3:
                grow_b += 1
                live_b += 1
            if cw == 3:
                grow_w += 1
                live_w += 1
        elif v == 1:
            n_b += 1
            if top < 0:
                top = point // width
            into_w = cw >= 3 if or_more else cw == 3
            if into_w:
                grow_w += 1
            # a capture of this stone touches both colours
            if into_w or cb < 2 or cb > 3:
                live_b += 1
            if into_w:
                live_w += 1
        else:
            n_w += 1
            bottom = point // width
            into_b = cb >= 3 if or_more else cb == 3
            if into_b:
                grow_b += 1
            if into_b or cw < 2 or cw > 3:
                live_w += 1
            if into_b:
                live_b += 1
    out[0], out[1], out[2], out[3] = top, bottom, n_b, n_w
    out[4], out[5], out[6], out[7] = grow_b, grow_w, live_b, live_w


def term_values(top: int, bottom: int, n_b: int, n_w: int, grow_b: int, grow_w: int,
                length: int, black_goal: int, white_goal: int, captures_black: int,
                captures_white: int, captures_to_win: int) -> tuple[float, float, float, float]:
    """The heuristic's four terms (progress, captures, material, mobility), from Black's
    side, each in [-1, 1], from the first six :func:`board_features`, the board length, the
    goal rows (row 0 the top) and the captures."""
    # a colour with d rows still to go scores 1 / (1 + d), plus a tenth of 1 - d / length
    d_black = max(top - black_goal if n_b else length, 0)
    d_white = max(white_goal - bottom if n_w else length, 0)
    progress = (1.0 / (1 + d_black) + 0.1 * (1 - d_black / length)
                - (1.0 / (1 + d_white) + 0.1 * (1 - d_white / length))) / 1.1
    captured = max(-1.0, min(1.0, (captures_black - captures_white) / captures_to_win))
    total = n_b + n_w
    material = (n_b - n_w) / total if total else 0.0
    mobility = (grow_b - grow_w) / (grow_b + grow_w) if grow_b + grow_w else 0.0
    return progress, captured, material, mobility


def weighted(progress: float, captured: float, material: float, mobility: float) -> float:
    """The weighted sum of the terms squashed into (-0.95, 0.95), from Black's side."""
    x = W_PROGRESS * progress + W_CAPTURES * captured + W_MATERIAL * material \
        + W_MOBILITY * mobility
    return 0.95 * math.tanh(2 * x)


_term_values = njit(cache=True)(term_values)
_weighted = njit(cache=True)(weighted)

# -- the greedy opponent ----------------------------------------------------------------------

TIE = 1e-12
"""Values this close are equally good to ``greedy`` (as the protocol agent compares them)."""


@njit(cache=True)
def _value_after(board: np.ndarray, counts: np.ndarray, adjacent: np.ndarray,
                 degree: np.ndarray, zobrist: np.ndarray, s: np.ndarray, rules: np.ndarray,
                 on_goal: np.ndarray, features: np.ndarray, action: int) -> float:
    """The side to move's value (``LosatState.evaluate``) of the position after its legal
    change ``action``: the change is made on the arrays and taken back."""
    n = board.shape[0]
    mover = s[TO_MOVE]
    point = action % n
    old = board[point]
    value, scorer = _change_result(action // n, old)
    on_goal[0], on_goal[1] = s[ON_GOAL], s[ON_GOAL + 1]
    goals = rules[GOALS:GOALS + 2]
    width = rules[WIDTH]
    set_point(board, counts, adjacent, degree, zobrist, np.uint64(0), on_goal, goals, width,
              point, value)
    cap_b = s[CAPTURES] + (1 if scorer == 0 else 0)
    cap_w = s[CAPTURES + 1] + (1 if scorer == 1 else 0)
    code = _ending(on_goal[0], on_goal[1], cap_b, cap_w, rules[CAPTURES_TO_WIN], 0,
                   s[PLY] + 1, rules[MAX_MOVES], mover)
    if code != GOES_ON:
        won = _winner(code)
        result = 0.0 if won < 0 else (1.0 if won == mover else -1.0)
    else:
        board_features(board, counts, width, rules[OR_MORE] != 0, features)
        p, c, m, g = _term_values(features[0], features[1], features[2], features[3],
                                  features[4], features[5], rules[LENGTH], goals[0],
                                  goals[1], cap_b, cap_w, rules[CAPTURES_TO_WIN])
        result = _weighted(p, c, m, g)
        if mover == 1:
            result = -result
    set_point(board, counts, adjacent, degree, zobrist, np.uint64(0), on_goal, goals, width,
              point, old)
    return result


@njit(cache=True)
def greedy_choices(board: np.ndarray, counts: np.ndarray, adjacent: np.ndarray,
                   degree: np.ndarray, zobrist: np.ndarray, h: np.uint64, s: np.ndarray,
                   rules: np.ndarray, keys: np.ndarray, stamps: np.ndarray, out: np.ndarray,
                   hashes: np.ndarray) -> int:
    """``greedy``'s equally good moves for the side to move, in action order, into ``out``
    (room for ``4 * points``); how many. As :class:`lifearena.agents.losat.GreedyAgent`: the
    lone legal move (pass included) when there is one, else the moves whose position after
    evaluates best for the mover (a win 1, a loss -1, a draw 0, else the heuristic), values
    within :data:`TIE` of the best so far counting as equal."""
    count = legal_moves(board, counts, zobrist, h, keys, stamps, s, rules, s[TO_MOVE], out,
                        hashes)
    if count == 0:
        out[0] = 4 * board.shape[0]
        return 1
    if count == 1:
        return 1
    on_goal = np.zeros(2, np.int64)
    features = np.zeros(8, np.int64)
    best = 0
    best_value = -np.inf
    for k in range(count):
        action = out[k]
        value = _value_after(board, counts, adjacent, degree, zobrist, s, rules, on_goal,
                             features, action)
        if value > best_value + TIE:
            best_value = value
            out[0] = action
            best = 1
        elif abs(value - best_value) <= TIE:
            out[best] = action  # best <= k: the moves not yet read stay in place
            best += 1
    return best


@njit(cache=True)
def greedy_move(board: np.ndarray, counts: np.ndarray, adjacent: np.ndarray,
                degree: np.ndarray, zobrist: np.ndarray, h: np.uint64, s: np.ndarray,
                rules: np.ndarray, keys: np.ndarray, stamps: np.ndarray, rng: np.ndarray,
                i: int, out: np.ndarray, hashes: np.ndarray) -> int:
    """The compiled ``greedy`` opponent's move: one of :func:`greedy_choices`, drawn
    uniformly from stream ``i`` of ``rng`` when there are several (the protocol agent draws
    from its own seeded generator instead, so the two pick among the same moves, not always
    the same one); no draw for a lone choice."""
    count = greedy_choices(board, counts, adjacent, degree, zobrist, h, s, rules, keys,
                           stamps, out, hashes)
    if count == 1:
        return out[0]  # type: ignore[no-any-return]
    return out[below(rng, i, count)]  # type: ignore[no-any-return]
