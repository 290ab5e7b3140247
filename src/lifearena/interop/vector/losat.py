"""Losat as a compiled vector environment: ``num_envs`` Go boards stepped in one numba call.

Each environment keeps what the protocol's :class:`~lifearena.games.losat.LosatState` keeps,
in arrays: the flat board, each colour's neighbour count of every point (updated on each
change), the Zobrist hash of the arrangement with the game's own table
(:class:`~lifearena.games.losat.geometry.Geometry`), the superko memory as an open-addressing
set of the hashes seen this episode, the captures, the stones on each goal line, the passes
and the plies. Every episode starts from the game's start (the two pi-heptominoes under the
parameters given); the only chance is the opponent's: ``random`` (uniform among the legal
moves, from the environment's compiled generator) or ``self`` (self-play: the observation
and mask are the side to move's).

The observation planes (black stones, white stones) are the same for both sides, so a step
rewrites only the points that changed: the buffers are the environment's own, to be read,
not written (with ``copy=False``, what ``step`` hands out is those buffers).

>>> env = LosatVectorEnv(2, params={"width": 9, "length": 11, "max_moves": 40})
>>> observation, info = env.reset(seed=0)
>>> observation.shape, int(info["action_mask"][0].sum())   # the start's 12 moves
((2, 2, 11, 9), 12)
>>> _ = env.step(env.sample_actions())
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np
from numba import njit

from lifearena.errors import BadParameterError
from lifearena.games.losat import LosatState
from lifearena.games.losat.geometry import Geometry
from lifearena.interop.vector.base import SELF, CompiledVectorEnv
from lifearena.life.kernels.splitmix import below

MAX_TABLE_BYTES = 1 << 30
"""The most memory the batch's superko sets and histories may take."""
_TO_MOVE, _PASSES, _PLY, _CAPTURES, _ON_GOAL, _OVER, _HAS_MOVE, _STAMP = 0, 1, 2, 3, 5, 7, 8, 9
"""Columns of the kernels' ``(n, 10)`` int64 state: the side to move, passes in a row, plies
played, captures of black and white (two columns), stones on each colour's goal line (two),
the result plus one once over (winner 0 or 1, 2 a draw; else 0), whether the side to move has
a move other than pass, and the episode's stamp in the superko set."""
_COLUMNS = 10
_RULES = 7
"""Entries of the kernels' ``rules`` vector: width, captures to win, move limit, own colour
only, capture with 3 or more, black's goal row, white's goal row."""


@njit(cache=True)
def _seen(keys: np.ndarray, stamps: np.ndarray, stamp: int, h: np.uint64) -> bool:
    mask = keys.shape[0] - 1
    slot = np.int64(h & np.uint64(mask))
    while stamps[slot] == stamp:
        if keys[slot] == h:
            return True
        slot = (slot + 1) & mask
    return False


@njit(cache=True)
def _remember(keys: np.ndarray, stamps: np.ndarray, stamp: int, h: np.uint64) -> None:
    mask = keys.shape[0] - 1
    slot = np.int64(h & np.uint64(mask))
    while stamps[slot] == stamp:
        if keys[slot] == h:
            return
        slot = (slot + 1) & mask
    stamps[slot] = stamp
    keys[slot] = h


@njit(cache=True)
def _after(board: np.ndarray, zobrist: np.ndarray, h: np.uint64, kind: int, point: int
           ) -> np.uint64:
    """The hash after the change ``kind`` (remove, add black, add white, capture) at
    ``point``."""
    if kind == 0:
        return h ^ zobrist[board[point] - 1, point]
    if kind == 3:
        return h ^ zobrist[0, point] ^ zobrist[1, point]
    return h ^ zobrist[kind - 1, point]


@njit(cache=True)
def _allowed(board: np.ndarray, counts: np.ndarray, rules: np.ndarray, player: int,
             kind: int, point: int) -> bool:
    """Whether Life's conditions allow the change (superko aside), as the protocol's
    ``_candidates`` says."""
    v = board[point]
    cb, cw = counts[0, point], counts[1, point]
    own_only = rules[3] != 0
    if kind == 0:
        if v == 0 or (own_only and v != player + 1):
            return False
        c = cb if v == 1 else cw
        return c < 2 or c > 3
    if kind == 1 or kind == 2:
        if v != 0 or (own_only and kind != player + 1):
            return False
        return (cb if kind == 1 else cw) == 3
    if v == 0 or (own_only and v == player + 1):
        return False
    opposite = cw if v == 1 else cb
    return opposite >= 3 if rules[4] else opposite == 3


