"""The game protocol every lifearena game implements (OpenSpiel's meaning, typed).

A game is three things kept apart:

* :class:`GameInfo` — static facts: name, players, dynamics (sequential or simultaneous),
  chance, information, action-space size, maximum length, parameter defaults, rules version.
* :class:`Game` — the game with its parameters, checked against its typed specs
  (:class:`lifearena.params.ParamSpec`): it makes states (``new_initial_state(seed)``,
  ``state_from_setup(text)``) and knows the sizes adapters need under those parameters.
  :func:`get_game` finds one by name: ``get_game("losat", width=9)``.
* :class:`State` — a position. A game subclasses it and fills in a few hooks
  (``_legal_actions``, ``_apply_action`` and/or ``_apply_actions``, ``current_player``,
  ``outcome``, ``action_to_string``/``string_to_action``, ``observation``, ``setup``);
  the base class derives the rest: legality checks, history, ``returns``,
  ``is_terminal``, records and replay.

Players are 0 and 1 (``player_0``/``player_1`` for RL users; each game also has symbols such
as ``b``/``r``). Special player ids mark the other kinds of node: :data:`CHANCE`,
:data:`SIMULTANEOUS` and :data:`TERMINAL`.

Actions are dense integers ``0 <= a < info.num_distinct_actions``; each game also has a
``Move`` value object and a text notation. ``history()`` lists what was applied: an ``int``
for a sequential or chance action, a ``tuple`` of one action per player for a simultaneous
node. Replaying the history on ``setup`` reproduces the state.

A game never holds a hidden random generator: randomness is a chance node or a seed passed
in, so every game replays exactly from its :class:`Record`.

A game's presentation is kept apart from its rules: :class:`Presentation` (one per game,
``Game.presentation``) says how a position looks and how a person picks a move, so that
nothing about a game lives in the terminal or the web layer:

* ``text``: the position as a text board (``str(state)`` is it);
* ``display``: the position as JSON-able data a page draws (grid, counts, the last
  generation's births and deaths), never more than :meth:`State.view` shows;
* ``explain_illegal``: one line saying why a parsed move is not legal here
  (:meth:`State.read_move` raises with it);
* ``interaction``: what the board asks of a person now (an :class:`Interaction`: its
  :class:`InteractionKind`, prompt, and the :class:`Part` cells a move is composed of where
  the moves are too many to list), and ``choices``: the legal moves with the cells a
  person clicks and a label for each (:class:`MoveChoice`);
* ``legal_moves_text`` (a "moves" command) and ``move_prompt``;
* ``look``: the board's colours and the sides' names and colours (a :class:`Look`);
* ``rules``: the rules on one card (a :class:`RulesCard`: the move, the rule of Life under
  the state's parameters, how to win, and a small example picture), for pages and the
  terminal alike.

Optional protocols a search uses where a game offers them: :class:`Undo` (``push``/``pop``,
make and unmake), :class:`PositionKey`, :class:`OrderedMoves`, :class:`BatchedChildren`.

Games register themselves with :func:`register_game`; :func:`game_type` and :func:`get_game`
find a game by name (importing ``lifearena.games.<name>``), :func:`load_game` its state class;
:func:`replay` rebuilds a state from a record and :func:`replay_positions` yields each of its
positions.
"""

from __future__ import annotations

import copy
import importlib
import json
import textwrap
from abc import ABC, abstractmethod
from collections.abc import Hashable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from enum import Enum, StrEnum
from pathlib import Path
from typing import Any, ClassVar, Protocol, Self, runtime_checkable

import numpy as np

from lifearena.errors import (
    QUOTE_LIMIT,
    BadParameterError,
    IllegalMoveError,
    ParseError,
    binary_kind,
    quoted,
    read_text_file,
)
from lifearena.params import ParamSpec, check_values

CHANCE = -1
"""Player id of a chance node: the next action is drawn from ``chance_outcomes()``."""
SIMULTANEOUS = -2
"""Player id of a simultaneous node: every player acts at once (``apply_actions``)."""
TERMINAL = -4
"""Player id of a terminal state."""

Action = int
HistoryItem = int | tuple[int, ...]


class Dynamics(Enum):
    """Whether players take turns or act at the same time."""

    SEQUENTIAL = "sequential"
    SIMULTANEOUS = "simultaneous"


class Chance(Enum):
    """Where randomness enters a game."""

    DETERMINISTIC = "deterministic"
    EXPLICIT = "explicit"  # chance nodes with listed outcomes
    SEEDED = "seeded"  # a seed fixed at setup (e.g. a random start position)


class Information(Enum):
    """Whether a player ever lacks information the other has."""

    PERFECT = "perfect"
    IMPERFECT = "imperfect"


class Termination(StrEnum):
    """Why a game ended. Each game documents which of these it uses."""

    WIN = "win"  # the loser has no pieces left (War of Life, Life for Two, p2life)
    DRAW = "draw"  # both sides wiped out at once, or another drawn ending
    EXHAUST = "exhaust"  # the move limit was reached
    STALEMATE = "stalemate"  # the player to move has pieces but no legal move
    GOAL = "goal"  # a stone reached the goal line (Losat)
    CAPTURES = "captures"  # enough captures (Losat)
    PASSES = "passes"  # two passes in a row (Losat)
    NO_MOVES = "no_moves"  # the player to move cannot move and loses (blocking queen game)
    LIMIT = "limit"  # an optional generation cap decided the game
    FORFEIT = "forfeit"  # a player timed out, crashed or played an illegal move (arena)
    RESIGN = "resign"  # a player resigned (web games)
    TIMEOUT = "timeout"  # a player's clock ran out (web games; a draw if the other could not win)
    AGREED = "agreed"  # both players agreed to a draw (web games)
    ABORTED = "aborted"  # left unplayed: nobody won or drew (an abandoned web game)


@dataclass(frozen=True)
class Outcome:
    """How a game ended: the termination, the winner (player id or ``None`` for a draw)
    and the winner's symbol in the game's notation.

    >>> Outcome(Termination.WIN, 0, "b")
    Outcome(termination=<Termination.WIN: 'win'>, winner=0, winner_symbol='b', detail='')
    >>> str(Outcome(Termination.EXHAUST, None, None))
    'draw (exhaust)'
    >>> str(Outcome(Termination.ABORTED, None, None, "no move in 10 minutes"))
    'aborted (no move in 10 minutes)'
    """

    termination: Termination
    winner: int | None
    winner_symbol: str | None = None
    detail: str = ""

    @property
    def is_draw(self) -> bool:
        return self.winner is None

    def returns(self, num_players: int = 2) -> tuple[float, ...]:
        """+1 for the winner, -1 for the others, all 0 for a draw."""
        if self.winner is None:
            return (0.0,) * num_players
        return tuple(1.0 if p == self.winner else -1.0 for p in range(num_players))

    def to_dict(self) -> dict[str, Any]:
        """The outcome as a record keeps it (JSON-able).

        >>> Outcome(Termination.WIN, 1, "r").to_dict()
        {'termination': 'win', 'winner': 1, 'winner_symbol': 'r', 'detail': ''}
        """
        return {"termination": self.termination.value, "winner": self.winner,
                "winner_symbol": self.winner_symbol, "detail": self.detail}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Outcome:
        """The outcome :meth:`to_dict` wrote; :class:`ParseError` naming what is wrong."""
        try:
            termination = Termination(data["termination"])
        except (KeyError, ValueError, TypeError):
            raise ParseError(f"record outcome {dict(data)!r:.80}: expected a termination, one "
                             f"of {', '.join(t.value for t in Termination)}") from None
        winner = data.get("winner")
        if winner is not None and (isinstance(winner, bool) or winner not in (0, 1)):
            raise ParseError(f"record outcome winner {winner!r:.40}; expected 0, 1 or null")
        symbol, detail = data.get("winner_symbol"), data.get("detail", "")
        if not isinstance(detail, str) or not (symbol is None or isinstance(symbol, str)):
            raise ParseError("record outcome: winner_symbol and detail must be strings")
        return cls(termination, winner, symbol, detail)

    def __str__(self) -> str:
        if self.termination is Termination.ABORTED:  # nobody won, and it was no draw
            return f"aborted ({self.detail or 'left unplayed'})"
        head = "draw" if self.winner is None else f"{self.winner_symbol or self.winner} wins"
        tail = f", {self.detail}" if self.detail else ""
        return f"{head} ({self.termination.value}{tail})"


