"""The computer levels' first ratings: the committed ``computer_ratings.json`` covers the
site's catalog, keeps the ladder's anchor and bounds, and ``scripts/estimate_computer_ratings.py``
(which makes it) runs end to end on a tiny setting."""

from __future__ import annotations

import doctest
import importlib.util
import json
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

from lifearena.web import rated
from lifearena.web.catalog import CATALOG, GAMES

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "scripts" / "estimate_computer_ratings.py"


def _script() -> ModuleType:
    """The script as a module (it is no package's module: loaded from its path)."""
    spec = importlib.util.spec_from_file_location("estimate_computer_ratings", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses and typer look the module up by name
    spec.loader.exec_module(module)
    return module


SCRIPT_MODULE = _script()
ANCHOR = SCRIPT_MODULE.ANCHOR_RATING
LOW, HIGH = SCRIPT_MODULE.MIN_DEVIATION, SCRIPT_MODULE.MAX_DEVIATION


def _committed() -> dict[str, dict[str, dict[str, float]]]:
    return rated.read_estimates(rated.COMPUTER_RATINGS.read_text())


def test_the_script_doctests_pass() -> None:
    """Its examples run here: pytest collects doctests only from the package."""
    failed, attempted = doctest.testmod(SCRIPT_MODULE)
    assert attempted > 0 and failed == 0


def test_the_file_covers_every_game_and_level_of_the_catalog() -> None:
    estimates = _committed()
    assert set(estimates) == set(GAMES)
    for game in GAMES:
        assert set(estimates[game]) == set(CATALOG[game].levels), game


def test_random_sits_at_the_anchor_and_deviations_are_bounded() -> None:
    for game, levels in _committed().items():
        assert levels["random"]["rating"] == ANCHOR, game
        for level, entry in levels.items():
            assert LOW <= entry["deviation"] <= HIGH, (game, level)
            # the site's rating is the ladder's Elo above random, moved to the anchor
            assert entry["rating"] == pytest.approx(ANCHOR + entry["ladder_elo"], abs=0.11)


def test_levels_sharing_an_agent_share_a_rating() -> None:
    """Levels with the same agent and limit are one player with one rating (none today)."""
    estimates = _committed()
    for game in GAMES:
        for level, entry in estimates[game].items():
            same = entry.get("same_player_as")
            if same is not None:
                assert CATALOG[game].levels[level] == CATALOG[game].levels[same]
                assert entry["rating"] == estimates[game][same]["rating"]


ORDERS = {
    "war_of_life": [("random", "easy", "medium", "hard")],
    "blocking_queen": [("random", "easy", "medium", "hard")],
    "life_for_two": [("random", "hard", "easy", "medium")],
    "p2life": [("random", "hard", "medium"), ("random", "easy", "medium")],
    "losat": [("random", "easy", "medium"), ("random", "easy", "hard")],
}
"""Each game's levels from the weakest up, as the committed ladder ranks them; a level
whose place the ladder leaves open (Losat's ``medium`` against ``hard``: 12 points apart;
p2life's ``easy``, the PPO baseline, against its ``hard``: overlapping intervals) is in two
chains. Life for Two's and p2life's ``hard`` (MCTS) rank below their ``medium``:
docs/ratings.md says what the ladder found."""


@pytest.mark.parametrize("game", GAMES)
def test_ratings_rise_as_the_ladder_ranks_the_levels(game: str) -> None:
    levels = _committed()[game]
    for chain in ORDERS[game]:
        ratings = [levels[level]["rating"] for level in chain]
        assert ratings == sorted(ratings) and len(set(ratings)) == len(ratings), chain
    for level in levels:
        if level != "random" and "same_player_as" not in levels[level]:
            assert levels[level]["rating"] > levels["random"]["rating"], (game, level)


def test_the_sites_reader_skips_how_the_file_was_made() -> None:
    data = json.loads(rated.COMPUTER_RATINGS.read_text())
    assert "_about" in data and "_about" not in _committed()
    for game in GAMES:
        run = data["_about"]["runs"][game]
        assert {"command", "date", "games_per_pairing", "time_scale"} <= set(run)
    first = rated.first_computer_rating("war_of_life", "random")
    assert (first.rating, first.deviation) == (ANCHOR, _committed()["war_of_life"]["random"][
        "deviation"])


def test_the_script_runs_end_to_end_on_a_tiny_setting(tmp_path: Path) -> None:
    output = tmp_path / "ratings.json"
    done = subprocess.run(
        [sys.executable, str(SCRIPT), "--game", "blocking_queen", "--games", "1",
         "--time-scale", "0.01", "--samples", "20", "--output", str(output)],
        capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    assert "first ratings" in done.stdout
    estimates = rated.read_estimates(output.read_text())
    assert list(estimates) == ["blocking_queen"]
    assert set(estimates["blocking_queen"]) == set(CATALOG["blocking_queen"].levels)
    assert estimates["blocking_queen"]["random"]["rating"] == ANCHOR
    about = json.loads(output.read_text())["_about"]["runs"]["blocking_queen"]
    assert about["games_per_pairing"] == 2 and about["time_scale"] == 0.01
    assert "--games 1" in about["command"]
