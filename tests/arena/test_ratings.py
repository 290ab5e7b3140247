"""Ratings: known strengths recovered from simulated results, anchor, intervals, crosstable."""

from __future__ import annotations

import math

import numpy as np
import pytest

from lifearena.arena.ratings import (
    Match,
    bootstrap,
    crosstable,
    first_player_score,
    fit_ratings,
    wilson_interval,
)
from lifearena.errors import BadParameterError

TRUE = {"random": 0.0, "greedy": 150.0, "alphabeta": 400.0, "mcts": 300.0, "weak": -100.0}


def simulate(games_per_seat: int, advantage: float = 60.0, draw: float = 0.1,
             seed: int = 0) -> list[Match]:
    rng = np.random.default_rng(seed)
    matches = []
    names = sorted(TRUE)
    for a in names:
        for b in names:
            if a == b:
                continue
            diff = TRUE[a] - TRUE[b] + advantage
            p = 1 / (1 + 10 ** (-diff / 400))
            for _ in range(games_per_seat):
                if rng.random() < draw:
                    matches.append(Match(a, b, 0.5))
                else:
                    # with draws half of their mass taken from each side, keep E[score] = p
                    q = (p - draw / 2) / (1 - draw)
                    matches.append(Match(a, b, float(rng.random() < q)))
    return matches


def test_known_strengths_are_recovered() -> None:
    fit = fit_ratings(simulate(400))
    assert fit.elo["random"] == 0.0
    for name, elo in TRUE.items():
        assert fit.elo[name] == pytest.approx(elo, abs=35), name
    assert fit.advantage == pytest.approx(60, abs=25)
    assert fit.ranking() == sorted(TRUE, key=lambda n: -TRUE[n])


def test_bootstrap_intervals_cover_the_truth_and_are_seeded() -> None:
    matches = simulate(100, seed=3)
    a = bootstrap(matches, samples=30, seed=7)
    b = bootstrap(matches, samples=30, seed=7)
    assert a.intervals == b.intervals
    covered = sum(lo - 10 <= TRUE[p] <= hi + 10 for p, (lo, hi) in a.intervals.items())
    assert covered >= 4
    assert a.intervals["random"] == (0.0, 0.0)
    for p, (lo, hi) in a.intervals.items():
        assert lo <= a.elo[p] + 1e-6 and a.elo[p] <= hi + 1e-6
    lo, hi = a.advantage_interval
    assert lo < 60 < hi + 20


def test_perfect_record_stays_finite_and_anchor_absent_centres() -> None:
    fit = fit_ratings([Match("x", "random", 1.0)] * 20 + [Match("random", "x", 0.0)] * 20)
    assert 300 < fit.elo["x"] < 2000
    centred = fit_ratings([Match("x", "y", 1.0)] * 30 + [Match("y", "x", 0.0)] * 10,
                          anchor=None)
    assert centred.anchor is None
    assert centred.elo["x"] == pytest.approx(-centred.elo["y"])


def test_no_advantage_fit_and_symmetry() -> None:
    matches = [Match("a", "b", 1.0), Match("b", "a", 1.0)] * 10
    fit = fit_ratings(matches, anchor="a")
    assert fit.elo["b"] == pytest.approx(0.0, abs=1)
    assert fit.advantage > 200  # the first player always won
    flat = fit_ratings(matches, anchor="a", advantage=False)
    assert flat.advantage == 0.0


def test_crosstable_and_first_player_score() -> None:
    matches = [Match("a", "b", 1.0), Match("b", "a", 0.5), Match("a", "c", 0.0)]
    table = crosstable(matches)
    assert table.rate("a", "b") == 0.75
    assert table.rate("b", "a") == 0.25
    assert table.rate("c", "a") == 1.0
    assert table.rate("b", "c") is None
    assert "a" in table.to_text()
    mean, n, (lo, hi) = first_player_score(matches)
    assert n == 3 and mean == pytest.approx(0.5) and lo < 0.5 < hi


def test_wilson_interval() -> None:
    lo, hi = wilson_interval(80, 100)
    assert lo == pytest.approx(0.7112, abs=1e-3) and hi == pytest.approx(0.8666, abs=1e-3)
    assert wilson_interval(0, 0) == (0.0, 1.0)
    lo, hi = wilson_interval(10, 10)
    assert hi == 1.0 and lo > 0.69
    assert not math.isnan(wilson_interval(0, 5)[0])


def test_bad_input() -> None:
    with pytest.raises(BadParameterError):
        Match("a", "b", 1.5)
    with pytest.raises(BadParameterError):
        fit_ratings([])