@dataclass(frozen=True)
class GameInfo:
    """Static facts about a game, apart from any state."""

    name: str
    long_name: str
    dynamics: Dynamics
    chance: Chance
    information: Information
    num_distinct_actions: int
    max_game_length: int
    player_symbols: tuple[str, str] = ("1", "2")
    num_players: int = 2
    min_utility: float = -1.0
    max_utility: float = 1.0
    zero_sum: bool = True
    parameters: Mapping[str, Any] = field(default_factory=dict)
    """Parameter names and their defaults; records store the values a game was played with."""
    side_names: tuple[str, ...] = ()
    """What people call each side in a sentence (``("blue", "red")``); empty: ``player 1``,
    ``player 2``."""
    rules_version: int = 1
    """The version of the game's rules; a record says which one it was played under, and a
    record of rules this lifearena does not know is refused by name."""

    @property
    def player_names(self) -> tuple[str, ...]:
        """PettingZoo-style agent names ``player_0``, ``player_1``."""
        return tuple(f"player_{p}" for p in range(self.num_players))


# -- presentation: how a position looks and how a person picks a move -------------------------


class InteractionKind(StrEnum):
    """What the board asks of a person, so a page or a terminal needs no game's name."""

    PIECE_THEN_TARGET = "piece-then-target"
    """A piece of theirs, then an empty cell it goes to (War of Life)."""
    CELLS = "cells"
    """:attr:`Interaction.count` cells at once, confirmed together (Life for Two)."""
    CELL_OR_PASS = "cell-or-pass"
    """One cell, placing on an empty one or removing from one of theirs, or a pass
    (p2life)."""
    POINT_THEN_ACTION = "point-then-action"
    """A point, then one of the moves at it (add, remove, capture), or a pass (Losat)."""
    SQUARE_THEN_BLOCKS = "square-then-blocks"
    """A square to move to, then squares to block, one at a time, or stop (the blocking
    queen game)."""
    ANSWER = "answer"
    """A typed answer to a prompt (the 1978 Life for Two program)."""
    WAIT = "wait"
    """Nothing: it is not this person's turn, or the game is over."""


@dataclass(frozen=True)
class Part:
    """One cell a person may pick towards a move, with its text in the game's notation: a
    page composes a move from parts without knowing the game (the texts of the picked parts
    joined by :attr:`Interaction.joiner`).

    >>> Part((2, 3), "4,3").to_dict()
    {'cell': [2, 3], 'text': '4,3'}
    """

    cell: tuple[int, int]
    """``(row, column)`` of the display's grid, row 0 at the top."""
    text: str

    def to_dict(self) -> dict[str, Any]:
        return {"cell": list(self.cell), "text": self.text}


@dataclass(frozen=True)
class Interaction:
    """What a person is asked for now: the kind of input, the prompt's words and what a
    page needs to compose a move when the legal moves are too many to list.

    >>> Interaction(InteractionKind.CELLS, "choose 3 empty cells", count=3).to_dict()
    ... # doctest: +NORMALIZE_WHITESPACE
    {'kind': 'cells', 'prompt': 'choose 3 empty cells', 'count': 3, 'can_pass': False,
     'pass_move': None, 'parts': [], 'joiner': ' '}
    """

    kind: InteractionKind
    prompt: str
    count: int = 1
    """How many cells one move takes (:attr:`InteractionKind.CELLS`)."""
    can_pass: bool = False
    """Whether a move without a cell (a pass, an end of blocking) is among the choices."""
    pass_move: str | None = None
    """That move's text in the game's notation (``None`` when ``can_pass`` is false)."""
    parts: tuple[Part, ...] = field(default=(), compare=False, repr=False)
    """The cells a person may pick now, each with its text, for games whose move is a set of
    :attr:`count` cells (one for a single-cell move); a move is the texts of the picked parts
    joined by :attr:`joiner`. Empty where a move is not composed this way (the page then
    picks among the listed moves). Derived from the position, so left out of equality."""
    joiner: str = " "
    """What separates the parts' texts in a composed move."""

    def compose(self, cells: Sequence[tuple[int, int]]) -> str | None:
        """The move made of the parts at ``cells`` (in that order), or ``None`` if a cell
        is not among the parts or the number of cells is not :attr:`count`.

        >>> asked = Interaction(InteractionKind.CELLS, "choose 2 cells", count=2,
        ...                     parts=(Part((0, 0), "1,1"), Part((1, 2), "3,2")))
        >>> asked.compose([(1, 2), (0, 0)]), asked.compose([(0, 0)])
        ('3,2 1,1', None)
        """
        texts = {part.cell: part.text for part in self.parts}
        if len(cells) != self.count or len(set(cells)) != len(cells) \
                or any(tuple(cell) not in texts for cell in cells):
            return None
        return self.joiner.join(texts[(cell[0], cell[1])] for cell in cells)

    def to_dict(self) -> dict[str, Any]:
        return {"kind": str(self.kind), "prompt": self.prompt, "count": self.count,
                "can_pass": self.can_pass, "pass_move": self.pass_move,
                "parts": [part.to_dict() for part in self.parts], "joiner": self.joiner}


@dataclass(frozen=True)
class Side:
    """One side of a game as people see it: its name, its pieces' colour and their outline.

    >>> Side("Blue", "#2f6db3").to_dict()
    {'name': 'Blue', 'colour': '#2f6db3', 'outline': 'rgba(0,0,0,0.25)'}
    """

    name: str
    colour: str
    outline: str = "rgba(0,0,0,0.25)"

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "colour": self.colour, "outline": self.outline}


@dataclass(frozen=True)
class Look:
    """How a game looks on a page: the board's and its lines' colours, whether its pieces
    are stones (drawn larger, touching), and its two sides. Pages draw every game from its
    look and its display data alone, never from its name.

    >>> Look().to_dict()["sides"][0]["name"]
    'Player 1'
    """

    board: str = "#fbfaf7"
    line: str = "#d9d4ca"
    stones: bool = False
    sides: tuple[Side, Side] = (Side("Player 1", "#2f6db3"), Side("Player 2", "#c4453c"))

    def to_dict(self) -> dict[str, Any]:
        return {"board": self.board, "line": self.line, "stones": self.stones,
                "sides": [side.to_dict() for side in self.sides]}


