"""Statistics of a set of games: the per-pairing table, a ranking, the first-player advantage,
with Wilson score intervals (Newcombe's hybrid interval for a difference of two rates).

Everything works on *summaries*: dicts with ``player0``, ``player1``, ``winner`` (0, 1 or
``None``), ``termination``, ``length`` and ``duration`` — the columns
:meth:`lifearena.arena.storage.Run.summaries` returns.

Interval values checked against Newcombe (1998), "Two-sided confidence intervals for the single
proportion", Statistics in Medicine 17:857-872, Table I:

>>> [round(x, 4) for x in wilson_interval(81, 263)]
[0.2553, 0.3662]
>>> [round(x, 4) for x in wilson_interval(0, 20)]
[0.0, 0.1611]
"""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass
from statistics import NormalDist
from typing import Any

from lifearena.errors import BadParameterError

Summary = Mapping[str, Any]


def _z(confidence: float) -> float:
    if not 0 < confidence < 1:
        raise BadParameterError(f"confidence {confidence} must lie strictly between 0 and 1")
    return NormalDist().inv_cdf(0.5 + confidence / 2)


def wilson_interval(successes: float, trials: int, confidence: float = 0.95
                    ) -> tuple[float, float]:
    """The Wilson score interval for a proportion ``successes / trials``; (0, 1) with no trials.
    ``successes`` may be a score (wins + draws / 2).

    >>> [round(x, 4) for x in wilson_interval(15, 148)]
    [0.0624, 0.1605]
    """
    if trials < 0 or not 0 <= successes <= trials:
        raise BadParameterError(f"need 0 <= successes ({successes}) <= trials ({trials})")
    if trials == 0:
        return (0.0, 1.0)
    z = _z(confidence)
    p = successes / trials
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denominator
    return (max(0.0, centre - half), min(1.0, centre + half))


def difference_interval(k1: int, n1: int, k2: int, n2: int,
                        confidence: float = 0.95) -> tuple[float, float, float]:
    """``p1 - p2`` of two independent proportions and Newcombe's hybrid score interval for it
    (his method 10), built from the two Wilson intervals.

    Newcombe (1998), "Interval estimation for the difference between independent proportions",
    Statistics in Medicine 17:873-890, example (a): 56/70 - 48/80:

    >>> [round(x, 4) for x in difference_interval(56, 70, 48, 80)]
    [0.2, 0.0524, 0.3339]
    """
    if n1 == 0 or n2 == 0:
        return (0.0, -1.0, 1.0)
    p1, p2 = k1 / n1, k2 / n2
    l1, u1 = wilson_interval(k1, n1, confidence)
    l2, u2 = wilson_interval(k2, n2, confidence)
    d = p1 - p2
    return (d, d - math.sqrt((p1 - l1) ** 2 + (u2 - p2) ** 2),
            d + math.sqrt((u1 - p1) ** 2 + (p2 - l2) ** 2))


@dataclass(frozen=True)
class PairingRow:
    """One row of the tournament table: ``p1`` played first against ``p2``."""

    p1: str
    p2: str
    games: int
    p1_wins: int
    p2_wins: int
    draws: int
    avg_length: float
    avg_time: float
    forfeits: int = 0
    terminations: tuple[tuple[str, int], ...] = ()

    def as_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["terminations"] = dict(self.terminations)
        return data


def pairing_table(summaries: Iterable[Summary], order: Sequence[str] | None = None
                  ) -> list[PairingRow]:
    """One row per (first player, second player), in the order of ``order`` (else sorted)."""
    groups: dict[tuple[str, str], list[Summary]] = defaultdict(list)
    for game in summaries:
        groups[(game["player0"], game["player1"])].append(game)
    rank = {name: i for i, name in enumerate(order or [])}
    keys = sorted(groups, key=lambda k: (rank.get(k[0], len(rank)), rank.get(k[1], len(rank)),
                                         k))
    rows = []
    for p1, p2 in keys:
        games = groups[(p1, p2)]
        n = len(games)
        wins = Counter(g["winner"] for g in games)
        terms = Counter(g["termination"] for g in games)
        rows.append(PairingRow(
            p1=p1, p2=p2, games=n, p1_wins=wins[0], p2_wins=wins[1], draws=wins[None],
            avg_length=sum(g["length"] for g in games) / n,
            avg_time=sum(g["duration"] for g in games) / n,
            forfeits=terms.get("forfeit", 0), terminations=tuple(sorted(terms.items())),
        ))
    return rows


