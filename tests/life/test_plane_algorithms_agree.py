"""The plane's two algorithms give the same plane: HashLife equals the tiles, cell for cell and
place for place, for random small patterns, random deterministic rules and random run
lengths (each is also held to the reference step in its own tests)."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from lifearena.life.hashlife import HashLife
from lifearena.life.plane import TilePlane
from lifearena.life.rules import Rule

life_like_rules = st.builds(
    lambda births, survivals: Rule.life_like(
        "B" + "".join(map(str, sorted(births))) + "/S" + "".join(map(str, sorted(survivals)))),
    st.sets(st.integers(1, 8)), st.sets(st.integers(0, 8)))
rules = st.one_of(life_like_rules, st.just(Rule.named("immigration")),
                  st.just(Rule.named("p2life-no-coin")))
patterns = arrays(np.int8, st.tuples(st.integers(1, 12), st.integers(1, 12)),
                  elements=st.sampled_from([0, 0, 1, 2]))


@settings(max_examples=40, deadline=None)
@given(patterns, rules, st.integers(-300, 300), st.integers(-300, 300), st.integers(0, 90))
def test_hashlife_equals_the_tiles(cells: np.ndarray, rule: Rule, x: int, y: int,
                                   generations: int) -> None:
    tiles, tree = TilePlane(rule), HashLife(rule)
    for plane in (tiles, tree):
        plane.add(cells, x, y)
        plane.step(generations)
    assert tiles.generation == tree.generation == generations
    assert tiles.population() == tree.population()
    box = tiles.bounding_box()
    assert box == tree.bounding_box()
    if box is not None:
        assert np.array_equal(tiles.cells(box), tree.cells(box))
