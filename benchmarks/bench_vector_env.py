"""Environment steps and plies per second of the compiled vector environments, beside
OpenSpiel's C++ ``connect_four``, PettingZoo's ``connect_four_v3``, Pgx's ``connect_four`` and
EnvPool's ``ConnectFour-v1``, random play, in one run on one core.

A lifearena *step* is not a baseline's step. Against an opponent, one step is the learner's
move and the opponent's reply inside the batch (or both choices at once in a simultaneous
game): two plies. A step of OpenSpiel or PettingZoo is one ply (one ``apply_action``, one
AEC ``step``). So every lifearena figure comes twice, and the ratios to the baselines are
taken per ply:

* ``--opponent`` (default ``random``): steps/s (the unit of issue #22's targets) and the
  plies/s those steps played (each environment's learner move, none on the step after an
  episode's end, whose action the auto-reset ignores, plus each opponent move, the
  opponent's opening move at a reset included);
* ``self`` (self-play, measured in the same run): the learner moves for both seats, one
  ply a step (none after an end), simultaneous games in their turn-based form: the
  like-for-like comparison with the baselines' one ply a step.

Both count plies from the environment's own flags (``terminated | truncated`` and
``opponent_actions``), read inside the timing, so the counting is paid for.

* lifearena: ``make_vector_env(game, N, opponent=..., copy=False)`` (``--copy``: the
  default ``copy=True``, every step's arrays copied out), the learner's actions from
  ``sample_actions()`` (uniform among each mask, compiled), timed with it; observations
  and masks written every step.
* OpenSpiel: ``pyspiel.load_game("connect_four")``, one state at a time from Python: the
  observation tensor and legal actions read at every move, a random legal action applied.
* PettingZoo: ``connect_four_v3.env()``, ``last()`` (observation with its action mask) and
  a random action among the mask at every move (without pygame installed, an empty
  stand-in module takes its place: connect_four imports it only to draw).
* Pgx (``pip install pgx``, JAX on the CPU, XLA held to one thread): ``pgx.make
  ("connect_four")``, ``N`` boards under ``jax.vmap`` with Pgx's ``auto_reset``, a random
  legal action for every board drawn and applied in one jitted call; a step is one ply (the
  reset happens inside the step that ends a game).
* EnvPool (``pip install envpool``): ``envpool.make("ConnectFour-v1", num_envs=N,
  num_threads=1)``, a random legal action per board from ``info["legal_action_mask"]``; a
  step is one ply, none for a board that ended at the last step (EnvPool resets it then and
  ignores its action).

A baseline that is not installed is left out, and the output says so (with the ``pip
install`` that adds it); ``--baselines`` picks them.

It prints, for each row, steps/s and plies/s with their ratios to OpenSpiel (``x OS``) and
PettingZoo (``x PZ``), plies/s to Pgx (``x Pgx``), and the plies a step played. Each figure
is the median of ``--repeats`` timings of about ``--seconds`` each (steps and plies from the
same timings), taken in turn with every other figure's (the machine may be shared: a change
of load then falls on all of them).
The targets are those of issue #22 (steps/s against ``random``). ``NUMBA_NUM_THREADS=1`` is
set before numba loads::

    python benchmarks/bench_vector_env.py --envs 1024 --repeats 5

The shortest run (a check that every runner works, not a measurement)::

    python benchmarks/bench_vector_env.py --envs 64 --repeats 1 --seconds 0.05 \
        --games war_of_life
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
from typing import Any

os.environ.setdefault("NUMBA_NUM_THREADS", "1")
# Pgx's JAX: one core, as every other row (set before jax loads)
os.environ.setdefault("XLA_FLAGS",
                      "--xla_cpu_multi_thread_eigen=false intra_op_parallelism_threads=1")

import numpy as np

TARGETS = {"war_of_life": 1_000_000, "life_for_two": 1_000_000, "p2life": 300_000,
           "blocking_queen": 300_000, "losat": 100_000}
"""Steps per second asked for, per game (issue #22)."""
PARAMS: dict[str, dict[str, object]] = {"p2life": {"size": 12}, "losat": {},
                                        "blocking_queen": {}, "life_for_two": {},
                                        "war_of_life": {}}


Timing = tuple[int, int, float]
"""One timing: (environment steps, plies played, seconds)."""


def interleaved_medians(runners: dict[str, Callable[[float], Timing]], seconds: float,
                        repeats: int) -> dict[str, tuple[float, float]]:
    """Each runner's median step rate and ply rate over ``repeats`` timings of ``seconds``.

    The timings go round the runners in turn (every runner's first timing, then every
    runner's second, ...), so that a change in the machine's load over the run (it is
    shared) falls on every figure alike instead of on whichever was timed at the time."""
    timings: dict[str, list[Timing]] = {name: [] for name in runners}
    for _ in range(repeats):
        for name, run in runners.items():
            timings[name].append(run(seconds))
    return {name: (statistics.median(steps / elapsed for steps, _, elapsed in runs),
                   statistics.median(plies / elapsed for _, plies, elapsed in runs))
            for name, runs in timings.items()}


def vector_runner(game: str, num_envs: int, opponent: str, copy: bool
                  ) -> Callable[[float], Timing]:
    from lifearena.interop.vector import make_vector_env

    env = make_vector_env(game, num_envs, opponent=opponent, params=PARAMS.get(game),
                          copy=copy)
    env.reset(seed=0)
    for _ in range(20):  # compiled code loaded, games under way
        _, _, terminated, truncated, _ = env.step(env.sample_actions())
    ended = int(np.count_nonzero(terminated | truncated))
    replies = env.opponent_actions

    def run(seconds: float) -> Timing:
        nonlocal ended
        steps, plies, start = 0, 0, time.perf_counter()
        while time.perf_counter() - start < seconds:
            for _ in range(10):
                _, _, terminated, truncated, _ = env.step(env.sample_actions())
                # the learner moved where the last step did not end the episode (NEXT_STEP
                # auto-reset ignores the action there); the opponent where it replied
                plies += num_envs - ended + int(np.count_nonzero(replies >= 0))
                ended = int(np.count_nonzero(terminated | truncated))
            steps += 10 * num_envs
        return steps, plies, time.perf_counter() - start

    return run


def openspiel_runner() -> Callable[[float], Timing]:
    import pyspiel

    game = pyspiel.load_game("connect_four")
    rng = np.random.default_rng(0)

    def run(seconds: float) -> Timing:
        steps, start = 0, time.perf_counter()
        while time.perf_counter() - start < seconds:
            state = game.new_initial_state()
            while not state.is_terminal():
                state.observation_tensor(state.current_player())
                legal = state.legal_actions()
                state.apply_action(legal[int(rng.integers(len(legal)))])
                steps += 1
        return steps, steps, time.perf_counter() - start  # one ply a step

    return run


def pettingzoo_runner() -> Callable[[float], Timing]:
    if importlib.util.find_spec("pygame") is None:
        # connect_four imports pygame for drawing only; without render_mode it never draws
        sys.modules["pygame"] = types.ModuleType("pygame")
    from pettingzoo.classic import connect_four_v3

    env = connect_four_v3.env()
    rng = np.random.default_rng(0)

    def run(seconds: float) -> Timing:
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
        return steps, steps, time.perf_counter() - start  # one ply a step

    return run


def pgx_runner(num_envs: int) -> Callable[[float], Timing]:
    import jax
    import jax.numpy as jnp
    import pgx
    from pgx.experimental import auto_reset

    env = pgx.make("connect_four")
    step = jax.vmap(auto_reset(env.step, env.init))

    @jax.jit
    def act_and_step(state: Any, key: Any) -> tuple[Any, Any]:
        choose, advance, after = jax.random.split(key, 3)
        logits = jnp.where(state.legal_action_mask, 0.0, -jnp.inf)
        action = jax.random.categorical(choose, logits, axis=-1)
        return step(state, action, jax.random.split(advance, num_envs)), after

    key = jax.random.PRNGKey(0)
    state = jax.jit(jax.vmap(env.init))(jax.random.split(key, num_envs))
    for _ in range(3):  # compiled, games under way
        state, key = act_and_step(state, key)
    state.observation.block_until_ready()

    def run(seconds: float) -> Timing:
        nonlocal state, key
        steps, start = 0, time.perf_counter()
        while time.perf_counter() - start < seconds:
            for _ in range(10):
                state, key = act_and_step(state, key)
            state.observation.block_until_ready()  # the work done, not only queued
            steps += 10 * num_envs
        return steps, steps, time.perf_counter() - start  # one ply a step

    return run


def envpool_runner(num_envs: int) -> Callable[[float], Timing]:
    import envpool

    env = envpool.make("ConnectFour-v1", env_type="gymnasium", num_envs=num_envs,
                       batch_size=num_envs, num_threads=1, seed=0)
    rng = np.random.default_rng(0)
    _, info = env.reset()
    mask = info["legal_action_mask"]
    ended = 0

    def run(seconds: float) -> Timing:
        nonlocal mask, ended
        steps, plies, start = 0, 0, time.perf_counter()
        while time.perf_counter() - start < seconds:
            for _ in range(10):
                # a random legal action per board: the largest of uniform draws on the mask
                action = (rng.random(mask.shape) * mask).argmax(axis=1)
                _, _, terminated, truncated, info = env.step(action)
                mask = info["legal_action_mask"]
                plies += num_envs - ended  # a board that ended is reset, its action ignored
                ended = int(np.count_nonzero(terminated | truncated))
            steps += 10 * num_envs
        return steps, plies, time.perf_counter() - start

    return run


BASELINES: dict[str, tuple[str, str, str]] = {
    "openspiel": ("OpenSpiel connect_four (C++)", "pyspiel", "open_spiel"),
    "pettingzoo": ("PettingZoo connect_four_v3", "pettingzoo", "pettingzoo"),
    "pgx": ("Pgx connect_four (JAX, CPU)", "pgx", "pgx"),
    "envpool": ("EnvPool ConnectFour-v1", "envpool", "envpool"),
}
"""Each baseline: its row's name, the module that shows it is installed, the pip package."""


def baseline_runners(names: list[str], num_envs: int
                     ) -> tuple[dict[str, Callable[[float], Timing]], list[str]]:
    """The runners of the baselines ``names`` that are installed, and a note for each that
    is not."""
    makers: dict[str, Callable[[], Callable[[float], Timing]]] = {
        "openspiel": openspiel_runner, "pettingzoo": pettingzoo_runner,
        "pgx": lambda: pgx_runner(num_envs), "envpool": lambda: envpool_runner(num_envs)}
    runners, missing = {}, []
    for name in names:
        label, module, package = BASELINES[name]
        if importlib.util.find_spec(module) is None:
            missing.append(f"{label}: not installed (pip install {package})")
            continue
        runners[name] = makers[name]()
    return runners, missing


def _ratio(rate: float, base: float | None, digits: int) -> str:
    return f"{rate / base:>6.{digits}f}" if base else f"{'-':>6}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--envs", type=int, default=1024, help="environments per batch")
    parser.add_argument("--repeats", type=int, default=5, help="timings per figure")
    parser.add_argument("--seconds", type=float, default=1.0, help="length of one timing")
    parser.add_argument("--opponent", default="random",
                        help="the batch's opponent (self-play is timed too)")
    parser.add_argument("--copy", action="store_true",
                        help="hand out copies of the buffers (the environments' default)")
    parser.add_argument("--games", nargs="*", default=None,
                        help="games to time (default: every game with a vector environment)")
    parser.add_argument("--baselines", nargs="*", default=list(BASELINES),
                        choices=list(BASELINES),
                        help="baselines to time beside them, where installed (default: all)")
    args = parser.parse_args()
    from lifearena.interop.vector import VECTOR_GAMES

    games = args.games or list(VECTOR_GAMES)
    opponents = [args.opponent] + (["self"] if args.opponent != "self" else [])
    runners, missing = baseline_runners(args.baselines, args.envs)
    baselines = list(runners)
    for game in games:
        for opponent in opponents:
            runners[f"{game}/{opponent}"] = vector_runner(game, args.envs, opponent, args.copy)
    load = os.getloadavg()[0]
    rates = interleaved_medians(runners, args.seconds, args.repeats)
    base = {name: rates.pop(name) for name in baselines}
    openspiel = base.get("openspiel", (0.0, 0.0))[0] or None
    pettingzoo = base.get("pettingzoo", (0.0, 0.0))[0] or None
    pgx_plies = base.get("pgx", (0.0, 0.0))[1] or None
    print(f"N={args.envs}, copy={args.copy}, NUMBA_NUM_THREADS="
          f"{os.environ['NUMBA_NUM_THREADS']}, median of {args.repeats} x {args.seconds:g} s "
          f"(interleaved); load average {load:.1f} before, {os.getloadavg()[0]:.1f} after; "
          f"a step of OpenSpiel, PettingZoo, Pgx and EnvPool is one ply")
    for note in missing:
        print(f"left out: {note}")
    print(f"{'environment':<30} {'opponent':>8} {'steps/s':>11} {'x OS':>6} {'x PZ':>6} "
          f"{'plies/s':>11} {'x OS':>6} {'x PZ':>6} {'x Pgx':>6} {'ply/step':>8} "
          f"{'target':>10}  met")
    for name, (steps, plies) in base.items():
        print(f"{BASELINES[name][0]:<30} {'random':>8} {steps:>11,.0f} "
              f"{_ratio(steps, openspiel, 2)} {_ratio(steps, pettingzoo, 1)} {plies:>11,.0f} "
              f"{_ratio(plies, openspiel, 2)} {_ratio(plies, pettingzoo, 1)} "
              f"{_ratio(plies, pgx_plies, 2)} {plies / steps:>8.2f}")
    for key, (steps, plies) in rates.items():
        game, opponent = key.split("/")
        target = TARGETS.get(game, 0) if opponent == "random" else 0
        met = ("yes" if steps >= target else "no") if target else ""
        print(f"{'lifearena ' + game:<30} {opponent:>8} {steps:>11,.0f} "
              f"{_ratio(steps, openspiel, 1)} {_ratio(steps, pettingzoo, 0)} {plies:>11,.0f} "
              f"{_ratio(plies, openspiel, 1)} {_ratio(plies, pettingzoo, 0)} "
              f"{_ratio(plies, pgx_plies, 2)} {plies / steps:>8.2f} {target or '':>10}  {met}")


if __name__ == "__main__":
    main()
