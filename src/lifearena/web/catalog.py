"""The five games as the web application offers them: titles, a short rules summary and the
agents behind each level. The parameters a new-game form may set, and their bounds, are the
games' own specs (:class:`lifearena.params.ParamSpec`, with each spec's ``served`` range):
this module names no parameter of any game.

The rules themselves stay in :mod:`lifearena.games`; a form's values make a game
(:meth:`lifearena.core.Game.from_served`) and the game makes the start.

>>> state = new_state("war_of_life", {"start": "random", "seed": 7})
>>> state.info.name, len(state.legal_actions()) > 0
('war_of_life', True)
>>> new_state("losat", {"width": 40})
Traceback (most recent call last):
...
lifearena.errors.BadParameterError: losat parameter width=40; expected an integer 9..25
>>> level_agent("blocking_queen", "hard")
('perfect', None)
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from lifearena.agents import Limit
from lifearena.core import Dynamics, Game, Outcome, State, game_type, load_game
from lifearena.errors import BadParameterError
from lifearena.games.blocking_queen import SIDE as QUEEN_SIDE
from lifearena.params import ParamSpec

GAMES = ("war_of_life", "life_for_two", "losat", "p2life", "blocking_queen")
"""The games the web application plays, in the home page's order."""

LEVELS = ("random", "easy", "medium", "hard")
"""Agent levels a person may choose; ``random`` plays uniformly random legal moves."""

MAX_SEED = 2**31 - 1
"""Largest seed the server draws for an agent."""


@dataclass(frozen=True)
class GameEntry:
    """What the home page says about a game and which agent plays each level."""

    name: str
    title: str
    summary: str
    levels: Mapping[str, tuple[str, Limit | None]] = field(default_factory=dict)
    hotseat_only_when: tuple[str, Any] | None = None
    """``(parameter, value)``: with that value the game is played at one screen only, so the
    form offers no online or agent opponent."""

    @property
    def game_type(self) -> type[Game]:
        """The game's :class:`~lifearena.core.Game` class."""
        return game_type(self.name)

    @property
    def params(self) -> tuple[ParamSpec, ...]:
        """The specs of the parameters the form offers, in the game's order."""
        return tuple(s for s in self.game_type.specs if s.is_served)

    @property
    def simultaneous(self) -> bool:
        return self.game_type.info.dynamics is Dynamics.SIMULTANEOUS

    def to_json(self) -> dict[str, Any]:
        """The entry as the home page's script reads it (the game's ``look`` too: its
        board's colours and its sides' names and colours)."""
        return {
            "name": self.name,
            "title": self.title,
            "summary": self.summary,
            "simultaneous": self.simultaneous,
            "hotseat_only_when": (list(self.hotseat_only_when) if self.hotseat_only_when
                                  else None),
            "levels": list(self.levels),
            "params": [p.to_json(served=True) for p in self.params],
            "look": self.game_type.presentation.look.to_dict(),
        }


CATALOG: dict[str, GameEntry] = {
    "war_of_life": GameEntry(
        "war_of_life", "War of Life",
        "8x8, blue against red. Move one of your pieces to an empty neighbouring cell; then "
        "one generation of Immigration Life runs on the whole board (a piece with 2 or 3 "
        "neighbours survives, an empty cell with 3 is born in their majority colour). Wipe "
        "out the other colour to win; 250 moves is a draw.",
        {"random": ("random", None), "easy": ("policy:ppo-small", None),
         "medium": ("policy:ppo", None), "hard": ("alphabeta", Limit(time=1.5))},
    ),
    "life_for_two": GameEntry(
        "life_for_two", "Life for Two",
        "5x5. Both players choose at the same time, unseen: 3 cells on the first turn, then "
        "1. A cell chosen by both stays empty. Then one generation of Immigration Life. Whoever "
        "has no pieces left loses.",
        {"random": ("random", None), "easy": ("greedy", None), "medium": ("nash", None),
         "hard": ("mcts", Limit(time=1.5))},
        hotseat_only_when=("rules", "classic"),
    ),
    "losat": GameEntry(
        "losat", "Losat",
        "Life, One Step at a Time, on a Go board. Each turn make one change Conway's rules "
        "allow: add a stone where 3 of its colour surround a point, remove a lonely or crowded "
        "stone, or capture one that 3 enemies surround. Reach the far goal line or make 5 "
        "captures to win. No position may repeat.",
        {"random": ("random", None), "easy": ("greedy", None),
         "medium": ("alphabeta", Limit(time=0.5)), "hard": ("alphabeta", Limit(time=2.0))},
    ),
    "p2life": GameEntry(
        "p2life", "p2life",
        "Levene and Roussos's two-player Life, with moves between generations. Both players "
        "act at once, unseen: place a token on an empty cell, remove one of yours, or pass. "
        "Then one p2life generation: a token survives when its own neighbours outnumber the "
        "other side's by 2 or 3 (or by 1 when it has at least 2 of its own), else it dies; "
        "an empty cell with exactly 3 neighbours of one side is born that side's (3 of each: "
        "a fair, seeded coin decides). A lone token dies, so place next to friends. A side "
        "with no tokens loses; at the generation limit the larger side wins.",
        {"random": ("random", None), "easy": ("policy:ppo", None), "medium": ("greedy", None),
         "hard": ("mcts", Limit(time=1.5))},
    ),
    "blocking_queen": GameEntry(
        "blocking_queen", "Blocking queen",
        "k-Blocking Wythoff Nim. Move the queen west, north or north-west, any distance, then "
        "block up to k - 1 of the squares your opponent could move it to next. Whoever cannot "
        "move the queen loses. k = 1 is Wythoff's classic game.",
        {"random": ("random", None), "easy": ("greedy", None),
         "medium": ("mcts", Limit(time=0.5)), "hard": ("perfect", None)},
    ),
}

