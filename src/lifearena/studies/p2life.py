"""Mean-field theory of p2life and of every other two-colour rule: the one-step density.

Start from the random configuration of the p2life paper (Levene and Roussos, "A two-player
game of life", Int. J. Mod. Phys. C 14(2), 2003): every cell is live with probability ``p``,
independently, and a live cell gets its colour from a *colour model*:

* ``colours=2`` (the paper's p2life soup, the default): colour 1 or 2 with probability 1/2
  each, so a cell is empty with probability ``1 - p`` and of each colour with ``p / 2``;
* ``colours=1`` (the paper's Life calibration, one colour of density ``p``): every live cell is
  colour 1.

The density after one generation is then the probability that a cell is live after one step,

    rho(p) = sum over state s, n1, n2 of  P(s) * 8! / (n1! n2! n0!) * q1^n1 q2^n2 (1-p)^n0
             * [table[s, n1, n2] != 0],        n0 = 8 - n1 - n2,

where ``q1``/``q2`` are the probabilities of a neighbour of colour 1/2. A coin entry gives a
live cell of one colour or the other, so it counts as live. Expanding the powers of ``1 - p``
gives a polynomial of degree at most 9 (the cell and its eight neighbours) with rational
coefficients, computed exactly with :class:`fractions.Fraction`.

For colour-blind rules (Life, Immigration and every ``B.../S...``) the colour model makes no
difference; for p2life it does (with one colour p2life is just Life, since ``b`` is always 0).

>>> rho = mean_field("life")
>>> rho(Fraction(1, 2))
Fraction(35, 128)
>>> rho(1), mean_field("p2life")(1)
(Fraction(0, 1), Fraction(7, 32))
>>> [round(x, 4) for x in rho.maximum()]
[0.364, 0.3704]
"""

from __future__ import annotations

import itertools
from fractions import Fraction
from math import comb, factorial

import numpy as np

from lifearena.errors import BadParameterError
from lifearena.life.grid import random_grid
from lifearena.life.rules import Rule, as_rule
from lifearena.life.step import step

DEGREE = 9
"""A cell and its eight neighbours: the one-step density is a polynomial of degree <= 9."""

Number = int | float | Fraction


class DensityPolynomial(tuple):
    """Exact coefficients ``c0, c1, ..., c9`` (of ``p^0 .. p^9``) of a density polynomial.

    It is a tuple of :class:`~fractions.Fraction` (so it compares equal to one) with a few
    helpers: call it to evaluate (exactly for ints and Fractions), :meth:`maximum` on
    ``[0, 1]``, :meth:`fixed_points` and a readable ``str``.

    >>> poly = DensityPolynomial([0, 2, -1])
    >>> poly(Fraction(1, 2)), str(poly)
    (Fraction(3, 4), '2 p - p^2')
    """

    def __new__(cls, coefficients: object) -> DensityPolynomial:
        return super().__new__(cls, (Fraction(c) for c in coefficients))  # type: ignore[arg-type]

    def __call__(self, p: Number) -> Fraction | float:
        """The value at ``p`` (Horner's scheme; exact unless ``p`` is a float)."""
        value: Fraction | float = Fraction(0)
        for coefficient in reversed(self):
            value = value * p + (coefficient if not isinstance(p, float) else float(coefficient))
        return value

    def derivative(self) -> DensityPolynomial:
        """The derivative, exactly.

        >>> DensityPolynomial([1, 2, 3]).derivative()
        (Fraction(2, 1), Fraction(6, 1))
        """
        return DensityPolynomial(k * c for k, c in enumerate(self) if k) or DensityPolynomial([0])

    def roots_in_unit_interval(self) -> list[float]:
        """The real roots in ``[0, 1]``, sorted (numeric, polished by bisection)."""
        coefficients = [float(c) for c in self]
        while coefficients and coefficients[-1] == 0:
            coefficients.pop()
        if len(coefficients) <= 1:
            return []
        candidates = np.roots(coefficients[::-1])
        found: list[float] = []
        for root in candidates:
            if abs(root.imag) > 1e-7 or not -1e-9 <= root.real <= 1 + 1e-9:
                continue
            found.append(self._polish(min(max(float(root.real), 0.0), 1.0)))
        found.sort()
        unique: list[float] = []
        for root in found:
            if not unique or root - unique[-1] > 1e-9:
                unique.append(root)
        return unique

    def _polish(self, x: float) -> float:
        # Newton steps in exact-coefficient floating point: numpy.roots loses a few digits
        # on clustered roots (such as the triple root of Life at p = 0).
        slope = self.derivative()
        for _ in range(20):
            d = float(slope(float(x)))
            if d == 0:
                break
            nxt = x - float(self(float(x))) / d
            if not 0.0 <= nxt <= 1.0 or abs(nxt - x) < 1e-15:
                break
            x = nxt
        return x

    def maximum(self) -> tuple[float, float]:
        """``(p, value)`` of the largest value on ``[0, 1]`` (ends included).

        >>> DensityPolynomial([0, 1, -1]).maximum()
        (0.5, 0.25)
        """
        points = [0.0, 1.0, *self.derivative().roots_in_unit_interval()]
        best = max(points, key=lambda x: float(self(float(x))))
        return float(best), float(self(float(best)))

    def fixed_points(self) -> list[float]:
        """The ``p`` in ``[0, 1]`` with ``rho(p) = p`` (0 is one for every rule without
        births from nothing).

        >>> [round(x, 6) for x in DensityPolynomial([0, 2, -1]).fixed_points()]
        [0.0, 1.0]
        """
        shifted = list(self) + [Fraction(0)] * max(0, 2 - len(self))
        shifted[1] -= 1
        return DensityPolynomial(shifted).roots_in_unit_interval()

    def __str__(self) -> str:
        terms = []
        for power, c in enumerate(self):
            if c == 0:
                continue
            magnitude = abs(c)
            head = "" if magnitude == 1 and power else str(magnitude)
            var = "" if power == 0 else ("p" if power == 1 else f"p^{power}")
            body = " ".join(filter(None, (head, var)))
            sign = "-" if c < 0 else "+"
            terms.append((sign, body))
        if not terms:
            return "0"
        first_sign, first = terms[0]
        text = ("-" if first_sign == "-" else "") + first
        return text + "".join(f" {sign} {body}" for sign, body in terms[1:])


