"""The sandbox's JavaScript step (static/lab/lifestep.js) against the engine, run in node.

Same grids, rules, topologies, seeds and generations on both sides; coins included, so the
page's SplitMix64 port is checked against :mod:`lifearena.life.coin` cell for cell.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lifearena.life import Rule, coin_colour, evolve, random_grid
from lifearena.web.lab.sandbox import rule_json

SCRIPT = Path(__file__).parents[3] / "src/lifearena/web/static/lab/lifestep.js"
RULES = ["life", "immigration", "p2life", "p2life-birth-below-3", "p2life-loose-survival",
         "B36/S23"]
DRIVER = """
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
const L = await import(pathToFileURL(process.argv[1]).href);
const cases = JSON.parse(readFileSync(0, "utf8"));
const out = cases.map(c => {
  if (c.coins) return c.coins.map(([s, g, i]) => L.coinColour(L.coinStart(s, g), i));
  const grid = L.evolve(Uint8Array.from(c.cells), c.h, c.w, Uint8Array.from(c.table),
                        c.torus, c.seed, c.generation, c.steps);
  return Array.from(grid);
});
process.stdout.write(JSON.stringify(out));
"""


def _node(cases: list[dict]) -> list:
    node = shutil.which("node")
    if node is None:
        if os.environ.get("LIFEARENA_REQUIRE_BROWSER") == "1":
            pytest.fail("the JS tests are required but node is not installed")
        pytest.skip("node is not installed (apt-get install nodejs)")
    done = subprocess.run([node, "--input-type=module", "-e", DRIVER, str(SCRIPT)],
                          input=json.dumps(cases), capture_output=True, text=True, timeout=60,
                          check=True)
    return json.loads(done.stdout)


def test_the_coin_matches_the_engine_for_large_and_negative_seeds() -> None:
    triples = [(0, 0, 0), (0, 0, 1), (7, 3, 12), (2**63 + 5, 10**6, 65535), (-1, 17, 300),
               (123456789, 0, 4095)]
    # seeds travel as decimal strings, as the page keeps them: JSON numbers round above 2^53
    (colours,) = _node([{"coins": [[str(s), g, i] for s, g, i in triples]}])
    assert colours == [coin_colour(*t) for t in triples]


def test_the_js_step_equals_the_engine_on_random_soups() -> None:
    cases, expected = [], []
    rng = np.random.default_rng(5)
    for number, name in enumerate(RULES * 2):
        h, w = int(rng.integers(3, 24)), int(rng.integers(3, 24))
        torus = number % 2 == 0
        seed, generation, steps = int(rng.integers(0, 2**40)), int(rng.integers(0, 50)), 6
        cells = random_grid(h, w, density=0.45, seed=number)
        rule = Rule.named(name)
        cases.append({"cells": cells.ravel().tolist(), "h": h, "w": w, "torus": torus,
                      "table": rule_json(rule)["table"], "seed": str(seed),
                      "generation": generation, "steps": steps})
        want = evolve(cells, rule, steps, torus=torus, seed=seed, generation=generation,
                      kernel="reference")
        expected.append(want.ravel().tolist())
    got = _node(cases)
    for case, rule, mine, theirs in zip(cases, RULES * 2, got, expected, strict=True):
        assert mine == theirs, f"{rule} {case['h']}x{case['w']} torus={case['torus']}"


def test_p2life_coins_are_exercised() -> None:
    # a 3-vs-3 birth in the middle: the coin decides, and both sides decide alike
    cells = np.zeros((7, 7), dtype=np.int8)
    cells[2, 2:5] = 1
    cells[4, 2:5] = 2
    rule = Rule.named("p2life")
    for seed in range(6):
        (mine,) = _node([{"cells": cells.ravel().tolist(), "h": 7, "w": 7, "torus": False,
                          "table": rule_json(rule)["table"], "seed": str(seed), "generation": 0,
                          "steps": 1}])
        want = evolve(cells, rule, 1, seed=seed, kernel="reference")
        assert want[3, 3] == coin_colour(seed, 0, 3 * 7 + 3)
        assert mine == want.ravel().tolist()


@settings(max_examples=20, deadline=None)
@given(rule=st.sampled_from([*RULES, "p2life-no-coin", "p2life-unbounded-survival"]),
       height=st.integers(1, 12), width=st.integers(1, 12), torus=st.booleans(),
       seed=st.integers(0, 2**64 - 1), generation=st.integers(0, 10**6),
       density=st.floats(0.1, 0.9), soup=st.integers(0, 1000))
def test_the_js_step_equals_the_reference_step(rule: str, height: int, width: int,
                                               torus: bool, seed: int, generation: int,
                                               density: float, soup: int) -> None:
    cells = random_grid(height, width, density=density, seed=soup)
    table = rule_json(Rule.named(rule))["table"]
    (mine,) = _node([{"cells": cells.ravel().tolist(), "h": height, "w": width,
                      "torus": torus, "table": table, "seed": str(seed),
                      "generation": generation, "steps": 2}])
    want = evolve(cells, rule, 2, torus=torus, seed=seed, generation=generation,
                  kernel="reference")
    assert mine == want.ravel().tolist()