@dataclass(frozen=True)
class MoveChoice:
    """One legal move as a person picks it: its action, its notation, the grid cells clicked
    for it (row 0 at the top, in click order; none for a pass) and a short label.

    >>> MoveChoice(5, "[1,1,1,2]", ((0, 0), (0, 1)), "move").to_dict()
    {'action': 5, 'move': '[1,1,1,2]', 'cells': [[0, 0], [0, 1]], 'label': 'move'}
    """

    action: Action
    text: str
    cells: tuple[tuple[int, int], ...]
    label: str
    detail: str = ""
    """What the move does beyond its label, in words (who scores, who wins by it); ``""``
    when the label says it all."""

    def to_dict(self) -> dict[str, Any]:
        shown = {"action": self.action, "move": self.text,
                 "cells": [list(cell) for cell in self.cells], "label": self.label}
        if self.detail:
            shown["detail"] = self.detail
        return shown


RULES_TITLES = ("Your move", "The rule of Life", "How to win")
"""The titles of a :class:`RulesCard`'s three sections, in order (pages and the terminal show
them as they are; a game that is not Life says so in the second)."""


@dataclass(frozen=True)
class RulesCard:
    """A game's rules on one card, for a person who never heard of the game: how a move
    works, the rule of Life the game runs under its actual parameters, how the game is won,
    and a tiny picture (a small example position's :meth:`Presentation.display`, with the
    births and deaths of one generation where the game has generations) with a caption.

    >>> card = RulesCard("demo", "Demo", "Move a piece.", "None.", "Take the king.",
    ...                  {"text": "."}, "a position")
    >>> [section["title"] for section in card.to_dict()["sections"]]
    ['Your move', 'The rule of Life', 'How to win']
    >>> card.to_dict()["lesson"]
    '/learn/demo'
    """

    game: str
    """The game's name (``war_of_life``)."""
    name: str
    """The game's name as people write it (``War of Life``)."""
    move: str
    """How a move works."""
    life: str
    """The rule of Life the game runs, for these parameters (or why there is none)."""
    win: str
    """How the game is won, drawn or ends."""
    picture: Mapping[str, Any] = field(default_factory=dict, compare=False)
    """A small example position as :meth:`Presentation.display` draws it."""
    caption: str = ""
    """One line saying what the picture shows."""

    @property
    def sections(self) -> tuple[tuple[str, str], ...]:
        """``(title, text)`` of each section, in :data:`RULES_TITLES`' order."""
        return tuple(zip(RULES_TITLES, (self.move, self.life, self.win), strict=True))

    @property
    def lesson(self) -> str:
        """The address of the game's lesson page."""
        return f"/learn/{self.game}"

    def to_dict(self) -> dict[str, Any]:
        """The card as JSON-able data (what ``GET /api/rules/{game}`` answers)."""
        return {"game": self.game, "name": self.name,
                "sections": [{"title": title, "text": text} for title, text in self.sections],
                "picture": dict(self.picture), "caption": self.caption,
                "lesson": self.lesson}

    def to_text(self) -> str:
        """The card for a terminal: the name, then each section under its title, then the
        caption of the picture.

        >>> print(RulesCard("demo", "Demo", "Move.", "None.", "Win.").to_text())
        Demo
        <BLANKLINE>
        Your move
          Move.
        <BLANKLINE>
        The rule of Life
          None.
        <BLANKLINE>
        How to win
          Win.
        """
        lines = [self.name]
        for title, text in self.sections:
            lines += ["", title, textwrap.fill(text, 88, initial_indent="  ",
                                               subsequent_indent="  ")]
        if self.caption:
            lines += ["", textwrap.fill(f"Picture: {self.caption}", 88)]
        return "\n".join(lines)


class Presentation:
    """How a game's positions look and how a person picks a move: the half of a game that
    the terminal and the web read, kept apart from the rules (:class:`State`).

    One instance per game (``Game.presentation``); it holds nothing and takes the state in
    every method. A game subclasses it and overrides what it can say better than these
    defaults, which work for any game from the rules protocol alone.

    >>> from lifearena.games.war_of_life import from_prolog
    >>> state = from_prolog("[[[1,1],[1,2]],[[8,8]]]")
    >>> shown = state.game.presentation
    >>> shown.interaction(state, 0).kind
    <InteractionKind.PIECE_THEN_TARGET: 'piece-then-target'>
    >>> shown.interaction(state, 1).kind
    <InteractionKind.WAIT: 'wait'>
    >>> shown.look.sides[0].name
    'Blue'
    """

    look: ClassVar[Look] = Look()
    """How the game looks on a page: board colours and its sides' names and colours."""

    def text(self, state: State) -> str:
        """The position as a text board (what ``str(state)`` prints)."""
        return f"{state.info.long_name}, move {state.move_number()}"

    def display(self, state: State, player: int | None = None) -> dict[str, Any]:
        """What a page needs to draw the position for ``player`` (``None``: a spectator), as
        JSON-able data; never more than ``state.view(player)`` shows that player.

        Grid games return ``{"grid": {"rows", "cols", "cells", "row_labels",
        "col_labels"}, "counts": [...], "count_label", "before", "births", "deaths",
        "status"}`` (cells 0 empty, 1 and 2 the players' colours, row 0 at the top;
        ``before`` the board as it stood just before the last generation, ``births`` and
        ``deaths`` the ``[row, column]`` cells that generation changed; ``last`` the cells
        of the last move, which a page marks; ``cell_name`` how the game's notation names a
        cell, a template over the grid's ``{row}`` and ``{col}`` labels such as
        ``"{row},{col}"``). The default is the text picture only.
        """
        return {"text": str(state if player is None else state.view(player))}

    def rules(self, state: State) -> RulesCard:
        """The game's rules on one card, for the parameters of ``state`` (a game overrides
        it with its own words and picture). The default says what the protocol knows: the
        move notation and the game's name."""
        info = state.info
        return RulesCard(info.name, info.long_name, f"Type a move: {state.move_help}.",
                         "This game does not say which rule of Life it runs.",
                         "The game's rules decide; the result is shown when it ends.",
                         self.display(state), "the start")

    def action_cells(self, state: State, action: Action) -> list[tuple[int, int]]:
        """The ``(row, column)`` cells of :meth:`display`'s grid that ``action`` touches (row 0
        at the top), in the order a person clicks them. The default: none."""
        return []

    def explain_illegal(self, state: State, action: Action, player: int | None = None) -> str:
        """One line saying why the parsed ``action`` of ``player`` (default: the player to
        move) may not be played now. The default names the move and whose turn it is."""
        current = state.current_player()
        if current == TERMINAL:
            return "the game is over; no move can be played"
        who = current if player is None else player
        if current not in (SIMULTANEOUS, who):
            return (f"it is not {state.info.player_symbols[who]}'s turn; "
                    f"{state.info.player_symbols[current]} is to move")
        described = describe_action(state, action, who)
        if action in state.legal_actions(who):
            return f"{described} is legal"
        return f"{described} is not a legal move here"

    def interaction(self, state: State, player: int) -> Interaction:
        """What the board asks of ``player`` now. The default: a typed move in the game's
        notation, or :attr:`InteractionKind.WAIT` when ``player`` has no move."""
        if not self._to_act(state, player):
            return Interaction(InteractionKind.WAIT, "nothing to do now")
        return Interaction(InteractionKind.ANSWER, state.move_help)

    def choice_label(self, state: State, action: Action, player: int) -> str:
        """A short label of one legal move on a button or in a list (default: "move")."""
        return "move"

    def choices(self, state: State, player: int) -> list[MoveChoice]:
        """``player``'s legal moves, each with its notation, the cells a person clicks and
        a label: what a page offers on the board, from this presentation alone."""
        return [MoveChoice(a, state.action_to_string(a, player),
                           tuple(self.action_cells(state, a)),
                           self.choice_label(state, a, player),
                           self.choice_detail(state, a, player))
                for a in state.legal_actions(player)]

    def choice_detail(self, state: State, action: Action, player: int) -> str:
        """What a legal move does beyond its label, in words, for a person about to pick it
        (a game where one click may help the other side says so: Losat's captures score for
        the surrounding colour); ``""`` by default."""
        return ""

    def move_prompt(self, state: State, player: int) -> str:
        """What a person typing ``player``'s move is asked for now, in the game's notation
        (default the state's ``move_help``)."""
        return state.move_help

    def move_sides(self, first: int, history: Sequence[HistoryItem]) -> list[int | None]:
        """Which side played each item of ``history`` (``None``: a simultaneous turn, both
        sides at once), ``first`` being the side to move at the start: what a move list
        needs to put each move in its side's column. The default: the sides alternate.

        >>> Presentation().move_sides(1, [5, 7, (1, 2)])
        [1, 0, None]
        """
        sides: list[int | None] = []
        side = first
        for item in history:
            if isinstance(item, tuple):
                sides.append(None)
                continue
            sides.append(side)
            side = 1 - side
        return sides

    def legal_moves_text(self, state: State, player: int | None = None) -> str:
        """The legal moves of ``player`` (default the one to move) in the game's notation,
        for a person who asks for them."""
        who = state.current_player() if player is None else player
        return " ".join(state.action_to_string(a, who) for a in state.legal_actions(who))

    @staticmethod
    def _to_act(state: State, player: int) -> bool:
        """Whether ``player`` has a move to make now."""
        current = state.current_player()
        return current in (SIMULTANEOUS, player) and bool(state.legal_actions(player))


