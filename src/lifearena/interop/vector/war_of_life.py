"""War of Life as a compiled vector environment: ``num_envs`` bitboard games stepped in one
numba call, on the kernels of :mod:`lifearena.games.war_of_life.fast` (the crank, the move
generator, the coursework strategies and the ending rules said once there).

Each environment is two ``uint64`` masks (blue, red), the side to move and the moves played.
A random start draws blue's 12 cells uniformly among the 64 and red's 12 among the other 52,
the distribution of :func:`~lifearena.games.war_of_life.new_game`, from the environment's own
compiled generator (:mod:`lifearena.life.kernels.splitmix`); ``params={"seed": s}`` starts
every episode from ``new_game(seed=s)`` instead. Opponents: ``random`` (uniform among the
legal moves), ``self`` (self-play), and the compiled coursework strategies ``bloodlust``,
``self_preservation``, ``land_grab``, ``minimax``, which pick the same move as
``agents.make(name, game="war_of_life")``.

>>> env = WarOfLifeVectorEnv(4, opponent="bloodlust")
>>> observation, info = env.reset(seed=3)
>>> observation.shape, observation.dtype, info["action_mask"].shape
((4, 3, 8, 8), dtype('float32'), (4, 512))
>>> observation, reward, terminated, truncated, info = env.step(env.action_space.sample())
>>> reward.shape, terminated.dtype, bool(env.action_masks().any())
((4,), dtype('bool'), True)
"""

from __future__ import annotations

from typing import ClassVar

import numpy as np
from numba import njit

from lifearena.errors import BadParameterError
from lifearena.games.war_of_life import WarOfLifeState, new_game
from lifearena.games.war_of_life.fast import (
    BLUE_WINS,
    GOES_ON,
    RANDOM,
    RED_WINS,
    STRATEGIES,
    TARGET_OF,
    bits_to_board,
    board_to_bits,
    choose,
    count_moves,
    crank_bits,
    ending,
    has_move,
    nth_move,
    popcount,
)
from lifearena.interop.vector.base import POLICY_KIND, CompiledVectorEnv
from lifearena.life.kernels.splitmix import below, next_double

_ending = njit(cache=True)(ending)
_ONE = np.uint64(1)
_ZERO = np.uint64(0)
_SPREAD = np.frombuffer(bytes(p >> d & 1 for p in range(256) for d in range(8)), np.uint64)
"""``_SPREAD[p]``: eight bytes, byte ``d`` set to 1 when bit ``d`` of ``p`` is: a piece's
eight mask entries (one per direction) written as one word."""


@njit(cache=True)
def _code(blue: np.uint64, red: np.uint64, to_move: int, played: int) -> int:
    own, other = (blue, red) if to_move == 0 else (red, blue)
    return _ending(popcount(blue), popcount(red), played, has_move(own, other))


@njit(cache=True)
def _value(code: int, player: int) -> float:
    if code == BLUE_WINS:
        return 1.0 if player == 0 else -1.0
    if code == RED_WINS:
        return -1.0 if player == 0 else 1.0
    return 0.0


