"""Ratings from match results: Bradley-Terry / Elo by maximum likelihood, with a first-player
advantage, bootstrap confidence intervals, a crosstable, and Wilson intervals.

The model: the player moving first scores against the second with probability
``1 / (1 + 10 ** (-(R_first - R_second + A) / 400))`` — Elo's logistic curve, ratings in Elo
points, ``A`` the advantage of moving first. A draw counts as half a win (the score ``s`` of a
game is 1, 1/2 or 0 and the log-likelihood ``s log p + (1 - s) log(1 - p)``). The anchor
(``random`` by default) is fixed at 0. A weak prior — ``prior`` virtual drawn games between
each pair that met — keeps the ratings finite when a player won every game.

>>> games = [Match("a", "random", 1.0)] * 30 + [Match("random", "a", 0.0)] * 30 \\
...     + [Match("a", "random", 0.0)] * 10 + [Match("random", "a", 1.0)] * 10
>>> fit = fit_ratings(games)
>>> round(fit.elo["a"]), fit.elo["random"]
(188, 0.0)
>>> [round(x, 3) for x in wilson_interval(75, 100)]
[0.657, 0.825]
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

import numpy as np
from scipy.optimize import minimize

from lifearena.errors import BadParameterError

ELO = 400.0 / math.log(10.0)
"""Elo points per natural-log unit of odds."""


@dataclass(frozen=True)
class Match:
    """One game: ``first`` moved first; ``score`` is first's score (1 win, 0.5 draw, 0 loss)."""

    first: str
    second: str
    score: float

    def __post_init__(self) -> None:
        if not 0.0 <= self.score <= 1.0:
            raise BadParameterError(f"match score {self.score} must be within [0, 1]")


@dataclass
class Ratings:
    """Fitted ratings (Elo points, anchor at 0) and the first-move advantage (Elo points)."""

    elo: dict[str, float]
    advantage: float
    anchor: str | None
    games: dict[str, int]
    intervals: dict[str, tuple[float, float]] = field(default_factory=dict)
    advantage_interval: tuple[float, float] | None = None

    def ranking(self) -> list[str]:
        """Players from the strongest down."""
        return sorted(self.elo, key=lambda p: (-self.elo[p], p))


def wilson_interval(successes: float, n: float, z: float = 1.96) -> tuple[float, float]:
    """Wilson score interval for a proportion (draws may count as half successes)."""
    if n <= 0:
        return (0.0, 1.0)
    p = successes / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (max(0.0, centre - half), min(1.0, centre + half))


def _aggregate(matches: Iterable[Match]) -> tuple[list[str], np.ndarray, np.ndarray]:
    """Players and, per ordered pair (first, second), the total score and the game count."""
    totals: dict[tuple[str, str], list[float]] = defaultdict(lambda: [0.0, 0.0])
    for m in matches:
        cell = totals[(m.first, m.second)]
        cell[0] += m.score
        cell[1] += 1
    players = sorted({p for pair in totals for p in pair})
    index = {p: i for i, p in enumerate(players)}
    n = len(players)
    score = np.zeros((n, n))
    count = np.zeros((n, n))
    for (a, b), (s, c) in totals.items():
        score[index[a], index[b]] += s
        count[index[a], index[b]] += c
    return players, score, count


def _fit(players: Sequence[str], score: np.ndarray, count: np.ndarray, anchor: str | None,
         prior: float, advantage: bool) -> tuple[np.ndarray, float]:
    n = len(players)
    met = (count + count.T) > 0
    # prior: `prior` virtual games per pair that met, half won by each, split over both seats
    s = score + np.where(met, prior / 4.0, 0.0)
    c = count + np.where(met, prior / 2.0, 0.0)
    np.fill_diagonal(s, 0.0)
    np.fill_diagonal(c, 0.0)
    rows, cols = np.nonzero(c)
    s_vec, c_vec = s[rows, cols], c[rows, cols]
    fixed = players.index(anchor) if anchor in players else None
    free = [i for i in range(n) if i != fixed]

    def unpack(x: np.ndarray) -> tuple[np.ndarray, float]:
        r = np.zeros(n)
        r[free] = x[:len(free)]
        return r, (x[-1] if advantage else 0.0)

    def objective(x: np.ndarray) -> tuple[float, np.ndarray]:
        r, h = unpack(x)
        d = r[rows] - r[cols] + h
        p = 1.0 / (1.0 + np.exp(-d))
        eps = 1e-12
        nll = -np.sum(s_vec * np.log(p + eps) + (c_vec - s_vec) * np.log(1 - p + eps))
        resid = c_vec * p - s_vec  # d nll / d d
        grad_r = np.zeros(n)
        np.add.at(grad_r, rows, resid)
        np.add.at(grad_r, cols, -resid)
        # a whisper of L2 so that players with no path to the anchor stay at 0, not adrift
        nll += 1e-6 * np.sum(r * r)
        grad_r += 2e-6 * r
        grad = list(grad_r[free])
        if advantage:
            grad.append(np.sum(resid))
        return float(nll), np.asarray(grad)

    x0 = np.zeros(len(free) + (1 if advantage else 0))
    result = minimize(objective, x0, jac=True, method="L-BFGS-B")
    r, h = unpack(result.x)
    if fixed is None:
        r = r - r.mean()
    return r * ELO, h * ELO