_PLAIN = Presentation()


def presentation_of(state: State) -> Presentation:
    """The presentation of ``state``'s game (the plain default for a state of no registered
    game); a state class with a ``presentation`` of its own has that one (a game whose
    states come in kinds that look apart: Life for Two's 1978 program is a transcript).

    >>> from lifearena.games.losat import new_game
    >>> type(presentation_of(new_game())).__name__
    'LosatPresentation'
    """
    own = getattr(type(state), "presentation", None)
    if isinstance(own, Presentation):
        return own
    game = getattr(type(state), "game_type", None)
    return game.presentation if game is not None else _PLAIN


def describe_action(state: State, action: Action, player: int) -> str:
    """``action`` in quotes in the game's notation, or ``action N`` where it has none (out of
    range): how an error message names a move."""
    try:
        return repr(state.action_to_string(action, player))
    except Exception:  # an out-of-range action has no notation
        return f"action {action}"


class Game:
    """A game with its parameters (OpenSpiel's meaning): immutable, and the maker of states.

    A game subclasses it with its static :attr:`info`, its parameter :attr:`specs` and its
    :attr:`state_type`, and fills in :meth:`_initial_state` (and, where they depend on the
    parameters, :attr:`num_distinct_actions` and :attr:`observation_shape`). The referee,
    tournaments, records, the research adapters, the command line's option ranges and the web
    form all read a game's parameters from its specs.

    >>> from lifearena.games.losat import LosatGame
    >>> game = LosatGame(width=9)
    >>> game
    LosatGame(width=9)
    >>> game.params["width"], game.num_distinct_actions
    (9, 685)
    >>> game.new_initial_state().game == game
    True
    >>> LosatGame(width=40)
    Traceback (most recent call last):
    ...
    lifearena.errors.BadParameterError: losat parameter width=40; expected an integer 5..25
    """

    info: ClassVar[GameInfo]
    specs: ClassVar[tuple[ParamSpec, ...]] = ()
    state_type: ClassVar[type[State]]
    presentation: ClassVar[Presentation] = Presentation()
    """How the game's positions look and how a person picks a move."""
    tournament_params: ClassVar[Mapping[str, Any]] = {}
    """Parameters a tournament plays with unless told otherwise (a turn cap for a game that
    has no limit of its own)."""

    def __init__(self, params: Mapping[str, Any] | None = None, /, **values: Any) -> None:
        merged = {**dict(params or {}), **values}
        checked = check_values(self.specs, merged, self.info.name)
        self._params: dict[str, Any] = self._check_together(checked)

    # -- hooks a game fills in --------------------------------------------------------------

    def _initial_state(self, seed: int | None) -> State:
        """The start of a game (``seed``: the random start's seed, or ``None`` for the
        game's own ``seed`` parameter)."""
        raise NotImplementedError(f"{self.info.name} has no initial state")

    def _check_together(self, values: dict[str, Any]) -> dict[str, Any]:
        """Checks that involve several parameters at once (each one alone is already
        checked against its spec); the values, possibly completed."""
        return values

    # -- derived ----------------------------------------------------------------------------

    @property
    def params(self) -> dict[str, Any]:
        """Every parameter's value (a copy)."""
        return dict(self._params)

    @property
    def rule_params(self) -> dict[str, Any]:
        """The parameters of the rules (not of the start): what states and records keep."""
        return {s.name: self._params[s.name] for s in self.specs if not s.start}

    @classmethod
    def from_served(cls, values: Mapping[str, Any]) -> Self:
        """The game a public server's form asks for: only the parameters the form offers
        (the others keep their defaults), each within its spec's ``served`` range.

        >>> from lifearena.games.losat import LosatGame
        >>> LosatGame.from_served({"width": 9})
        LosatGame(width=9)
        >>> LosatGame.from_served({"max_moves": 10})  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        lifearena.errors.BadParameterError: unknown losat parameter(s) max_moves; expected ...
        """
        return cls(check_values(cls.specs, values, cls.info.name, served=True))

    @classmethod
    def spec(cls, name: str) -> ParamSpec:
        """The spec of the parameter called ``name``."""
        for spec in cls.specs:
            if spec.name == name:
                return spec
        raise BadParameterError(f"unknown {cls.info.name} parameter {name!r:.40}; expected "
                                f"one of {', '.join(s.name for s in cls.specs) or '(none)'}")

    @classmethod
    def rule_specs(cls) -> tuple[ParamSpec, ...]:
        """The specs of the rules' parameters."""
        return tuple(s for s in cls.specs if not s.start)

    def new_initial_state(self, seed: int | None = None) -> State:
        """The start of a game with these parameters; ``seed`` (where the game has a random
        start) replaces the game's ``seed`` parameter."""
        state = self._initial_state(seed)
        state._game = self if seed is None or "seed" not in self._params else \
            self.with_params(seed=seed)
        return state

    def state_from_setup(self, setup: str) -> State:
        """A state at the position ``setup`` (the game's position notation), under these
        rules."""
        state = self.state_type.from_setup(setup, **self.rule_params)
        state._game = self
        return state

    def with_params(self, **values: Any) -> Self:
        """This game with some parameters changed (checked again)."""
        return type(self)({**self._params, **values})

    @property
    def num_distinct_actions(self) -> int:
        """Actions are ``0 <= a < num_distinct_actions`` under these parameters."""
        return self.info.num_distinct_actions

    @property
    def observation_shape(self) -> tuple[int, ...]:
        """The shape of :meth:`State.observation` under these parameters."""
        return tuple(self.new_initial_state().observation(0).shape)

    @property
    def max_game_length(self) -> int:
        """The most actions a game under these parameters can take."""
        return self.info.max_game_length

    def __repr__(self) -> str:
        changed = ", ".join(f"{s.name}={self._params[s.name]!r}" for s in self.specs
                            if self._params[s.name] != s.default)
        return f"{type(self).__name__}({changed})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Game) and type(other) is type(self) \
            and other._params == self._params

    def __hash__(self) -> int:
        return hash((type(self), tuple(sorted(self._params.items()))))

    def __copy__(self) -> Self:
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> Self:
        return self


