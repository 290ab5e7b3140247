"""Frozen evaluation sets: for each versioned id, the starts every evaluation plays.

A set is the package file ``eval_sets/<name>.json`` (``war_of_life-v1.json``): the id, its
game and parameters, and a list of starts, each played from both seats. A start is

* ``seed``: where the game's start is random (War of Life, p2life, the blocking queen game),
  the seed of that start (the game's ``new_initial_state(seed)``; p2life's coins too);
* ``opening``: where the game has one start (Life for Two, Losat), the moves of a random
  opening played from it in the game's notation (one ply a side: a joint move is a list of
  both sides' choices), so that two deterministic agents do not replay one game a hundred
  times; ``[]`` elsewhere;
* ``position``: the position the start reaches, in the game's notation (what a reader can
  paste into the game; a check that the seed and the opening still lead there).

The files are made by ``scripts/make_eval_sets.py`` (:func:`make_starts`) and never edited:
:data:`SHA256` holds each file's digest (``docs/rl.md`` lists them too), and :func:`load`
refuses a file that does not match it. A new set comes with a new version of its id.

>>> evaluation_set("lifearena/losat-9x11-v1").starts[0].opening
('+bE1', '-F10')
"""

from __future__ import annotations

import functools
import hashlib
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from importlib import resources
from typing import Any

import numpy as np

from lifearena.core import SIMULTANEOUS, State
from lifearena.errors import BadParameterError
from lifearena.interop.games import game_object
from lifearena.rl.versions import EnvSpec, spec

RANDOM_START_GAMES = frozenset({"war_of_life", "p2life", "blocking_queen"})
"""The games whose start is drawn from a seed; the others start from one position."""
SHA256: Mapping[str, str] = {
    "war_of_life-v1.json": "fe564b87f610113a560e0b364bce2a912033922b136842c50b793b9b0a5a4b00",
    "life_for_two-v1.json": "464c7c11006b4e9381cfac45fc38549cd50f0c8e6400c69b4a35e82d50022b82",
    "losat-19x19-v1.json": "2b62f4ad804b9e47ed431964817f9e13e182730b8f750716c4421be6bc58c6a5",
    "losat-9x11-v1.json": "df7315c988f23156a094d8fd7a2e5d0bba3764d30bc8c9c8d034dd120ae700b7",
    "p2life-12x12-v1.json": "b04a9b4a7fcdf942798e2487dfe4dc26da84d4224eb096e3016011475a0509fd",
    "blocking_queen-12-v1.json": "00482169bec74b23e34639dcff8251c68650b24d0f7e53e8a2fb301c21fa0c0f",
    "blocking_queen-40-v1.json": "0b85c5816e8abe93473b0eef8e324f31547fb5c0c95c9c7a3cf0583af4fcffb6",
}
"""Each set's file name and the sha256 of its bytes (what ``docs/rl.md`` lists)."""

Ply = str | tuple[str, str]
"""A move in the game's notation, or both sides' choices at a simultaneous node."""


@dataclass(frozen=True)
class Start:
    """One start of an evaluation set (see the module doc)."""

    seed: int
    opening: tuple[Ply, ...]
    position: str

    def to_dict(self) -> dict[str, Any]:
        return {"seed": self.seed,
                "opening": [p if isinstance(p, str) else list(p) for p in self.opening],
                "position": self.position}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Start:
        opening = tuple(p if isinstance(p, str) else (str(p[0]), str(p[1]))
                        for p in data["opening"])
        return cls(int(data["seed"]), opening, str(data["position"]))


@dataclass(frozen=True)
class EvaluationSet:
    """An id's frozen starts."""

    spec: EnvSpec
    starts: tuple[Start, ...]
    made_by: str


def position_text(state: State) -> str:
    """The position ``state`` stands at in its game's notation (a game without a
    ``position()`` method is at its setup: its starts are never past the first move)."""
    position = getattr(state, "position", None)
    return str(position()) if callable(position) else state.setup()


def start_state(fixed: EnvSpec, start: Start) -> State:
    """The state ``start`` stands for under ``fixed``'s rules: the game's start for the seed,
    then the opening played on it (so the history, superko's included, is the game's own)."""
    state = game_object(fixed.game, fixed.game_params(start.seed)).new_initial_state(start.seed)
    for ply in start.opening:
        if isinstance(ply, str):
            state.apply_action(state.string_to_action(ply))
        else:
            state.apply_actions([state.string_to_action(text, player)
                                 for player, text in enumerate(ply)])
    return state


