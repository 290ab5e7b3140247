"""How a Losat position looks and how a person picks a move: the text board, the page's
grid, why a move is illegal, and the point-then-change choice the board offers.

A person clicks a point, then picks one of the changes the rules allow there (add a black or
a white stone, remove, capture); a pass is offered exactly when nothing else is legal.

>>> from lifearena.games.losat import new_game
>>> state = new_game(width=9, length=13)
>>> shown = LosatPresentation()
>>> shown.interaction(state, 0)  # doctest: +NORMALIZE_WHITESPACE
Interaction(kind=<InteractionKind.POINT_THEN_ACTION: 'point-then-action'>,
            prompt='choose a point, then the change to make there: add, remove or capture',
            count=1, can_pass=False, pass_move=None, joiner=' ')
>>> [(c.text, c.cells, c.label) for c in shown.choices(state, 0)][-2:]
[('+wD10', ((3, 3),), 'add white'), ('+wH10', ((3, 7),), 'add white')]
>>> shown.interaction(state, 1).kind
<InteractionKind.WAIT: 'wait'>
"""

from __future__ import annotations

from typing import Any

import numpy as np

from lifearena.core import (
    Action,
    Interaction,
    InteractionKind,
    Look,
    Presentation,
    RulesCard,
    Side,
    State,
)
from lifearena.errors import BadParameterError
from lifearena.games._display import grid_display
from lifearena.games.losat.card import rules_card
from lifearena.games.losat.notation import (
    ADD_BLACK,
    ADD_WHITE,
    CAPTURE,
    COLUMNS,
    PASS,
    REMOVE,
    SYMBOLS,
    Move,
)
from lifearena.games.losat.rules import LosatState

_GROUPS = ("remove", "add", "add", "capture", "pass")
"""The heading of each kind of move (by :class:`~lifearena.games.losat.notation.Move` kind)
in the list of legal moves, and the ``last_kind`` of a page's display."""
_LABELS = ("remove", "add black", "add white", "capture", "pass")
"""The label of each kind of move on a button."""
_COLOUR_NAMES = ("black", "white")


def _losat(state: State) -> LosatState:
    """``state``, known to be a Losat state (a :class:`BadParameterError` if it is not)."""
    if not isinstance(state, LosatState):
        raise BadParameterError(f"the Losat presentation shows Losat states; got a "
                                f"{state.info.name} state")
    return state


def _ordinal(number: int) -> str:
    """``1st``, ``2nd``, ``3rd``, ``4th``, ... ``11th``, ``21st``.

    >>> [_ordinal(k) for k in (1, 2, 3, 4, 11, 12, 13, 21, 22)]
    ['1st', '2nd', '3rd', '4th', '11th', '12th', '13th', '21st', '22nd']
    """
    suffix = "th" if 10 <= number % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(
        number % 10, "th")
    return f"{number}{suffix}"


def render(state: LosatState, *, marks: bool = True) -> str:
    """The board as text: coordinates on all four edges, ``X`` black, ``O`` white, the last
    move in parentheses (unless ``marks`` is false), the goal lines and the captures beside
    the board.

    >>> from lifearena.games.losat import new_game
    >>> print(render(new_game(width=7, length=9, gap=1)))
       A B C D E F G
     9 . . . . . . .  9
     8 . . . O O O .  8   <- b goal
     7 . . . O . O .  7
     6 . . . O . O .  6
     5 . . . . . . .  5
     4 . . X . X . .  4
     3 . . X . X . .  3
     2 . . X X X . .  2   <- w goal
     1 . . . . . . .  1
       A B C D E F G
    captures b (X) 0/5, w (O) 0/5; move 0; b to move
    """
    p = state.params
    width, length = p["width"], p["length"]
    board = state.board
    black_goal, white_goal = state.goal_rows()
    last = state.last_action()
    last_point = None if last is None or last == 4 * width * length else last % (width * length)
    letters = "   " + " ".join(COLUMNS[:width])
    lines = [letters]
    for r in range(length):
        cells = [".XO"[int(v)] for v in board[r]]
        line = " " + " ".join(cells) + " "
        if marks and last_point is not None and last_point // width == r:
            c = last_point % width
            line = line[:2 * c] + "(" + cells[c] + ")" + line[2 * c + 3:]
        note = {black_goal: "   <- b goal", white_goal: "   <- w goal"}.get(r, "")
        number = length - r
        lines.append(f"{number:>2}{line}{number:>2}{note}".rstrip())
    lines.append(letters)
    caps = state.captures()
    target = p["captures_to_win"]
    outcome = state.outcome()
    status = str(outcome) if outcome else f"{SYMBOLS[state.current_player()]} to move"
    last_text = "" if last is None else f", last {state.action_to_string(last)}"
    lines.append(f"captures b (X) {caps[0]}/{target}, w (O) {caps[1]}/{target}; "
                 f"move {state.plies()}{last_text}; {status}")
    return "\n".join(lines)