@njit(cache=True)
def _legal_move(board: np.ndarray, counts: np.ndarray, rules: np.ndarray,
                zobrist: np.ndarray, h: np.uint64, keys: np.ndarray, stamps: np.ndarray,
                stamp: int, player: int, kind: int, point: int) -> bool:
    return _allowed(board, counts, rules, player, kind, point) and \
        not _seen(keys, stamps, stamp, _after(board, zobrist, h, kind, point))


@njit(cache=True)
def _set(board: np.ndarray, counts: np.ndarray, adjacent: np.ndarray, degree: np.ndarray,
         zobrist: np.ndarray, h: np.uint64, s: np.ndarray, rules: np.ndarray, point: int,
         value: int, obs: np.ndarray) -> np.uint64:
    """Put ``value`` on ``point`` (counts, goal lines, planes); returns the new hash."""
    old = board[point]
    row = point // rules[0]
    if old:
        for k in range(degree[point]):
            counts[old - 1, adjacent[point, k]] -= 1
        h ^= zobrist[old - 1, point]
        if row == rules[5 + old - 1]:
            s[_ON_GOAL + old - 1] -= 1
        obs[old - 1, point] = 0
    if value:
        for k in range(degree[point]):
            counts[value - 1, adjacent[point, k]] += 1
        h ^= zobrist[value - 1, point]
        if row == rules[5 + value - 1]:
            s[_ON_GOAL + value - 1] += 1
        obs[value - 1, point] = 1
    board[point] = value
    return h


@njit(cache=True)
def _judge(s: np.ndarray, rules: np.ndarray, mover: int) -> None:
    """Set ``s[_OVER]`` after ``mover``'s move, in the protocol's order."""
    black = s[_ON_GOAL] > 0 or s[_CAPTURES] >= rules[1]
    white = s[_ON_GOAL + 1] > 0 or s[_CAPTURES + 1] >= rules[1]
    if black and white:
        s[_OVER] = mover + 1
    elif black:
        s[_OVER] = 1
    elif white:
        s[_OVER] = 2
    elif s[_PASSES] >= 2 or s[_PLY] >= rules[2]:
        s[_OVER] = 3


@njit(cache=True)
def _play(board: np.ndarray, counts: np.ndarray, adjacent: np.ndarray, degree: np.ndarray,
          zobrist: np.ndarray, hashes: np.ndarray, i: int, s: np.ndarray, rules: np.ndarray,
          keys: np.ndarray, stamps: np.ndarray, action: int, history: np.ndarray,
          obs: np.ndarray) -> None:
    """The legal ``action`` of the side to move, as the protocol's ``_do`` plays it."""
    n = board.shape[0]
    mover = s[_TO_MOVE]
    history[s[_PLY]] = action
    if action == 4 * n:
        s[_PASSES] += 1
    else:
        s[_PASSES] = 0
        kind, point = action // n, action % n
        h = hashes[i]
        if kind == 0:
            h = _set(board, counts, adjacent, degree, zobrist, h, s, rules, point, 0, obs)
        elif kind == 3:
            old = board[point]
            h = _set(board, counts, adjacent, degree, zobrist, h, s, rules, point, 3 - old,
                     obs)
            s[_CAPTURES + 2 - old] += 1
        else:
            h = _set(board, counts, adjacent, degree, zobrist, h, s, rules, point, kind, obs)
        hashes[i] = h
        _remember(keys, stamps, s[_STAMP], h)
    s[_PLY] += 1
    s[_TO_MOVE] = 1 - mover
    _judge(s, rules, mover)