QUEEN_MAX_K = int(CATALOG["blocking_queen"].game_type.spec("k").bounds(served=True)[1])
"""Largest k of the web's queen game, the palace explorer's too: the perfect player's palace
table of the 128 x 128 board takes well under a millisecond for any k."""
QUEEN_MAX_SQUARE = QUEEN_SIDE - 1
"""Largest start coordinate of the web's queen game: the last square of the game's board
(its dense action space), ``lifearena.games.blocking_queen.SIDE`` squares a side."""


def drawn_values(game: str, values: Mapping[str, Any],
                 draw: Callable[[int], int] = secrets.randbelow) -> dict[str, int]:
    """The values a server draws afresh for a new game of ``game`` whose form ``values``
    leave them out: each :attr:`~lifearena.params.ParamSpec.drawn` parameter the form would
    show (a random start's seed, not a typed position's), drawn by ``draw(n)`` (a number
    below ``n``) within the server's range. A quick game sends no values: each one starts
    somewhere new, and the seed drawn is kept with the game.

    >>> drawn_values("war_of_life", {}, draw=lambda n: 41)
    {'seed': 41}
    >>> drawn_values("war_of_life", {"seed": 7}), drawn_values("war_of_life", {"start": "prolog"})
    ({}, {})
    >>> drawn_values("losat", {})
    {}
    """
    specs = entry_of(game).params
    shown = {s.name: values.get(s.name, s.form_default) for s in specs}
    drawn = {}
    for spec in specs:
        if not spec.drawn or spec.name in values:
            continue
        if spec.shown_when is not None and shown.get(spec.shown_when[0]) != spec.shown_when[1]:
            continue
        low, high = spec.bounds(served=True)
        drawn[spec.name] = int(low) + draw(int(high) - int(low) + 1)
    return drawn


def check_values(game: str, values: Mapping[str, Any]) -> dict[str, Any]:
    """Every parameter of ``game``, from a form's ``values`` or its default, checked against
    the server's ranges (and against each other)."""
    return served_game(game, values).params


def entry_of(game: str) -> GameEntry:
    """The catalog entry of ``game``, or :class:`BadParameterError` (naming at most 40
    characters of it: the name comes from a client).

    >>> entry_of("x" * 1000)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    lifearena.errors.BadParameterError: unknown game 'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx'; ...
    """
    if game not in CATALOG:
        raise BadParameterError(f"unknown game {game[:40]!r}; expected one of "
                                f"{', '.join(GAMES)}")
    return CATALOG[game]


def new_state(game: str, values: Mapping[str, Any]) -> State:
    """The start of a new game of ``game`` from a form's ``values``; a start that is already
    decided (a typed position where one side has no pieces left) is refused with
    :class:`BadParameterError`: a game, challenge or invitation from it would hand whoever
    takes it a loss with no move played.

    >>> new_state("war_of_life", {"start": "prolog", "position": "[[[1,1]],[]]"})
    ... # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    lifearena.errors.BadParameterError: this start is already decided (b wins (win)); ...
    """
    return start_of(served_game(game, values))


