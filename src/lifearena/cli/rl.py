"""``lifearena rl``: the versioned environments, ``lifearena rl evaluate``, a policy's
standard table on one of them (:mod:`lifearena.rl.evaluate`), and ``lifearena rl export``,
a torch checkpoint as an ``.npz`` that plays with numpy alone.

The ``rl`` package is imported inside the commands, so ``lifearena --help`` loads none of it.
"""

from __future__ import annotations

import textwrap
import time
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.table import Table

from lifearena import caps
from lifearena.cli.checks import check_output, split_entrants
from lifearena.cli.wide_tables import literal, print_whole
from lifearena.errors import BadParameterError

app = typer.Typer(help="Reinforcement learning: versioned environments, frozen evaluation "
                       "sets, a policy's standard table.", no_args_is_help=True)


@app.command("envs")
def envs() -> None:
    """List the versioned environment ids: game, fixed parameters, evaluation set."""
    from lifearena.rl.eval_sets import SHA256, file_name
    from lifearena.rl.versions import SPECS

    table = Table(title="Versioned environments (params= is refused; -v0 ids stay free)")
    for name in ("id", "parameters", "evaluation set (sha256)"):
        table.add_column(name)
    for fixed in SPECS:
        params = "\n".join(textwrap.wrap(
            ", ".join(f"{k}={v}" for k, v in fixed.params.items()), 60)) or "-"
        name = file_name(fixed.id)
        table.add_row(literal(fixed.id), literal(params), f"{name} ({SHA256[name][:12]})")
    print_whole(Console(), table)


@app.command("evaluate")
def evaluate(
    policy: Annotated[str, typer.Argument(
        help="The agent to evaluate: any agent name (random, greedy, policy:FILE, "
             "module:callable, LABEL=NAME:key=value).")],
    env: Annotated[str, typer.Option(
        "--env", "-e", help="A versioned id, e.g. lifearena/war_of_life-v1 (lifearena rl "
                            "envs lists them).")],
    opponents: Annotated[list[str] | None, typer.Option(
        "--opponents", "-a", help="Opponents, separated by commas (default: every built-in "
                                  "agent of the game's standard table).")] = None,
    limit: Annotated[int | None, typer.Option(
        "--limit", "-n", help="Play only the first N starts of the evaluation set (each from "
                              "both seats).", min=1, max=caps.MAX_GAMES)] = None,
    seed: Annotated[int, typer.Option(
        "--seed", help="Master seed of the agents' random choices.", min=0,
        max=caps.MAX_SEED)] = 0,
    workers: Annotated[int | None, typer.Option(
        "--workers", "-w", help="Processes to use (default 1: serial).", min=1,
        max=caps.MAX_WORKERS)] = 1,
    fast: Annotated[bool, typer.Option(
        "--fast/--no-fast", help="Use the game's compiled fast path where it plays both "
                                 "agents (the same games).")] = True,
    json_file: Annotated[Path | None, typer.Option(
        "--json", help="Also write the table to this .json file.")] = None,
) -> None:
    """Play a policy from an id's frozen evaluation set against the game's built-in agents.

    Every start is played from both seats; prints, per opponent, the games, wins, draws and
    losses, the score (wins + draws/2) with its 95% Wilson interval and the mean moves.
    """
    from lifearena.rl.evaluate import evaluate as run_evaluation
    from lifearena.rl.versions import spec

    check_output(json_file, "--json", (".json",))
    fixed = spec(env)
    console = Console()
    columns = (TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(),
               TextColumn("games"), TimeElapsedColumn(), TimeRemainingColumn())
    progress = Progress(*columns, console=Console(stderr=True), transient=True)
    task = progress.add_task(fixed.id, total=None)

    def advance(new: int, total: int) -> None:
        if not progress.live.is_started:
            progress.start()
        progress.update(task, advance=new, total=total)

    started = time.perf_counter()
    try:
        report = run_evaluation(policy, fixed.id, opponents=split_entrants(opponents),
                                limit=limit, seed=seed, workers=workers, fast=fast,
                                progress=advance)
    finally:
        if progress.live.is_started:
            progress.stop()
    table = Table(title=f"{report.policy} on {report.env_id}: {report.starts} starts x 2 seats "
                        f"per opponent (seed {report.seed})")
    table.add_column("opponent")
    for name in ("games", "wins", "draws", "losses", "score [95% CI]", "first", "second",
                 "mean moves"):
        table.add_column(name, justify="right")
    for row in report.rows:
        table.add_row(literal(row.opponent), str(row.games), str(row.wins), str(row.draws),
                      str(row.losses),
                      f"{row.score:.3f} [{row.score_low:.3f}, {row.score_high:.3f}]",
                      f"{row.first_score:.3f}", f"{row.second_score:.3f}",
                      f"{row.mean_moves:.1f}")
    print_whole(console, table)
    console.print(f"{sum(r.games for r in report.rows)} games in "
                  f"{time.perf_counter() - started:.1f} s; first/second: the score moving "
                  "first/second")
    if json_file is not None:
        json_file.write_text(report.to_json() + "\n", encoding="utf-8")
        console.print(f"wrote {json_file}")


@app.command("export")
def export(
    checkpoint: Annotated[Path, typer.Argument(
        help="A torch checkpoint (.pt) written by python -m lifearena.rl.ppo.")],
    output: Annotated[Path | None, typer.Option(
        "--output", "-o", help="The .npz to write (default: the checkpoint's name with "
                               ".npz).")] = None,
) -> None:
    """Export a torch checkpoint to an .npz that plays as policy:FILE.npz with numpy alone
    (no torch needed: web levels, the arena, any machine)."""
    try:
        from lifearena.rl.checkpoint import export_numpy, load_checkpoint
    except ImportError as error:
        if (error.name or "").startswith("lifearena"):
            raise
        raise BadParameterError(f"exporting {str(checkpoint)!r} needs {error.name or 'torch'}: "
                                f"pip install torch==2.13.0 -e \".[rl]\" (torch's CPU build "
                                f"first)") from None

    target = output if output is not None else checkpoint.with_suffix(".npz")
    check_output(target, "--output", (".npz",))
    loaded = load_checkpoint(checkpoint)
    policy = export_numpy(loaded, target)
    Console().print(f"wrote {target} ({target.stat().st_size:,} bytes): {policy.game}, "
                    f"{len(policy.weights)} arrays; play it as policy:{target}")
