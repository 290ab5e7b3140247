"""The five games as the web application offers them: titles, a short rules summary, the
parameters a new-game form may set (each bounded), and the agents behind each level.

The rules themselves stay in :mod:`lifearena.games`; this module only checks a form's values
against their bounds and calls the game's own constructor (``new_game``, ``from_setup``).

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

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from lifearena.agents import Limit
from lifearena.core import Outcome, State, load_game
from lifearena.errors import BadParameterError
from lifearena.games.blocking_queen import SIDE as QUEEN_SIDE

GAMES = ("war_of_life", "life_for_two", "losat", "p2life", "blocking_queen")
"""The games the web application plays, in the home page's order."""

LEVELS = ("random", "easy", "medium", "hard")
"""Agent levels a person may choose; ``random`` plays uniformly random legal moves."""

MAX_SEED = 2**31 - 1

QUEEN_MAX_K = 64
"""Largest k of the web's queen game, the palace explorer's too: the perfect player's palace
table of the 128 x 128 board takes well under a millisecond for any k."""
QUEEN_MAX_SQUARE = QUEEN_SIDE - 1
"""Largest start coordinate of the web's queen game: the last square of the game's board
(its dense action space), ``lifearena.games.blocking_queen.SIDE`` squares a side."""


@dataclass(frozen=True)
class Param:
    """One parameter of a new-game form: its kind (``int``, ``float``, ``bool``,
    ``choice`` or ``text``), bounds, default, and the label and help a page shows."""

    name: str
    label: str
    kind: str
    default: Any
    low: float | None = None
    high: float | None = None
    choices: tuple[str, ...] = ()
    max_length: int = 0
    help: str = ""
    shown_when: tuple[str, str] | None = None
    """``(other parameter, value)``: the form shows this field only for that value."""

    def check(self, game: str, value: Any) -> Any:
        """``value`` converted to this parameter's kind, or :class:`BadParameterError`."""
        where = f"{game} parameter {self.name}={value!r}"
        if self.kind == "bool":
            if isinstance(value, bool):
                return value
            raise BadParameterError(f"{where}; expected true or false")
        if self.kind == "choice":
            if value in self.choices:
                return value
            raise BadParameterError(f"{where}; expected one of {', '.join(self.choices)}")
        if self.kind == "text":
            if isinstance(value, str) and len(value) <= self.max_length:
                return value.strip()
            raise BadParameterError(f"{game} parameter {self.name}: expected text of at most "
                                    f"{self.max_length} characters")
        number_ok = isinstance(value, int | float) and not isinstance(value, bool)
        if self.kind == "int":
            number_ok = number_ok and float(value).is_integer()
        assert self.low is not None and self.high is not None
        if not number_ok or not self.low <= value <= self.high:
            kind = "an integer" if self.kind == "int" else "a number"
            low, high = (int(self.low), int(self.high)) if self.kind == "int" else (self.low,
                                                                                  self.high)
            raise BadParameterError(f"{where}; expected {kind} {low}..{high}")
        return int(value) if self.kind == "int" else float(value)


@dataclass(frozen=True)
class GameEntry:
    """What the home page says about a game and how a form's values make its start."""

    name: str
    title: str
    summary: str
    params: tuple[Param, ...]
    levels: Mapping[str, tuple[str, Limit | None]] = field(default_factory=dict)
    simultaneous: bool = False
    hotseat_only_when: tuple[str, str] | None = None
    """``(parameter, value)``: with that value the game is played at one screen only, so the
    form offers no online or agent opponent."""

    def to_json(self) -> dict[str, Any]:
        """The entry as the home page's script reads it."""
        return {
            "name": self.name,
            "title": self.title,
            "summary": self.summary,
            "simultaneous": self.simultaneous,
            "hotseat_only_when": self.hotseat_only_when,
            "levels": list(self.levels),
            "params": [
                {"name": p.name, "label": p.label, "kind": p.kind, "default": p.default,
                 "low": p.low, "high": p.high, "choices": list(p.choices), "help": p.help,
                 "max_length": p.max_length, "shown_when": p.shown_when}
                for p in self.params
            ],
        }


def _seed(help_text: str = "the same seed gives the same start",
          shown_when: tuple[str, str] | None = None) -> Param:
    return Param("seed", "Seed", "int", 1, 0, MAX_SEED, help=help_text, shown_when=shown_when)