@njit(cache=True)
def _moves(board: np.ndarray, counts: np.ndarray, rules: np.ndarray, zobrist: np.ndarray,
           h: np.uint64, keys: np.ndarray, stamps: np.ndarray, stamp: int, player: int,
           out: np.ndarray) -> int:
    """``player``'s legal moves but pass into ``out`` (grouped by point); how many. One pass
    over the points with :func:`_allowed`'s conditions written out, superko asked only of
    the few changes they allow."""
    n = board.shape[0]
    own_only = rules[3] != 0
    or_more = rules[4] != 0
    count = 0
    for point in range(n):
        v = board[point]
        cb, cw = counts[0, point], counts[1, point]
        if v == 0:
            black = cb == 3 and not (own_only and player != 0)
            if black and not _seen(keys, stamps, stamp, h ^ zobrist[0, point]):
                out[count] = n + point
                count += 1
            white = cw == 3 and not (own_only and player != 1)
            if white and not _seen(keys, stamps, stamp, h ^ zobrist[1, point]):
                out[count] = 2 * n + point
                count += 1
            continue
        same, opposite = (cb, cw) if v == 1 else (cw, cb)
        remove = (same < 2 or same > 3) and not (own_only and v != player + 1)
        if remove and not _seen(keys, stamps, stamp, h ^ zobrist[v - 1, point]):
            out[count] = point
            count += 1
        capture = (opposite >= 3 if or_more else opposite == 3) and \
            not (own_only and v == player + 1)
        if capture and not _seen(keys, stamps, stamp, h ^ zobrist[0, point] ^ zobrist[1, point]):
            out[count] = 3 * n + point
            count += 1
    return count


@njit(cache=True)
def _mask(board: np.ndarray, counts: np.ndarray, rules: np.ndarray, zobrist: np.ndarray,
          h: np.uint64, keys: np.ndarray, stamps: np.ndarray, s: np.ndarray, viewer: int,
          mask: np.ndarray, scratch: np.ndarray) -> None:
    """``viewer``'s (the side to move's) mask; keeps ``s[_HAS_MOVE]``."""
    count = _moves(board, counts, rules, zobrist, h, keys, stamps, s[_STAMP], viewer,
                   scratch)
    mask[:] = False
    for k in range(count):
        mask[scratch[k]] = True
    mask[4 * board.shape[0]] = count == 0
    s[_HAS_MOVE] = count > 0


