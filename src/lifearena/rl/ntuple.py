"""Train War of Life's n-tuple network (:mod:`lifearena.agents.ntuple`) by temporal
differences on afterstates, on one CPU core: ``python -m lifearena.rl.ntuple``.

Each game is played whole in compiled code (numba) between the learner and an opponent
drawn from the pool (``--opponents``, the compiled coursework strategies of
:mod:`lifearena.games.war_of_life.fast`, ``minimax`` included), from a random start (12
pieces each, as ``new_game(seed)`` draws them), the learner's seat alternating. The learner
plays the move whose board after its crank the network values most (a random legal move
with probability ``--epsilon``), and after each of its moves the value of its previous
board moves towards the value of the new one by ``--alpha`` (TD(0) on afterstates,
Szubert and Jaśkowski 2014); at the end, towards the result (1 a win, -1 a loss, 0 a
draw). ``--alpha`` is shared among the tuples: a step changes the board's value by
``alpha`` times its error; with ``--alpha-half-life N`` it halves every ``N`` games (set
per block of games, so the schedule does not depend on the machine's speed).

Every ``--eval-every`` games the greedy learner plays ``--eval-games`` starts
(``new_game(eval_seed + k)``) from each seat against each of ``--eval-opponents``, with no
learning; the curve goes to ``eval.csv`` and the network to ``ntuple.npz`` in ``--save``.
The games are drawn from ``--seed`` (block ``b`` of :data:`BLOCK` games from
``seed * 1_000_003 + b``), so a run of a given number of games replays exactly; a time
budget (``--minutes``) decides that number (the clock is read between blocks, so a run
ends within one block past its budget).

No torch here: numpy and numba, which the package needs anyway.

>>> import numpy as np
>>> from lifearena.agents.ntuple import NTupleNetwork
>>> network = NTupleNetwork.empty()
>>> score = play_block(network, np.array([RANDOM]), games=20, seed=1, epsilon=0.0,
...                    alpha=0.05, learn=True)
>>> 0.0 <= score <= 1.0 and bool(np.abs(network.weights).sum() > 0)
True
"""

from __future__ import annotations

import argparse
import csv
import os
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
from numba import njit

from lifearena.agents.ntuple import NTupleNetwork, board_value, pattern, save_ntuple
from lifearena.errors import BadParameterError
from lifearena.games.war_of_life.fast import (
    BLUE_WINS,
    GOES_ON,
    RANDOM,
    RED_WINS,
    STRATEGIES,
    TARGET_OF,
    _ending_compiled,
    board_to_bits,
    children,
    choose,
    count_moves,
    crank_bits,
    has_move,
    nth_move,
    popcount,
)
from lifearena.games.war_of_life.rules import PIECES, random_board

BLOCK = 1000
"""Games between two looks at the clock (and two seeds of the game generator)."""
_ONE = np.uint64(1)


@njit(cache=True)
def _random_start() -> tuple[np.uint64, np.uint64]:
    cells = np.random.permutation(64)
    blue = np.uint64(0)
    red = np.uint64(0)
    for k in range(PIECES):
        blue |= _ONE << np.uint64(cells[k])
    for k in range(PIECES, 2 * PIECES):
        red |= _ONE << np.uint64(cells[k])
    return blue, red