class LosatPresentation(Presentation):
    """Losat's text board, page display, reasons for illegal moves, and the choice of a
    point then a change (:attr:`~lifearena.core.InteractionKind.POINT_THEN_ACTION`)."""

    look = Look(board="#e4c78f", line="#9c7d45", stones=True,
                sides=(Side("Black", "#23252a"), Side("White", "#fbfbf8", "#555")))

    def text(self, state: State) -> str:
        """The text board of :func:`render`."""
        return render(_losat(state))

    def display(self, state: State, player: int | None = None) -> dict[str, Any]:
        """The board for pages (black 1, white 2, row 0 the top row): captures as the counts,
        the goal rows and the point of the last move.

        >>> from lifearena.games.losat import new_game
        >>> LosatPresentation().display(new_game(width=9, length=13))["grid"]["col_labels"]
        ['A', 'B', 'C', 'D', 'E', 'F', 'G', 'H', 'J']
        """
        state = _losat(state)
        width, length = state.params["width"], state.params["length"]
        n = width * length
        board = state.board
        last = state.last_action()
        last_point = None if last is None or last == PASS * n else list(divmod(last % n, width))
        return grid_display(
            board, None, counts=state.captures(), count_label="captures",
            row_labels=[str(length - r) for r in range(length)],
            col_labels=list(COLUMNS[:width]),
            stones=[int(np.count_nonzero(board == 1)), int(np.count_nonzero(board == 2))],
            goal_rows=list(state.goal_rows()), captures_to_win=state.params["captures_to_win"],
            goal_words=[f"{side.name} wins on row {length - goal} (shaded {side.name.lower()})"
                        for side, goal in zip(self.look.sides, state.goal_rows(),
                                              strict=True)],
            last_point=last_point, last=[] if last_point is None else [last_point],
            last_kind=None if last is None else _GROUPS[last // n],
            cell_name="{col}{row}",  # Go's points: the column's letter, then the row
            status=f"move {state.plies() + 1} of {state.params['max_moves']}",
        )

    def action_cells(self, state: State, action: Action) -> list[tuple[int, int]]:
        """The point a move changes (0-based row from the top, column); none for a pass."""
        width, length = state.params["width"], state.params["length"]
        n = width * length
        if action >= PASS * n:
            return []
        return [divmod(int(action) % n, width)]

    def explain_illegal(self, state: State, action: Action, player: int | None = None) -> str:
        """One line: why ``action`` may not be played now (Life's condition, the owner rule
        or superko).

        >>> from lifearena.games.losat import new_game
        >>> state = new_game(width=9, length=13)
        >>> LosatPresentation().explain_illegal(state, state.string_to_action("+bA1"))
        '+bA1: an added black stone needs exactly 3 black neighbours; A1 has 0'
        """
        state = _losat(state)
        if state.outcome() is not None:
            return "the game is over; no move can be played"
        to_move = state.current_player()
        mover = to_move if player is None else player
        if mover != to_move:
            return f"it is not {SYMBOLS[mover]}'s turn; {SYMBOLS[to_move]} is to move"
        width, length = state.params["width"], state.params["length"]
        n = width * length
        if not 0 <= action <= PASS * n:
            return f"action {action} is out of range 0..{PASS * n}"
        move = Move.from_action(action, width, length)
        if move.kind == PASS:
            return "pass is legal only when no other move is"
        return self._why_illegal(state, move, action, mover)

    @staticmethod
    def _why_illegal(state: LosatState, move: Move, action: Action, mover: int) -> str:
        """The reason for a change (not a pass) of ``mover``, whose turn it is."""
        assert move.point is not None
        text, name = str(move), move.point_name
        col, number = move.point
        row = state.params["length"] - number
        value = int(state.board[row, col])
        counts = [int(c) for c in state.neighbour_counts()[:, row, col]]
        own_colour_only = state.params["own_colour_only"]
        if move.kind in (ADD_BLACK, ADD_WHITE):
            colour = move.kind - ADD_BLACK
            if value:
                return f"{text}: {name} already holds a {_COLOUR_NAMES[value - 1]} stone"
            if own_colour_only and colour != mover:
                return f"{text}: with own_colour_only you add only {_COLOUR_NAMES[mover]} stones"
            if counts[colour] != 3:
                return (f"{text}: an added {_COLOUR_NAMES[colour]} stone needs exactly 3 "
                        f"{_COLOUR_NAMES[colour]} neighbours; {name} has {counts[colour]}")
        elif not value:
            return f"{text}: {name} is empty; there is no stone to change"
        elif move.kind == REMOVE:
            if own_colour_only and value != mover + 1:
                return f"{text}: with own_colour_only you remove only your own stones"
            if 2 <= counts[value - 1] <= 3:
                return (f"{text}: the stone on {name} has {counts[value - 1]} neighbours of "
                        "its colour; only a stone with fewer than 2 or more than 3 may go")
        else:
            if own_colour_only and value == mover + 1:
                return f"{text}: with own_colour_only you capture only opponent stones"
            enemies = counts[2 - value]
            or_more = state.params["capture_or_more"]
            if not (enemies >= 3 if or_more else enemies == 3):
                wanted = "3 or more" if or_more else "exactly 3"
                return (f"{text}: a capture needs {wanted} neighbours of the other colour; "
                        f"{name} has {enemies}")
        if action in state.legal_actions(mover):
            return f"{text} is legal"
        return f"{text} would repeat an earlier position (superko)"

    def interaction(self, state: State, player: int) -> Interaction:
        """A point, then the change to make there; a pass when no change is legal
        (``can_pass``); :attr:`~lifearena.core.InteractionKind.WAIT` when it is not
        ``player``'s turn or the game is over."""
        state = _losat(state)
        if state.outcome() is not None:
            return Interaction(InteractionKind.WAIT, "the game is over")
        current = state.current_player()
        if current != player:
            return Interaction(InteractionKind.WAIT,
                               f"{state.info.side_names[current]} is to move")
        n = state.params["width"] * state.params["length"]
        if PASS * n in state.legal_actions(player):
            return Interaction(InteractionKind.POINT_THEN_ACTION,
                               "no change is possible: pass", can_pass=True,
                               pass_move=state.action_to_string(PASS * n))
        return Interaction(InteractionKind.POINT_THEN_ACTION,
                           "choose a point, then the change to make there: add, remove or "
                           "capture")

    def choice_detail(self, state: State, action: Action, player: int) -> str:
        """Who a change helps, in the sides' names: a capture scores for the colour that
        surrounds the stone, whoever clicks it (``"White scores, 5th capture: White
        wins"``); a removal names whose stone goes; a change that ends the game says how.

        >>> from lifearena.games.losat import new_game
        >>> state = new_game(width=9, length=13)
        >>> shown = LosatPresentation()
        >>> shown.choice_detail(state, state.string_to_action("-D5"), 0)
        'removes a Black stone'
        >>> shown.choice_detail(state, state.string_to_action("+bC4"), 0)
        ''
        """
        state = _losat(state)
        width, length = state.params["width"], state.params["length"]
        n = width * length
        kind = action // n
        if kind == PASS:
            return ""
        names = [side.name for side in self.look.sides]
        row, col = divmod(action % n, width)
        value = int(state.board[row, col])
        words = []
        # one change makes at most one colour's stone and one capture, of the same colour: the
        # game's end after it follows without playing it (a view lists every legal move)
        colour = None
        if kind == CAPTURE:
            colour = 2 - value  # the stone's opposite colour replaces it and scores
            count = state.captures()[colour] + 1
            words.append(f"{names[colour]} scores, {_ordinal(count)} capture")
        elif kind == REMOVE:
            words.append(f"removes a {names[value - 1]} stone")
        else:
            colour = kind - ADD_BLACK
        ending = ""
        if colour is not None and (row == state.goal_rows()[colour] or (
                kind == CAPTURE and count >= state.params["captures_to_win"])):
            ending = f"{names[colour]} wins"
        elif state.plies() + 1 >= state.params["max_moves"]:
            ending = "drawn"
        return ": ".join([*words, ending]) if ending else ", ".join(words)

    def rules(self, state: State) -> RulesCard:
        """The rules on one card for ``state``'s parameters: the one-point changes Life
        allows, the goal lines and captures, superko, and one move on a small board
        (:mod:`lifearena.games.losat.card`)."""
        return rules_card(_losat(state))

    def choice_label(self, state: State, action: Action, player: int) -> str:
        """``"add black"``, ``"add white"``, ``"remove"``, ``"capture"`` or ``"pass"``."""
        return _LABELS[action // (state.params["width"] * state.params["length"])]

    def legal_moves_text(self, state: State, player: int | None = None) -> str:
        """The legal moves grouped by kind, one line per kind.

        >>> from lifearena.games.losat import new_game
        >>> print(LosatPresentation().legal_moves_text(new_game()))
          remove   -L14 -K12 -M12 -J8 -L8 -K6
          add      +bH7 +bM7 +bK5 +wL15 +wJ13 +wN13
        """
        n = state.params["width"] * state.params["length"]
        groups: dict[str, list[str]] = {}
        for action in state.legal_actions(player):
            groups.setdefault(_GROUPS[action // n], []).append(state.action_to_string(action))
        return "\n".join(f"  {kind:<8} {' '.join(texts)}" for kind, texts in groups.items())
