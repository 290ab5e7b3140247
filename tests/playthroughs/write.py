"""Write (or check) the playthrough transcripts of every game in ``catalog.GAMES``.

A playthrough is a short seeded random game of one variant of a game, written out state by
state: the position's text (``str(state)``), who is to move, every acting player's legal
moves in the game's notation (``action_to_string``), a digest of each player's observation
(the array :func:`lifearena.interop.games.observe` gives the research libraries: its shape,
dtype, the non-zero count of each plane and a sha256 of its bytes), and the move chosen;
finally the outcome. Any change to a game's rules, notation, text or observation shows up
as a line-by-line difference from the stored transcript.

Usage (from the repository root)::

    .venv/bin/python tests/playthroughs/write.py           # (re)write every transcript
    .venv/bin/python tests/playthroughs/write.py --check   # compare; exit 1 at a difference

``tests/playthroughs/test_playthroughs.py`` regenerates the transcripts in memory and
compares them with the stored files. When a change to a game is intended, run this script
and review the difference (``git diff tests/playthroughs``) before committing it.

Moves are drawn with ``numpy.random.default_rng(seed).integers`` over the sorted legal
actions, one draw per acting player (player 0 first at a simultaneous node), so a
transcript is the same on every run and machine. Lines of a state's text are written
without trailing spaces; long legal-move lists are shortened to their first and last moves
plus a sha256 of the whole list.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from lifearena.core import CHANCE, SIMULTANEOUS, TERMINAL, State
from lifearena.interop.games import observe
from lifearena.web.catalog import new_state

HERE = Path(__file__).resolve().parent
MAX_PLIES = 30
"""Plies (one ``apply_action`` or one ``apply_actions`` call each) per playthrough."""
LIST_LIMIT = 200
"""Legal-move lists longer than this are shortened to their ends plus a digest."""
LIST_ENDS = 40
"""How many moves of each end of a shortened list are written out."""
WIDTH = 96
"""Wrap width of legal-move lists."""


@dataclass(frozen=True)
class Variant:
    """One pinned playthrough: a game, the catalog form values of its start, the seed of
    the move choices and the number of plies at most."""

    game: str
    name: str
    values: dict[str, Any] = field(default_factory=dict)
    seed: int = 1
    plies: int = MAX_PLIES

    @property
    def stem(self) -> str:
        """The transcript's file name without ``.txt``: ``<game>-<variant>``."""
        return f"{self.game}-{self.name}"

    @property
    def path(self) -> Path:
        """Where the transcript is stored."""
        return HERE / f"{self.stem}.txt"


PROLOG_POSITION = ("[[[2,2],[2,3],[3,2],[3,3],[5,6],[6,5],[6,6]],"
                   "[[2,6],[2,7],[3,6],[6,2],[6,3],[7,2],[7,3]]]")
"""A War of Life position typed in the Prolog notation (the catalog's ``prolog`` start)."""

VARIANTS: tuple[Variant, ...] = (
    Variant("war_of_life", "random", {"start": "random", "seed": 1}, seed=1),
    Variant("war_of_life", "prolog", {"start": "prolog", "position": PROLOG_POSITION}, seed=2),
    Variant("life_for_two", "instructed", {"rules": "instructed"}, seed=1),
    Variant("life_for_two", "limit-draw",
            {"rules": "instructed", "max_turns": 5, "limit_result": "draw"}, seed=1),
    Variant("life_for_two", "limit-population",
            {"rules": "instructed", "max_turns": 6, "limit_result": "population"}, seed=1),
    Variant("life_for_two", "classic", {"rules": "classic"}, seed=1),
    Variant("losat", "default", {}, seed=1),
    Variant("losat", "von-neumann", {"width": 9, "length": 9, "neighbours": 4}, seed=1),
    Variant("losat", "own-colour",
            {"width": 9, "length": 11, "own_colour_only": True, "capture_or_more": True,
             "captures_to_win": 2, "first": "w"}, seed=1),
    Variant("p2life", "torus", {"size": 8, "seed": 3}, seed=1),
    Variant("p2life", "plane-two-moves",
            {"size": 8, "seed": 3, "torus": False, "moves": 2, "max_generations": 4}, seed=1),
    Variant("blocking_queen", "k1", {"k": 1, "start": "random", "seed": 2}, seed=1),
    Variant("blocking_queen", "k2", {"k": 2, "start": "square", "x": 9, "y": 14}, seed=1),
    Variant("blocking_queen", "k3", {"k": 3, "start": "random", "seed": 3}, seed=1),
)
"""Every pinned playthrough: each distinct rules variant the games offer, kept small (Life
for Two's ``classic`` rules are the 1978 BASIC program: its text is the program's
transcript)."""