class State(ABC):
    """A position of a game. Subclasses fill in the hooks marked *abstract* (and
    ``_apply_action`` / ``_apply_actions`` as their dynamics need).

    The base class keeps ``_history`` and checks legality in :meth:`apply_action` and
    :meth:`apply_actions` unless called with ``check=False``.
    """

    info: GameInfo
    """The game's static facts; a game whose sizes follow its parameters (Losat, p2life)
    gives each state its own copy."""
    game_type: ClassVar[type[Game]]
    """The :class:`Game` whose states these are (set by :func:`register_game`)."""
    move_help: ClassVar[str] = "a move in the game's notation"
    """One line describing the move notation (prompts and help commands show it)."""

    def __init__(self, params: Mapping[str, Any] | None = None) -> None:
        self.params: dict[str, Any] = dict(params or {})
        self._history: list[HistoryItem] = []
        self._game: Game | None = None

    @property
    def game(self) -> Game:
        """The game this is a state of (its parameters are the state's rules parameters, and
        the start parameters of the game that made it, when one did)."""
        game = getattr(self, "_game", None)
        if game is None:
            game = self._game = self.game_type(self.params)
        return game

    # -- hooks a game fills in ------------------------------------------------------------

    @abstractmethod
    def current_player(self) -> int:
        """0 or 1, or :data:`CHANCE`, :data:`SIMULTANEOUS`, :data:`TERMINAL`."""

    @abstractmethod
    def _legal_actions(self, player: int) -> list[Action]:
        """The sorted legal actions of ``player`` (only called when it is their turn)."""

    def _apply_action(self, action: Action) -> None:
        """Apply a sequential or chance action (legality already checked)."""
        raise NotImplementedError(f"{self.info.name} has no sequential nodes")

    def _apply_actions(self, actions: Sequence[Action]) -> None:
        """Apply one action per player at a simultaneous node (legality already checked)."""
        raise NotImplementedError(f"{self.info.name} has no simultaneous nodes")

    @abstractmethod
    def outcome(self) -> Outcome | None:
        """How the game ended, or ``None`` while it goes on."""

    def could_win(self, player: int) -> bool:
        """Whether ``player`` could still win from here by some play of both sides: a side
        whose opponent's time runs out wins only if it could (else the game is drawn).
        The default, ``True``, is safe for every game; a game that can tell (no pieces left
        to win with) overrides it."""
        return not self.is_terminal()

    @abstractmethod
    def action_to_string(self, action: Action, player: int | None = None) -> str:
        """The game's notation for ``action`` (of ``player``, default the one to move)."""

    @abstractmethod
    def string_to_action(self, text: str, player: int | None = None) -> Action:
        """Parse the notation; raise :class:`ParseError` if malformed. Does not check legality."""

    @abstractmethod
    def observation(self, player: int) -> np.ndarray:
        """What ``player`` sees, as int8 planes ``(planes, height, width)``."""

    @abstractmethod
    def setup(self) -> str:
        """The initial position of this game in the game's position notation."""

    @classmethod
    @abstractmethod
    def from_setup(cls, setup: str, **params: Any) -> Self:
        """A new state at ``setup`` (the notation :meth:`setup` returns) with ``params``."""

    def chance_outcomes(self) -> list[tuple[Action, float]]:
        """At a chance node: the possible actions and their probabilities."""
        return []

    def __str__(self) -> str:
        """The position as a text board (the presentation's ``text``)."""
        return presentation_of(self).text(self)

    def view(self, player: int) -> State:
        """A copy showing only what ``player`` may see. Perfect-information games return a
        clone; games with hidden information override this to hide it."""
        return self.clone()

    def evaluate(self, player: int) -> float:
        """A heuristic value of the position for ``player`` in [-1, 1] (search agents use it).
        The default is the final return at terminal states and 0 elsewhere."""
        if self.is_terminal():
            return self.returns()[player]
        return 0.0

    # -- derived --------------------------------------------------------------------------

    def read_move(self, text: str, player: int | None = None) -> Action:
        """A person's move: parse ``text`` in the game's notation for ``player`` (default the
        one to move) and check it. Raises :class:`ParseError` for malformed text and
        :class:`IllegalMoveError` with the line of the presentation's ``explain_illegal``
        for an illegal move."""
        current = self.current_player()
        if player is None and current == SIMULTANEOUS:
            raise BadParameterError("at a simultaneous node, say whose move this is")
        who = current if player is None else player
        action = self.string_to_action(text, who)
        if current not in (SIMULTANEOUS, who) or not self._is_legal(action, who):
            raise IllegalMoveError(presentation_of(self).explain_illegal(self, action, who))
        return action

    def _is_legal(self, action: Action, player: int) -> bool:
        """Whether ``action`` is legal for ``player``, who acts now (the check of
        :meth:`apply_action`, :meth:`apply_actions` and :meth:`read_move`). The default looks
        it up in :meth:`_legal_actions`; a game with long lists of legal moves answers
        directly."""
        return action in self._legal_actions(player)

    def _refusal(self, action: Action, player: int) -> IllegalMoveError:
        """The error of an illegal ``action`` of ``player``, with the presentation's reason."""
        why = presentation_of(self).explain_illegal(self, action, player)
        return IllegalMoveError(f"illegal move for player {player + 1} "
                                f"({self.info.player_symbols[player]}): {why}")


    def legal_actions(self, player: int | None = None) -> list[Action]:
        """The sorted legal actions of ``player`` (default: the player to move).

        Empty at terminal states, and for a player who is not to move.
        """
        current = self.current_player()
        if current == TERMINAL:
            return []
        if player is None:
            if current == SIMULTANEOUS:
                raise BadParameterError("at a simultaneous node, say whose legal actions you want")
            player = current
        if current == SIMULTANEOUS or player == current:
            return self._legal_actions(player)
        return []

    def legal_actions_mask(self, player: int | None = None) -> np.ndarray:
        """A 0/1 int8 vector over all actions, 1 where the action is legal."""
        mask = np.zeros(self.info.num_distinct_actions, dtype=np.int8)
        mask[self.legal_actions(player)] = 1
        return mask

    def apply_action(self, action: Action, *, check: bool = True) -> None:
        """Play ``action`` for the player to move (or the chance outcome ``action``)."""
        current = self.current_player()
        if current == SIMULTANEOUS:
            raise IllegalMoveError("this is a simultaneous node; use apply_actions with one "
                                   "action per player")
        if check:
            if current == TERMINAL:
                raise IllegalMoveError("the game is over; no move can be played")
            if current == CHANCE:
                legal = [a for a, _ in self.chance_outcomes()]
                if action not in legal:
                    raise IllegalMoveError(f"illegal chance outcome "
                                           f"{describe_action(self, action, current)}; "
                                           f"expected one of the {len(legal)} outcomes")
            elif not self._is_legal(action, current):
                raise self._refusal(action, current)
        self._apply_action(int(action))
        self._history.append(int(action))

    def apply_actions(self, actions: Sequence[Action], *, check: bool = True) -> None:
        """Play one action per player at a simultaneous node."""
        if self.current_player() != SIMULTANEOUS:
            raise IllegalMoveError("not a simultaneous node; use apply_action")
        if len(actions) != self.info.num_players:
            raise IllegalMoveError(f"got {len(actions)} actions; expected one per player "
                                   f"({self.info.num_players})")
        if check:
            for player, action in enumerate(actions):
                if not self._is_legal(action, player):
                    raise self._refusal(action, player)
        joint = tuple(int(a) for a in actions)
        self._apply_actions(joint)
        self._history.append(joint)

    def apply_move_text(self, text: str, player: int | None = None) -> Action:
        """Parse ``text`` in the game's notation, check and play it; return the action."""
        action = self.string_to_action(text, player)
        self.apply_action(action)
        return action

    def is_terminal(self) -> bool:
        return self.current_player() == TERMINAL

    def is_chance_node(self) -> bool:
        return self.current_player() == CHANCE

    def is_simultaneous_node(self) -> bool:
        return self.current_player() == SIMULTANEOUS

    def returns(self) -> tuple[float, ...]:
        """The players' returns: +1/-1 for a win/loss, 0 for a draw or an unfinished game."""
        outcome = self.outcome()
        if outcome is None:
            return (0.0,) * self.info.num_players
        return outcome.returns(self.info.num_players)

    def history(self) -> list[HistoryItem]:
        """The actions applied since the setup, in order (a copy)."""
        return list(self._history)

    def move_number(self) -> int:
        """How many actions (joint actions at simultaneous nodes) have been applied."""
        return len(self._history)

    def clone(self) -> Self:
        """An independent copy."""
        return copy.deepcopy(self)

    def history_strings(self) -> list[str]:
        """The history in the game's notation; joint actions joined with ``" | "``."""
        replay = type(self).from_setup(self.setup(), **self.params)
        texts = []
        for item in self._history:
            if isinstance(item, tuple):
                texts.append(" | ".join(replay.action_to_string(a, p) for p, a in enumerate(item)))
                replay.apply_actions(item, check=False)
            else:
                player = replay.current_player()
                texts.append(replay.action_to_string(item, None if player < 0 else player))
                replay.apply_action(item, check=False)
        return texts

    def record(self, players: Sequence[str] = ("player_0", "player_1"), **extra: Any) -> Record:
        """This game as a :class:`Record` (game, parameters, setup, players, moves, result)."""
        outcome = self.outcome()
        return Record(
            game=self.info.name,
            params=dict(self.params),
            setup=self.setup(),
            players=list(players),
            moves=self.history_strings(),
            result=str(outcome) if outcome else "*",
            extra=dict(extra),
            outcome=outcome.to_dict() if outcome else None,
            version=self.info.rules_version,
        )