def _colour_probabilities(colours: int) -> tuple[Fraction, Fraction]:
    if colours == 2:
        return Fraction(1, 2), Fraction(1, 2)
    if colours == 1:
        return Fraction(1), Fraction(0)
    raise BadParameterError(f"colours {colours} is not allowed; expected 1 or 2")


def _poly_mul(a: list[Fraction], b: list[Fraction]) -> list[Fraction]:
    out = [Fraction(0)] * (len(a) + len(b) - 1)
    for i, x in enumerate(a):
        if x:
            for j, y in enumerate(b):
                out[i + j] += x * y
    return out


def _poly_pow(base: list[Fraction], exponent: int) -> list[Fraction]:
    out = [Fraction(1)]
    for _ in range(exponent):
        out = _poly_mul(out, base)
    return out


def mean_field(rule: Rule | str, *, colours: int = 2) -> DensityPolynomial:
    """The one-step density polynomial of ``rule`` as exact coefficients of ``p^0 .. p^9``.

    ``colours`` is the colour model of the random start (see the module docstring): 2 for
    the p2life soup (each live cell of either colour with probability 1/2), 1 for one colour
    of density ``p`` (the paper's Life calibration).

    >>> poly = mean_field("p2life")
    >>> len(poly), poly[0], poly[3]
    (10, Fraction(0, 1), Fraction(21, 1))
    """
    table = as_rule(rule).table
    share1, share2 = _colour_probabilities(colours)
    one_minus_p = [Fraction(1), Fraction(-1)]
    # P(cell state) as polynomials in p: empty 1 - p, colour c with p * share_c.
    state_weight = [one_minus_p, [Fraction(0), share1], [Fraction(0), share2]]
    total = [Fraction(0)] * (DEGREE + 1)
    for n1 in range(9):
        for n2 in range(9 - n1):
            n0 = 8 - n1 - n2
            live_states = [s for s in range(3) if table[s, n1, n2] != 0]
            if not live_states:
                continue
            multinomial = factorial(8) // (factorial(n1) * factorial(n2) * factorial(n0))
            coefficient = multinomial * share1**n1 * share2**n2
            if coefficient == 0:
                continue
            # q1^n1 q2^n2 (1-p)^n0 = coefficient * p^(n1+n2) * (1-p)^n0
            neighbours = [Fraction(0)] * (n1 + n2) + [
                coefficient * comb(n0, k) * (-1) ** k for k in range(n0 + 1)
            ]
            cell = [Fraction(0)] * 2
            for s in live_states:
                cell = [a + b for a, b in itertools.zip_longest(cell, state_weight[s],
                                                                 fillvalue=Fraction(0))]
            for power, value in enumerate(_poly_mul(neighbours, cell)):
                total[power] += value
    return DensityPolynomial(total)


def brute_force_density(rule: Rule | str, p: Number, *, colours: int = 2) -> Fraction:
    """The one-step density at ``p`` by summing over all ``3^9`` neighbourhoods (a check on
    :func:`mean_field`, independent of its algebra; exact for Fraction ``p``).

    >>> brute_force_density("life", Fraction(1, 2)) == mean_field("life")(Fraction(1, 2))
    True
    """
    table = as_rule(rule).table
    share1, share2 = _colour_probabilities(colours)
    p = Fraction(p)
    weight = (1 - p, p * share1, p * share2)
    total = Fraction(0)
    for cells in itertools.product(range(3), repeat=9):
        w = Fraction(1)
        for value in cells:
            w *= weight[value]
            if w == 0:
                break
        if w == 0:
            continue
        neighbours = cells[:4] + cells[5:]
        if table[cells[4], neighbours.count(1), neighbours.count(2)] != 0:
            total += w
    return total


def simulated_one_step_density(
    rule: Rule | str,
    p: float,
    *,
    size: int = 512,
    seed: int = 0,
    colours: int = 2,
) -> float:
    """The density after one generation of a random ``size x size`` torus of density ``p``.

    Its expectation is exactly ``mean_field(rule, colours=colours)(p)`` (on a torus every
    cell sees the i.i.d. start); its standard deviation is below ``0.5 / size * 3``.

    >>> abs(simulated_one_step_density("life", 0.5, size=256) - 35 / 128) < 0.01
    True
    """
    cells = random_grid(size, size, density=p, seed=seed, colours=colours)
    after = step(cells, rule, torus=True, seed=seed, generation=0)
    return float(np.count_nonzero(after)) / after.size


def describe(rule: Rule | str, *, colours: int = 2) -> dict[str, object]:
    """A summary of the mean field of ``rule``: polynomial, maximum, fixed points, rho(1).

    >>> describe("p2life")["value_at_1"]
    0.21875
    """
    poly = mean_field(rule, colours=colours)
    p_max, rho_max = poly.maximum()
    return {
        "rule": str(as_rule(rule)),
        "colours": colours,
        "coefficients": [str(c) for c in poly],
        "polynomial": str(poly),
        "argmax": p_max,
        "max": rho_max,
        "fixed_points": poly.fixed_points(),
        "value_at_1": float(poly(1)),
    }
