"""A match between an AlphaZero-style checkpoint and another agent at equal time a move.

Each start (the random starts of seeds ``--seed``, ``--seed + 1``, ...) is played twice, the
checkpoint moving first and then second; both agents get ``Limit(time=--time)`` a move, as
the web gives its levels (``hard`` is ``alphabeta`` at 1.5 s in War of Life, at 2 s in
Losat). ``--game`` is the checkpoint's game: ``war_of_life`` (the default) or ``losat``, whose
start is always the same (the seeds then only number the games; the default 19 x 19 board
and its 400-move limit). A line per game as it ends, then the checkpoint's wins, draws and
losses, its win rate with a 95% Wilson interval and each side's mean thinking time a move::

    python examples/rl/alphazero_match.py out/alphazero/final.pt --opponent alphabeta \\
        --time 1.5 --starts 10
    python examples/rl/alphazero_match.py out/az-losat/final.pt --game losat --time 2 \\
        --starts 3
"""

from __future__ import annotations

import argparse

import torch

from lifearena import agents
from lifearena.agents.base import Limit
from lifearena.arena.referee import play_game
from lifearena.arena.stats import wilson_interval

HARD_SECONDS = {"war_of_life": 1.5, "losat": 2.0}
"""The seconds a move of each game's ``hard`` level (``lifearena.web.catalog``)."""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("checkpoint", help="a .pt written by python -m lifearena.rl.alphazero")
    parser.add_argument("--game", default="war_of_life", choices=("war_of_life", "losat"),
                        help="the checkpoint's game (default: war_of_life)")
    parser.add_argument("--opponent", default="alphabeta", help="agent name (default: "
                        "alphabeta, the web's hard level with --time 1.5)")
    parser.add_argument("--time", type=float, default=None, help="seconds a move, each side "
                        "(default: the hard level's, 1.5 in War of Life, 2 in Losat)")
    parser.add_argument("--starts", type=int, default=10, help="starts, each played twice")
    parser.add_argument("--seed", type=int, default=0, help="first start's seed")
    parser.add_argument("--threads", type=int, default=1, help="torch.set_num_threads")
    parser.add_argument("--max-moves", type=int, default=None,
                        help="stop a game as a draw after this many moves (default: the "
                        "game's own: War of Life 250, Losat 400)")
    args = parser.parse_args()
    if args.time is None:
        args.time = HARD_SECONDS[args.game]
    if args.starts < 1 or not args.time > 0:
        parser.error("--starts must be >= 1 and --time > 0")
    torch.set_num_threads(args.threads)
    game = args.game
    mine = agents.make(f"alphazero:{args.checkpoint}", game=game)
    other = agents.make(args.opponent, game=game)
    limit = Limit(time=args.time)
    wins = draws = losses = 0
    thinking = [[0.0, 0], [0.0, 0]]  # [seconds, moves] of the checkpoint and the opponent
    for start in range(args.seed, args.seed + args.starts):
        for seat in (0, 1):
            players = [mine, other] if seat == 0 else [other, mine]
            result = play_game(game, players, seed=start, limits=[limit, limit],
                               max_moves=args.max_moves)
            winner = result.winner
            if winner is None:
                draws += 1
            elif winner == seat:
                wins += 1
            else:
                losses += 1
            if result.seconds is not None:
                for side in (0, 1):
                    who = 0 if side == seat else 1
                    thinking[who][0] += result.seconds[side]
                    thinking[who][1] += (result.length + (1 - side)) // 2
            print(f"start {start} alphazero {'first' if seat == 0 else 'second'}: "
                  f"{'draw' if winner is None else 'win' if winner == seat else 'loss'} in "
                  f"{result.length} moves ({result.outcome.termination.name.lower()})",
                  flush=True)
    games = wins + draws + losses
    low, high = wilson_interval(wins, games)
    per_move = [seconds / max(moves, 1) for seconds, moves in thinking]
    print(f"alphazero vs {args.opponent} at {args.time} s a move: {wins} wins, {draws} draws, "
          f"{losses} losses in {games} games; win rate {wins / games:.3f} "
          f"[{low:.3f}, {high:.3f}] (95% Wilson), score {(wins + draws / 2) / games:.3f}; "
          f"seconds a move: alphazero {per_move[0]:.2f}, "
          f"{args.opponent} {per_move[1]:.2f}")


if __name__ == "__main__":
    main()