@runtime_checkable
class Undo(Protocol):
    """Make and unmake, as python-chess's ``push``/``pop``: a game that offers it lets a
    search play moves on one state and take them back, instead of copying the state for
    every child.

    ``push(action)`` plays a legal sequential action (unchecked, for speed: a search plays
    only legal moves) and records it in the history; ``pop()`` takes the last pushed action
    back and returns it. A pushed and popped state is the state it was, key and history
    included.
    """

    def push(self, action: Action) -> None: ...

    def pop(self) -> Action: ...


@runtime_checkable
class PositionKey(Protocol):
    """A game whose positions have a cheap exact key (a Zobrist hash with the side to move
    and whatever else decides the future) for transposition tables."""

    def key(self) -> Hashable: ...


@runtime_checkable
class OrderedMoves(Protocol):
    """A game that knows which moves to search first (captures, advances...)."""

    def order_actions(self, actions: Sequence[Action], player: int) -> list[Action]: ...


@runtime_checkable
class BatchedChildren(Protocol):
    """A game that values every child of a position in one call: the mover's legal actions,
    each child's value for ``player`` and whether each child is terminal."""

    def evaluate_children(self, player: int
                          ) -> tuple[Sequence[Action], np.ndarray, np.ndarray]: ...


@dataclass
class Record:
    """A game record: enough to replay the game exactly.

    Text form (PGN-like)::

        [Game "war_of_life"]
        [Params "{}"]
        [Setup "[[[1,1]],[[8,8]]]"]
        [Player0 "minimax"]
        [Player1 "random"]
        [Result "b wins (win)"]
        [Outcome "{\"detail\": \"\", \"termination\": \"win\", \"winner\": 0, ...}"]
        [Version "1"]

        1. [1,1,2,2]
        2. [8,8,7,7]

    ``result`` is the outcome in words; ``outcome`` the same, structured (termination,
    winner, detail: :meth:`Outcome.to_dict`), ``None`` while the game goes on or in records
    written before it was kept; ``version`` the game's rules version the game was played
    under (1 in records that do not say).

    >>> record = Record("demo", {}, "start", ["a", "b"], ["x", "y | z"], "*")
    >>> Record.from_text(record.to_text()) == record
    True
    >>> Record.from_json(record.to_json()) == record
    True
    >>> won = Record("demo", {}, "start", ["a", "b"], ["x"], "a wins (win)",
    ...              outcome=Outcome(Termination.WIN, 0, "a").to_dict())
    >>> Record.from_text(won.to_text()).outcome_value()
    Outcome(termination=<Termination.WIN: 'win'>, winner=0, winner_symbol='a', detail='')
    """

    game: str
    params: dict[str, Any]
    setup: str
    players: list[str]
    moves: list[str]
    result: str = "*"
    extra: dict[str, Any] = field(default_factory=dict)
    outcome: dict[str, Any] | None = None
    version: int = 1

    def to_json(self) -> str:
        return json.dumps(self.__dict__, sort_keys=True)

    def outcome_value(self) -> Outcome | None:
        """The structured outcome as an :class:`Outcome` (``None`` when the record has none)."""
        return None if self.outcome is None else Outcome.from_dict(self.outcome)

    @staticmethod
    def refuse_binary(text: str) -> str:
        """``text``, if it can be a record's text; else a :class:`ParseError` of one line
        naming what it seems to be (:func:`~lifearena.errors.binary_kind`), never quoting it:
        a picture, an archive or a database given as a record.

        >>> png = bytes([0x89, 0x50, 0x4e, 0x47, 13, 10, 26, 10, 0, 0]).decode("latin-1")
        >>> Record.refuse_binary(png)  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        lifearena.errors.ParseError: that is not a record: it is binary (PNG image); expected ...
        """
        kind = binary_kind(text)
        if kind is not None:
            raise ParseError(f"that is not a record: it is binary ({kind}); expected a JSON or "
                             "text record")
        return text

    @classmethod
    def from_json(cls, text: str) -> Record:
        """The record of its JSON form (:meth:`to_json`); :class:`ParseError` of one short
        line, as for :meth:`load`, when ``text`` is not one."""
        cls.refuse_binary(text)
        try:
            data = json.loads(text)
        except json.JSONDecodeError as error:
            raise ParseError(f"record is not valid JSON: {error.msg} at line {error.lineno}, "
                             f"column {error.colno}") from None
        except (ValueError, RecursionError):   # a number of thousands of digits; [[[[...
            raise ParseError("record is not valid JSON that can be read: a number too long or "
                             "lists nested too deep") from None
        if not isinstance(data, dict):
            raise ParseError("record JSON must be an object with game, params, setup, players, "
                             "moves")
        missing = [k for k in ("game", "params", "setup", "players", "moves") if k not in data]
        if missing:
            raise ParseError(f"record JSON lacks {', '.join(missing)}")
        known = {k: data[k] for k in ("game", "params", "setup", "players", "moves", "result",
                                      "extra", "outcome", "version") if k in data}
        return cls(**known).checked()

    def checked(self) -> Record:
        """This record, once each field has the right type; else :class:`ParseError` naming
        the field.

        >>> Record("demo", {}, "start", ["a", "b"], ["x", 3]).checked()
        Traceback (most recent call last):
        ...
        lifearena.errors.ParseError: record field 'moves': item 2 is 3; expected a string
        """
        def fail(name: str, value: Any, expected: str) -> ParseError:
            return ParseError(f"record field {name!r}: {value!r:.80}; expected {expected}")

        for name in ("game", "setup", "result"):
            if not isinstance(getattr(self, name), str):
                raise fail(name, getattr(self, name), "a string")
        if not self.game.strip() or len(self.game) > QUOTE_LIMIT:
            raise fail("game", self.game, "a game's name")
        for name in ("params", "extra"):
            value = getattr(self, name)
            if not isinstance(value, dict) or not all(isinstance(k, str) for k in value):
                raise fail(name, value, "a JSON object")
        for name in ("players", "moves"):
            value = getattr(self, name)
            if not isinstance(value, list):
                raise fail(name, value, "a list of strings")
            for i, item in enumerate(value, start=1):
                if not isinstance(item, str):
                    raise ParseError(f"record field {name!r}: item {i} is {item!r:.80}; "
                                     "expected a string")
        if self.outcome is not None:
            if not isinstance(self.outcome, dict):
                raise fail("outcome", self.outcome, "a JSON object or null")
            self.outcome_value()
        if isinstance(self.version, bool) or not isinstance(self.version, int) \
                or self.version < 1:
            raise fail("version", self.version, "a rules version, an integer from 1")
        return self

    def to_text(self) -> str:
        tags = [
            ("Game", self.game),
            ("Params", json.dumps(self.params, sort_keys=True)),
            ("Setup", self.setup),
            *((f"Player{i}", name) for i, name in enumerate(self.players)),
            ("Result", self.result),
        ]
        if self.extra:
            tags.append(("Extra", json.dumps(self.extra, sort_keys=True)))
        if self.outcome is not None:
            tags.append(("Outcome", json.dumps(self.outcome, sort_keys=True)))
        tags.append(("Version", str(self.version)))
        head = "\n".join(f"[{k} {json.dumps(v)}]" for k, v in tags)
        body = "\n".join(f"{i}. {m}" for i, m in enumerate(self.moves, start=1))
        return f"{head}\n\n{body}\n"

    @classmethod
    def from_text(cls, text: str) -> Record:
        """The record of its text form (:meth:`to_text`); :class:`ParseError` of one short
        line, as for :meth:`load`, when ``text`` is not one: a bad line is quoted, at most
        :data:`~lifearena.errors.QUOTE_LIMIT` characters of it.

        >>> Record.from_text("[Game \\"demo\\"]\\n" + "x" * 5000)  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        lifearena.errors.ParseError: bad move line 2: 'xxx...xxx'… (5000 characters); expected ...
        """
        tags: dict[str, str] = {}
        moves: list[str] = []
        for number, raw in enumerate(cls.refuse_binary(text).splitlines(), start=1):
            line = raw.strip()
            if not line or line.startswith("#"):
                continue
            if line.startswith("["):
                key, _, value = line[1:].rstrip("]").partition(" ")
                try:
                    tags[key] = json.loads(value)
                except (ValueError, RecursionError):
                    raise ParseError(f"bad tag at line {number}: {quoted(raw)}; expected "
                                     '[Name "value"]') from None
                continue
            head, dot, move = line.partition(". ")
            if not dot or not head.isdigit():
                raise ParseError(f"bad move line {number}: {quoted(raw)}; expected "
                                 "'N. move'")
            moves.append(move.strip())
        for key in ("Game", "Setup"):
            if key not in tags:
                raise ParseError(f"record lacks the [{key} \"...\"] tag")
        try:
            params = json.loads(tags.get("Params", "{}"))
            extra = json.loads(tags.get("Extra", "{}"))
            outcome = json.loads(tags["Outcome"]) if "Outcome" in tags else None
        except (ValueError, TypeError, RecursionError):
            raise ParseError("record's Params/Extra/Outcome tag is not a JSON object") from None
        version_text = str(tags.get("Version", "1"))
        if not version_text.isascii() or not version_text.isdigit() or len(version_text) > 9:
            raise ParseError(f"record's Version tag {version_text!r:.40}; expected a rules "
                             "version, an integer from 1")
        players = [tags[k] for k in sorted(t for t in tags if t.startswith("Player"))]
        return cls(tags["Game"], params, tags["Setup"], players, moves,
                   tags.get("Result", "*"), extra, outcome, int(version_text)).checked()

    @classmethod
    def load(cls, text: str) -> Record:
        """Read either form (JSON if it starts with ``{``). Text that is not a record is a
        :class:`ParseError` of one line, under 300 characters and with no control
        characters: binary text (a picture, an archive, a database) is named, never quoted
        (:meth:`refuse_binary`); a bad line is quoted, cut to
        :data:`~lifearena.errors.QUOTE_LIMIT` characters."""
        return cls.from_json(text) if text.lstrip().startswith("{") else cls.from_text(text)

    def save(self, path: str | Path) -> Path:
        """Write the record to ``path``: JSON for a ``.json`` name, else the text form. The
        file is written whole or not at all (a temporary file then a rename).

        >>> import tempfile, pathlib
        >>> folder = pathlib.Path(tempfile.mkdtemp())
        >>> record = Record("demo", {}, "start", ["a", "b"], ["x"], "*")
        >>> Record.read(record.save(folder / "game.json")) == record
        True
        """
        path = Path(path)
        text = self.to_json() + "\n" if path.suffix.lower() == ".json" else self.to_text()
        partial = path.with_name(path.name + ".partial")
        partial.write_text(text, encoding="utf-8")
        partial.replace(path)
        return path

    @classmethod
    def read(cls, path: str | Path) -> Record:
        """The record saved in ``path`` (either form); :class:`ParseError` names the file."""
        path = Path(path)
        text = read_text_file(path, "a game record (JSON or text)")
        try:
            return cls.load(text)
        except ParseError as error:
            raise ParseError(f"{path}: {error}") from None


