"""The War of Life strategies' compiled whole games: two coursework strategies, named, played
on the bitboard simulator (:mod:`lifearena.games.war_of_life.fast`) instead of the protocol.

The games are exactly those of ``agents.make(name, game="war_of_life", seed=s)`` (one agent
per side, made once) playing the setups in order through the protocol: a random agent's
generator runs on from one game to the next, and a deterministic one takes the first best
move in tie order (the default ``ties="first"``). The tests check both paths agree.

Names are resolved here, not in the game: :func:`compiled_player` is what
:mod:`lifearena.agents.war_of_life` registers as the game's fast path
(:func:`lifearena.agents.registry.fast_player` finds it, for the tournaments).

>>> from lifearena.games.war_of_life import new_game
>>> moves, outcome, _ = fast_play([new_game(seed=1).setup()], ("minimax", "random"), (0, 0))[0]
>>> len(moves) > 0, outcome.termination.value in ("draw", "exhaust", "win", "stalemate")
(True, True)
>>> compiled_player(("minimax", "mcts"), (0, 0)) is None
True
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Sequence

import numpy as np

from lifearena.core import Outcome
from lifearena.errors import BadParameterError
from lifearena.games.war_of_life import ACTION_TEXT, MAX_MOVES, WarOfLifeState, fast

GameResults = list[tuple[list[str], Outcome, float]]
"""``(moves, outcome, seconds)`` for each game played."""


class FastPlayer:
    """Two named strategies (no options) playing setups with the compiled simulator, one
    agent per side kept from game to game (a random agent's generator runs on), exactly as
    ``agents.make(name, game="war_of_life", seed=s)`` would play them in the same order.

    >>> from lifearena.games.war_of_life import new_game
    >>> player = FastPlayer(("land_grab", "random"), (0, 1))
    >>> [len(moves) > 0 for moves, _, _ in player.play([new_game(seed=2).setup()])]
    [True]
    """

    def __init__(self, agents: tuple[str, str], seeds: tuple[int, int]) -> None:
        names = tuple(str(a).strip().lower().replace("-", "_") for a in agents)
        unknown = [n for n in names if n not in fast.STRATEGIES]
        if unknown or len(names) != 2:
            raise BadParameterError(f"no fast path for {', '.join(unknown) or agents!r}; "
                                    f"expected two of {', '.join(fast.STRATEGIES)}")
        self.kinds = tuple(fast.STRATEGIES.index(n) for n in names)
        self.streams = [fast.RandomStream(seed) for seed in seeds]
        self._moves = np.empty(MAX_MOVES, dtype=np.int16)
        # Load (or compile) the simulator now, so the first game's time does not include it.
        empty = np.empty(1)
        fast.play(np.uint64(0), np.uint64(0), 0, 0, 0, 0, empty, 0, empty, 0, self._moves)

    def play(self, setups: Iterable[str]) -> GameResults:
        """``(moves, outcome, seconds)`` for each setup, in order."""
        kinds, streams, moves = self.kinds, self.streams, self._moves
        results: GameResults = []
        for setup in setups:
            start = time.perf_counter()
            parsed = fast.parse_setup(setup)
            if parsed is None:  # unusual: the state class checks it and names the error
                state = WarOfLifeState.from_setup(setup)
                blue_, red_ = fast.board_to_bits(state.board)
                parsed = blue_, red_, state.to_move, state.moves_played
            blue, red, to_move, played = parsed
            for kind, stream in zip(kinds, streams, strict=True):
                if kind == fast.RANDOM:
                    stream.ensure(MAX_MOVES)
            n, code, used0, used1 = fast.play(blue, red, to_move, played, kinds[0], kinds[1],
                                              streams[0].pool, streams[0].cursor,
                                              streams[1].pool, streams[1].cursor, moves)
            streams[0].cursor += used0
            streams[1].cursor += used1
            outcome = fast.OUTCOMES[code]
            assert outcome is not None  # a game played to its end
            texts = [ACTION_TEXT[a] for a in moves[:n].tolist()]
            results.append((texts, outcome, time.perf_counter() - start))
        return results


def compiled_player(agents: tuple[str, str], seeds: tuple[int, int]) -> FastPlayer | None:
    """A :class:`FastPlayer` of the two named strategies seeded ``seeds``; ``None`` if a name
    is not one of ``random``, ``bloodlust``, ``self_preservation``, ``land_grab``,
    ``minimax`` (any case, ``-`` for ``_``)."""
    try:
        return FastPlayer(agents, seeds)
    except BadParameterError:
        return None


def fast_play(setups: Sequence[str], agents: tuple[str, str], seeds: tuple[int, int]
              ) -> GameResults | None:
    """Play every setup between the named strategies (no options) with the compiled bitboard
    simulator; ``None`` if :func:`compiled_player` knows no such pair.

    Returns ``(moves, outcome, seconds)`` per setup, the seconds measured around each game
    (parsing the setup and writing the moves included).
    """
    player = compiled_player(agents, seeds)
    return None if player is None else player.play(setups)