@dataclass(frozen=True)
class RankingRow:
    """An agent's results against the others (self-play excluded), best first."""

    agent: str
    games: int
    wins: int
    draws: int
    losses: int
    score: float  # (wins + draws / 2) / games
    win_rate: float
    win_low: float
    win_high: float

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


def ranking(summaries: Iterable[Summary], confidence: float = 0.95) -> list[RankingRow]:
    """Agents ranked by score against other agents (wins + half the draws per game)."""
    tally: dict[str, Counter[str]] = defaultdict(Counter)
    for game in summaries:
        a, b = game["player0"], game["player1"]
        if a == b:
            continue
        for seat, name in ((0, a), (1, b)):
            outcome = "draws" if game["winner"] is None else (
                "wins" if game["winner"] == seat else "losses")
            tally[name][outcome] += 1
    rows = []
    for name, c in tally.items():
        n = c["wins"] + c["draws"] + c["losses"]
        low, high = wilson_interval(c["wins"], n, confidence)
        rows.append(RankingRow(name, n, c["wins"], c["draws"], c["losses"],
                               (c["wins"] + c["draws"] / 2) / n, c["wins"] / n, low, high))
    return sorted(rows, key=lambda r: (-r.score, -r.wins, r.agent))


@dataclass(frozen=True)
class FirstPlayerRow:
    """How often ``agent`` wins when it moves first and when it moves second (against every
    opponent, itself included), and the difference: the first-player advantage."""

    agent: str
    first_games: int
    first_wins: int
    first_rate: float
    first_low: float
    first_high: float
    second_games: int
    second_wins: int
    second_rate: float
    second_low: float
    second_high: float
    advantage: float
    advantage_low: float
    advantage_high: float

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


def _first_row(agent: str, k1: int, n1: int, k2: int, n2: int,
               confidence: float) -> FirstPlayerRow:
    r1 = k1 / n1 if n1 else 0.0
    r2 = k2 / n2 if n2 else 0.0
    diff, low, high = difference_interval(k1, n1, k2, n2, confidence)
    return FirstPlayerRow(agent, n1, k1, r1, *wilson_interval(k1, n1, confidence),
                          n2, k2, r2, *wilson_interval(k2, n2, confidence), diff, low, high)


def first_player_advantage(summaries: Iterable[Summary], order: Sequence[str] | None = None,
                           confidence: float = 0.95) -> list[FirstPlayerRow]:
    """Per agent, win rates moving first and second and their difference; the last row,
    agent ``"(all)"``, pools every game (first player's wins against second player's)."""
    first: dict[str, Counter[str]] = defaultdict(Counter)
    second: dict[str, Counter[str]] = defaultdict(Counter)
    total: Counter[str] = Counter()
    for game in summaries:
        first[game["player0"]]["n"] += 1
        second[game["player1"]]["n"] += 1
        total["n"] += 1
        if game["winner"] == 0:
            first[game["player0"]]["w"] += 1
            total["p1"] += 1
        elif game["winner"] == 1:
            second[game["player1"]]["w"] += 1
            total["p2"] += 1
    names = list(order or []) + sorted((set(first) | set(second)) - set(order or []))
    rows = [_first_row(name, first[name]["w"], first[name]["n"], second[name]["w"],
                       second[name]["n"], confidence)
            for name in names if first[name]["n"] or second[name]["n"]]
    if total["n"]:
        # pooled: the same games seen from both seats, so the interval on the difference is
        # only indicative; the first player's share of decisive games is the cleaner figure
        rows.append(_first_row("(all)", total["p1"], total["n"], total["p2"], total["n"],
                               confidence))
    return rows


def decisive_share(summaries: Iterable[Summary], confidence: float = 0.95
                   ) -> tuple[int, int, float, float, float]:
    """Among decisive games: (first-player wins, decisive games, share, low, high)."""
    wins = decisive = 0
    for game in summaries:
        if game["winner"] is not None:
            decisive += 1
            wins += game["winner"] == 0
    share = wins / decisive if decisive else 0.0
    return (wins, decisive, share, *wilson_interval(wins, decisive, confidence))
