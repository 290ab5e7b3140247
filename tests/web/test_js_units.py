"""The game page's pure JavaScript modules under node's own test runner (tests/js/*.test.mjs),
the server views those tests read (kept equal to what the server sends now), and the rule
that the page's modules never name a game.

Without node the runner's test skips, unless ``LIFEARENA_REQUIRE_BROWSER=1`` (as in CI),
where a missing node fails it.
"""

from __future__ import annotations

import importlib.util
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
JS_TESTS = ROOT / "tests" / "js"
MODULES = ROOT / "src" / "lifearena" / "web" / "static" / "js"
GAME_NAMES = ("war_of_life", "life_for_two", "losat", "p2life", "blocking_queen")


def test_the_js_unit_tests_pass_under_node() -> None:
    node = shutil.which("node")
    if node is None:
        if os.environ.get("LIFEARENA_REQUIRE_BROWSER") == "1":
            pytest.fail("the JavaScript unit tests are required but node is not installed")
        pytest.skip("node is not installed")
    tests = sorted(str(path) for path in JS_TESTS.glob("*.test.mjs"))
    assert tests, "no tests/js/*.test.mjs found"
    done = subprocess.run([node, "--test", *tests], cwd=ROOT, capture_output=True, text=True,
                          timeout=120, check=False)
    assert done.returncode == 0, done.stdout[-6000:] + done.stderr[-2000:]
    assert re.search(r"^# fail 0$", done.stdout, re.MULTILINE), done.stdout[-2000:]
    passed = re.search(r"^# pass (\d+)$", done.stdout, re.MULTILINE)
    assert passed and int(passed.group(1)) >= 20, done.stdout[-2000:]


def test_the_captured_views_are_what_the_server_sends_now() -> None:
    """tests/js/fixtures/views.json is rewritten by tests/js/make_fixtures.py; a change to
    what a view holds fails here until the fixtures are written again."""
    spec = importlib.util.spec_from_file_location("make_fixtures", JS_TESTS / "make_fixtures.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    stored = (JS_TESTS / "fixtures" / "views.json").read_text()
    assert module.render() == stored, "run: python tests/js/make_fixtures.py"


def test_no_page_module_names_a_game() -> None:
    """The board is driven by the server's view: the modules under static/js never compare
    or mention a game's name."""
    found = []
    for path in sorted(MODULES.rglob("*.js")):
        text = path.read_text()
        for name in GAME_NAMES:
            if re.search(rf"\b{name}\b", text):
                found.append(f"{path.relative_to(MODULES)}: {name}")
    assert sorted(MODULES.rglob("*.js")), "no modules found"
    assert found == []
