"""Glicko-2 ratings: a rating, its deviation and its volatility, updated after games.

The algorithm is Glickman's, step by step as in "Example of the Glicko-2 system" (Mark E.
Glickman, Boston University, 2012; glicko.net/glicko/glicko2.pdf), with the volatility found
by the Illinois algorithm of its step 5.1. :class:`Settings` holds the system's constants;
:data:`LICHESS` are the settings lichess plays with (start 1500, deviation 500, volatility
0.09, tau 0.75; the deviation kept between 45 and 500, provisional while it is 110 or
more, and growing with time away at 0.21436 rating periods a day), which the site's rated
games are rated with (:mod:`lifearena.web.rated`). A rating is updated game by game (each
game its own rating period, as lichess does), after the deviation has grown for the time
since the player's last rated game.

The worked example of Glickman's paper (tau 0.5): a 1500/200/0.06 player beats a 1400/30
player and loses to 1550/100 and 1700/300 players in one rating period. The paper gives
mu' = -0.2069 and phi' = 0.8722 on Glicko-2's scale, hence 1464.06 / 151.52, and a
volatility of 0.05999 (it converts from the rounded mu', so the rating it prints is within
0.01 of the exact one):

>>> paper = Settings(tau=0.5, min_deviation=0.0, max_deviation=350.0)
>>> after = update(Rating(1500, 200, 0.06), [(Rating(1400, 30), 1.0),
...     (Rating(1550, 100), 0.0), (Rating(1700, 300), 0.0)], paper)
>>> round((after.rating - 1500) / SCALE, 4), round(after.deviation / SCALE, 4)
(-0.2069, 0.8722)
>>> [abs(after.rating - 1464.06) < 0.01, abs(after.deviation - 151.52) < 0.01,
...  abs(after.volatility - 0.05999) < 1e-5]
[True, True, True]
>>> Rating(1523.4, 140).shown(LICHESS), Rating(1523.6, 80).shown(LICHESS)
('1523?', '1524')
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass, replace

SCALE = 173.7178
"""Glicko-2's scale: ratings and deviations are divided by it (step 2 of the paper)."""
CENTER = 1500.0
"""The rating Glicko-2's scale is centred on (step 2 of the paper)."""
EPSILON = 1e-6
"""The convergence tolerance of the volatility's iteration (step 5 of the paper)."""


@dataclass(frozen=True)
class Settings:
    """The constants of a Glicko-2 system."""

    rating: float = 1500.0
    """A new player's rating."""
    deviation: float = 500.0
    """A new player's rating deviation."""
    volatility: float = 0.09
    """A new player's volatility."""
    tau: float = 0.75
    """How much the volatility may change (the paper suggests 0.3 to 1.2)."""
    min_deviation: float = 45.0
    """The smallest deviation a rating keeps, however many games."""
    max_deviation: float = 500.0
    """The largest deviation, however long the time away."""
    provisional: float = 110.0
    """A rating whose deviation is at least this is provisional (shown with a ``?``)."""
    periods_per_day: float = 0.21436
    """Rating periods a day of time away counts as, for the deviation's growth."""


LICHESS = Settings()
"""lichess's settings (the defaults of :class:`Settings`)."""


@dataclass(frozen=True)
class Rating:
    """A player's rating, deviation and volatility (Glicko-1's scale, as people read it).

    >>> Rating(1500, 500).interval()
    (500.0, 2500.0)
    """

    rating: float = LICHESS.rating
    deviation: float = LICHESS.deviation
    volatility: float = LICHESS.volatility

    def __post_init__(self) -> None:
        for name in ("rating", "deviation", "volatility"):
            value = getattr(self, name)
            if not (isinstance(value, int | float) and math.isfinite(value)):
                raise ValueError(f"{name} {value!r}; expected a finite number")
        if self.deviation < 0 or self.volatility <= 0:
            raise ValueError(f"deviation {self.deviation!r} and volatility "
                             f"{self.volatility!r}; expected deviation >= 0, volatility > 0")

    @classmethod
    def new(cls, settings: Settings = LICHESS) -> Rating:
        """A new player's rating under ``settings``."""
        return cls(settings.rating, settings.deviation, settings.volatility)

    def provisional(self, settings: Settings = LICHESS) -> bool:
        """Whether the rating is still provisional (its deviation is large)."""
        return self.deviation >= settings.provisional

    def shown(self, settings: Settings = LICHESS) -> str:
        """The rating as people read it: rounded, with ``?`` while provisional."""
        return f"{round(self.rating)}{'?' if self.provisional(settings) else ''}"

    def interval(self) -> tuple[float, float]:
        """The 95% interval of the player's strength (two deviations each side)."""
        return (float(self.rating - 2 * self.deviation),
                float(self.rating + 2 * self.deviation))


