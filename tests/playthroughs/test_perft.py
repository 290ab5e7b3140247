"""Perft counts of fixed positions of every game match ``tests/playthroughs/perft.json``,
and independent paths agree with them.

The counts are made by :func:`perft.perft` (``clone`` then ``apply_action(s)`` on integer
actions). Two cross-checks recount some of them without that path: by replaying every move
sequence as text from the setup (``from_setup`` and ``string_to_action``), and, for War of
Life, with the compiled bitboard kernels of ``war_of_life_fast``. When a change to a game's
moves is intended, run ``.venv/bin/python tests/playthroughs/perft.py`` and review
``git diff tests/playthroughs/perft.json``.
"""

from __future__ import annotations

import json

import pytest

from lifearena.games.war_of_life import fast as war_of_life_fast
from lifearena.web.catalog import GAMES
from playthroughs import perft  # tests/ is on sys.path (tests/conftest.py)

REGENERATE = ("if the change is intended, run '.venv/bin/python tests/playthroughs/perft.py' "
              "and review 'git diff tests/playthroughs/perft.json'")
BY_NAME = {position.name: position for position in perft.POSITIONS}
TEXT_CHECKS = (("blocking_queen/start", 3), ("losat/mid", 3), ("life_for_two/limit", 2),
               ("p2life/tiny-torus", 2), ("war_of_life/mid", 2))
"""Positions and depths recounted by replaying move texts (a few hundred replays each)."""


@pytest.fixture(scope="module")
def expected() -> dict[str, list[int]]:
    """The stored counts."""
    assert perft.EXPECTED.exists(), f"{perft.EXPECTED.name} is missing; {REGENERATE}"
    return json.loads(perft.EXPECTED.read_text(encoding="utf-8"))


@pytest.mark.parametrize("position", perft.POSITIONS, ids=lambda p: p.name)
def test_counts_match(position: perft.Position, expected: dict[str, list[int]]) -> None:
    """perft at depths 1 .. depth gives the stored counts."""
    assert position.name in expected, f"no stored counts for {position.name}; {REGENERATE}"
    found = perft.counts(position)
    assert found == expected[position.name], (
        f"{position.name}: perft {found}, stored {expected[position.name]}; {REGENERATE}")


def test_every_game_has_positions(expected: dict[str, list[int]]) -> None:
    """Each catalog game has a start and at least one other position, one of them counted to
    depth 3; the stored file has exactly these positions."""
    for game in GAMES:
        ours = [p for p in perft.POSITIONS if p.game == game]
        assert len(ours) >= 2, f"{game} has {len(ours)} perft position(s); expected 2 or 3"
        assert any(p.depth >= 3 for p in ours), f"{game} has no position counted to depth 3"
    assert sorted(expected) == sorted(BY_NAME), REGENERATE


@pytest.mark.parametrize(("name", "depth"), TEXT_CHECKS, ids=[n for n, _ in TEXT_CHECKS])
def test_text_replay_agrees(name: str, depth: int, expected: dict[str, list[int]]) -> None:
    """Replaying every sequence as text from the setup counts the same as clone and apply."""
    by_text = [perft.perft_by_text(BY_NAME[name], d) for d in range(1, depth + 1)]
    assert by_text == expected[name][:depth], (
        f"{name}: by text replay {by_text}, stored {expected[name][:depth]}")


@pytest.mark.parametrize("name", ["war_of_life/start", "war_of_life/mid"])
def test_war_of_life_bitboards_agree(name: str, expected: dict[str, list[int]]) -> None:
    """War of Life's compiled bitboard kernels count the same moves to depth 3."""
    state = perft.start_of(BY_NAME[name])
    blue, red = war_of_life_fast.board_to_bits(state.board)
    by_bits = [perft.perft_war_of_life_bits(int(blue), int(red), state.to_move, d)
               for d in range(1, 4)]
    assert by_bits == expected[name], f"{name}: bitboards {by_bits}, stored {expected[name]}"


def test_perft_leaves_the_state_alone() -> None:
    """Counting works on clones: the position, its text and history are unchanged."""
    state = perft.start_of(BY_NAME["blocking_queen/mid"])
    before = (str(state), state.history(), state.legal_actions())
    assert perft.perft(state, 2) == 156
    assert (str(state), state.history(), state.legal_actions()) == before


def test_terminal_and_depth_zero() -> None:
    """A finished game has no moves at any depth; depth 0 counts the position itself."""
    state = perft.start_of(BY_NAME["losat/mid"])
    assert perft.perft(state, 0) == 1
    while not state.is_terminal():
        state.apply_action(state.legal_actions()[0])
    assert [perft.perft(state, d) for d in (0, 1, 2)] == [1, 0, 0]