def _random_ply(state: State, rng: np.random.Generator) -> Ply:
    """A random move on ``state`` (never a pass: two passes end a Losat game), played; its
    notation."""
    if state.current_player() == SIMULTANEOUS:
        actions = [int(rng.choice(state.legal_actions(p))) for p in (0, 1)]
        texts = (state.action_to_string(actions[0], 0), state.action_to_string(actions[1], 1))
        state.apply_actions(actions)
        return texts
    legal = [a for a in state.legal_actions()
             if state.action_to_string(a).lower() != "pass"]
    action = int(rng.choice(legal))
    text = state.action_to_string(action)
    state.apply_action(action)
    return text


def make_starts(fixed: EnvSpec, count: int, seed: int = 0) -> list[Start]:
    """``count`` starts for ``fixed`` drawn from ``seed`` (what the script writes): start
    ``i`` tries the seeds ``SeedSequence([seed, i, attempt])`` in turn until one gives a start
    that is not over (a queen on the origin has no move)."""
    starts = []
    for index in range(count):
        for attempt in range(100):
            start_seed = int(np.random.SeedSequence([seed, index, attempt])
                             .generate_state(1, np.uint32)[0])
            state = game_object(fixed.game, fixed.game_params(start_seed)) \
                .new_initial_state(start_seed)
            opening: list[Ply] = []
            if fixed.game not in RANDOM_START_GAMES:
                rng = np.random.default_rng(start_seed)
                moved = 0  # sides that have moved: one move each
                while moved < 2 and not state.is_terminal():
                    ply = _random_ply(state, rng)
                    opening.append(ply)
                    moved += 1 if isinstance(ply, str) else 2
            if not state.is_terminal():
                starts.append(Start(start_seed, tuple(opening), position_text(state)))
                break
        else:  # pragma: no cover - no game here ends in every one of 100 starts
            raise BadParameterError(f"{fixed.id}: 100 starts in a row were over at once")
    return starts


def file_name(env_id: str) -> str:
    """``war_of_life-v1.json`` for ``lifearena/war_of_life-v1``."""
    return f"{spec(env_id).name}.json"


def dumps(fixed: EnvSpec, starts: Sequence[Start], made_by: str) -> str:
    """The text of a set's file: one start a line, so that a diff shows what moved."""
    head = json.dumps({"id": fixed.id, "game": fixed.game, "params": dict(fixed.params),
                       "made_by": made_by})
    lines = ",\n".join("  " + json.dumps(s.to_dict()) for s in starts)
    return head[:-1] + ', "starts": [\n' + lines + "\n]}\n"


def sha256_of(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def evaluation_set(env_id: str) -> EvaluationSet:
    """The frozen evaluation set of ``env_id``; an id without one, or a file whose sha256
    is not :data:`SHA256`'s, raises :class:`~lifearena.errors.BadParameterError`."""
    return _load(spec(env_id).id)


@functools.lru_cache(maxsize=16)  # read once per process: every block of games asks again
def _load(env_id: str) -> EvaluationSet:
    fixed = spec(env_id)
    name = file_name(fixed.id)
    try:
        text = resources.files(__package__).joinpath(name).read_text(encoding="utf-8")
    except FileNotFoundError:
        raise BadParameterError(f"{fixed.id} has no evaluation set ({name} is missing from "
                                "lifearena/rl/eval_sets)") from None
    if SHA256.get(name) != sha256_of(text):
        raise BadParameterError(f"evaluation set {name} has sha256 {sha256_of(text)}; "
                                f"expected {SHA256.get(name)} (the files are frozen)")
    data = json.loads(text)
    if data["id"] != fixed.id or data["params"] != dict(fixed.params):
        raise BadParameterError(f"evaluation set {name} is for {data['id']} with "
                                f"{data['params']}; expected {fixed.id} with "
                                f"{dict(fixed.params)}")
    return EvaluationSet(fixed, tuple(Start.from_dict(s) for s in data["starts"]),
                         str(data["made_by"]))