@njit(cache=True)
def _apply(blue: np.uint64, red: np.uint64, player: int, action: int
           ) -> tuple[np.uint64, np.uint64]:
    """The masks after ``player``'s legal ``action`` and the crank."""
    lift = _ONE << np.uint64(action // 8)
    drop = _ONE << np.uint64(TARGET_OF[action])
    if player == 0:
        return crank_bits((blue ^ lift) | drop, red)
    moved_red, moved_blue = crank_bits((red ^ lift) | drop, blue)
    return moved_blue, moved_red


@njit(cache=True)
def _is_legal(own: np.uint64, other: np.uint64, action: int) -> bool:
    if action < 0 or action >= 512:
        return False
    target = TARGET_OF[action]
    if target < 0 or not (own >> np.uint64(action // 8)) & _ONE:
        return False
    return not ((own | other) >> np.uint64(target)) & _ONE


@njit(cache=True)
def _opponent(kind: int, own: np.uint64, other: np.uint64, rng: np.ndarray, i: int) -> int:
    if kind == RANDOM:
        n = count_moves(own, other)
        return nth_move(own, other, int(next_double(rng, i) * n))
    return choose(kind, own, other)


@njit(cache=True)
def _write(i: int, blue: np.uint64, red: np.uint64, viewer: int, turn: bool, masked: bool,
           obs: np.ndarray, mask: np.ndarray) -> None:
    """Environment ``i``'s planes seen by ``viewer`` (``obs`` as ``(n, 3, 64)``) and its mask
    (``(n, 64)`` words, eight booleans each): ``viewer``'s legal moves when ``masked``, else
    none."""
    own, other = (blue, red) if viewer == 0 else (red, blue)
    flag = np.float32(1.0) if turn else np.float32(0.0)
    for cell in range(64):
        bit = np.uint64(cell)
        obs[i, 0, cell] = np.float32((own >> bit) & _ONE)
        obs[i, 1, cell] = np.float32((other >> bit) & _ONE)
        obs[i, 2, cell] = flag
    for cell in range(64):
        mask[i, cell] = _ZERO
    if not masked:
        return
    empty = ~(own | other)
    rest = own
    while rest:  # each own piece: its 8 direction bytes at once
        cell = popcount((rest & (~rest + _ONE)) - _ONE)
        rest &= rest - _ONE
        pattern = 0
        for d in range(8):
            target = TARGET_OF[cell * 8 + d]
            if target >= 0 and (empty >> np.uint64(target)) & _ONE:
                pattern |= 1 << d
        mask[i, cell] = _SPREAD[pattern]


@njit(cache=True)
def _to_learner(i: int, b: np.uint64, r: np.uint64, mover: int, count: int, learner: int,
                blue: np.ndarray, red: np.ndarray, to_move: np.ndarray, played: np.ndarray,
                ended: np.ndarray, rewards: np.ndarray, terminated: np.ndarray,
                obs: np.ndarray, mask: np.ndarray, to_play: np.ndarray) -> None:
    """Board ``i`` after the opponent's reply (``mover`` to move next, the learner's seat
    ``learner``): stored, judged, and the learner's view written."""
    blue[i], red[i], to_move[i], played[i] = b, r, mover, count
    code = _code(b, r, mover, count)
    to_play[i] = learner
    if code != GOES_ON:
        rewards[i] = _value(code, learner)
        terminated[i] = True
        ended[i] = True
        _write(i, b, r, learner, False, False, obs, mask)
    else:
        _write(i, b, r, learner, True, True, obs, mask)


@njit(cache=True)
def _start(i: int, blue: np.ndarray, red: np.ndarray, to_move: np.ndarray,
           played: np.ndarray, starts: np.ndarray, rng: np.ndarray, fixed: np.ndarray,
           learner: int, kind: int, obs: np.ndarray, mask: np.ndarray, to_play: np.ndarray,
           opponent_actions: np.ndarray, waiting: np.ndarray, opp_obs: np.ndarray,
           opp_mask: np.ndarray) -> bool:
    """Start board ``i`` (a fresh start, then the opponent's first move when the learner
    sits second), drawing again while the game is over before the learner moves. A policy
    opponent moving first leaves the board waiting for it, its view written."""
    cells = np.empty(64, np.int64)
    for _ in range(100):
        if fixed[2]:
            b, r = fixed[0], fixed[1]
        else:
            for c in range(64):
                cells[c] = c
            b, r = _ZERO, _ZERO
            for k in range(24):
                j = k + below(rng, i, 64 - k)
                cells[k], cells[j] = cells[j], cells[k]
                if k < 12:
                    b |= _ONE << np.uint64(cells[k])
                else:
                    r |= _ONE << np.uint64(cells[k])
        starts[i, 0], starts[i, 1] = b, r
        mover, count = 0, 0
        code = _code(b, r, mover, count)
        if code == GOES_ON and kind == POLICY_KIND and learner == 1:
            blue[i], red[i], to_move[i], played[i] = b, r, 0, 0
            waiting[i] = True
            to_play[i] = learner
            _write(i, b, r, 0, True, True, opp_obs, opp_mask)
            _write(i, b, r, learner, False, False, obs, mask)
            return True
        if code == GOES_ON and kind >= 0 and learner == 1:
            action = _opponent(kind, b, r, rng, i)
            opponent_actions[i] = action
            b, r = _apply(b, r, 0, action)
            mover, count = 1, 1
            code = _code(b, r, mover, count)
        if code == GOES_ON:
            blue[i], red[i], to_move[i], played[i] = b, r, mover, count
            to_play[i] = mover
            _write(i, b, r, mover, True, True, obs, mask)
            return True
    return False


@njit(cache=True)
def _start_all(which: np.ndarray, blue: np.ndarray, red: np.ndarray, to_move: np.ndarray,
               played: np.ndarray, starts: np.ndarray, rng: np.ndarray, fixed: np.ndarray,
               learner: int, kinds: np.ndarray, obs: np.ndarray, mask: np.ndarray,
               to_play: np.ndarray, opponent_actions: np.ndarray, waiting: np.ndarray,
               opp_obs: np.ndarray, opp_mask: np.ndarray) -> bool:
    for i in range(blue.shape[0]):
        if which[i] and not _start(i, blue, red, to_move, played, starts, rng, fixed, learner,
                                   kinds[i], obs, mask, to_play, opponent_actions, waiting,
                                   opp_obs, opp_mask):
            return False
    return True


@njit(cache=True)
def _step_all(actions: np.ndarray, active: np.ndarray, blue: np.ndarray, red: np.ndarray,
              to_move: np.ndarray, played: np.ndarray, ended: np.ndarray,
              forfeit: np.ndarray, rng: np.ndarray, learner: int, kinds: np.ndarray,
              lose_illegal: bool, obs: np.ndarray, mask: np.ndarray, rewards: np.ndarray,
              terminated: np.ndarray, to_play: np.ndarray, opponent_actions: np.ndarray,
              waiting: np.ndarray, opp_obs: np.ndarray, opp_mask: np.ndarray) -> int:
    n = blue.shape[0]
    if not lose_illegal:  # refuse the whole step before changing anything
        for i in range(n):
            if active[i]:
                mover = to_move[i]
                own, other = (blue[i], red[i]) if mover == 0 else (red[i], blue[i])
                if not _is_legal(own, other, actions[i]):
                    return i
    for i in range(n):
        if not active[i]:
            continue
        b, r = blue[i], red[i]
        mover = to_move[i]
        action = actions[i]
        own, other = (b, r) if mover == 0 else (r, b)
        if not _is_legal(own, other, action):
            forfeit[i] = True
            rewards[i] = -1.0
            terminated[i] = True
            ended[i] = True
            to_play[i] = mover
            _write(i, b, r, mover, True, False, obs, mask)
            continue
        b, r = _apply(b, r, mover, action)
        count = played[i] + 1
        side = 1 - mover
        code = _code(b, r, side, count)
        kind = kinds[i]
        if code == GOES_ON and kind == POLICY_KIND:
            blue[i], red[i], to_move[i], played[i] = b, r, side, count
            waiting[i] = True
            to_play[i] = mover
            _write(i, b, r, side, True, True, opp_obs, opp_mask)
            _write(i, b, r, mover, False, False, obs, mask)
            continue
        if code == GOES_ON and kind >= 0:
            own, other = (b, r) if side == 0 else (r, b)
            reply = _opponent(kind, own, other, rng, i)
            opponent_actions[i] = reply
            b, r = _apply(b, r, side, reply)
            count += 1
            side = mover
            code = _code(b, r, side, count)
        blue[i], red[i], to_move[i], played[i] = b, r, side, count
        if code != GOES_ON:
            rewards[i] = _value(code, mover)
            terminated[i] = True
            ended[i] = True
            to_play[i] = mover
            _write(i, b, r, mover, False, False, obs, mask)
        else:
            to_play[i] = side
            _write(i, b, r, side, True, True, obs, mask)
    return -1


@njit(cache=True)
def _reply_all(replies: np.ndarray, waiting: np.ndarray, blue: np.ndarray, red: np.ndarray,
               to_move: np.ndarray, played: np.ndarray, ended: np.ndarray, learner: int,
               obs: np.ndarray, mask: np.ndarray, rewards: np.ndarray,
               terminated: np.ndarray, to_play: np.ndarray, pending: np.ndarray) -> int:
    n = blue.shape[0]
    for i in range(n):  # refuse the whole call before changing anything
        if waiting[i]:
            side = to_move[i]
            own, other = (blue[i], red[i]) if side == 0 else (red[i], blue[i])
            if not _is_legal(own, other, replies[i]):
                return i
    for i in range(n):
        if not waiting[i]:
            continue
        pending[i] = False
        side = to_move[i]
        b, r = _apply(blue[i], red[i], side, replies[i])
        _to_learner(i, b, r, 1 - side, played[i] + 1, learner, blue, red, to_move, played,
                    ended, rewards, terminated, obs, mask, to_play)
    return -1


class WarOfLifeVectorEnv(CompiledVectorEnv):
    """War of Life, ``num_envs`` boards in one compiled step (see the module doc and
    :class:`~lifearena.interop.vector.base.CompiledVectorEnv` for the options)."""

    game: ClassVar[str] = "war_of_life"
    opponents: ClassVar[tuple[str, ...]] = STRATEGIES
    """The compiled opponents: ``random`` and the coursework's strategies, numbered as
    :data:`~lifearena.games.war_of_life.fast.STRATEGIES` numbers them."""
    board_arrays: ClassVar[tuple[str, ...]] = ("_blue", "_red", "_to_move", "_played",
                                               "_starts")

    def _allocate(self) -> None:
        n = self.num_envs
        self._blue = np.zeros(n, np.uint64)
        self._red = np.zeros(n, np.uint64)
        self._to_move = np.zeros(n, np.int8)
        self._played = np.zeros(n, np.int32)
        self._starts = np.zeros((n, 2), np.uint64)
        """Each episode's start (blue, red masks; blue to move), before any move."""
        self._fixed = np.zeros(3, np.uint64)
        if "seed" in self.user_params:
            blue, red = board_to_bits(new_game(seed=int(self.params["seed"])).board)
            self._fixed[:] = (blue, red, 1)
        self._planes = self._obs.reshape(n, 3, 64)
        self._words = self._mask.view(np.uint64)
        self._opp_planes = self._opp_obs.reshape(len(self._opp_obs), 3, 64)
        self._opp_words = self._opp_mask.view(np.uint64)

    def _start_kernel(self, which: np.ndarray) -> bool:
        return bool(_start_all(which, self._blue, self._red, self._to_move, self._played,
                               self._starts, self._rng, self._fixed, self.player,
                               self._kinds, self._planes, self._words, self.to_play,
                               self.opponent_actions, self._waiting, self._opp_planes,
                               self._opp_words))

    def _step_kernel(self, actions: np.ndarray, active: np.ndarray,
                     opp_actions: np.ndarray) -> int:
        return int(_step_all(actions, active, self._blue, self._red, self._to_move,
                             self._played, self._ended, self._forfeit, self._rng, self.player,
                             self._kinds, self.illegal == "lose", self._planes, self._words,
                             self._rewards, self._terminated, self.to_play,
                             self.opponent_actions, self._waiting, self._opp_planes,
                             self._opp_words))

    def _reply_kernel(self, opp_actions: np.ndarray, waiting: np.ndarray) -> int:
        return int(_reply_all(opp_actions, waiting, self._blue, self._red, self._to_move,
                              self._played, self._ended, self.player, self._planes,
                              self._words, self._rewards, self._terminated, self.to_play,
                              self._waiting))

    def position(self, i: int, *, start: bool = False) -> WarOfLifeState:
        """Environment ``i``'s position now (after its last move and crank), or with
        ``start=True`` the start of its episode, before any move."""
        if start:
            return WarOfLifeState(bits_to_board(*self._starts[i]), 0, 0)
        return WarOfLifeState(bits_to_board(self._blue[i], self._red[i]), int(self._to_move[i]),
                              int(self._played[i]))

    def set_position(self, i: int, state: WarOfLifeState) -> None:
        """Put the protocol position ``state`` on board ``i``: its pieces, side to move and
        moves played, its observation and mask from the side to move's view, and ``to_play``
        (what a search plays from with :meth:`step_boards`, or an agent from a game played
        elsewhere). The position becomes the board's episode start. A finished position
        leaves the board ended (no legal action; the next :meth:`step` restarts it). Outside
        self-play the learner's seat must be the side to move."""
        if not isinstance(state, WarOfLifeState):
            raise BadParameterError(f"set_position: a {type(state).__name__}; expected a "
                                    f"WarOfLifeState")
        if isinstance(i, bool) or not isinstance(i, int | np.integer) \
                or not 0 <= i < self.num_envs:
            raise BadParameterError(f"set_position: board {i!r:.40}; expected an integer "
                                    f"0..{self.num_envs - 1}")
        mover, count = state.to_move, state.moves_played
        if not self.self_play and mover != self.player:
            raise BadParameterError(f"set_position: {state.info.side_names[mover]} to move; "
                                    f"expected the learner's seat "
                                    f"({state.info.side_names[self.player]}) outside "
                                    f"self-play")
        blue, red = board_to_bits(state.board)
        self._blue[i], self._red[i], self._to_move[i], self._played[i] = blue, red, mover, count
        self._starts[i] = blue, red
        over = _code(blue, red, mover, count) != GOES_ON
        self._ended[i] = self._terminated[i] = over
        self._forfeit[i] = self._waiting[i] = self._truncated[i] = False
        self._rewards[i] = 0.0
        self.to_play[i] = mover
        self.opponent_actions[i] = -1
        _write(i, blue, red, mover, not over, not over, self._planes, self._words)
