"""Estimate the first Glicko-2 ratings of the web site's computer levels from a ladder.

The site rates its computer levels (``random``, ``easy``, ``medium``, ``hard`` of each game)
as players (:mod:`lifearena.web.rated`). A level meets people from its first rated game on,
so it should not start at the 1500/350 of a level nobody knows: this script plays a ladder
(:func:`lifearena.arena.ladder.run_ladder`) among each game's levels, exactly the agents and
limits of :data:`lifearena.web.catalog.CATALOG` with every time limit multiplied by
``--time-scale``, and turns the ladder's Elo differences into Glicko-2 ratings:

* **Same scale.** The ladder's model (``1 / (1 + 10 ** (-d / 400))``) and Glicko-2's
  expected score (before its deviation factor ``g``) are the same logistic curve with
  400 / ln 10 rating points per natural unit of odds, so an Elo difference *is* a Glicko-2
  rating difference: only the origin has to be chosen.
* **Anchor.** ``random`` (uniformly random legal moves) is fixed at :data:`ANCHOR_RATING`,
  700 below the 1500 a new person starts at: a person who knows the rules and tries to win
  is expected to score about 98% against it (``1 / (1 + 10 ** (-700 / 400))``). The anchor
  only places the scale; each level's distance from ``random`` is the ladder's.
* **Deviation.** Each level's deviation is its bootstrap 95% interval's half-width / 1.96
  (one standard error), kept within [:data:`MIN_DEVIATION`, :data:`MAX_DEVIATION`]: the
  floor because the ladder's conditions are not the site's (scaled thinking, other
  opponents), so no first estimate is better than about 100 points; the cap because a
  level the ladder barely separates is still better known than an unknown player.

Levels that play the same agent with the same limit are one entrant of the ladder and get
the same rating.

The result is merged into ``--output`` (by default the package's
``src/lifearena/web/computer_ratings.json``): the games run replace their entries, the others
are kept, and the top-level ``_about`` entry records how each game's entry was made. Run
``python scripts/estimate_computer_ratings.py --help`` for the options; ``docs/ratings.md``
gives the command used for the committed file and its table.
"""

from __future__ import annotations

import json
import math
import shlex
import sys
from collections.abc import Mapping, Sequence
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path
from time import perf_counter
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TaskID,
    TextColumn,
    TimeElapsedColumn,
)
from rich.table import Table

from lifearena.agents import Limit
from lifearena.arena.executor import Executor
from lifearena.arena.ladder import Entrant, Ladder, ladder_plan, run_ladder
from lifearena.cli.wide_tables import print_whole
from lifearena.web.catalog import CATALOG, GAMES

ANCHOR_LEVEL = "random"
"""The level whose rating is fixed: every catalog game has it, and it plays the same way
whatever the time limit."""
ANCHOR_RATING = 800.0
"""``random``'s rating: 700 below a new player's 1500 (see the module doc)."""
MIN_DEVIATION = 100.0
"""The smallest first deviation: the ladder is not the site (see the module doc)."""
MAX_DEVIATION = 350.0
"""The largest first deviation: that of a computer level the ladder does not cover."""
Z95 = 1.96
"""Standard errors in the half-width of a 95% interval."""
DEFAULT_OUTPUT = (Path(__file__).resolve().parent.parent / "src" / "lifearena" / "web"
                  / "computer_ratings.json")
ABOUT = "_about"
"""The top-level key that says how the file was made (the site's reader skips it)."""


def scaled(limit: Limit | None, scale: float) -> Limit | None:
    """``limit`` with its time multiplied by ``scale`` (node, simulation and depth limits
    do not depend on the machine's speed and stay as they are).

    >>> scaled(Limit(time=1.5), 0.2)
    Limit(time=0.3, nodes=None, simulations=None, depth=None)
    >>> scaled(None, 0.2) is None
    True
    """
    if limit is None or limit.time is None:
        return limit
    return replace(limit, time=round(limit.time * scale, 6))


