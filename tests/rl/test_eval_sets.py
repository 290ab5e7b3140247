"""The frozen evaluation sets: each file loads, has the sha256 that the package and
docs/rl.md state, and each start is a legal, unfinished position of its environment that
the script's generator still reaches."""

from __future__ import annotations

from pathlib import Path

import pytest

from lifearena.core import SIMULTANEOUS, TERMINAL
from lifearena.errors import BadParameterError
from lifearena.rl import eval_sets
from lifearena.rl.eval_sets import (
    RANDOM_START_GAMES,
    SHA256,
    evaluation_set,
    file_name,
    make_starts,
    position_text,
    start_state,
)
from lifearena.rl.versions import SPECS, EnvSpec

DOCS = Path(__file__).resolve().parents[2] / "docs" / "rl.md"


@pytest.mark.parametrize("fixed", SPECS, ids=lambda s: s.id)
def test_each_start_is_a_legal_unfinished_position_of_its_env(fixed: EnvSpec) -> None:
    starts = evaluation_set(fixed.id).starts
    assert len(starts) == 100
    for start in starts:
        state = start_state(fixed, start)
        assert position_text(state) == start.position, "the seed or opening moved"
        mover = state.current_player()
        assert mover != TERMINAL and not state.is_terminal()
        movers = (0, 1) if mover == SIMULTANEOUS else (mover,)
        assert all(state.legal_actions(p) for p in movers)
        if fixed.game in RANDOM_START_GAMES:
            assert start.opening == ()
        else:
            assert len(start.opening) in (1, 2)  # one move a side
        if fixed.game == "blocking_queen":  # inside the corner the environment shows
            x, y = map(int, start.position.split(","))
            assert max(x, y) < fixed.params["size"]


@pytest.mark.parametrize("fixed", SPECS, ids=lambda s: s.id)
def test_the_script_still_makes_the_first_starts(fixed: EnvSpec) -> None:
    assert make_starts(fixed, 3, seed=0) == list(evaluation_set(fixed.id).starts[:3])


def test_each_file_has_the_documented_sha256() -> None:
    docs = DOCS.read_text(encoding="utf-8")
    for fixed in SPECS:
        name = file_name(fixed.id)
        assert name in SHA256
        assert f"`{name}` | `{SHA256[name]}`" in docs, f"docs/rl.md lacks {name}'s sha256"
    assert len(SHA256) == len(SPECS)


def test_a_changed_file_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    eval_sets._load.cache_clear()
    monkeypatch.setitem(eval_sets.SHA256, "losat-9x11-v1.json", "0" * 64)  # type: ignore[index]
    with pytest.raises(BadParameterError, match="has sha256 .*; expected 0000"):
        evaluation_set("lifearena/losat-9x11-v1")
    eval_sets._load.cache_clear()
