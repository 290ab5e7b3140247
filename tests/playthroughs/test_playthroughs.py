"""The stored playthrough transcripts still match what the games do now.

Each transcript ``tests/playthroughs/<game>-<variant>.txt`` is regenerated in memory by
:mod:`write` (``tests/playthroughs/write.py``) and compared line by line with the stored
file. When a game's rules, notation, text or observation change on purpose, run
``.venv/bin/python tests/playthroughs/write.py`` and review ``git diff tests/playthroughs``.
"""

from __future__ import annotations

import difflib

import pytest

from lifearena.web.catalog import GAMES
from playthroughs import write  # tests/ is on sys.path (tests/conftest.py)

CONTEXT = 3
"""Lines of context around each difference."""
MAX_DIFF_LINES = 60
"""How much of the unified diff a failure shows."""


def short_diff(stored: str, now: str, name: str) -> str:
    """The first MAX_DIFF_LINES lines of the unified diff from ``stored`` to ``now``."""
    diff = list(difflib.unified_diff(stored.splitlines(), now.splitlines(),
                                     f"{name} (stored)", f"{name} (now)", n=CONTEXT,
                                     lineterm=""))
    shown = diff[:MAX_DIFF_LINES]
    if len(diff) > MAX_DIFF_LINES:
        shown.append(f"... {len(diff) - MAX_DIFF_LINES} more diff lines")
    return "\n".join(shown)


@pytest.mark.parametrize("variant", write.VARIANTS, ids=lambda v: v.stem)
def test_transcript_matches(variant: write.Variant) -> None:
    """Regenerating the transcript gives the stored file, line for line."""
    name = f"tests/playthroughs/{variant.path.name}"
    assert variant.path.exists(), (
        f"{name} is missing; write it with '.venv/bin/python tests/playthroughs/write.py'")
    stored = variant.path.read_text(encoding="utf-8")
    now = write.playthrough(variant)
    difference = write.first_difference(stored, now)
    if difference is None:
        return
    line, old, new = difference
    pytest.fail(
        f"{name} differs from the game's play now, first at line {line}:\n"
        f"  stored: {old}\n  now:    {new}\n\n{short_diff(stored, now, name)}\n\n"
        "If the change is intended, run '.venv/bin/python tests/playthroughs/write.py' "
        "and review 'git diff tests/playthroughs'.", pytrace=False)


def test_every_game_has_a_transcript() -> None:
    """Each game the catalog offers is pinned by at least one stored transcript."""
    pinned = {v.game for v in write.VARIANTS if v.path.exists()}
    missing = [game for game in GAMES if game not in pinned]
    assert not missing, f"no playthrough transcript for {', '.join(missing)}"


def test_no_stray_transcripts() -> None:
    """Every stored transcript belongs to a variant (none left behind by a rename)."""
    stems = {v.stem for v in write.VARIANTS}
    stray = sorted(p.name for p in write.HERE.glob("*.txt") if p.stem not in stems)
    assert not stray, f"transcripts no variant writes: {', '.join(stray)}; delete them"


def test_stems_are_unique() -> None:
    """No two variants write the same file."""
    stems = [v.stem for v in write.VARIANTS]
    assert len(stems) == len(set(stems))


def test_first_difference_names_the_line() -> None:
    """The comparison reports the first differing line and a missing tail."""
    assert write.first_difference("a\nb\n", "a\nb\n") is None
    assert write.first_difference("a\nb\n", "a\nX\n") == (2, "b", "X")
    assert write.first_difference("a\n", "a\nb\n") == (2, "<end of file>", "b")