# -- the registry of games ---------------------------------------------------------------------

_GAMES: dict[str, type[Game]] = {}


def register_game(cls: type[Any]) -> type[Any]:
    """Class decorator: make a game findable by its info name.

    ``cls`` is a :class:`Game` subclass (its ``state_type`` learns its game), or, for a game
    written as a :class:`State` alone, the state class: its game is then made here, with a
    parameter spec read off each default of ``info.parameters`` and the start made by the
    class's ``new_game(seed=..., **params)`` where it has one.
    """
    if isinstance(cls, type) and issubclass(cls, Game):
        game = cls
    elif isinstance(cls, type) and issubclass(cls, State):
        game = _game_of_state(cls)
    else:
        raise BadParameterError(f"register_game takes a Game or State class; got {cls!r:.80}")
    game.state_type.game_type = game
    _GAMES[game.info.name] = game
    return cls


def _game_of_state(state_type: type[State]) -> type[Game]:
    specs = [_spec_of_default(name, value) for name, value in state_type.info.parameters.items()]
    maker = getattr(state_type, "new_game", None)
    if maker is not None and "seed" not in state_type.info.parameters:
        specs.append(ParamSpec("seed", "int", 0, low=0, high=2**63 - 1, start=True,
                               label="Seed"))

    def initial_state(self: Game, seed: int | None) -> State:
        if maker is None:
            raise BadParameterError(f"game {self.info.name!r} has no new_game(seed=...) to "
                                    "make a start; give a setup")
        params = self.rule_params
        chosen = self._params.get("seed", 0) if seed is None else seed
        return maker(seed=chosen, **params)  # type: ignore[no-any-return]

    return type(f"{state_type.__name__}Game", (Game,), {
        "info": state_type.info, "specs": tuple(specs), "state_type": state_type,
        "_initial_state": initial_state, "__module__": state_type.__module__})


