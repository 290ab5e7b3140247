"""Losat as a compiled vector environment: ``num_envs`` Go boards stepped in one numba call,
on the rules of :mod:`lifearena.games.losat.fast` (said once there, for the protocol state
too); this module holds the buffers and the writing of observations and masks, and fills the
hooks of :class:`~lifearena.interop.vector.base.CompiledVectorEnv`, whose step loop gives
the opponent pools, the policy opponent, per-board seeds, ``reset_mask``, both auto-reset
modes and snapshots.

Each board keeps what the protocol's :class:`~lifearena.games.losat.LosatState` keeps, in
arrays: the flat board, each colour's neighbour count of every point (updated on each
change), the Zobrist hash of the arrangement with the game's own table
(:class:`~lifearena.games.losat.geometry.Geometry`), the superko memory as an open-addressing
set of the hashes seen this episode, the captures, the stones on each goal line, the passes
and the plies. Every episode starts from the game's start (the two pi-heptominoes under the
parameters given). Compiled opponents (:data:`OPPONENTS`): ``random`` (uniform among the
legal moves, from the board's stream) and ``greedy``, which picks among the same equally
good moves as ``agents.make("greedy", game="losat")`` (drawing among them from the board's
stream, where the protocol agent draws from its own generator); besides them ``self``
(self-play: the observation and mask are the side to move's) and ``policy`` (a callback,
asked on the boards where it is to move, with the same planes and its own mask; the
learner's mask is empty meanwhile).

For a search (:mod:`lifearena.rl.alphazero`): :meth:`~LosatVectorEnv.snapshot` and
``restore`` carry every board's whole game (superko set and counters included),
:meth:`~LosatVectorEnv.set_position` puts a protocol position on a board,
:meth:`~LosatVectorEnv.copy_board` another environment's board, and
:meth:`~LosatVectorEnv.tallies` gives the counters beside the planes.

The observation planes (black stones, white stones) are the same for both sides, so a step
rewrites only the points that changed: the buffers are the environment's own, to be read,
not written (with ``copy=False``, what ``step`` hands out is those buffers).

>>> env = LosatVectorEnv(2, params={"width": 9, "length": 11, "max_moves": 40},
...                      opponent={"random": 1, "greedy": 1})
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
from lifearena.games.losat import DEFAULTS, LosatState
from lifearena.games.losat.fast import (
    CAPTURES,
    CAPTURES_TO_WIN,
    COLUMNS,
    ENDING,
    GOALS,
    HAS_MOVE,
    LENGTH,
    MAX_MOVES,
    ON_GOAL,
    PASSES,
    PLY,
    RULES,
    STAMP,
    TO_MOVE,
    WIDTH,
    ending,
    greedy_move,
    is_legal,
    legal_moves,
    play,
    random_move,
    remember,
    superko_slots,
    winner,
)
from lifearena.games.losat.geometry import Geometry
from lifearena.games.losat.notation import SYMBOLS
from lifearena.interop.vector.base import POLICY_KIND, CompiledVectorEnv

_winner = njit(cache=True)(winner)
MAX_TABLE_BYTES = 1 << 30
"""The most memory the batch's superko sets and histories may take."""
OPPONENTS = ("random", "greedy")
"""The compiled opponents, by kind number (their index here)."""
RANDOM, GREEDY = 0, 1


@njit(cache=True)
def _write_point(board: np.ndarray, obs: np.ndarray, action: int) -> None:
    """Rewrite the planes of the point ``action`` changed (nothing for a pass)."""
    n = board.shape[0]
    if action < 4 * n:
        point = action % n
        obs[0, point] = 1.0 if board[point] == 1 else 0.0
        obs[1, point] = 1.0 if board[point] == 2 else 0.0