def limit_text(limit: Limit | None) -> str:
    """A limit as the ladder's entrants write it (``time=0.3``), ``""`` for none.

    >>> limit_text(Limit(time=0.3, depth=2)), limit_text(None)
    ('time=0.3,depth=2', '')
    """
    if limit is None:
        return ""
    parts = [f"{name}={getattr(limit, name):g}" for name in ("time", "nodes", "simulations",
                                                             "depth")
             if getattr(limit, name) is not None]
    return ",".join(parts)


def level_entrants(game: str, time_scale: float) -> tuple[list[Entrant], dict[str, str]]:
    """The ladder's entrants for ``game``'s levels, and the entrant each level plays as.

    Two levels with the same agent and (scaled) limit would be two copies of one player:
    rated apart, they would split the same strength by chance; rated as one, they share it.

    >>> entrants, plays = level_entrants("p2life", 0.2)
    >>> [e.label for e in entrants], plays["easy"]
    (['random', 'easy', 'medium', 'hard'], 'easy')
    >>> entrants[-1].limit.time
    0.3
    """
    entrants: list[Entrant] = []
    plays: dict[str, str] = {}
    by_agent: dict[tuple[str, Limit | None], str] = {}
    for level, (agent, limit) in CATALOG[game].levels.items():
        key = (agent, scaled(limit, time_scale))
        if key not in by_agent:
            by_agent[key] = level
            entrants.append(Entrant(level, agent, limit=key[1]))
        plays[level] = by_agent[key]
    return entrants, plays


def to_site(elo: float, low: float, high: float, *, anchor: float = ANCHOR_RATING,
            min_deviation: float = MIN_DEVIATION, max_deviation: float = MAX_DEVIATION
            ) -> tuple[float, float]:
    """A ladder rating (Elo above the anchor, with its 95% interval) as the site's Glicko-2
    rating and deviation: the same difference from the anchor's fixed rating, and one
    standard error of the interval, kept within the bounds.

    >>> to_site(300.0, 100.0, 600.0)
    (1100.0, 127.6)
    >>> to_site(0.0, 0.0, 0.0), to_site(900.0, 300.0, 2000.0)
    ((800.0, 100.0), (1700.0, 350.0))
    """
    half = (high - low) / 2.0 if math.isfinite(high - low) else math.inf
    deviation = min(max(half / Z95, min_deviation), max_deviation)
    return round(anchor + elo, 1) + 0.0, round(deviation, 1)


def estimates(ladder: Ladder, entrants: Sequence[Entrant], plays: Mapping[str, str], *,
              site_limits: Mapping[str, Limit | None], anchor: float = ANCHOR_RATING,
              min_deviation: float = MIN_DEVIATION, max_deviation: float = MAX_DEVIATION
              ) -> dict[str, dict[str, Any]]:
    """Each level's entry of the file: its first rating and deviation, and the ladder's
    figures they come from (the entrant's Elo above ``random``, its interval, its games and
    score, and the limit it played with beside the site's)."""
    rows = {row["agent"]: row for row in ladder.rows()}
    by_label = {e.label: e for e in entrants}
    levels: dict[str, dict[str, Any]] = {}
    for level, label in plays.items():
        row = rows[label]
        rating, deviation = to_site(row["elo"], row["low"], row["high"], anchor=anchor,
                                    min_deviation=min_deviation,
                                    max_deviation=max_deviation)
        entry: dict[str, Any] = {
            "rating": rating,
            "deviation": deviation,
            "agent": by_label[label].agent,
            "site_limit": limit_text(site_limits[level]),
            "ladder_limit": limit_text(by_label[label].limit),
            "ladder_elo": round(row["elo"], 1) + 0.0,  # never -0.0
            "ladder_interval": [round(row["low"], 1) + 0.0, round(row["high"], 1) + 0.0],
            "ladder_games": row["games"],
            "ladder_score": round(row["score"], 4),
        }
        if label != level:
            entry["same_player_as"] = label
        levels[level] = entry
    return levels


def read_file(path: Path) -> dict[str, Any]:
    """The file's entries so far (``{}`` when there is none yet)."""
    if not path.exists():
        return {}
    data: dict[str, Any] = json.loads(path.read_text())
    return data