def _spec_of_default(name: str, value: Any) -> ParamSpec:
    wide = 2**63 - 1
    if isinstance(value, bool):
        return ParamSpec(name, "bool", value)
    if isinstance(value, int):
        return ParamSpec(name, "int", value, low=-wide, high=wide)
    if isinstance(value, float):
        return ParamSpec(name, "float", value, low=-float(wide), high=float(wide))
    if value is None:
        return ParamSpec(name, "int", None, low=1, high=wide, optional=True)
    return ParamSpec(name, "text", str(value), max_length=10_000)


def game_type(name: str) -> type[Game]:
    """The :class:`Game` class of the game called ``name`` (``"war-of-life"`` too)."""
    key = str(name).strip().lower().replace("-", "_")
    if key not in _GAMES and key.isidentifier():
        try:
            importlib.import_module(f"lifearena.games.{key}")
        except ModuleNotFoundError as error:
            if error.name != f"lifearena.games.{key}":
                raise
    if key not in _GAMES:
        raise BadParameterError(f"unknown game {str(name)[:40]!r}; expected one of: "
                                f"{', '.join(sorted(available_games()))}")
    return _GAMES[key]


def get_game(name: str, params: Mapping[str, Any] | None = None, /, **values: Any) -> Game:
    """The game called ``name`` with ``params`` (checked against its specs), as OpenSpiel's
    ``load_game``.

    >>> get_game("losat", width=9).new_initial_state().params["width"]
    9
    """
    return game_type(name)(params, **values)


def load_game(name: str) -> type[State]:
    """The state class of the game called ``name`` (e.g. ``"war_of_life"``)."""
    return game_type(name).state_type


def available_games() -> list[str]:
    """The names of the games in ``lifearena.games`` (importing them registers them)."""
    import importlib.util
    import pkgutil

    # found by name, as load_game does: the protocol layer knows no game module statically
    spec = importlib.util.find_spec("lifearena.games")
    folders = list(spec.submodule_search_locations or []) if spec else []
    for module in pkgutil.iter_modules(folders):
        if not module.name.startswith("_"):
            importlib.import_module(f"lifearena.games.{module.name}")
    return sorted(_GAMES)


def replay(record: Record, *, upto: int | None = None) -> State:
    """The state reached by playing ``record``'s moves (the first ``upto`` of them).

    A record edited by hand is refused with :class:`ParseError` naming what is wrong: the
    field (``game``, ``params``, ``setup``, ``version``...) or the number of the first bad
    move.
    """
    *_, last = replay_positions(record, upto=upto)  # one state, played on: the last yield
    return last


def replay_positions(record: Record, *, upto: int | None = None) -> Iterator[State]:
    """The positions of ``record``, one by one: its start, then the state after each move (the
    first ``upto`` of them). The same state object is played on and yielded each time, so
    take what is needed of it (its display, a clone) before asking for the next.

    >>> record = Record("blocking_queen", {"k": 2}, "9,14", ["", ""], ["5,10", "3,8"])
    >>> [str(state.setup()) + " " + str(state.move_number()) for state in
    ...  replay_positions(record)]
    ['9,14 0', '9,14 1', '9,14 2']
    >>> next(replay_positions(Record("war_of_life", {}, "[[[1,1]],[[8,8]]]", [], [],
    ...                              version=9)))  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    lifearena.errors.ParseError: record field 'version': war_of_life rules version 9; ...
    """
    record.checked()
    try:
        kind = game_type(record.game)
    except ValueError as error:
        raise ParseError(f"record field 'game': {error}") from None
    if record.version != kind.info.rules_version:
        raise ParseError(f"record field 'version': {kind.info.name} rules version "
                         f"{record.version}; this lifearena plays version "
                         f"{kind.info.rules_version} and cannot replay a game played under "
                         "other rules")
    rules = [s.name for s in kind.rule_specs()]
    unknown = sorted(set(record.params) - set(rules))
    if unknown:
        raise ParseError(f"record field 'params': unknown {kind.info.name} parameter(s) "
                         f"{', '.join(map(repr, unknown))}; expected some of: "
                         f"{', '.join(rules) or '(none)'}")
    try:
        state = kind(record.params).state_from_setup(record.setup)
    except (ValueError, TypeError) as error:
        raise ParseError(f"record field 'setup' {record.setup!r:.80} (params "
                         f"{json.dumps(record.params, sort_keys=True):.80}): {error}") from None
    yield state
    for number, text in enumerate(record.moves[:upto], start=1):
        try:
            if state.is_simultaneous_node():
                parts = [p.strip() for p in text.split("|")]
                if len(parts) != state.info.num_players:
                    raise ParseError(f"expected {state.info.num_players} moves joined by '|'")
                state.apply_actions([state.string_to_action(p, i) for i, p in enumerate(parts)])
            else:
                player = state.current_player()
                state.apply_action(state.string_to_action(text, None if player < 0 else player))
        except ValueError as error:
            raise ParseError(f"record move {number} {quoted(text)}: {error}") from None
        yield state