def plain_json(value: Any) -> str:
    """``value`` as one line of JSON with sorted keys (anything unusual by ``str``)."""
    return json.dumps(value, sort_keys=True, default=str)


def wrap(words: Sequence[str], indent: str, width: int = WIDTH, sep: str = " ") -> list[str]:
    """``words`` joined by ``sep`` into lines of at most ``width`` characters (a longer word
    gets a line of its own), each starting with ``indent``; a line ends after a word.

    >>> wrap(["ab", "cd", "ef"], "  ", width=7)
    ['  ab cd', '  ef']
    >>> wrap(["ab", "cd", "ef"], "", width=7, sep=" / ")
    ['ab / cd', 'ef']
    """
    lines: list[str] = []
    line = ""
    for word in words:
        if line and len(indent) + len(line) + len(sep) + len(word) > width:
            lines.append(indent + line)
            line = word
        else:
            line = f"{line}{sep}{word}" if line else word
    if line:
        lines.append(indent + line)
    return lines


def sha(text: str | bytes) -> str:
    """The first 16 hex digits of the sha256 of ``text`` (UTF-8 for a string)."""
    data = text.encode("utf-8") if isinstance(text, str) else text
    return hashlib.sha256(data).hexdigest()[:16]


def legal_lines(state: State, player: int) -> list[str]:
    """The ``legal`` block of ``player``: a count line, then the moves in the game's
    notation, wrapped, each quoted when some contain spaces (shortened with a digest of the
    unquoted list when there are more than LIST_LIMIT)."""
    notation = [state.action_to_string(a, player) for a in state.legal_actions(player)]
    moves = notation
    if any(" " in move for move in moves):  # Life for Two's 3-cell moves: quote each
        moves = [json.dumps(move) for move in moves]
    head = f"legal {player} ({len(moves)}):"
    if len(moves) <= LIST_LIMIT:
        return [head, *wrap(moves, "    ")]
    shown = [*moves[:LIST_ENDS], f"... {len(moves) - 2 * LIST_ENDS} more ...",
             *moves[-LIST_ENDS:]]
    return [f"{head} sha256 {sha(chr(10).join(notation))} of all, one per line",
            *wrap(shown, "    ")]


def observation_line(state: State, player: int) -> str:
    """A digest of what ``observe`` shows ``player``: the observation's shape and dtype, the
    non-zero count of each plane, a sha256 of its bytes (little-endian), and the number of
    actions set in the action mask.

    >>> from lifearena.games.blocking_queen import BlockingQueen
    >>> observation_line(BlockingQueen(1, 0, k=1), 0)
    'observation 0: int8 4x128x128 nonzero [1, 0, 0, 16384] sha256 1a7554818ef39cdb mask 1'
    """
    seen = observe(state, player)
    array = np.asarray(seen["observation"])
    little = np.ascontiguousarray(array, dtype=array.dtype.newbyteorder("<"))
    shape = "x".join(str(n) for n in array.shape)
    planes = [int(np.count_nonzero(plane)) for plane in array.reshape(array.shape[0], -1)] \
        if array.ndim > 1 else [int(np.count_nonzero(array))]
    mask = int(np.count_nonzero(seen["action_mask"]))
    return (f"observation {player}: {array.dtype.name} {shape} nonzero {planes} "
            f"sha256 {sha(little.tobytes())} mask {mask}")


def state_lines(state: State) -> list[str]:
    """The position's text, indented, without trailing spaces."""
    return ["state:", *("    " + line.rstrip() for line in str(state).splitlines())]


def to_move_line(state: State) -> str:
    """Who acts next, in words and by id."""
    current = state.current_player()
    if current == SIMULTANEOUS:
        return "to move: both (simultaneous)"
    if current == TERMINAL:
        return "to move: nobody (terminal)"
    if current == CHANCE:
        return "to move: chance"
    return f"to move: {current} ({state.info.player_symbols[current]})"


def choose(state: State, rng: np.random.Generator) -> tuple[int | tuple[int, ...], str]:
    """A uniformly random legal move (a joint move at a simultaneous node) and its text."""
    current = state.current_player()
    if current == SIMULTANEOUS:
        joint = []
        for player in range(state.info.num_players):
            legal = state.legal_actions(player)
            joint.append(legal[int(rng.integers(len(legal)))])
        text = " | ".join(state.action_to_string(a, p) for p, a in enumerate(joint))
        return tuple(joint), text
    if current == CHANCE:
        legal = [a for a, _ in state.chance_outcomes()]
        action = legal[int(rng.integers(len(legal)))]
        return action, state.action_to_string(action, None)
    legal = state.legal_actions(current)
    action = legal[int(rng.integers(len(legal)))]
    return action, state.action_to_string(action, current)