def write_file(path: Path, data: Mapping[str, Any]) -> None:
    """Write ``data`` sorted (stable diffs), through a temporary file so that a run stopped
    while writing leaves the previous file whole."""
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_name(path.name + ".partial")
    partial.write_text(json.dumps(data, indent=2, sort_keys=True) + "\n")
    partial.replace(path)


def about(previous: Mapping[str, Any] | None, runs: Mapping[str, Any]) -> dict[str, Any]:
    """The ``_about`` entry: the method, and how each game's entry was made (runs of
    earlier commands are kept for the games they made)."""
    kept = dict((previous or {}).get("runs", {}))
    kept.update(runs)
    return {
        "made_by": "scripts/estimate_computer_ratings.py (docs/ratings.md)",
        "method": "a ladder among each game's catalog levels (every time limit multiplied "
                  "by time_scale); rating = anchor + the ladder's Elo above random (Elo and "
                  "Glicko-2 share the logistic curve, 400/ln 10 points per natural unit); "
                  "deviation = the 95% bootstrap interval's half-width / 1.96, within "
                  "[min_deviation, max_deviation]",
        "anchor": {"level": ANCHOR_LEVEL, "rating": ANCHOR_RATING},
        "runs": kept,
    }


def results_table(data: Mapping[str, Any], games: Sequence[str]) -> Table:
    """The estimates of ``games`` as a table, each game's levels in the catalog's order."""
    table = Table(title="first ratings of the computer levels")
    for column in ("game", "level", "agent (ladder limit)", "Elo vs random [95%]", "rating",
                   "deviation", "games", "score"):
        table.add_column(column, justify="left" if column in ("game", "level",
                                                               "agent (ladder limit)")
                         else "right")
    for game in games:
        for level in CATALOG[game].levels:
            entry = data[game][level]
            agent = entry["agent"] + (f" ({entry['ladder_limit']})" if entry["ladder_limit"]
                                      else "")
            if "same_player_as" in entry:
                agent += f" = {entry['same_player_as']}"
            low, high = entry["ladder_interval"]
            table.add_row(game, level, agent,
                          f"{entry['ladder_elo']:+.0f} [{low:+.0f}, {high:+.0f}]",
                          f"{entry['rating']:.0f}", f"{entry['deviation']:.0f}",
                          str(entry["ladder_games"]), f"{100 * entry['ladder_score']:.1f}%")
    return table


def markdown_table(data: Mapping[str, Any], games: Sequence[str]) -> str:
    """The estimates of ``games`` as the Markdown table of ``docs/ratings.md``.

    >>> entry = {"agent": "random", "ladder_limit": "", "ladder_elo": 0.0, "rating": 800.0,
    ...          "ladder_interval": [0.0, 0.0], "deviation": 100.0, "ladder_games": 6,
    ...          "ladder_score": 0.25}
    >>> data = {"war_of_life": {level: entry for level in CATALOG["war_of_life"].levels}}
    >>> print(markdown_table(data, ["war_of_life"]).splitlines()[2])
    | war_of_life | random | `random` | +0 [+0, +0] | **800** | 100 | 6 | 25.0% |
    """
    lines = ["| game | level | agent (ladder limit) | Elo vs random [95%] | rating | deviation "
             "| games | score |", "|---|---|---|---|---|---|---|---|"]
    for game in games:
        for level in CATALOG[game].levels:
            entry = data[game][level]
            agent = f"`{entry['agent']}`" + (f" ({entry['ladder_limit']})"
                                             if entry["ladder_limit"] else "")
            if "same_player_as" in entry:
                agent += f", as `{entry['same_player_as']}`"
            low, high = entry["ladder_interval"]
            lines.append(f"| {game} | {level} | {agent} | {entry['ladder_elo']:+.0f} "
                         f"[{low:+.0f}, {high:+.0f}] | **{entry['rating']:.0f}** | "
                         f"{entry['deviation']:.0f} | {entry['ladder_games']} | "
                         f"{100 * entry['ladder_score']:.1f}% |")
    return "\n".join(lines)


