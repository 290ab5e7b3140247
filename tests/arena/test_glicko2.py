"""Glicko-2 (:mod:`lifearena.arena.glicko2`): Glickman's worked example, and properties any
rating update must have, checked over many players with hypothesis."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from lifearena.arena.glicko2 import (
    LICHESS,
    SCALE,
    Rating,
    Settings,
    after_time_away,
    rate_game,
    update,
)

PAPER = Settings(tau=0.5, min_deviation=0.0, max_deviation=350.0)
"""The settings of Glickman's example (no bounds on the deviation but the paper's 350)."""

ratings = st.builds(Rating, st.floats(600, 2800), st.floats(45, 500), st.floats(0.03, 0.12))


def test_glickmans_worked_example() -> None:
    """'Example of the Glicko-2 system' (Glickman, 2012), steps 1 to 8."""
    player = Rating(1500, 200, 0.06)
    after = update(player, [(Rating(1400, 30), 1), (Rating(1550, 100), 0),
                            (Rating(1700, 300), 0)], PAPER)
    assert (after.rating - 1500) / SCALE == pytest.approx(-0.2069, abs=5e-5)
    assert after.deviation / SCALE == pytest.approx(0.8722, abs=5e-5)
    assert after.rating == pytest.approx(1464.06, abs=0.01)
    assert after.deviation == pytest.approx(151.52, abs=0.005)
    assert after.volatility == pytest.approx(0.05999, abs=1e-5)


def test_lichess_settings() -> None:
    new = Rating.new()
    assert (new.rating, new.deviation, new.volatility) == (1500, 500, 0.09)
    assert LICHESS.tau == 0.75 and (LICHESS.min_deviation, LICHESS.max_deviation) == (45, 500)
    assert new.shown() == "1500?" and Rating(1500, 109.9).shown() == "1500"
    assert Rating(1500, 110).provisional() and not Rating(1500, 109.9).provisional()


@given(ratings, ratings)
def test_a_win_never_lowers_a_rating_nor_a_loss_raises_one(me: Rating, them: Rating) -> None:
    assert update(me, [(them, 1)]).rating >= me.rating
    assert update(me, [(them, 0)]).rating <= me.rating


@given(ratings, ratings)
def test_players_alike_get_mirrored_results(me: Rating, them: Rating) -> None:
    """Swap who won and who is who: each side's new rating is the other's mirror."""
    a, b = rate_game(me, them, 1)
    c, d = rate_game(them, me, 0)
    assert (a, b) == (d, c)
    equal = Rating(me.rating, me.deviation, me.volatility)
    winner, loser = rate_game(me, equal, 1)
    assert winner.rating - me.rating == pytest.approx(me.rating - loser.rating, rel=1e-9)
    assert winner.deviation == pytest.approx(loser.deviation, rel=1e-9)
    drawn, _ = rate_game(me, equal, 0.5)
    assert drawn.rating == pytest.approx(me.rating, abs=1e-9)


@given(ratings, ratings, st.sampled_from([0, 0.5, 1]))
def test_the_deviation_stays_within_its_bounds(me: Rating, them: Rating,
                                               score: float) -> None:
    after = update(me, [(them, score)])
    assert LICHESS.min_deviation <= after.deviation <= LICHESS.max_deviation


def test_a_first_game_makes_a_new_rating_surer() -> None:
    after, _ = rate_game(Rating.new(), Rating.new(), 1)
    assert after.deviation < 500 and after.rating > 1500


@given(ratings, st.floats(0, 3650))
def test_time_away_grows_the_deviation_up_to_its_bound(me: Rating, days: float) -> None:
    away = after_time_away(me, days)
    assert me.deviation - 1e-9 <= away.deviation <= max(me.deviation, LICHESS.max_deviation)
    assert away.rating == me.rating
    assert after_time_away(me, days + 30).deviation >= away.deviation


def test_bad_values_are_refused_by_name() -> None:
    with pytest.raises(ValueError, match="score 2"):
        update(Rating(), [(Rating(), 2)])
    with pytest.raises(ValueError, match="deviation"):
        Rating(1500, -1)
    with pytest.raises(ValueError, match="rating nan"):
        Rating(float("nan"))
    with pytest.raises(ValueError, match="days -1"):
        after_time_away(Rating(), -1)
