"""Steps per second through each interop adapter against the protocol itself.

For every game, ``--games`` random games (starts from seeds 0, 1, ...; at each step a
uniformly random legal action drawn from ``numpy.random.default_rng(seed)``, the same draws
for every path, so the direct, OpenSpiel and PettingZoo paths play the very same games) are
played:

* ``direct``: ``State.legal_actions`` and ``apply_action(s)`` (legality checked);
* ``openspiel``: the same through ``pyspiel`` (``python_<game>``: legal actions and
  ``apply_action(s)`` on the OpenSpiel state);
* ``pettingzoo``: AEC ``observe``/``step`` (turn-based) or parallel ``step`` (simultaneous),
  an observation and a mask per agent per step, as a learner sees it;
* ``gymnasium``: ``step`` against the ``random`` agent (the learner's choice drawn from the
  mask); the opponent's moves count as steps too.

It prints steps/s for each and the overhead ratio direct/adapter (1.0 = no overhead). Life
for Two plays with ``max_turns=100`` as tournaments do.

    .venv/bin/python benchmarks/bench_interop.py --games 20
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable

import numpy as np

from lifearena.interop import openspiel
from lifearena.interop.games import new_state, parameter_defaults
from lifearena.interop.gymnasium import LifeArenaEnv
from lifearena.interop.pettingzoo import LifeArenaAECEnv, LifeArenaParallelEnv

GAMES = {"war_of_life": {}, "life_for_two": {"max_turns": 100}, "losat": {}, "p2life": {},
         "blocking_queen": {}}


def _seeded(game: str, params: dict, seed: int) -> dict:
    """``params`` with the start's ``seed`` where the game has one (Losat has none)."""
    return {**params, "seed": seed} if "seed" in parameter_defaults(game) else dict(params)


def _pick(rng: np.random.Generator, legal: list[int] | np.ndarray) -> int:
    return int(legal[rng.integers(len(legal))])


def direct(game: str, params: dict, seed: int) -> int:
    state = new_state(game, _seeded(game, params, seed))
    rng = np.random.default_rng(seed)
    while not state.is_terminal():
        if state.is_simultaneous_node():
            state.apply_actions([_pick(rng, state.legal_actions(p)) for p in (0, 1)])
        else:
            state.apply_action(_pick(rng, state.legal_actions()))
    return state.move_number()


def through_openspiel(game: str, params: dict, seed: int) -> int:
    state = openspiel.load(game, **_seeded(game, params, seed)).new_initial_state()
    rng = np.random.default_rng(seed)
    steps = 0
    while not state.is_terminal():
        if state.is_simultaneous_node():
            state.apply_actions([_pick(rng, state.legal_actions(p)) for p in (0, 1)])
        else:
            state.apply_action(_pick(rng, state.legal_actions()))
        steps += 1
    return steps


def through_pettingzoo(game: str, params: dict, seed: int) -> int:
    rng = np.random.default_rng(seed)
    fixed = _seeded(game, params, seed)
    if new_state(game, fixed).is_simultaneous_node():
        env = LifeArenaParallelEnv(game, params=fixed)
        _, infos = env.reset(seed=seed)
        steps = 0
        while env.agents:
            actions = {a: _pick(rng, np.flatnonzero(infos[a]["action_mask"]))
                       for a in env.agents}
            _, _, _, _, infos = env.step(actions)
            steps += 1
        return steps
    aec = LifeArenaAECEnv(game, params=fixed)
    aec.reset(seed=seed)
    steps = 0
    for agent in aec.agent_iter():
        _, _, termination, truncation, info = aec.last()
        if termination or truncation:
            aec.step(None)
            continue
        aec.step(_pick(rng, np.flatnonzero(info["action_mask"])))
        steps += 1
        del agent
    return steps


def through_gymnasium(game: str, params: dict, seed: int) -> int:
    env = LifeArenaEnv(game, opponent="random", params=_seeded(game, params, seed),
                       illegal="raise")
    _, info = env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    done = env.game_state.is_terminal()
    while not done:
        _, _, done, _, info = env.step(_pick(rng, np.flatnonzero(info["action_mask"])))
    return env.game_state.move_number()


PATHS: dict[str, Callable[[str, dict, int], int]] = {
    "direct": direct, "openspiel": through_openspiel, "pettingzoo": through_pettingzoo,
    "gymnasium": through_gymnasium}


def measure(game: str, games: int) -> dict[str, tuple[int, float]]:
    """``{path: (steps, seconds)}`` over ``games`` random games of ``game``."""
    params = GAMES[game]
    for path in PATHS.values():  # warm up: numba kernels, imports, agent tables
        path(game, params, 10_000)
    results = {}
    for name, path in PATHS.items():
        start = time.perf_counter()
        steps = sum(path(game, params, seed) for seed in range(games))
        results[name] = (steps, time.perf_counter() - start)
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20, help="random games per game")
    parser.add_argument("--game", action="append", choices=sorted(GAMES),
                        help="only these games (repeat; default all)")
    args = parser.parse_args()
    print(f"{'game':<16}{'path':<12}{'steps':>8}{'steps/s':>12}{'direct/adapter':>16}")
    for game in args.game or list(GAMES):
        results = measure(game, args.games)
        base = results["direct"][0] / results["direct"][1]
        for name, (steps, seconds) in results.items():
            rate = steps / seconds
            print(f"{game:<16}{name:<12}{steps:>8}{rate:>12,.0f}{base / rate:>16.2f}")


if __name__ == "__main__":
    main()