@njit(cache=True)
def _opponent_move(kind: int, own: np.uint64, other: np.uint64
                   ) -> tuple[np.uint64, np.uint64]:
    if kind == RANDOM:
        action = nth_move(own, other, int(np.random.random() * count_moves(own, other)))
    else:
        action = choose(kind, own, other)
    moved = (own ^ (_ONE << np.uint64(action // 8))) | (_ONE << np.uint64(TARGET_OF[action]))
    return crank_bits(moved, other)


@njit(cache=True)
def _nudge(weights: np.ndarray, cells: np.ndarray, table_of: np.ndarray, mine: np.uint64,
           theirs: np.uint64, step: float) -> None:
    per_entry = step / cells.shape[0]
    for placement in range(cells.shape[0]):
        weights[table_of[placement], pattern(cells, placement, mine, theirs)] += per_entry


@njit(cache=True)
def _game(weights: np.ndarray, cells: np.ndarray, table_of: np.ndarray, blue: np.uint64,
          red: np.uint64, learner: int, kind: int, epsilon: float, alpha: float, learn: bool,
          actions: np.ndarray, owns: np.ndarray, others: np.ndarray) -> float:
    """One game from ``blue`` / ``red`` (blue to move); the learner's result (1, 0, -1)."""
    player = 0
    played = 0
    have_last = False
    last_mine = np.uint64(0)
    last_theirs = np.uint64(0)
    while True:
        own, other = (blue, red) if player == 0 else (red, blue)
        code = _ending_compiled(popcount(blue), popcount(red), played, has_move(own, other))
        if code != GOES_ON:
            result = 0.0
            if code == BLUE_WINS:
                result = 1.0 if learner == 0 else -1.0
            elif code == RED_WINS:
                result = 1.0 if learner == 1 else -1.0
            if learn and have_last:
                error = result - board_value(weights, cells, table_of, last_mine, last_theirs)
                _nudge(weights, cells, table_of, last_mine, last_theirs, alpha * error)
            return result
        if player == learner:
            count = children(own, other, actions, owns, others)
            if epsilon > 0.0 and np.random.random() < epsilon:
                best = np.random.randint(count)
            else:
                best = 0
                best_value = -1e300
                for k in range(count):
                    value = board_value(weights, cells, table_of, owns[k], others[k])
                    if value > best_value:
                        best_value = value
                        best = k
            mine, theirs = owns[best], others[best]
            if learn and have_last:
                error = (board_value(weights, cells, table_of, mine, theirs)
                         - board_value(weights, cells, table_of, last_mine, last_theirs))
                _nudge(weights, cells, table_of, last_mine, last_theirs, alpha * error)
            have_last = True
            last_mine, last_theirs = mine, theirs
        else:
            mine, theirs = _opponent_move(kind, own, other)
        if player == 0:
            blue, red = mine, theirs
        else:
            red, blue = mine, theirs
        played += 1
        player = 1 - player


@njit(cache=True)
def _block(weights: np.ndarray, cells: np.ndarray, table_of: np.ndarray, kinds: np.ndarray,
           games: int, seed: int, epsilon: float, alpha: float, learn: bool) -> float:
    np.random.seed(seed)
    actions = np.empty(512, np.int64)
    owns = np.empty(512, np.uint64)
    others = np.empty(512, np.uint64)
    total = 0.0
    for game in range(games):
        kind = kinds[np.random.randint(len(kinds))]
        blue, red = _random_start()
        total += _game(weights, cells, table_of, blue, red, game % 2, kind, epsilon, alpha,
                       learn, actions, owns, others)
    return (total / games + 1.0) / 2.0


@njit(cache=True)
def _from_starts(weights: np.ndarray, cells: np.ndarray, table_of: np.ndarray, kind: int,
                 blues: np.ndarray, reds: np.ndarray, learner: int, seed: int) -> float:
    np.random.seed(seed)  # a random opponent's draws
    actions = np.empty(512, np.int64)
    owns = np.empty(512, np.uint64)
    others = np.empty(512, np.uint64)
    total = 0.0
    for k in range(len(blues)):
        total += _game(weights, cells, table_of, blues[k], reds[k], learner, kind, 0.0, 0.0,
                       False, actions, owns, others)
    return (total / len(blues) + 1.0) / 2.0


def play_block(network: NTupleNetwork, kinds: np.ndarray, *, games: int, seed: int,
               epsilon: float, alpha: float, learn: bool) -> float:
    """Play ``games`` games from random starts against opponents drawn from ``kinds``
    (strategy numbers of :data:`~lifearena.games.war_of_life.fast.STRATEGIES`), learning
    where ``learn``; the learner's score (a win 1, a draw 1/2)."""
    return float(_block(network.weights, network.cells, network.table_of,
                        np.asarray(kinds, np.int64), games, seed, epsilon, alpha, learn))


def starts(eval_seed: int, count: int) -> tuple[np.ndarray, np.ndarray]:
    """The boards of ``new_game(eval_seed + k)`` for ``k < count``, as bit masks."""
    boards = [board_to_bits(random_board(eval_seed + k)) for k in range(count)]
    return (np.array([blue for blue, _ in boards], np.uint64),
            np.array([red for _, red in boards], np.uint64))


def evaluate_greedy(network: NTupleNetwork, opponent: str, blues: np.ndarray,
                    reds: np.ndarray) -> tuple[float, float]:
    """The greedy network's score from each start against ``opponent``, first and second
    (no learning; a random opponent draws from a fixed seed)."""
    kind = STRATEGIES.index(opponent)
    first, second = (float(_from_starts(network.weights, network.cells, network.table_of,
                                        kind, blues, reds, seat, 7)) for seat in (0, 1))
    return first, second


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    """The trainer's flags (``python -m lifearena.rl.ntuple --help``)."""
    p = argparse.ArgumentParser(
        prog="python -m lifearena.rl.ntuple",
        description="War of Life's n-tuple network (3 x 3 squares of the raw cells), trained "
        "by TD(0) on afterstates against a pool of compiled opponents, on one core.",
        formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    flag = p.add_argument
    flag("--opponents", default="random,minimax", help="comma-separated pool, drawn per "
         f"game: {', '.join(STRATEGIES)}")
    flag("--minutes", type=float, default=10.0, help="budget of training minutes")
    flag("--games", type=int, default=0, help="budget of games (0: only the minutes)")
    flag("--alpha", type=float, default=0.05, help="TD step: the share of its error a "
         "board's value moves by")
    flag("--alpha-half-life", type=int, default=0, metavar="GAMES", help="games over which "
         "--alpha halves (0: constant)")
    flag("--epsilon", type=float, default=0.05, help="chance of a random move while learning")
    flag("--seed", type=int, default=1, help="seed of the games")
    flag("--eval-every", type=int, default=50_000, help="games between evaluations")
    flag("--eval-games", type=int, default=200, help="evaluation starts per opponent and seat")
    flag("--eval-opponents", default="random,minimax", help="comma-separated")
    flag("--eval-seed", type=int, default=12345, help="the first evaluation start's seed")
    flag("--save", default="runs/ntuple", metavar="DIR", help="where eval.csv and "
         "ntuple.npz go")
    flag("--quiet", action="store_true", help="no progress lines")
    args = p.parse_args(argv)
    if not 0 < args.minutes <= 24 * 60:
        p.error(f"--minutes {args.minutes}; expected more than 0 and at most 1440")
    if not 0 <= args.games <= 10**9:
        p.error(f"--games {args.games}; expected 0 to 1000000000")
    if not 0 < args.alpha <= 1:
        p.error(f"--alpha {args.alpha}; expected more than 0 and at most 1")
    if not 0 <= args.alpha_half_life <= 10**9:
        p.error(f"--alpha-half-life {args.alpha_half_life}; expected 0 to 1000000000")
    if not 0 <= args.epsilon <= 1:
        p.error(f"--epsilon {args.epsilon}; expected 0 to 1")
    if not 1 <= args.eval_games <= 100_000 or not BLOCK <= args.eval_every <= 10**9:
        p.error(f"--eval-games 1 to 100000 and --eval-every {BLOCK} to 1000000000 expected")
    if not 0 <= args.seed < 2**31 or not 0 <= args.eval_seed < 2**31:
        p.error("--seed and --eval-seed: expected 0 to 2**31 - 1")
    return args


def alpha_at(alpha: float, half_life: int, games: int) -> float:
    """The TD step after ``games`` games: ``alpha`` halved every ``half_life`` games (0:
    constant).

    >>> alpha_at(0.05, 0, 10**6), alpha_at(0.05, 500_000, 10**6)
    (0.05, 0.0125)
    """
    return alpha if half_life == 0 else alpha * 0.5 ** (games / half_life)


def strategies(text: str, flag: str) -> list[str]:
    """The strategy names of a comma-separated flag; one line for an unknown one."""
    names = [name.strip() for name in text.split(",") if name.strip()]
    unknown = [name for name in names if name not in STRATEGIES]
    if not names or unknown:
        raise BadParameterError(f"{flag} {text!r:.60}; expected names among "
                                f"{', '.join(STRATEGIES)}")
    return names


def train(argv: Sequence[str] | None = None) -> dict[str, Any]:
    """Train as the flags say; the figures of the run."""
    args = parse_args(argv)
    pool = np.array([STRATEGIES.index(n) for n in strategies(args.opponents, "--opponents")],
                    np.int64)
    judges = strategies(args.eval_opponents, "--eval-opponents")
    folder = Path(args.save)
    folder.mkdir(parents=True, exist_ok=True)
    blues, reds = starts(args.eval_seed, args.eval_games)
    network = NTupleNetwork.empty()
    rows: list[dict[str, Any]] = []
    games = 0
    trained_s = 0.0

    def look() -> None:
        row: dict[str, Any] = {"games": games, "minutes": round(trained_s / 60, 2)}
        for name in judges:
            first, second = evaluate_greedy(network, name, blues, reds)
            row[f"{name}_first"], row[f"{name}_second"] = round(first, 4), round(second, 4)
        rows.append(row)
        with (folder / "eval.csv").open("w", newline="") as out:
            writer = csv.DictWriter(out, fieldnames=list(row))
            writer.writeheader()
            writer.writerows(rows)
        if not args.quiet:
            scores = "  ".join(f"{name} {row[name + '_first']:.3f} / {row[name + '_second']:.3f}"
                               for name in judges)
            print(f"{games:>9,} games  {trained_s / 60:5.1f} min  {scores}", flush=True)

    look()
    budget_s = args.minutes * 60
    next_look = args.eval_every
    block = 0
    while trained_s < budget_s and (not args.games or games < args.games):
        size = BLOCK if not args.games else min(BLOCK, args.games - games)
        alpha = alpha_at(args.alpha, args.alpha_half_life, games)
        started = time.perf_counter()
        play_block(network, pool, games=size, seed=args.seed * 1_000_003 + block,
                   epsilon=args.epsilon, alpha=alpha, learn=True)
        trained_s += time.perf_counter() - started
        games += size
        block += 1
        if games >= next_look:
            look()
            next_look += args.eval_every
    if rows[-1]["games"] != games:
        look()
    path = folder / "ntuple.npz"
    save_ntuple(path, network, games=games, minutes=round(trained_s / 60, 2), seed=args.seed,
                alpha=args.alpha, alpha_half_life=args.alpha_half_life,
                epsilon=args.epsilon, opponents=args.opponents,
                notes="python -m lifearena.rl.ntuple " + " ".join(sys.argv[1:] if argv is None
                                                                   else argv))
    if not args.quiet:
        print(f"saved {path} ({os.path.getsize(path) / 1024:.0f} kB): play it as "
              f"policy:{path}", flush=True)
    return {"games": games, "seconds": trained_s, "network": str(path), "evaluation": rows[-1]}


def main(argv: Sequence[str] | None = None) -> int:
    """The command line: exit 2 with one line on stderr for a bad parameter."""
    try:
        train(argv)
    except BadParameterError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