@njit(cache=True)
def _write_mask(board: np.ndarray, counts: np.ndarray, zobrist: np.ndarray, h: np.uint64,
                keys: np.ndarray, stamps: np.ndarray, s: np.ndarray, rules: np.ndarray,
                mask: np.ndarray, scratch: np.ndarray, hashes: np.ndarray) -> None:
    """The side to move's mask; keeps ``s[HAS_MOVE]``."""
    count = legal_moves(board, counts, zobrist, h, keys, stamps, s, rules, s[TO_MOVE],
                        scratch, hashes)
    mask[:] = False
    for k in range(count):
        mask[scratch[k]] = True
    mask[4 * board.shape[0]] = count == 0
    s[HAS_MOVE] = count > 0


@njit(cache=True)
def _play(board: np.ndarray, counts: np.ndarray, adjacent: np.ndarray, degree: np.ndarray,
          zobrist: np.ndarray, hashes: np.ndarray, i: int, s: np.ndarray, rules: np.ndarray,
          keys: np.ndarray, stamps: np.ndarray, action: int, history: np.ndarray,
          obs: np.ndarray) -> None:
    """Environment ``i`` plays the legal ``action``: the rules, the history, the planes."""
    history[s[PLY]] = action
    hashes[i] = play(board, counts, adjacent, degree, zobrist, hashes[i], s, rules, keys,
                     stamps, action)
    _write_point(board, obs, action)


@njit(cache=True)
def _opponent_turn(kind: int, board: np.ndarray, counts: np.ndarray, adjacent: np.ndarray,
                   degree: np.ndarray, zobrist: np.ndarray, hashes: np.ndarray, i: int,
                   s: np.ndarray, rules: np.ndarray, keys: np.ndarray, stamps: np.ndarray,
                   history: np.ndarray, obs: np.ndarray, rng: np.ndarray,
                   scratch: np.ndarray, scratch_hashes: np.ndarray) -> int:
    """The compiled opponent ``kind`` chooses and plays its move; returns it."""
    if kind == GREEDY:
        action = greedy_move(board, counts, adjacent, degree, zobrist, hashes[i], s, rules,
                             keys, stamps, rng, i, scratch, scratch_hashes)
    else:
        action = random_move(board, counts, zobrist, hashes[i], keys, stamps, s, rules, rng,
                             i, scratch, scratch_hashes)
    _play(board, counts, adjacent, degree, zobrist, hashes, i, s, rules, keys, stamps,
          action, history, obs)
    return action


@njit(cache=True)
def _wait_for_policy(i: int, board: np.ndarray, counts: np.ndarray, zobrist: np.ndarray,
                     h: np.uint64, keys: np.ndarray, stamps: np.ndarray, s: np.ndarray,
                     rules: np.ndarray, learner: int, scratch: np.ndarray,
                     scratch_hashes: np.ndarray, obs: np.ndarray, mask: np.ndarray,
                     to_play: np.ndarray, waiting: np.ndarray, opp_obs: np.ndarray,
                     opp_mask: np.ndarray) -> None:
    """Board ``i`` waits for the policy opponent (to move): its view and mask written, the
    learner's mask empty."""
    waiting[i] = True
    to_play[i] = learner
    opp_obs[i] = obs[i]  # the planes are the same from both seats
    _write_mask(board, counts, zobrist, h, keys, stamps, s, rules, opp_mask[i], scratch,
                scratch_hashes)
    mask[i, :] = False