def served_game(game: str, values: Mapping[str, Any]) -> Game:
    """The :class:`~lifearena.core.Game` of ``game`` a form's ``values`` ask for, every
    parameter checked against the server's ranges (and against each other)."""
    return entry_of(game).game_type.from_served(values)


def start_of(game: Game) -> State:
    """The start of a new game of ``game``, refused (:class:`BadParameterError`) when it is
    already decided (see :func:`new_state`)."""
    state = game.new_initial_state()
    if state.is_terminal():  # every game's typed start passes here: one check for all
        raise BadParameterError(f"this start is already decided ({state.outcome()}); "
                                "expected a start where both sides can still play")
    return state


def outcome_json(outcome: Outcome | None) -> dict[str, Any] | None:
    """A finished game's outcome as pages word it (``outcomeText`` of ``static/js/outcome.js``):
    the winner's seat (``None``: a draw), the termination's code and the game's own detail.

    >>> from lifearena.core import Termination
    >>> outcome_json(Outcome(Termination.WIN, 1, "r"))
    {'winner': 1, 'termination': 'win', 'detail': ''}
    """
    if outcome is None:
        return None
    return {"winner": outcome.winner, "termination": outcome.termination.value,
            "detail": outcome.detail}


def level_agent(game: str, level: str) -> tuple[str, Limit | None]:
    """The agent name and thinking limit behind ``level`` for ``game``."""
    levels = entry_of(game).levels
    if level not in levels:
        raise BadParameterError(f"unknown level {level!r}; expected one of {', '.join(levels)}")
    return levels[level]


PICTURES: dict[str, tuple[str, list[str]]] = {
    "life_for_two": ("...../...../...../...../..... 1", ["2,2 2,3 3,2 | 4,4 4,3 3,4", "1,1 | 4,1"]),
    "blocking_queen": ("9,13", ["9,4", "#5,0"]),
}
"""Positions more telling than the start, for the home page's pictures: (setup, moves)."""


def sample_display(game: str) -> dict[str, Any]:
    """The home page's small picture of ``game``: a default start, or a few moves into a
    game when its start is bare (Life for Two's empty board).

    >>> sample_display("life_for_two")["counts"]
    [5, 4]
    """
    from lifearena.core import Record, presentation_of, replay

    if game in PICTURES:
        setup, moves = PICTURES[game]
        params = dict(load_game(game).info.parameters)
        state = replay(Record(game, params, setup, ["", ""], moves))
    else:
        state = new_state(game, {})
    return presentation_of(state).display(state, None)


FALLBACKS: dict[tuple[str, str], str] = {
    ("p2life", "policy:ppo"): "random",
    ("war_of_life", "policy:ppo-small"): "land_grab",
    ("war_of_life", "policy:ppo"): "minimax",
}
"""A level's agent that plays only some parameters (a trained network: its rules, its
board) and who moves for it elsewhere: the agent the level had before (p2life's shipped
PPO baseline, ``lifearena/p2life-12x12-v1``, beats ``random`` in every game of its
evaluation set; on another board size or generation limit, ``easy`` is ``random`` again;
War of Life's two networks, ``lifearena/war_of_life-v1``, beat the agents their levels had
before them: the two-core one ``land_grab`` (``easy``, 64%), the GPU one ``minimax``
(``medium``, 68%); trained on the one board the game has, they never need their fallback)."""


def choose_move(state: Any, seat: int, agent_name: str, limit: Limit | None,
                seed: int) -> str:
    """Run in a worker: the agent's move for ``seat`` in ``state`` (already that seat's view),
    in the game's notation; an agent that cannot play this position's rules hands it to its
    :data:`FALLBACKS`."""
    from lifearena import agents

    game = state.info.name
    agent = agents.make(agent_name, game=game, seed=seed)
    fits = getattr(agent, "fits", None)
    if (game, agent_name) in FALLBACKS and fits is not None and not fits(state, seat):
        agent = agents.make(FALLBACKS[game, agent_name], game=game, seed=seed)
    action = agent.act(state, seat, limit)
    return str(state.action_to_string(action, seat))


_PICTURES: dict[str, dict[str, Any]] = {}


def home_pictures() -> dict[str, dict[str, Any]]:
    """The home page's picture of every game, built once per process (building them runs
    the engine: :func:`lifearena.web.warmup.warm_up` does it before the server starts)."""
    for game in GAMES:
        if game not in _PICTURES:
            _PICTURES[game] = sample_display(game)
    return _PICTURES
