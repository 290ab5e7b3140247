"""The PPO trainer's speed on the CPU and on a GPU, in one run: board steps a second
(rollout and update together, the evaluations left out), medians over the updates after
the first (which pays for compilation and warm-up), and their ratio.

    python benchmarks/bench_ppo_device.py                       # War of Life, afterstates
    python benchmarks/bench_ppo_device.py --num-envs 64 --num-steps 32 -- --afterstates \
        --opponent random,minimax --shaping 0.05               # docs/rl.md's GPU run

Without a GPU that torch sees, only the CPU row is printed. The network and environments
are those of ``python -m lifearena.rl.ppo`` (its flags after ``--`` go through unchanged);
the environments always step on the CPU, so a GPU helps only as far as the network's share
of the time goes.
"""

from __future__ import annotations

import argparse
import csv
import statistics
import sys
import tempfile
import time
from pathlib import Path

import torch

from lifearena.rl import ppo


def opponents(extra: list[str]) -> list[str]:
    """The opponent pool the trainer's flags ``extra`` name (``random`` when none)."""
    named = extra[extra.index("--opponent") + 1] if "--opponent" in extra[:-1] else "random"
    return [name for name in named.split(",") if name.strip()]


def steps_per_second(device: str, args: argparse.Namespace, extra: list[str]) -> float:
    """The median board steps a second of a short run on ``device``."""
    with tempfile.TemporaryDirectory() as folder:
        started = time.perf_counter()
        ppo.train(["--game", args.game, "--device", device, "--num-envs", str(args.num_envs),
                   "--num-steps", str(args.num_steps), "--channels", str(args.channels),
                   "--blocks", str(args.blocks), "--threads", str(args.threads),
                   "--total-steps", str(args.updates * args.num_steps * args.num_envs
                                        * 2 * len(opponents(extra))),
                   "--eval-every", "0", "--eval-games", "1", "--eval-opponents", "random",
                   "--save", folder, "--quiet", "--no-torch-deterministic", *extra])
        with open(Path(folder) / "progress.csv") as rows:
            rates = [float(row["steps_per_second"]) for row in csv.DictReader(rows)]
        print(f"  {device}: {len(rates)} updates in {time.perf_counter() - started:.0f} s",
              flush=True)
    return statistics.median(rates[1:] or rates)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="war_of_life")
    parser.add_argument("--num-envs", type=int, default=16,
                        help="boards of each environment (one a seat and opponent)")
    parser.add_argument("--num-steps", type=int, default=16)
    parser.add_argument("--channels", type=int, default=32)
    parser.add_argument("--blocks", type=int, default=2)
    parser.add_argument("--threads", type=int, default=1, help="torch's CPU threads")
    parser.add_argument("--updates", type=int, default=3,
                        help="updates a device (the first is left out of the median)")
    args, extra = parser.parse_known_args()
    extra = [e for e in extra if e != "--"] or ["--afterstates", "--opponent", "random"]
    boards = 2 * len(opponents(extra)) * args.num_envs  # each opponent, both seats
    print(f"{args.game}, {boards} boards x {args.num_steps} steps an update, "
          f"{args.channels} channels, {args.blocks} blocks, {' '.join(extra)}", flush=True)
    cpu = steps_per_second("cpu", args, extra)
    print(f"cpu ({args.threads} thread(s)): {cpu:,.0f} board steps/s")
    if not torch.cuda.is_available():
        print("no GPU that torch sees: the CPU row only")
        return
    gpu = steps_per_second("cuda", args, extra)
    print(f"cuda ({torch.cuda.get_device_name()}): {gpu:,.0f} board steps/s, "
          f"{gpu / cpu:.2f}x the CPU")


if __name__ == "__main__":
    sys.exit(main())