@njit(cache=True)
def _start(i: int, board: np.ndarray, counts: np.ndarray, hashes: np.ndarray,
           state: np.ndarray, keys: np.ndarray, stamps: np.ndarray, history: np.ndarray,
           start: tuple[Any, ...], adjacent: np.ndarray, degree: np.ndarray,
           zobrist: np.ndarray, rules: np.ndarray, rng: np.ndarray, scratch: np.ndarray,
           scratch_hashes: np.ndarray, learner: int, kind: int, obs: np.ndarray,
           mask: np.ndarray, to_play: np.ndarray, opponent_actions: np.ndarray,
           waiting: np.ndarray, opp_obs: np.ndarray, opp_mask: np.ndarray) -> bool:
    """Start board ``i`` from the game's start; where the opponent moves first, a compiled
    one plays its move and a policy one is waited for. ``False`` if a compiled opponent's
    first move ended the game (the start is always the same: so would every retry)."""
    start_board, start_counts, start_hash, start_state, start_obs = start
    s = state[i]
    stamp = s[STAMP] + 1
    s[:] = start_state
    s[STAMP] = stamp
    board[i] = start_board
    counts[i] = start_counts
    obs[i] = start_obs
    hashes[i] = start_hash
    remember(keys[i], stamps[i], stamp, start_hash)
    if kind == POLICY_KIND and s[TO_MOVE] != learner:
        _wait_for_policy(i, board[i], counts[i], zobrist, hashes[i], keys[i], stamps[i], s,
                         rules, learner, scratch, scratch_hashes, obs, mask, to_play, waiting,
                         opp_obs, opp_mask)
        return True
    if kind >= 0 and s[TO_MOVE] != learner:
        opponent_actions[i] = _opponent_turn(kind, board[i], counts[i], adjacent, degree,
                                             zobrist, hashes, i, s, rules, keys[i],
                                             stamps[i], history[i], obs[i], rng, scratch,
                                             scratch_hashes)
    if s[ENDING]:
        return False
    to_play[i] = s[TO_MOVE]
    _write_mask(board[i], counts[i], zobrist, hashes[i], keys[i], stamps[i], s, rules,
                mask[i], scratch, scratch_hashes)
    return True


@njit(cache=True)
def _start_all(which: np.ndarray, board: np.ndarray, counts: np.ndarray, hashes: np.ndarray,
               state: np.ndarray, keys: np.ndarray, stamps: np.ndarray, history: np.ndarray,
               start: tuple[Any, ...], adjacent: np.ndarray, degree: np.ndarray,
               zobrist: np.ndarray, rules: np.ndarray, rng: np.ndarray, scratch: np.ndarray,
               scratch_hashes: np.ndarray, learner: int, kinds: np.ndarray, obs: np.ndarray,
               mask: np.ndarray, to_play: np.ndarray, opponent_actions: np.ndarray,
               waiting: np.ndarray, opp_obs: np.ndarray, opp_mask: np.ndarray) -> bool:
    for i in range(board.shape[0]):
        if which[i] and not _start(i, board, counts, hashes, state, keys, stamps, history,
                                   start, adjacent, degree, zobrist, rules, rng, scratch,
                                   scratch_hashes, learner, kinds[i], obs, mask, to_play,
                                   opponent_actions, waiting, opp_obs, opp_mask):
            return False
    return True


@njit(cache=True)
def _judged(i: int, s: np.ndarray, seat: int, rewards: np.ndarray, terminated: np.ndarray,
            ended: np.ndarray, to_play: np.ndarray, mask: np.ndarray) -> bool:
    """Whether board ``i``'s game is over; if so its reward from ``seat``'s side, its flags
    and an empty mask are written (``to_play`` is then ``seat``)."""
    if not s[ENDING]:
        return False
    won = _winner(s[ENDING])
    rewards[i] = 0.0 if won < 0 else (1.0 if won == seat else -1.0)
    terminated[i] = True
    ended[i] = True
    to_play[i] = seat
    mask[i, :] = False
    return True


