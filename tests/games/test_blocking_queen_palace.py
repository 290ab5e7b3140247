"""Palace numbers of the blocking queen game: three methods agree, and the known facts hold."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lifearena.errors import BadParameterError
from lifearena.games.blocking_queen.palace import (
    in_hood,
    p_positions,
    palace_numbers,
    palace_rows,
)

PHI = (1 + math.sqrt(5)) / 2


@pytest.mark.parametrize("k", range(1, 11))
def test_dp_ca_and_direct_agree(k: int) -> None:
    direct = palace_numbers(k, 23, 19, method="direct")
    assert np.array_equal(palace_numbers(k, 23, 19, method="dp"), direct)
    assert np.array_equal(palace_numbers(k, 23, 19, method="ca"), direct)


@settings(max_examples=40, deadline=None)
@given(k=st.integers(1, 10), width=st.integers(0, 16), height=st.integers(0, 16))
def test_methods_agree_on_any_rectangle(k: int, width: int, height: int) -> None:
    direct = palace_numbers(k, width, height, method="direct")
    assert direct.shape == (height, width)
    assert np.array_equal(palace_numbers(k, width, height), direct)
    assert np.array_equal(palace_numbers(k, width, height, method="ca"), direct)


@pytest.mark.parametrize("k", [1, 4, 37])
def test_dp_and_ca_agree_on_a_larger_region(k: int) -> None:
    assert np.array_equal(palace_numbers(k, 150, 130), palace_numbers(k, 150, 130, "ca"))


def test_definition_holds_on_a_larger_region() -> None:
    """Each palace number counts the palaces north, west and north-west of the square."""
    k = 7
    n = palace_numbers(k, 60, 50)
    p = n < k
    for y, x in [(0, 0), (3, 41), (49, 59), (30, 12), (12, 30), (49, 0), (0, 59)]:
        diagonal = sum(p[y - t, x - t] for t in range(1, min(x, y) + 1))
        assert n[y, x] == p[:y, x].sum() + p[y, :x].sum() + diagonal


def test_int32_result_and_int16_counters_for_large_k() -> None:
    n = palace_numbers(12000, 5, 4)
    assert n.dtype == np.int32
    assert np.array_equal(n, palace_numbers(12000, 5, 4, method="direct"))


def test_rows_stream_the_same_numbers() -> None:
    whole = palace_numbers(5, 40, 25)
    rows = np.array(list(palace_rows(5, 40, 25)))
    assert np.array_equal(rows, whole)


@pytest.mark.parametrize(("k", "width"), [(1, 300), (2, 257), (50, 200), (300, 640)])
def test_sparse_and_scan_kernels_agree_on_wide_rows(k: int, width: int) -> None:
    """The default (sparse, chunked) kernel against the square-by-square scan kernel, on rows
    of many chunks, including chunks that hold several palaces and a short last chunk."""
    height = 180
    scanned = np.array(list(palace_rows(k, width, height)))
    assert np.array_equal(palace_numbers(k, width, height), scanned)


def test_board_is_symmetric() -> None:
    n = palace_numbers(13, 90, 90)
    assert np.array_equal(n, n.T)


def test_k1_gives_wythoff_pairs() -> None:
    limit = 3000
    expected = [(math.floor(m * PHI), math.floor(m * PHI * PHI)) for m in range(limit)]
    expected = [(a, b) for a, b in expected if b < limit]
    assert p_positions(1, limit) == expected


def test_k2_closed_form() -> None:
    """k = 2, upper P-positions (x <= y): (0, 0); (x, 2x + 1) for x >= 0; and
    (2 floor(m phi) + 2, 2 floor(m phi^2) + 2) for m >= 0, i.e. doubled Wythoff pairs
    shifted by (2, 2). Derived from the data (the first 10^6 squares and this test's range)
    and matching the shape of Larsson's theorem for k = 2 (Electron. J. Combin. 18, 2011):
    we did not have the paper's statement to copy, so this is our reading of the data.
    """
    limit = 4000
    expected = {(0, 0)}
    expected |= {(x, 2 * x + 1) for x in range(limit) if 2 * x + 1 < limit}
    for m in range(limit):
        a, b = 2 * math.floor(m * PHI) + 2, 2 * math.floor(m * PHI * PHI) + 2
        if b < limit:
            expected.add((a, b))
    assert p_positions(2, limit) == sorted(expected)


def test_k3_closed_form() -> None:
    """k = 3, upper P-positions (x <= y): (0, 0) and (x, 2x + 1), (x, 2x + 2) for x >= 0.
    Derived from the data; it agrees with Larsson's resolution of k = 3 (2011) as far as we
    could reconstruct it, but the statement here is checked only against computation.
    """
    limit = 4000
    expected = {(0, 0)}
    expected |= {(x, y) for x in range(limit) for y in (2 * x + 1, 2 * x + 2) if y < limit}
    assert p_positions(3, limit) == sorted(expected)


@pytest.mark.parametrize("k", [1, 2, 9, 100, 1000])
def test_hood_holds_every_palace_number_below_k(k: int) -> None:
    """In the hood (x + y + min(x, y) < k) every square is a palace and n equals the number
    of squares it sees, x + y + min(x, y); so the hood shows each of 0 .. k - 1."""
    size = k + 2
    n = palace_numbers(k, size, size)
    ys, xs = np.mgrid[0:size, 0:size]
    seen = xs + ys + np.minimum(xs, ys)
    hood = seen < k
    assert np.array_equal(hood, np.vectorize(lambda x, y: in_hood(k, x, y))(xs, ys))
    assert np.array_equal(n[hood], seen[hood])
    assert set(n[hood].tolist()) == set(range(k))
    # On the hood's rim every square sees exactly the k palaces of the hood: n = k.
    assert (n[seen == k] == k).all()


@pytest.mark.parametrize("k", [200, 500, 1000])
def test_epaulettes_are_periodic_with_proportions_5_3_3(k: int) -> None:
    """The epaulettes (Cook, Larsson and Neary 2016) flank the hood. The paper gives the
    periods (5, 1) and (-1, 2) for the epaulette below-left of the main diagonal, i.e. on the
    side y > x with y growing downward; there n - k takes the values -1, 0, +1 in the
    proportions 5 : 3 : 3.

    Where it is: we located it from the data, as the region just outside the hood's edge
    2x + y = k between the y axis and the diagonal (for k = 1000 it spans about
    0 < x < 0.69k, 0.34k < y < 1.29k). We test a core patch around (0.2k, 0.8k), well inside
    for every k tried (100 .. 1000), and its mirror image above the diagonal.
    """
    n = palace_numbers(k, int(1.4 * k), int(1.4 * k)).astype(np.int64)
    s = n - k
    x0, y0, r = int(0.15 * k), int(0.75 * k), int(0.1 * k)
    patch = s[y0:y0 + r, x0:x0 + r]
    assert set(np.unique(patch).tolist()) == {-1, 0, 1}
    # period (5, 1): s(x + 5, y + 1) == s(x, y); period (-1, 2): s(x - 1, y + 2) == s(x, y)
    assert np.array_equal(s[y0 + 1:y0 + r + 1, x0 + 5:x0 + r + 5], patch)
    assert np.array_equal(s[y0 + 2:y0 + r + 2, x0 - 1:x0 + r - 1], patch)
    # The periods span a lattice of index 11 containing (11, 0), so any 11 consecutive squares
    # of a row are one full period: exactly five -1, three 0 and three +1.
    for dy in range(r):
        for dx in range(0, r - 11, 5):
            window = patch[dy, dx:dx + 11]
            assert [(window == v).sum() for v in (-1, 0, 1)] == [5, 3, 3]
    # The other epaulette is its mirror image across the diagonal.
    mirror = s[x0:x0 + r, y0:y0 + r]
    assert np.array_equal(mirror, patch.T)
    # And the periodic patch is not a constant region: it lies outside the hood.
    assert not in_hood(k, x0, y0)


def test_p_positions_lists_only_upper_palaces() -> None:
    k = 6
    n = palace_numbers(k, 80, 80)
    listed = p_positions(k, 80)
    assert listed == sorted(listed)
    assert all(x <= y < 80 and n[y, x] < k for x, y in listed)
    assert len(listed) == int(np.triu(n < k).sum())


def test_p_positions_streams_rows_instead_of_the_whole_table() -> None:
    import tracemalloc

    p_positions(2, 10)  # compile the kernels outside the measurement
    tracemalloc.start()
    try:
        listed = p_positions(2, 3000)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    # the 3000 x 3000 table alone took 18 MB (int16) plus 36 MB (int32)
    assert peak < 4_000_000, peak
    assert listed[:4] == [(0, 0), (0, 1), (1, 3), (2, 2)]


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: palace_numbers(0, 3, 3), "k=0"),
        (lambda: palace_numbers(2, -1, 3), "width=-1"),
        (lambda: palace_numbers(2, 3, 3, method="fast"), "method='fast'"),  # type: ignore[arg-type]
        (lambda: p_positions(True, 3), "k=True"),
        (lambda: p_positions(2, 2.5), "limit=2.5"),  # type: ignore[arg-type]
    ],
)
def test_bad_parameters_are_named(call, message: str) -> None:
    with pytest.raises(BadParameterError, match=message.replace("(", r"\(")):
        call()
