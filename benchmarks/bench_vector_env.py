"""Environment steps per second of the compiled vector environments, beside OpenSpiel's C++
``connect_four`` and PettingZoo's ``connect_four_v3``, random play, in one run on one core.

* lifearena: ``make_vector_env(game, N, opponent="random", copy=False)`` (``--copy``: the
  default ``copy=True``, every step's arrays copied out), the learner's
  actions from ``sample_actions()`` (uniform among each mask, compiled), timed with it; a
  step is one environment step (the learner's move and the opponent's reply, or both
  choices at once in a simultaneous game), observations and masks written every step.
* OpenSpiel: ``pyspiel.load_game("connect_four")``, one state at a time from Python: the
  observation tensor and legal actions read at every move, a random legal action applied.
* PettingZoo: ``connect_four_v3.env()``, ``last()`` (observation with its action mask) and
  a random action among the mask at every move (without pygame installed, an empty
  stand-in module takes its place: connect_four imports it only to draw).

Each figure is the median of ``--repeats`` timings of about ``--seconds`` each. The targets
are those of issue #22. ``NUMBA_NUM_THREADS=1`` is set before numba loads::

    python benchmarks/bench_vector_env.py --envs 1024 --repeats 5
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import statistics
import sys
import time
import types
from collections.abc import Callable

os.environ.setdefault("NUMBA_NUM_THREADS", "1")

import numpy as np

TARGETS = {"war_of_life": 1_000_000, "life_for_two": 1_000_000, "p2life": 300_000,
           "blocking_queen": 300_000, "losat": 100_000}
"""Steps per second asked for, per game (issue #22)."""
PARAMS: dict[str, dict[str, object]] = {"p2life": {"size": 12}, "losat": {},
                                        "blocking_queen": {}, "life_for_two": {},
                                        "war_of_life": {}}


def median_rate(run: Callable[[float], tuple[int, float]], seconds: float, repeats: int
                ) -> float:
    """The median of ``repeats`` rates ``steps / elapsed`` from ``run(seconds)``."""
    return statistics.median(steps / elapsed for steps, elapsed in
                             (run(seconds) for _ in range(repeats)))


def vector_runner(game: str, num_envs: int, opponent: str, copy: bool
                  ) -> Callable[[float], tuple[int, float]]:
    from lifearena.interop.vector import make_vector_env

    env = make_vector_env(game, num_envs, opponent=opponent, params=PARAMS.get(game),
                          copy=copy)
    env.reset(seed=0)
    for _ in range(20):  # compiled code loaded, games under way
        env.step(env.sample_actions())

    def run(seconds: float) -> tuple[int, float]:
        steps, start = 0, time.perf_counter()
        while time.perf_counter() - start < seconds:
            for _ in range(10):
                env.step(env.sample_actions())
            steps += 10 * num_envs
        return steps, time.perf_counter() - start

    return run


def openspiel_runner() -> Callable[[float], tuple[int, float]]:
    import pyspiel

    game = pyspiel.load_game("connect_four")
    rng = np.random.default_rng(0)

    def run(seconds: float) -> tuple[int, float]:
        steps, start = 0, time.perf_counter()
        while time.perf_counter() - start < seconds:
            state = game.new_initial_state()
            while not state.is_terminal():
                state.observation_tensor(state.current_player())
                legal = state.legal_actions()
                state.apply_action(legal[int(rng.integers(len(legal)))])
                steps += 1
        return steps, time.perf_counter() - start

    return run


def pettingzoo_runner() -> Callable[[float], tuple[int, float]]:
    if importlib.util.find_spec("pygame") is None:
        # connect_four imports pygame for drawing only; without render_mode it never draws
        sys.modules["pygame"] = types.ModuleType("pygame")
    from pettingzoo.classic import connect_four_v3

    env = connect_four_v3.env()
    rng = np.random.default_rng(0)

    def run(seconds: float) -> tuple[int, float]:
        steps, start = 0, time.perf_counter()
        while time.perf_counter() - start < seconds:
            env.reset(seed=int(rng.integers(2**31)))
            for _agent in env.agent_iter():
                observation, _, termination, truncation, _ = env.last()
                if termination or truncation:
                    env.step(None)
                    continue
                legal = np.flatnonzero(observation["action_mask"])
                env.step(int(legal[int(rng.integers(len(legal)))]))
                steps += 1
        return steps, time.perf_counter() - start

    return run


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--envs", type=int, default=1024, help="environments per batch")
    parser.add_argument("--repeats", type=int, default=5, help="timings per figure")
    parser.add_argument("--seconds", type=float, default=1.0, help="length of one timing")
    parser.add_argument("--opponent", default="random", help="the batch's opponent")
    parser.add_argument("--copy", action="store_true",
                        help="hand out copies of the buffers (the environments' default)")
    parser.add_argument("--games", nargs="*", default=None,
                        help="games to time (default: every game with a vector environment)")
    args = parser.parse_args()
    from lifearena.interop.vector import VECTOR_GAMES

    games = args.games or list(VECTOR_GAMES)
    openspiel = median_rate(openspiel_runner(), args.seconds, args.repeats)
    pettingzoo = median_rate(pettingzoo_runner(), args.seconds, args.repeats)
    print(f"N={args.envs}, opponent {args.opponent}, copy={args.copy}, NUMBA_NUM_THREADS="
          f"{os.environ['NUMBA_NUM_THREADS']}, median of {args.repeats} x {args.seconds:g} s")
    print(f"{'environment':<32} {'steps/s':>12} {'x OpenSpiel':>12} {'x PettingZoo':>13} "
          f"{'target':>10}  met")
    print(f"{'OpenSpiel connect_four (C++)':<32} {openspiel:>12,.0f} {1:>12.2f} "
          f"{openspiel / pettingzoo:>13.2f}")
    print(f"{'PettingZoo connect_four_v3':<32} {pettingzoo:>12,.0f} "
          f"{pettingzoo / openspiel:>12.2f} {1:>13.2f}")
    for game in games:
        rate = median_rate(vector_runner(game, args.envs, args.opponent, args.copy),
                           args.seconds, args.repeats)
        target = TARGETS.get(game, 0)
        print(f"{'lifearena ' + game:<32} {rate:>12,.0f} {rate / openspiel:>12.1f} "
              f"{rate / pettingzoo:>13.1f} {target:>10,}  {'yes' if rate >= target else 'no'}")


if __name__ == "__main__":
    main()