def _g(phi: float) -> float:
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / (math.pi * math.pi))


def _expected(mu: float, mu_j: float, phi_j: float) -> float:
    return 1.0 / (1.0 + math.exp(-_g(phi_j) * (mu - mu_j)))


def _new_volatility(phi: float, sigma: float, delta: float, v: float, tau: float) -> float:
    """Step 5 of the paper: the new volatility, by the Illinois algorithm."""
    a = math.log(sigma * sigma)

    def f(x: float) -> float:
        ex = math.exp(x)
        return (ex * (delta * delta - phi * phi - v - ex)
                / (2.0 * (phi * phi + v + ex) ** 2)) - (x - a) / (tau * tau)

    big_a = a
    if delta * delta > phi * phi + v:
        big_b = math.log(delta * delta - phi * phi - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        big_b = a - k * tau
    f_a, f_b = f(big_a), f(big_b)
    while abs(big_b - big_a) > EPSILON:
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a /= 2.0
        big_b, f_b = big_c, f_c
    return math.exp(big_a / 2.0)


def after_time_away(rating: Rating, days: float, settings: Settings = LICHESS) -> Rating:
    """The rating after ``days`` without a rated game: its deviation grows with its
    volatility (step 6 of the paper, for that many rating periods), up to the largest.

    >>> after_time_away(Rating(1500, 50, 0.06), 365).deviation > 50
    True
    >>> after_time_away(Rating(1500, 499, 0.09), 3650).deviation
    500.0
    """
    if days < 0 or not math.isfinite(days):
        raise ValueError(f"days {days!r}; expected a finite number >= 0")
    phi = rating.deviation / SCALE
    periods = days * settings.periods_per_day
    grown = math.sqrt(phi * phi + periods * rating.volatility ** 2) * SCALE
    return replace(rating, deviation=min(max(grown, rating.deviation), settings.max_deviation))


def update(rating: Rating, games: Iterable[tuple[Rating, float]],
           settings: Settings = LICHESS) -> Rating:
    """The rating after one rating period of ``games``: each an opponent's rating (before
    the period) and the score against it (1 a win, 0.5 a draw, 0 a loss). With no games the
    deviation grows by one period's volatility. The deviation is kept within the settings'
    bounds.

    >>> before = Rating(1500, 200, 0.06)
    >>> update(before, [(Rating(1500, 200, 0.06), 1.0)]).rating > 1500
    True
    >>> update(before, []).deviation > 200
    True
    """
    played = list(games)
    for _, score in played:
        if score not in (0, 0.5, 1):
            raise ValueError(f"score {score!r}; expected 1 (a win), 0.5 (a draw) or 0")
    mu = (rating.rating - CENTER) / SCALE
    phi = rating.deviation / SCALE
    sigma = rating.volatility
    if not played:
        phi_star = math.sqrt(phi * phi + sigma * sigma)
        return replace(rating, deviation=_bounded(phi_star * SCALE, settings))
    sum_v = 0.0
    sum_delta = 0.0
    for opponent, score in played:
        mu_j = (opponent.rating - CENTER) / SCALE
        phi_j = opponent.deviation / SCALE
        g_j = _g(phi_j)
        e_j = _expected(mu, mu_j, phi_j)
        sum_v += g_j * g_j * e_j * (1.0 - e_j)
        sum_delta += g_j * (score - e_j)
    v = 1.0 / sum_v
    delta = v * sum_delta
    sigma_new = _new_volatility(phi, sigma, delta, v, settings.tau)
    phi_star = math.sqrt(phi * phi + sigma_new * sigma_new)
    phi_new = 1.0 / math.sqrt(1.0 / (phi_star * phi_star) + 1.0 / v)
    mu_new = mu + phi_new * phi_new * sum_delta
    return Rating(mu_new * SCALE + CENTER, _bounded(phi_new * SCALE, settings),
                  sigma_new)


def rate_game(first: Rating, second: Rating, score: float,
              settings: Settings = LICHESS) -> tuple[Rating, Rating]:
    """Both players' ratings after one game in which ``first`` scored ``score`` against
    ``second`` (each updated from the other's rating before the game).

    >>> a, b = rate_game(Rating(), Rating(), 1.0)
    >>> round(a.rating - 1500, 6) == round(1500 - b.rating, 6) and a.rating > 1500
    True
    """
    return (update(first, [(second, score)], settings),
            update(second, [(first, 1.0 - score)], settings))


def _bounded(deviation: float, settings: Settings) -> float:
    return min(max(deviation, settings.min_deviation), settings.max_deviation)