def estimate(
    game: Annotated[list[str] | None, typer.Option(
        "--game", "-g", help="A game of the web catalog (repeat for several); default: all "
        f"of {', '.join(GAMES)}.")] = None,
    games: Annotated[int, typer.Option(
        "--games", "-n", min=1, max=500, help="Start positions per pairing of levels; each "
        "is played twice, seats swapped, so a pairing plays twice this many games.")] = 4,
    time_scale: Annotated[float, typer.Option(
        "--time-scale", min=0.001, max=10.0, help="Multiplies every time limit of the "
        "catalog (1 plays the site's limits; below 1 the searching levels are weaker than "
        "on the site, so their estimates are conservative).")] = 0.2,
    max_moves: Annotated[int | None, typer.Option(
        "--max-moves", min=1, help="Stop a game after this many moves as a draw (long games "
        "such as Losat; default: the game's own end).")] = None,
    workers: Annotated[int, typer.Option(
        "--workers", "-w", min=1, max=64, help="Processes playing games at once.")] = 1,
    seed: Annotated[int, typer.Option(
        "--seed", help="Seed of the ladders' bootstrap intervals.")] = 0,
    samples: Annotated[int, typer.Option(
        "--samples", min=20, max=10_000, help="Bootstrap refits per ladder.")] = 200,
    output: Annotated[Path, typer.Option(
        "--output", "-o", dir_okay=False, help="The JSON file to merge the estimates into.")
    ] = DEFAULT_OUTPUT,
    markdown: Annotated[bool, typer.Option(
        "--markdown", help="Also print the table in Markdown (as docs/ratings.md shows it).")
    ] = False,
) -> None:
    """Rate each game's computer levels by a ladder among them and write their first
    Glicko-2 ratings (random fixed at 800) to the site's computer_ratings.json."""
    chosen = list(dict.fromkeys(game or GAMES))
    unknown = [g for g in chosen if g not in CATALOG]
    if unknown:
        raise typer.BadParameter(f"unknown game {unknown[0]!r}; expected one of "
                                 f"{', '.join(GAMES)}", param_hint="--game")
    command = "python scripts/estimate_computer_ratings.py " + shlex.join(sys.argv[1:])
    console = Console()
    data = read_file(output)
    runs: dict[str, Any] = {}
    progress = Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                        TimeElapsedColumn(), console=Console(stderr=True))
    plan: dict[str, tuple[list[Entrant], dict[str, str], TaskID]] = {}
    for name in chosen:
        entrants, plays = level_entrants(name, time_scale)
        total = ladder_plan(len(entrants), games)["total"]
        plan[name] = (entrants, plays, progress.add_task(name, total=total))
    largest = max(progress.tasks[task].total or 0 for _, _, task in plan.values())
    # the workers are forked before the progress bar's thread starts (a fork copies no
    # thread, and a lock that thread held would stay held in the workers)
    with Executor(workers=workers, tasks=int(largest)) as executor, progress:
        for name in chosen:
            entrants, plays, task = plan[name]
            started = perf_counter()

            def advance(_key: str, _result: object, task: TaskID = task) -> None:
                progress.advance(task)

            ladder = run_ladder(name, entrants, games, executor=executor, on_result=advance,
                                max_moves=max_moves, samples=samples, seed=seed)
            site_limits = {level: limit for level, (_, limit) in CATALOG[name].levels.items()}
            data[name] = estimates(ladder, entrants, plays, site_limits=site_limits)
            first, n, _ = ladder.first_score
            runs[name] = {
                "command": command,
                "date": datetime.now(UTC).date().isoformat(),
                "starts_per_pairing": games,
                "games_per_pairing": 2 * games,
                "time_scale": time_scale,
                "max_moves": max_moves,
                "workers": workers,
                "bootstrap_seed": seed,
                "min_deviation": MIN_DEVIATION,
                "max_deviation": MAX_DEVIATION,
                "games": n,
                "first_player_score": round(first, 4),
                "seconds": round(perf_counter() - started, 1),
            }
            data[ABOUT] = about(data.get(ABOUT), runs)
            write_file(output, data)  # after each game: a long run stopped keeps the others
    print_whole(console, results_table(data, chosen))
    if markdown:
        console.print(markdown_table(data, chosen), markup=False, highlight=False,
                      soft_wrap=True)
    console.print(f"written to {output}")


def main() -> None:
    typer.run(estimate)


if __name__ == "__main__":
    main()