CATALOG: dict[str, GameEntry] = {
    "war_of_life": GameEntry(
        "war_of_life", "War of Life",
        "8x8, blue against red. Move one of your pieces to an empty neighbouring cell; then "
        "one generation of Immigration Life runs on the whole board (a piece with 2 or 3 "
        "neighbours survives, an empty cell with 3 is born in their majority colour). Wipe "
        "out the other colour to win; 250 moves is a draw.",
        (Param("start", "Start", "choice", "random", choices=("random", "prolog"),
               help="12 random pieces each, or a position you type"),
         _seed(shown_when=("start", "random")),
         Param("position", "Prolog position", "text", "[[[2,2],[2,3],[3,2]],[[6,6],[6,7],[7,6]]]",
               max_length=2000, help="[[blue [row,col] cells],[red cells]], rows 1..8 from "
               "the top", shown_when=("start", "prolog"))),
        {"random": ("random", None), "easy": ("land_grab", None),
         "medium": ("minimax", None), "hard": ("alphabeta", Limit(time=1.5))},
    ),
    "life_for_two": GameEntry(
        "life_for_two", "Life for Two",
        "5x5. Both players choose at the same time, unseen: 3 cells on the first turn, then "
        "1. A cell chosen by both stays empty. Then one generation of Immigration Life. Whoever "
        "has no pieces left loses.",
        (Param("rules", "Rules", "choice", "instructed", choices=("instructed", "classic"),
               help="instructed: the written rules, choices hidden; classic: the 1978 BASIC "
               "program exactly, bugs included, at one screen"),
         Param("max_turns", "Turn limit", "int", 0, 0, 500, help="0: play until one side "
               "dies out", shown_when=("rules", "instructed")),
         Param("limit_result", "At the limit", "choice", "draw",
               choices=("draw", "population"), help="a draw, or more pieces wins",
               shown_when=("rules", "instructed"))),
        {"random": ("random", None), "easy": ("greedy", None), "medium": ("nash", None),
         "hard": ("mcts", Limit(time=1.5))},
        simultaneous=True, hotseat_only_when=("rules", "classic"),
    ),
    "losat": GameEntry(
        "losat", "Losat",
        "Life, One Step at a Time, on a Go board. Each turn make one change Conway's rules "
        "allow: add a stone where 3 of its colour surround a point, remove a lonely or crowded "
        "stone, or capture one that 3 enemies surround. Reach the far goal line or make 5 "
        "captures to win. No position may repeat.",
        (Param("width", "Width", "int", 19, 9, 25),
         Param("length", "Length", "int", 19, 9, 25),
         Param("own_colour_only", "Own colour only", "bool", False,
               help="change only your own stones, capture only the opponent's"),
         Param("capture_or_more", "Capture with 3 or more", "bool", False,
               help="a capture needs 3 or more opposite neighbours, not exactly 3"),
         Param("neighbours", "Neighbourhood", "choice", "8", choices=("8", "4"),
               help="8 surrounding points (Moore) or 4 (von Neumann)"),
         Param("captures_to_win", "Captures to win", "int", 5, 1, 20),
         Param("first", "First to move", "choice", "b", choices=("b", "w"))),
        {"random": ("random", None), "easy": ("greedy", None),
         "medium": ("alphabeta", Limit(time=0.5)), "hard": ("alphabeta", Limit(time=2.0))},
    ),
    "p2life": GameEntry(
        "p2life", "p2life",
        "Levene and Roussos's two-player Life, with moves between generations. Both players "
        "act at once, unseen: place a token on an empty cell, remove one of yours, or pass. "
        "Then one p2life generation (3/3 births decided by a fair, seeded coin). A side with "
        "no tokens loses; at the generation limit the larger side wins.",
        (Param("size", "Board size", "int", 12, 6, 32),
         Param("density", "Soup density", "float", 0.35, 0.05, 0.8),
         _seed("makes the soup and the coins"),
         Param("torus", "Wrap around (torus)", "bool", True),
         Param("moves", "Moves per generation", "int", 1, 1, 4),
         Param("max_generations", "Generations", "int", 64, 4, 256)),
        {"random": ("random", None), "easy": ("random", None), "medium": ("greedy", None),
         "hard": ("mcts", Limit(time=1.5))},
        simultaneous=True,
    ),
    "blocking_queen": GameEntry(
        "blocking_queen", "Blocking queen",
        "k-Blocking Wythoff Nim. Move the queen west, north or north-west, any distance, then "
        "block up to k - 1 of the squares your opponent could move it to next. Whoever cannot "
        "move the queen loses. k = 1 is Wythoff's classic game.",
        (Param("k", "k", "int", 2, 1, QUEEN_MAX_K, help="1 + the number of blocks per turn"),
         Param("start", "Start", "choice", "random", choices=("random", "square")),
         _seed(shown_when=("start", "random")),
         Param("x", "Queen x", "int", 9, 0, QUEEN_MAX_SQUARE, shown_when=("start", "square")),
         Param("y", "Queen y", "int", 14, 0, QUEEN_MAX_SQUARE,
               shown_when=("start", "square"))),
        {"random": ("random", None), "easy": ("greedy", None),
         "medium": ("mcts", Limit(time=0.5)), "hard": ("perfect", None)},
    ),
}