@njit(cache=True)
def _is_legal(board: np.ndarray, counts: np.ndarray, rules: np.ndarray,
              zobrist: np.ndarray, h: np.uint64, keys: np.ndarray, stamps: np.ndarray,
              s: np.ndarray, action: int) -> bool:
    n = board.shape[0]
    if action == 4 * n:
        return not s[_HAS_MOVE]
    if action < 0 or action > 4 * n:
        return False
    return _legal_move(board, counts, rules, zobrist, h, keys, stamps, s[_STAMP], s[_TO_MOVE],
                       action // n, action % n)


@njit(cache=True)
def _opponent_turn(board: np.ndarray, counts: np.ndarray, adjacent: np.ndarray,
                   degree: np.ndarray, zobrist: np.ndarray, hashes: np.ndarray, i: int,
                   s: np.ndarray, rules: np.ndarray, keys: np.ndarray, stamps: np.ndarray,
                   history: np.ndarray, obs: np.ndarray, rng: np.ndarray,
                   scratch: np.ndarray) -> int:
    count = _moves(board, counts, rules, zobrist, hashes[i], keys, stamps, s[_STAMP],
                   s[_TO_MOVE], scratch)
    action = 4 * board.shape[0] if count == 0 else scratch[below(rng, i, count)]
    _play(board, counts, adjacent, degree, zobrist, hashes, i, s, rules, keys, stamps,
          action, history, obs)
    return action


@njit(cache=True)
def _start(i: int, board: np.ndarray, counts: np.ndarray, hashes: np.ndarray,
           state: np.ndarray, keys: np.ndarray, stamps: np.ndarray, history: np.ndarray,
           start: tuple[Any, ...], adjacent: np.ndarray, degree: np.ndarray,
           zobrist: np.ndarray, rules: np.ndarray, rng: np.ndarray, scratch: np.ndarray,
           learner: int, self_play: bool, obs: np.ndarray, mask: np.ndarray,
           opponent_actions: np.ndarray) -> None:
    start_board, start_counts, start_hash, start_state, start_obs = start
    s = state[i]
    stamp = s[_STAMP] + 1
    s[:] = start_state
    s[_STAMP] = stamp
    board[i] = start_board
    counts[i] = start_counts
    obs[i] = start_obs
    hashes[i] = start_hash
    _remember(keys[i], stamps[i], stamp, start_hash)
    if not self_play and s[_TO_MOVE] != learner:
        opponent_actions[i] = _opponent_turn(board[i], counts[i], adjacent, degree, zobrist,
                                             hashes, i, s, rules, keys[i], stamps[i],
                                             history[i], obs[i], rng, scratch)
    viewer = s[_TO_MOVE]
    _mask(board[i], counts[i], rules, zobrist, hashes[i], keys[i], stamps[i], s, viewer,
          mask[i], scratch)


@njit(cache=True)
def _reset_all(board: np.ndarray, counts: np.ndarray, hashes: np.ndarray,
               state: np.ndarray, keys: np.ndarray, stamps: np.ndarray, history: np.ndarray,
               start: tuple[Any, ...], adjacent: np.ndarray, degree: np.ndarray,
               zobrist: np.ndarray, rules: np.ndarray, rng: np.ndarray, scratch: np.ndarray,
               learner: int, self_play: bool, obs: np.ndarray, mask: np.ndarray,
               to_play: np.ndarray, opponent_actions: np.ndarray) -> bool:
    for i in range(board.shape[0]):
        _start(i, board, counts, hashes, state, keys, stamps, history, start, adjacent,
               degree, zobrist, rules, rng, scratch, learner, self_play, obs, mask,
               opponent_actions)
        if state[i, _OVER]:
            return False
        to_play[i] = state[i, _TO_MOVE]
    return True


@njit(cache=True)
def _step_all(actions: np.ndarray, board: np.ndarray, counts: np.ndarray,
              hashes: np.ndarray, state: np.ndarray, keys: np.ndarray, stamps: np.ndarray,
              history: np.ndarray, start: tuple[Any, ...], adjacent: np.ndarray,
              degree: np.ndarray, zobrist: np.ndarray, rules: np.ndarray, rng: np.ndarray,
              scratch: np.ndarray, learner: int, self_play: bool, lose_illegal: bool,
              ended: np.ndarray, forfeit: np.ndarray, obs: np.ndarray, mask: np.ndarray,
              rewards: np.ndarray, terminated: np.ndarray, to_play: np.ndarray,
              opponent_actions: np.ndarray) -> int:
    n_envs = board.shape[0]
    if not lose_illegal:  # refuse the whole step before changing anything
        for i in range(n_envs):
            if not ended[i] and not _is_legal(board[i], counts[i], rules, zobrist, hashes[i],
                                              keys[i], stamps[i], state[i], actions[i]):
                return i
    for i in range(n_envs):
        rewards[i] = 0.0
        terminated[i] = False
        s = state[i]
        if ended[i]:
            ended[i] = False
            forfeit[i] = False
            _start(i, board, counts, hashes, state, keys, stamps, history, start, adjacent,
                   degree, zobrist, rules, rng, scratch, learner, self_play, obs, mask,
                   opponent_actions)
            if s[_OVER]:
                return -2
            to_play[i] = s[_TO_MOVE]
            continue
        mover = s[_TO_MOVE]
        if not _is_legal(board[i], counts[i], rules, zobrist, hashes[i], keys[i], stamps[i],
                         s, actions[i]):
            forfeit[i] = True
            rewards[i] = -1.0
            terminated[i] = True
            ended[i] = True
            mask[i, :] = False
            continue
        _play(board[i], counts[i], adjacent, degree, zobrist, hashes, i, s, rules, keys[i],
              stamps[i], actions[i], history[i], obs[i])
        if not self_play and s[_OVER] == 0:
            opponent_actions[i] = _opponent_turn(board[i], counts[i], adjacent, degree,
                                                 zobrist, hashes, i, s, rules, keys[i],
                                                 stamps[i], history[i], obs[i], rng, scratch)
        if s[_OVER]:
            result = s[_OVER] - 1
            rewards[i] = 0.0 if result == 2 else (1.0 if result == mover else -1.0)
            terminated[i] = True
            ended[i] = True
            to_play[i] = mover
            mask[i, :] = False
        else:
            to_play[i] = s[_TO_MOVE]
            _mask(board[i], counts[i], rules, zobrist, hashes[i], keys[i], stamps[i], s,
                  s[_TO_MOVE], mask[i], scratch)
    return -1


class LosatVectorEnv(CompiledVectorEnv):
    """Losat, ``num_envs`` boards in one compiled step (see the module doc and
    :class:`~lifearena.interop.vector.base.CompiledVectorEnv` for the options)."""

    game: ClassVar[str] = "losat"
    opponents: ClassVar[tuple[str, ...]] = ("random", SELF)

    def _allocate(self) -> None:
        n_envs = self.num_envs
        first = self.encoding.game.new_initial_state()
        assert isinstance(first, LosatState)
        p = first.params
        geo = Geometry.get(p["width"], p["length"], p["neighbours"])
        n = geo.size
        slots = 1 << max(4, (2 * (p["max_moves"] + 1)).bit_length())
        needed = n_envs * (slots * 12 + p["max_moves"] * 8)
        if needed > MAX_TABLE_BYTES:
            raise BadParameterError(
                f"max_moves={p['max_moves']} with num_envs={n_envs} needs {needed >> 20} MiB "
                f"of superko memory; expected at most {MAX_TABLE_BYTES >> 20} MiB (fewer "
                f"environments or a lower move limit)")
        self._board = np.zeros((n_envs, n), np.int8)
        self._counts = np.zeros((n_envs, 2, n), np.int16)
        self._hashes = np.zeros(n_envs, np.uint64)
        self._state = np.zeros((n_envs, _COLUMNS), np.int64)
        self._keys = np.zeros((n_envs, slots), np.uint64)
        self._stamps = np.zeros((n_envs, slots), np.int64)
        self._history = np.zeros((n_envs, p["max_moves"]), np.int64)
        self._scratch = np.zeros(4 * n, np.int64)
        self._adjacent = np.zeros((n, 8), np.int64)
        self._degree = np.zeros(n, np.int64)
        for point, around in enumerate(geo.adjacent):
            self._degree[point] = len(around)
            self._adjacent[point, :len(around)] = around
        self._zobrist = np.array(geo.zobrist, dtype=np.uint64)
        goals = first.goal_rows()
        self._rules = np.array([p["width"], p["captures_to_win"], p["max_moves"],
                                p["own_colour_only"], p["capture_or_more"], *goals], np.int64)
        board = first.board.reshape(-1)
        start_state = np.zeros(_COLUMNS, np.int64)
        start_state[_TO_MOVE] = first.current_player()
        rows = board.reshape(p["length"], p["width"])
        for colour in (0, 1):
            start_state[_ON_GOAL + colour] = np.count_nonzero(rows[goals[colour]] == colour + 1)
        self._start_data = (board.astype(np.int8), first.neighbour_counts().reshape(2, n),
                            np.uint64(first.zobrist_hash()), start_state,
                            np.stack([board == 1, board == 2]).astype(np.float32))
        self._planes = self._obs.reshape(n_envs, 2, n)

    def _common(self) -> tuple[Any, ...]:
        return (self._board, self._counts, self._hashes, self._state, self._keys,
                self._stamps, self._history, self._start_data, self._adjacent, self._degree,
                self._zobrist, self._rules, self._rng, self._scratch, self.player,
                self.self_play)

    def _reset_kernel(self) -> bool:
        return bool(_reset_all(*self._common(), self._planes, self._mask, self.to_play,
                               self.opponent_actions))

    def _step_kernel(self, actions: np.ndarray) -> int:
        bad = int(_step_all(actions, *self._common(), self.illegal == "lose", self._ended,
                            self._forfeit, self._planes, self._mask, self._rewards,
                            self._terminated, self.to_play, self.opponent_actions))
        if bad == -2:
            self._reset_failed()
        return bad

    def history(self, i: int) -> list[int]:
        """Environment ``i``'s plies this episode, both sides'."""
        return self._history[i, :self._state[i, _PLY]].tolist()

    def position(self, i: int, *, start: bool = False) -> LosatState:
        """Environment ``i``'s position now (the start replayed with :meth:`history`, so
        its superko memory is whole), or with ``start=True`` the start."""
        state = self.encoding.game.new_initial_state()
        assert isinstance(state, LosatState)
        if not start:
            for action in self.history(i):
                state.apply_action(action)
        return state