@njit(cache=True)
def _step_all(actions: np.ndarray, active: np.ndarray, board: np.ndarray, counts: np.ndarray,
              hashes: np.ndarray, state: np.ndarray, keys: np.ndarray, stamps: np.ndarray,
              history: np.ndarray, start: tuple[Any, ...], adjacent: np.ndarray,
              degree: np.ndarray, zobrist: np.ndarray, rules: np.ndarray, rng: np.ndarray,
              scratch: np.ndarray, scratch_hashes: np.ndarray, learner: int,
              kinds: np.ndarray, lose_illegal: bool, ended: np.ndarray, forfeit: np.ndarray,
              obs: np.ndarray, mask: np.ndarray, rewards: np.ndarray, terminated: np.ndarray,
              to_play: np.ndarray, opponent_actions: np.ndarray, waiting: np.ndarray,
              opp_obs: np.ndarray, opp_mask: np.ndarray) -> int:
    n_envs = board.shape[0]
    if not lose_illegal:  # refuse the whole step before changing anything
        for i in range(n_envs):
            if active[i] and not is_legal(board[i], counts[i], zobrist, hashes[i], keys[i],
                                          stamps[i], state[i], rules, actions[i]):
                return i
    for i in range(n_envs):
        if not active[i]:
            continue
        s = state[i]
        mover = s[TO_MOVE]
        if not is_legal(board[i], counts[i], zobrist, hashes[i], keys[i], stamps[i], s, rules,
                        actions[i]):
            forfeit[i] = True
            rewards[i] = -1.0
            terminated[i] = True
            ended[i] = True
            mask[i, :] = False
            continue
        _play(board[i], counts[i], adjacent, degree, zobrist, hashes, i, s, rules, keys[i],
              stamps[i], actions[i], history[i], obs[i])
        kind = kinds[i]
        if kind == POLICY_KIND and not s[ENDING]:
            _wait_for_policy(i, board[i], counts[i], zobrist, hashes[i], keys[i], stamps[i],
                             s, rules, mover, scratch, scratch_hashes, obs, mask, to_play,
                             waiting, opp_obs, opp_mask)
            continue
        if kind >= 0 and not s[ENDING]:
            opponent_actions[i] = _opponent_turn(kind, board[i], counts[i], adjacent, degree,
                                                 zobrist, hashes, i, s, rules, keys[i],
                                                 stamps[i], history[i], obs[i], rng, scratch,
                                                 scratch_hashes)
        if not _judged(i, s, mover, rewards, terminated, ended, to_play, mask):
            to_play[i] = s[TO_MOVE]
            _write_mask(board[i], counts[i], zobrist, hashes[i], keys[i], stamps[i], s, rules,
                        mask[i], scratch, scratch_hashes)
    return -1


@njit(cache=True)
def _reply_all(replies: np.ndarray, waiting: np.ndarray, board: np.ndarray,
               counts: np.ndarray, hashes: np.ndarray, state: np.ndarray, keys: np.ndarray,
               stamps: np.ndarray, history: np.ndarray, adjacent: np.ndarray,
               degree: np.ndarray, zobrist: np.ndarray, rules: np.ndarray,
               scratch: np.ndarray, scratch_hashes: np.ndarray, learner: int,
               ended: np.ndarray, obs: np.ndarray, mask: np.ndarray, rewards: np.ndarray,
               terminated: np.ndarray, to_play: np.ndarray, pending: np.ndarray) -> int:
    """The policy opponent's ``replies`` on the ``waiting`` boards, then the learner's view;
    -1, or the first board whose reply is illegal (nothing changed then)."""
    n_envs = board.shape[0]
    for i in range(n_envs):
        if waiting[i] and not is_legal(board[i], counts[i], zobrist, hashes[i], keys[i],
                                       stamps[i], state[i], rules, replies[i]):
            return i
    for i in range(n_envs):
        if not waiting[i]:
            continue
        pending[i] = False
        s = state[i]
        _play(board[i], counts[i], adjacent, degree, zobrist, hashes, i, s, rules, keys[i],
              stamps[i], replies[i], history[i], obs[i])
        if not _judged(i, s, learner, rewards, terminated, ended, to_play, mask):
            to_play[i] = learner
            _write_mask(board[i], counts[i], zobrist, hashes[i], keys[i], stamps[i], s, rules,
                        mask[i], scratch, scratch_hashes)
    return -1