def fit_ratings(matches: Iterable[Match], *, anchor: str | None = "random",
                prior: float = 1.0, advantage: bool = True) -> Ratings:
    """Maximum-likelihood Elo ratings (anchor fixed at 0; mean 0 if the anchor did not play)
    and the first-move advantage ``A`` (0 and not fitted with ``advantage=False``)."""
    matches = list(matches)
    if not matches:
        raise BadParameterError("no match results to rate")
    players, score, count = _aggregate(matches)
    r, h = _fit(players, score, count, anchor, prior, advantage)
    games = {p: int(count[i].sum() + count[:, i].sum()) for i, p in enumerate(players)}
    return Ratings(dict(zip(players, (float(x) for x in r), strict=True)), float(h),
                   anchor if anchor in players else None, games)


def bootstrap(matches: Iterable[Match], *, samples: int = 200, seed: int = 0,
              level: float = 0.95, anchor: str | None = "random", prior: float = 1.0,
              advantage: bool = True) -> Ratings:
    """:func:`fit_ratings` plus percentile intervals from ``samples`` bootstrap refits.

    A parametric bootstrap: each (first, second) pairing keeps its number of games and its
    score is redrawn as Binomial(games, p) with p the fitted model's expected score (draws
    count as half a point in the fit). Resampling the observed games instead would give a
    zero-width interval to every pairing that one side always won, which small ladders
    often have. The generator is seeded, so the intervals are reproducible.
    """
    matches = list(matches)
    fit = fit_ratings(matches, anchor=anchor, prior=prior, advantage=advantage)
    players, _, count = _aggregate(matches)
    rating = np.array([fit.elo[p] for p in players]) / ELO
    expected = 1.0 / (1.0 + np.exp(-(rating[:, None] - rating[None, :] + fit.advantage / ELO)))
    rng = np.random.default_rng(seed)
    n = len(players)
    draws = np.zeros((samples, n))
    adv = np.zeros(samples)
    games = count.astype(np.int64)
    for k in range(samples):
        score = rng.binomial(games, expected).astype(float)
        draws[k], adv[k] = _fit(players, score, count, anchor, prior, advantage)
    tail = (1.0 - level) / 2.0 * 100
    lo, hi = np.percentile(draws, [tail, 100 - tail], axis=0)
    fit.intervals = {p: (float(lo[i]), float(hi[i])) for i, p in enumerate(players)}
    a_lo, a_hi = np.percentile(adv, [tail, 100 - tail])
    fit.advantage_interval = (float(a_lo), float(a_hi))
    return fit


@dataclass
class Crosstable:
    """``score[i][j]``: points of ``players[i]`` against ``players[j]`` (both seats);
    ``games[i][j]``: games they played."""

    players: list[str]
    score: np.ndarray
    games: np.ndarray

    def rate(self, a: str, b: str) -> float | None:
        """a's score fraction against b, or None if they never met."""
        i, j = self.players.index(a), self.players.index(b)
        return None if self.games[i, j] == 0 else float(self.score[i, j] / self.games[i, j])

    def to_text(self, order: Sequence[str] | None = None) -> str:
        """A plain-text table (percent score of the row against the column), every column
        headed by the player's full name.

        >>> t = crosstable([Match("alphabeta", "minimax", 1.0)])
        >>> print(t.to_text())
                  alphabeta minimax
        alphabeta         .   100.0
        minimax         0.0       .
        """
        order = list(order or self.players)
        width = max(6, *(len(p) for p in order))
        sizes = [max(6, len(p)) for p in order]
        head = " " * width + " " + " ".join(f"{p:>{w}}" for p, w in zip(order, sizes,
                                                                        strict=True))
        lines = [head]
        for a in order:
            cells = []
            for b, w in zip(order, sizes, strict=True):
                r = self.rate(a, b) if a != b else None
                cells.append(f"{'.':>{w}}" if r is None else f"{100 * r:{w}.1f}")
            lines.append(f"{a:<{width}} " + " ".join(cells))
        return "\n".join(lines)


def crosstable(matches: Iterable[Match]) -> Crosstable:
    """Scores of every player against every other, both seats together.

    >>> t = crosstable([Match("a", "b", 1.0), Match("b", "a", 0.5)])
    >>> t.rate("a", "b"), t.rate("b", "a")
    (0.75, 0.25)
    """
    players, score, count = _aggregate(matches)
    # score[i, j] holds i's points moving first against j; add j's second-seat losses
    total = score + (count.T - score.T)
    games = count + count.T
    return Crosstable(players, total, games)


def first_player_score(matches: Iterable[Match]) -> tuple[float, int, tuple[float, float]]:
    """The first player's mean score, the number of games and its Wilson interval."""
    matches = list(matches)
    points = sum(m.score for m in matches)
    return (points / len(matches) if matches else 0.0, len(matches),
            wilson_interval(points, len(matches)))
