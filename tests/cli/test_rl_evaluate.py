"""``lifearena rl evaluate POLICY --env ID``: the frozen starts against the game's built-in
agents, both seats, the standard table and its JSON; bad input is one line and exit 2."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lifearena.agents.registry import fast_player
from lifearena.cli import main
from lifearena.rl.evaluate import evaluate


def run(argv: list[str]) -> int:
    with pytest.raises(SystemExit) as done:
        main(["rl", "evaluate", *argv])
    return int(done.value.code or 0)


def test_envs_lists_every_versioned_id_with_its_evaluation_set(capsys) -> None:
    from lifearena.rl.versions import SPECS

    with pytest.raises(SystemExit) as done:
        main(["rl", "envs"])
    assert done.value.code in (0, None)
    printed = capsys.readouterr().out
    for fixed in SPECS:
        assert fixed.id in printed and f"{fixed.name}.json" in printed
    assert "max_moves=100" in printed  # Losat 9x11's fixed limit


def test_the_table_covers_every_built_in_agent_from_both_seats(tmp_path: Path,
                                                                 capsys) -> None:
    out = tmp_path / "table.json"
    assert run(["random", "--env", "lifearena/war_of_life-v1", "--limit", "3",
                "--json", str(out)]) == 0
    printed = capsys.readouterr().out
    report = json.loads(out.read_text())
    names = ["random", "bloodlust", "self_preservation", "land_grab", "minimax"]
    assert [row["opponent"] for row in report["rows"]] == names
    for row in report["rows"]:
        assert row["games"] == 6 and row["wins"] + row["draws"] + row["losses"] == 6
        assert row["score_low"] <= row["score"] <= row["score_high"]
        assert row["opponent"] in printed
    assert report["env_id"] == "lifearena/war_of_life-v1" and report["starts"] == 3
    assert len(report["evaluation_set_sha256"]) == 64
    assert "score [95% CI]" in printed and "mean moves" in printed


def test_seats_are_counted_from_the_policy_side() -> None:
    # the perfect queen player wins from every start where its seat has a win, and random
    # rarely finds the winning moves: swapped sides would show the opposite
    strong = evaluate("perfect", "blocking_queen-12-v1", opponents="random", limit=5)
    weak = evaluate("random", "blocking_queen-12-v1", opponents="perfect", limit=5)
    assert strong.rows[0].games == weak.rows[0].games == 10
    assert strong.rows[0].score >= 0.7 and weak.rows[0].score <= 0.3


def test_the_table_depends_on_the_seed_not_on_the_workers() -> None:
    args: dict = {"opponents": "random,greedy", "limit": 3}
    one = evaluate("random", "lifearena/blocking_queen-40-v1", workers=1, seed=4, **args)
    two = evaluate("random", "lifearena/blocking_queen-40-v1", workers=2, seed=4, **args)
    assert one.to_json() == two.to_json()


WAR_OF_LIFE_AGENTS = ["random", "bloodlust", "self_preservation", "land_grab", "minimax"]


@settings(max_examples=6, deadline=None, derandomize=True)
@given(policy=st.sampled_from(WAR_OF_LIFE_AGENTS),
       opponent=st.sampled_from(WAR_OF_LIFE_AGENTS), seed=st.integers(0, 2**32 - 1))
def test_the_fast_path_gives_the_referees_table(policy: str, opponent: str,
                                                seed: int) -> None:
    played: list[str] = []

    def spy(game: str, names: tuple[str, str], seeds: tuple[int, int]) -> object:
        played.append(game)
        return fast_player(game, names, seeds)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr("lifearena.rl.evaluate.fast_player", spy)
        fast = evaluate(policy, "war_of_life-v1", opponents=f"x={opponent}", limit=3,
                        seed=seed)
        assert played, "the fast path was not taken"
        played.clear()
        slow = evaluate(policy, "war_of_life-v1", opponents=f"x={opponent}", limit=3,
                        seed=seed, fast=False)
        assert not played, "the referee's games went to the fast path"
    assert fast.rows == slow.rows


def test_a_policy_that_plays_illegal_moves_forfeits_every_game(tmp_path: Path) -> None:
    bad = tmp_path / "bad_policy.py"
    bad.write_text("def policy(observation, mask):\n    return -1\n")
    report = evaluate(f"{bad}:policy", "lifearena/losat-9x11-v1", opponents="random",
                      limit=2)
    row = report.rows[0]
    assert (row.games, row.losses, row.forfeits, row.score) == (4, 4, 4, 0.0)


@pytest.mark.parametrize("argv, words", [
    (["random", "--env", "lifearena/chess-v1"], "unknown environment id 'lifearena/chess-v1'"),
    (["nobody", "--env", "war_of_life-v1"], "unknown agent 'nobody'"),
    (["policy:missing.npz", "--env", "war_of_life-v1"], "missing.npz"),
    (["random", "--env", "war_of_life-v1", "-a", "random,nobody"], "unknown agent 'nobody'"),
    (["random", "--env", "war_of_life-v1", "--limit", "101"],
     "limit 101; expected 1 to 100 starts"),
    (["random", "--env", "war_of_life-v1", "--json", "out.csv"], "expected a name ending in "
                                                                   ".json"),
])
def test_bad_input_is_one_line_and_exit_2(argv: list[str], words: str, capsys,
                                          bad_input: Callable[[str], None]) -> None:
    bad_input("rl evaluate")
    assert run(argv) == 2
    captured = capsys.readouterr()
    assert words in captured.err and captured.err.count("\n") == 1
    assert captured.out == ""