class LosatVectorEnv(CompiledVectorEnv):
    """Losat, ``num_envs`` boards in one compiled step (see the module doc and
    :class:`~lifearena.interop.vector.base.CompiledVectorEnv` for the options)."""

    game: ClassVar[str] = "losat"
    opponents: ClassVar[tuple[str, ...]] = OPPONENTS
    """The compiled opponents (a board's kind is its index here)."""
    board_arrays: ClassVar[tuple[str, ...]] = ("_board", "_counts", "_hashes", "_state",
                                               "_keys", "_stamps", "_history", "_origins")
    """Everything a board's game is: the stones, the neighbour counts, the hash, the state
    row (side to move, passes, plies, captures, stones on the goal lines, the ending, the
    superko stamp), the superko set, the plies played and where they were played from (the
    setup of a position :meth:`set_position` gave, ``None`` for the game's start): what
    :meth:`snapshot` copies, so that a search's :meth:`restore` puts back the superko memory
    and the move counters with the stones."""

    def _allocate(self) -> None:
        n_envs = self.num_envs
        first = self.encoding.game.new_initial_state()
        assert isinstance(first, LosatState)
        p = first.params
        geo = Geometry.get(p["width"], p["length"], p["neighbours"])
        n = geo.size
        slots = superko_slots(p["max_moves"])
        needed = n_envs * (slots * 16 + p["max_moves"] * 8)
        if needed > MAX_TABLE_BYTES:
            raise BadParameterError(
                f"max_moves={p['max_moves']} with num_envs={n_envs} needs {needed >> 20} MiB "
                f"of superko memory; expected at most {MAX_TABLE_BYTES >> 20} MiB (fewer "
                f"environments or a lower move limit)")
        self._board = np.zeros((n_envs, n), np.int8)
        self._counts = np.zeros((n_envs, 2, n), np.int16)
        self._hashes = np.zeros(n_envs, np.uint64)
        self._state = np.zeros((n_envs, COLUMNS), np.int64)
        self._keys = np.zeros((n_envs, slots), np.uint64)
        self._stamps = np.zeros((n_envs, slots), np.int64)
        self._history = np.zeros((n_envs, p["max_moves"]), np.int64)
        self._origins = np.full(n_envs, None, object)
        self._scratch = np.zeros(4 * n, np.int64)
        self._scratch_hashes = np.zeros(4 * n, np.uint64)
        self._adjacent = geo.adjacent_table
        self._degree = geo.degree
        self._zobrist = geo.zobrist_table
        goals = first.goal_rows()
        self._rules = np.zeros(RULES, np.int64)
        self._rules[:LENGTH] = [p["width"], p["captures_to_win"], p["max_moves"],
                                p["own_colour_only"], p["capture_or_more"], *goals]
        self._rules[LENGTH] = p["length"]
        assert self._rules[WIDTH] == p["width"]
        board = first.board.reshape(-1)
        start_state = np.zeros(COLUMNS, np.int64)
        start_state[TO_MOVE] = first.current_player()
        rows = board.reshape(p["length"], p["width"])
        for colour in (0, 1):
            start_state[ON_GOAL + colour] = np.count_nonzero(rows[goals[colour]] == colour + 1)
        self._start_data = (board.astype(np.int8), first.neighbour_counts().reshape(2, n),
                            np.uint64(first.zobrist_hash()), start_state,
                            np.stack([board == 1, board == 2]).astype(np.float32))
        self._planes = self._obs.reshape(n_envs, 2, n)
        self._opp_planes = self._opp_obs.reshape(len(self._opp_obs), 2, n)

    def _common(self) -> tuple[Any, ...]:
        return (self._board, self._counts, self._hashes, self._state, self._keys,
                self._stamps, self._history, self._start_data, self._adjacent, self._degree,
                self._zobrist, self._rules, self._rng, self._scratch, self._scratch_hashes,
                self.player, self._kinds)

    def _start_kernel(self, which: np.ndarray) -> bool:
        self._origins[which] = None  # a new episode starts from the game's start
        args = (which, *self._common(), self._planes, self._mask, self.to_play,
                self.opponent_actions, self._waiting, self._opp_planes, self._opp_mask)
        return bool(_start_all(*args))

    def _step_kernel(self, actions: np.ndarray, active: np.ndarray,
                     opp_actions: np.ndarray) -> int:
        args = (actions, active, *self._common(), self.illegal == "lose", self._ended,
                self._forfeit, self._planes, self._mask, self._rewards, self._terminated,
                self.to_play, self.opponent_actions, self._waiting, self._opp_planes,
                self._opp_mask)
        return int(_step_all(*args))

    def _reply_kernel(self, opp_actions: np.ndarray, waiting: np.ndarray) -> int:
        return int(_reply_all(opp_actions, waiting, self._board, self._counts, self._hashes,
                              self._state, self._keys, self._stamps, self._history,
                              self._adjacent, self._degree, self._zobrist, self._rules,
                              self._scratch, self._scratch_hashes, self.player, self._ended,
                              self._planes, self._mask, self._rewards, self._terminated,
                              self.to_play, self._waiting))

    def history(self, i: int) -> list[int]:
        """Environment ``i``'s plies this episode, both sides'."""
        plies: list[int] = self._history[i, :self._state[i, PLY]].tolist()
        return plies

    def position(self, i: int, *, start: bool = False) -> LosatState:
        """Environment ``i``'s position now (its episode's start replayed with
        :meth:`history`, so its superko memory is whole), or with ``start=True`` that start:
        the game's start, or the setup of the position :meth:`set_position` put there."""
        origin = self._origins[i]
        if origin is None:
            state = self.encoding.game.new_initial_state()
        else:
            state = LosatState.from_setup(origin, **{k: self.params[k] for k in DEFAULTS})
        assert isinstance(state, LosatState)
        if not start:
            for action in self.history(i):
                state.apply_action(action)
        return state

    def tallies(self) -> np.ndarray:
        """An ``(num_envs, 5)`` int64 copy of what each board counts besides its stones: the
        side to move (0 black, 1 white), passes in a row, plies played, Black's and White's
        captures (what a search's network reads beside the planes)."""
        return self._state[:, [TO_MOVE, PASSES, PLY, CAPTURES, CAPTURES + 1]].copy()

    # -- search: positions from elsewhere --------------------------------------------------------

    def set_position(self, i: int, state: LosatState) -> None:
        """Put the protocol position ``state`` on board ``i``: its stones, neighbour counts
        and hash, side to move, passes, plies, captures, its whole superko memory and its
        plies since its setup (which becomes the board's episode start, for
        :meth:`position`); its observation, mask and ``to_play`` (what a search plays from
        with :meth:`step_boards`, or an agent from a game played elsewhere). A finished
        position leaves the board ended (no legal action, ``to_play`` the last mover, as
        after the step that ended it; the next :meth:`step` restarts it). ``state`` must
        have this environment's parameters; outside self-play the learner's seat must be
        the side to move."""
        if not isinstance(state, LosatState):
            raise BadParameterError(f"set_position: a {type(state).__name__}; expected a "
                                    f"LosatState")
        self._check_board(i, "set_position")
        changed = sorted(k for k in DEFAULTS if state.params.get(k) != self.params.get(k))
        if changed:  # the rules (the environment's own parameters add a seed)
            theirs = ", ".join(f"{k}={state.params.get(k)!r}" for k in changed)
            mine = ", ".join(f"{k}={self.params[k]!r}" for k in changed)
            raise BadParameterError(f"set_position: a position with {theirs}; expected this "
                                    f"environment's {mine}")
        # the side to move and the passes in a row, as the position notation writes them (a
        # game ended by two passes writes 2, which its parser refuses: read, not parsed)
        fields = state.position().split()
        side, passes, captures = SYMBOLS.index(fields[1]), int(fields[3]), state.captures()
        if not self.self_play and side != self.player and not state.is_terminal():
            names = state.info.side_names
            raise BadParameterError(f"set_position: {names[side]} to move; expected the "
                                    f"learner's seat ({names[self.player]}) outside self-play")
        n = self._board.shape[1]
        board = state.board.reshape(-1)
        plies = state.history()
        s = self._state[i]
        stamp = s[STAMP] + 1  # a new stamp empties the board's superko set
        s[:] = 0
        s[STAMP] = stamp
        s[TO_MOVE], s[PASSES], s[PLY] = side, passes, len(plies)
        s[CAPTURES], s[CAPTURES + 1] = captures
        rules = self._rules
        for colour in (0, 1):
            row = board.reshape(-1, int(rules[WIDTH]))[rules[GOALS + colour]]
            s[ON_GOAL + colour] = np.count_nonzero(row == colour + 1)
        s[ENDING] = ending(int(s[ON_GOAL]), int(s[ON_GOAL + 1]), captures[0], captures[1],
                           int(rules[CAPTURES_TO_WIN]), passes, len(plies),
                           int(rules[MAX_MOVES]), 1 - side)
        self._board[i] = board
        self._counts[i] = state.neighbour_counts().reshape(2, n)
        self._hashes[i] = np.uint64(state.zobrist_hash())
        for h in state.seen_hashes():
            remember(self._keys[i], self._stamps[i], stamp, np.uint64(h))
        self._history[i, :len(plies)] = plies
        self._origins[i] = state.setup()
        self._show(i)

    def copy_board(self, i: int, other: LosatVectorEnv, j: int) -> None:
        """Put board ``j`` of ``other`` (an environment of the same parameters) on board
        ``i``, as :meth:`set_position` of ``other.position(j)`` would, without replaying its
        game (what a search does each move when it plays games held by other
        environments)."""
        self._check_board(i, "copy_board")
        if not isinstance(other, LosatVectorEnv) \
                or any(other.params.get(k) != self.params.get(k) for k in DEFAULTS):
            raise BadParameterError("copy_board: expected a LosatVectorEnv of the same "
                                    "parameters")
        mover = int(other._state[j, TO_MOVE])
        if not self.self_play and mover != self.player and not other._state[j, ENDING]:
            raise BadParameterError("copy_board: expected the learner's seat to move "
                                    "outside self-play")
        # the superko set comes with its stamp: its entries are those stamped with the
        # board's stamp, and every later start's stamp is higher than all of them
        for name in self.board_arrays:
            getattr(self, name)[i] = getattr(other, name)[j]
        self._show(i)

    def _check_board(self, i: int, what: str) -> None:
        if isinstance(i, bool) or not isinstance(i, int | np.integer) \
                or not 0 <= i < self.num_envs:
            raise BadParameterError(f"{what}: board {i!r:.40}; expected an integer "
                                    f"0..{self.num_envs - 1}")

    def _show(self, i: int) -> None:
        """Board ``i``'s flags, observation, mask and ``to_play`` from its arrays."""
        s = self._state[i]
        over = bool(s[ENDING])
        self._ended[i] = self._terminated[i] = over
        self._forfeit[i] = self._waiting[i] = self._truncated[i] = False
        self._rewards[i] = 0.0
        # a finished board names the last mover, as a step that ends a game does
        self.to_play[i] = 1 - s[TO_MOVE] if over else s[TO_MOVE]
        self.opponent_actions[i] = -1
        board = self._board[i]
        self._planes[i, 0] = board == 1
        self._planes[i, 1] = board == 2
        if over:
            self._mask[i] = False
            s[HAS_MOVE] = 0
        else:
            _write_mask(board, self._counts[i], self._zobrist, self._hashes[i], self._keys[i],
                        self._stamps[i], s, self._rules, self._mask[i], self._scratch,
                        self._scratch_hashes)