def playthrough_lines(variant: Variant) -> Iterator[str]:
    """The transcript of ``variant``, line by line."""
    state = new_state(variant.game, variant.values)
    rng = np.random.default_rng(variant.seed)
    yield f"# Playthrough of {variant.game}, variant {variant.name}."
    yield "# Regenerate with: .venv/bin/python tests/playthroughs/write.py"
    yield f"game: {variant.game}"
    yield f"variant: {variant.name}"
    yield f"form values: {plain_json(variant.values)}"
    yield f"params: {plain_json(state.params)}"
    yield f"setup: {state.setup()}"
    yield f"seed: {variant.seed} (numpy.random.default_rng, one integers() draw per player)"
    yield f"max plies: {variant.plies}"
    ply = 0
    while True:
        yield ""
        yield f"== ply {ply}"
        yield from state_lines(state)
        yield to_move_line(state)
        current = state.current_player()
        acting = (list(range(state.info.num_players)) if current == SIMULTANEOUS
                  else [current] if current >= 0 else [])
        for player in acting:
            yield from legal_lines(state, player)
        for player in range(state.info.num_players):
            yield observation_line(state, player)
        if current == TERMINAL or ply >= variant.plies:
            break
        move, text = choose(state, rng)
        yield f"chosen: {text}"
        if isinstance(move, tuple):
            state.apply_actions(move)
        else:
            state.apply_action(move)
        ply += 1
    yield ""
    yield "== end"
    outcome = state.outcome()
    yield f"plies played: {ply}"
    yield f"outcome: {outcome if outcome is not None else 'none (the game goes on)'}"
    yield f"returns: {' '.join(f'{int(r):+d}' for r in state.returns())}"
    yield "history (the record's moves, joined by ' / '):"
    yield from wrap(state.history_strings(), "    ", sep=" / ")


def playthrough(variant: Variant) -> str:
    """The whole transcript of ``variant`` as one string ending in a newline."""
    return "\n".join(playthrough_lines(variant)) + "\n"


def first_difference(expected: str, actual: str) -> tuple[int, str, str] | None:
    """``(line number, stored line, new line)`` of the first difference, or ``None``
    (``<end of file>`` stands for a missing line).

    >>> first_difference("a\\nb\\n", "a\\nc\\n")
    (2, 'b', 'c')
    """
    old, new = expected.splitlines(), actual.splitlines()
    for number in range(max(len(old), len(new))):
        a = old[number] if number < len(old) else "<end of file>"
        b = new[number] if number < len(new) else "<end of file>"
        if a != b:
            return number + 1, a, b
    return None


def main(argv: Sequence[str] | None = None) -> int:
    """Write every transcript, or with ``--check`` compare them; the exit status."""
    parser = argparse.ArgumentParser(
        description="Write the playthrough transcripts tests/playthroughs/<game>-<variant>.txt "
                    "(seeded random games of every game variant).")
    parser.add_argument("--check", action="store_true",
                        help="compare with the stored transcripts instead of writing; exit 1 "
                             "naming the first differing line")
    parser.add_argument("--only", metavar="STEM", action="append", default=[],
                        help="only this transcript (e.g. losat-default); may be repeated")
    args = parser.parse_args(argv)
    stems = {v.stem for v in VARIANTS}
    unknown = sorted(set(args.only) - stems)
    if unknown:
        parser.error(f"unknown transcript {unknown[0]!r}; expected one of "
                     f"{', '.join(sorted(stems))}")
    failed = 0
    for variant in VARIANTS:
        if args.only and variant.stem not in args.only:
            continue
        text = playthrough(variant)
        name = variant.path.relative_to(HERE.parent.parent)
        if not args.check:
            variant.path.write_text(text, encoding="utf-8", newline="\n")
            print(f"wrote {name} ({text.count(chr(10))} lines)")
            continue
        stored = variant.path.read_text(encoding="utf-8") if variant.path.exists() else ""
        if not stored:
            print(f"{name}: missing; run this script without --check to write it")
            failed += 1
            continue
        difference = first_difference(stored, text)
        if difference is None:
            print(f"{name}: ok")
            continue
        line, old, new = difference
        print(f"{name}:{line}: differs\n  stored: {old}\n  now:    {new}")
        failed += 1
    if args.check and not args.only:
        extra = sorted(p.name for p in HERE.glob("*.txt") if p.stem not in stems)
        for stray in extra:
            print(f"{stray}: no variant writes this transcript any more; delete it")
        failed += len(extra)
    if args.check and failed:
        print(f"{failed} transcript(s) differ; if the change is intended, run "
              "'.venv/bin/python tests/playthroughs/write.py' and review the diff")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