def check_values(game: str, values: Mapping[str, Any]) -> dict[str, Any]:
    """Every parameter of ``game``'s form, from ``values`` or its default, checked."""
    entry = entry_of(game)
    known = {p.name for p in entry.params}
    unknown = sorted(set(values) - known)
    if unknown:
        raise BadParameterError(f"unknown {game} parameter(s) {', '.join(unknown)}; expected "
                                f"some of {', '.join(sorted(known))}")
    return {p.name: p.check(game, values.get(p.name, p.default)) for p in entry.params}


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
    """The start of a new game of ``game`` from a form's ``values``."""
    v = check_values(game, values)
    if game == "war_of_life":
        from lifearena.games import war_of_life

        if v["start"] == "prolog":
            return war_of_life.WarOfLifeState.from_setup(v["position"])
        return war_of_life.new_game(seed=v["seed"])
    if game == "life_for_two":
        from lifearena.games import life_for_two

        return life_for_two.new_game(max_turns=v["max_turns"] or None,
                                     limit_result=v["limit_result"])
    if game == "losat":
        from lifearena.games import losat

        return losat.new_game(width=v["width"], length=v["length"],
                              own_colour_only=v["own_colour_only"],
                              capture_or_more=v["capture_or_more"],
                              neighbours=int(v["neighbours"]),
                              captures_to_win=v["captures_to_win"], first=v["first"])
    if game == "p2life":
        from lifearena.games import p2life

        return p2life.new_game(size=v["size"], density=v["density"], seed=v["seed"],
                               torus=v["torus"], moves=v["moves"],
                               max_generations=v["max_generations"])
    from lifearena.games import blocking_queen

    if v["start"] == "square":
        if (v["x"], v["y"]) == (0, 0):
            raise BadParameterError("blocking_queen start 0,0: the queen must start off the "
                                    "origin")
        return blocking_queen.BlockingQueen(v["x"], v["y"], k=v["k"])
    return blocking_queen.new_game(seed=v["seed"], k=v["k"], size=30)


def outcome_json(outcome: Outcome | None) -> dict[str, Any] | None:
    """A finished game's outcome as pages word it (``board.js``'s ``outcomeText``): the winner's
    seat (``None``: a draw), the termination's code and the game's own detail.

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
    from lifearena.core import Record, replay

    if game in PICTURES:
        setup, moves = PICTURES[game]
        params = dict(load_game(game).info.parameters)
        return replay(Record(game, params, setup, ["", ""], moves)).display(None)
    entry = entry_of(game)
    values = {p.name: p.default for p in entry.params}
    return new_state(game, values).display(None)


def choose_move(state: Any, seat: int, agent_name: str, limit: Limit | None,
                seed: int) -> str:
    """Run in a worker: the agent's move for ``seat`` in ``state`` (already that seat's view),
    in the game's notation."""
    from lifearena import agents

    agent = agents.make(agent_name, game=state.info.name, seed=seed)
    action = agent.act(state, seat, limit)
    return state.action_to_string(action, seat)


_PICTURES: dict[str, dict[str, Any]] = {}


def home_pictures() -> dict[str, dict[str, Any]]:
    """The home page's picture of every game, built once per process (building them runs
    the engine: :func:`lifearena.web.warmup.warm_up` does it before the server starts)."""
    for game in GAMES:
        if game not in _PICTURES:
            _PICTURES[game] = sample_display(game)
    return _PICTURES
