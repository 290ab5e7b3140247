"""Perft: legal-move counts to depth 1, 2, 3 from fixed positions of every game.

``perft(state, d)`` is the number of move sequences of length ``d`` from ``state``: a
sequential node branches on the mover's legal actions, a simultaneous node on the joint
actions (every pair of the two players' legal actions, so ``|A0| * |A1|`` branches), a chance
node on its outcomes; a terminal state has no moves, so a sequence that ends the game early
is not counted. The positions are the start of a game and a mid-game position reached by a
fixed move list, chosen so that depth 3 stays cheap (simultaneous games branch on products,
so their deep positions are nearly full boards or tiny ones).

Usage (from the repository root)::

    .venv/bin/python tests/playthroughs/perft.py           # (re)write perft.json
    .venv/bin/python tests/playthroughs/perft.py --check   # compare; exit 1 at a difference

``tests/playthroughs/test_perft.py`` checks the stored counts, and cross-checks some of them
by paths that share nothing with :func:`perft` but the game: replaying move texts from the
setup (:func:`perft_by_text`) and War of Life's compiled bitboard kernels
(:func:`perft_war_of_life_bits`).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from itertools import product
from pathlib import Path
from typing import Any

import numpy as np

from lifearena.core import CHANCE, SIMULTANEOUS, TERMINAL, State, load_game
from lifearena.web.catalog import new_state

HERE = Path(__file__).resolve().parent
EXPECTED = HERE / "perft.json"


@dataclass(frozen=True)
class Position:
    """A perft position: a game's start (catalog form ``values``, or a ``setup`` in the
    game's position notation with ``params``) after ``moves`` in the game's notation (joint
    moves as ``"a | b"``), counted to ``depth``."""

    name: str
    game: str
    values: dict[str, Any] = field(default_factory=dict)
    setup: str | None = None
    params: dict[str, Any] = field(default_factory=dict)
    moves: tuple[str, ...] = ()
    depth: int = 3


POSITIONS: tuple[Position, ...] = (
    Position("war_of_life/start", "war_of_life", {"start": "random", "seed": 1}),
    Position("war_of_life/mid", "war_of_life", {"start": "random", "seed": 1},
             moves=("[4,2,5,3]", "[6,3,7,2]", "[6,7,5,6]", "[8,5,7,4]", "[1,2,2,1]",
                    "[2,6,1,7]")),
    # Life for Two: every empty cell is a move of both players, so a turn has (empty cells)^2
    # joint moves: 2300 * 2300 on the first turn (depth 1 only). Deeper counts start from a
    # nearly full board (2 or 3 empty cells, collisions included), which the next generation
    # thins out (overcrowding).
    Position("life_for_two/start", "life_for_two", {"rules": "instructed"}, depth=1),
    Position("life_for_two/dense", "life_for_two", setup="**#*./####*/##*.*/#**##/#***# 7"),
    # Turn 3 of at most 4: the game ends by the limit after two more turns, so depth 3 is 0.
    Position("life_for_two/limit", "life_for_two", setup="#*##./*#**#/.*#**/##*##/.*#*# 3",
             params={"max_turns": 4, "limit_result": "population"}),
    Position("losat/start", "losat", {}),
    Position("losat/mid", "losat", {"width": 9, "length": 9, "neighbours": 4},
             moves=("-D3", "-D2", "-D1", "+wF8")),
    # p2life: (1 + empty cells + own tokens) moves a player, so deep counts need tiny boards.
    Position("p2life/start", "p2life", {"size": 8, "seed": 3}, depth=1),
    Position("p2life/tiny-plane", "p2life", setup="..bb/.wwb/wbbb 0:0",
             params={"torus": False, "seed": 5, "max_generations": 8}),
    Position("p2life/tiny-torus", "p2life", setup="wbw./wbwb/.... 0:0",
             params={"torus": True, "seed": 5, "max_generations": 8}),
    Position("blocking_queen/start", "blocking_queen",
             {"k": 2, "start": "square", "x": 9, "y": 14}),
    Position("blocking_queen/mid", "blocking_queen", {"k": 3, "start": "random", "seed": 3},
             moves=("9,2", "#3,2", "#6,2", "8,2")),
)
"""The fixed positions, two or three per game."""


def play_text(state: State, text: str) -> None:
    """Play one move written in the game's notation (a joint move as ``"a | b"``)."""
    if state.current_player() == SIMULTANEOUS:
        parts = [part.strip() for part in text.split("|")]
        state.apply_actions([state.string_to_action(p, i) for i, p in enumerate(parts)])
    else:
        player = state.current_player()
        state.apply_action(state.string_to_action(text, None if player < 0 else player))


def start_of(position: Position) -> State:
    """The state at ``position`` (its start, then its moves)."""
    if position.setup is None:
        state = new_state(position.game, position.values)
    else:
        state = load_game(position.game).from_setup(position.setup, **position.params)
    for text in position.moves:
        play_text(state, text)
    return state


def moves_of(state: State) -> list[int | tuple[int, ...]]:
    """Every move of ``state``: actions, or joint actions at a simultaneous node."""
    current = state.current_player()
    if current == TERMINAL:
        return []
    if current == SIMULTANEOUS:
        return list(product(*(state.legal_actions(p) for p in range(state.info.num_players))))
    if current == CHANCE:
        return [a for a, _ in state.chance_outcomes()]
    return list(state.legal_actions(current))


def branching(state: State) -> int:
    """How many moves ``state`` has (without listing joint moves)."""
    current = state.current_player()
    if current == TERMINAL:
        return 0
    if current == SIMULTANEOUS:
        return int(np.prod([len(state.legal_actions(p))
                            for p in range(state.info.num_players)]))
    if current == CHANCE:
        return len(state.chance_outcomes())
    return len(state.legal_actions(current))


def perft(state: State, depth: int) -> int:
    """The number of move sequences of length ``depth`` from ``state`` (``clone`` and
    ``apply_action``/``apply_actions`` on integer actions; the last level only counts)."""
    if depth == 0:
        return 1
    if depth == 1:
        return branching(state)
    total = 0
    for move in moves_of(state):
        child = state.clone()
        if isinstance(move, tuple):  # legal by construction: no second legality check
            child.apply_actions(move, check=False)
        else:
            child.apply_action(move, check=False)
        total += perft(child, depth - 1)
    return total


def counts(position: Position) -> list[int]:
    """``perft`` of ``position`` at depths 1 .. ``position.depth``."""
    state = start_of(position)
    return [perft(state, d) for d in range(1, position.depth + 1)]


def move_texts(state: State) -> Iterator[str]:
    """Every move of ``state`` in the game's notation (joint moves as ``"a | b"``)."""
    current = state.current_player()
    if current == SIMULTANEOUS:
        per_player = [[state.action_to_string(a, p) for a in state.legal_actions(p)]
                      for p in range(state.info.num_players)]
        for joint in product(*per_player):
            yield " | ".join(joint)
    elif current != TERMINAL:
        for action in state.legal_actions(current):
            yield state.action_to_string(action, current)


def perft_by_text(position: Position, depth: int) -> int:
    """The same count as :func:`perft` by another path: every sequence is replayed from the
    position's setup as text (``from_setup``, then ``string_to_action`` for each move), with
    no ``clone`` and no integer action carried from one state to another. Two moves with the
    same text raise :class:`ValueError` (the notation must tell moves apart)."""
    base = start_of(position)
    cls = type(base)
    setup, params = base.setup(), dict(base.params)
    prefix = list(base.history_strings())

    def replayed(path: Sequence[str]) -> State:
        state = cls.from_setup(setup, **params)
        for text in [*prefix, *path]:
            play_text(state, text)
        return state

    def walk(path: list[str], left: int) -> int:
        state = replayed(path)
        texts = list(move_texts(state))
        if len(set(texts)) != len(texts):
            raise ValueError(f"{position.name} after {path}: two moves share a text")
        if left == 1:
            return len(texts)
        return sum(walk([*path, text], left - 1) for text in texts)

    return 1 if depth == 0 else walk([], depth)


def perft_war_of_life_bits(blue: int, red: int, to_move: int, depth: int) -> int:
    """War of Life's perft on bitboards with the compiled kernels of
    :mod:`lifearena.games.war_of_life.fast` (``count_moves``, ``nth_move``, ``crank_bits``),
    which the protocol state does not use: a side without pieces ends the game. Only for
    positions far from the 250-move limit."""
    from lifearena.games.war_of_life import fast

    one = np.uint64(1)
    mine, theirs = (np.uint64(blue), np.uint64(red))
    if to_move == 1:
        mine, theirs = theirs, mine

    def walk(own: np.uint64, other: np.uint64, left: int) -> int:
        if own == 0 or other == 0:
            return 0
        n = int(fast.count_moves(own, other))
        if left == 1:
            return n
        total = 0
        for index in range(n):
            action = int(fast.nth_move(own, other, index))
            source, target = action // 8, int(fast.TARGET_OF[action])
            moved = (own ^ (one << np.uint64(source))) | (one << np.uint64(target))
            after_own, after_other = fast.crank_bits(moved, other)
            # compiled code returns Python ints: back to uint64 for the next typed call
            total += walk(np.uint64(after_other), np.uint64(after_own), left - 1)
        return total

    return 1 if depth == 0 else walk(mine, theirs, depth)


def compute_all() -> dict[str, list[int]]:
    """Every position's counts, by position name."""
    return {position.name: counts(position) for position in POSITIONS}


def to_json(found: dict[str, list[int]]) -> str:
    """The counts as JSON, one position a line.

    >>> print(to_json({"a/start": [1, 2]}), end="")
    {
      "a/start": [1, 2]
    }
    """
    lines = [f"  {json.dumps(name)}: {json.dumps(values)}" for name, values in found.items()]
    return "{\n" + ",\n".join(lines) + "\n}\n"


def main(argv: Sequence[str] | None = None) -> int:
    """Write perft.json, or with ``--check`` compare it; the exit status."""
    parser = argparse.ArgumentParser(
        description="Compute perft counts (depths 1..3) of fixed positions of every game and "
                    "write tests/playthroughs/perft.json.")
    parser.add_argument("--check", action="store_true",
                        help="compare with the stored perft.json instead of writing; exit 1 "
                             "naming the first differing position")
    args = parser.parse_args(argv)
    found = compute_all()
    if not args.check:
        EXPECTED.write_text(to_json(found), encoding="utf-8", newline="\n")
        for name, values in found.items():
            print(f"{name}: {values}")
        print(f"wrote {EXPECTED.relative_to(HERE.parent.parent)}")
        return 0
    stored = json.loads(EXPECTED.read_text(encoding="utf-8")) if EXPECTED.exists() else {}
    for name, values in found.items():
        if stored.get(name) != values:
            print(f"{name}: stored {stored.get(name)}, now {values}; if the change is intended, "
                  "run '.venv/bin/python tests/playthroughs/perft.py'")
            return 1
    stray = sorted(set(stored) - set(found))
    if stray:
        print(f"perft.json has counts for unknown positions: {', '.join(stray)}")
        return 1
    print(f"{len(found)} positions ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
