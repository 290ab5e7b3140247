"""A person's attempt at a puzzle, judged move by move (pure: no web, no storage).

An attempt is the list of moves played on the puzzle so far, written as the game's record
writes them: the solver's moves, the other side's replies (and any chance outcome) each a
move of its own, or, in a simultaneous game (Life for Two), one joint move ``"mine | theirs"``
per turn, the two seats' placements in seat order. A new move of the solver is judged
(:func:`judge`):

* **right**: it still wins within the solver's moves left, whatever the other side does
  (any winning move counts, as lichess accepts any mate in one, not only the puzzle's
  stated ``solutions``); the other side's strongest reply (:meth:`Searcher.defence`) is
  then played and returned. In a simultaneous game the placement is judged against every
  placement of the other side, and the defence's placement is played with it.
* **solved**: it is right and the game is now won.
* **wrong**: it does not win by force; the moves that did win here are given, and the
  puzzle's main line (:func:`main_line`) reveals the solution.

The attempt's earlier moves are checked, never trusted: each solver move must have been a
winning move and each reply the searcher's own, so a client cannot reach a "solved" position
by a path the puzzle never offered (:class:`~lifearena.errors.ParseError` otherwise). An
illegal or unreadable move is refused the same way (:class:`~lifearena.errors.IllegalMoveError`,
:class:`~lifearena.errors.ParseError`) and judged neither right nor wrong.

The searches of an attempt's positions are remembered (:data:`REMEMBERED` of them, by puzzle
id and moves), so checking an attempt's earlier moves again at every request costs a look-up.

>>> from lifearena.core import Record
>>> from lifearena.puzzles.model import Puzzle
>>> source = Record("blocking_queen", {"k": 1}, "2,3", ["", ""], [])
>>> puzzle = Puzzle("bq-demo", "blocking_queen", source, 0, 0, ("2,1", "1,2"),
...                 ("2,1", "1,0", "0,0"), "demo", 2, 1500.0)
>>> first = judge(puzzle, [], "1,2")
>>> first.verdict, first.moves
('right', ['1,2', '1,0'])
>>> judge(puzzle, first.moves, "0,0").verdict
'solved'
>>> wrong = judge(puzzle, [], "2,2")
>>> wrong.verdict, wrong.winning
('wrong', ['2,1', '1,2'])
>>> main_line(puzzle)
['2,1', '1,0', '0,0']
"""

from __future__ import annotations

import collections
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from lifearena.core import CHANCE, SIMULTANEOUS, TERMINAL, State, presentation_of
from lifearena.errors import IllegalMoveError, ParseError
from lifearena.puzzles.model import Puzzle
from lifearena.puzzles.search import Searcher, searcher

RIGHT, SOLVED, WRONG = "right", "solved", "wrong"
"""The verdicts of a move."""
MAX_ATTEMPT_MOVES = 64
"""Most moves an attempt may list (a puzzle is a few moves long)."""
MAX_LINE = 400
"""Most moves a main line may take to the win."""
REMEMBERED = 4096
"""Searches remembered at once, the least recently used going first."""


@dataclass
class Judgement:
    """What a move made of an attempt.

    ``move`` is the solver's move as the record writes it (for a simultaneous game its
    placement alone); ``reply`` the other side's answer that was played (its move or its
    placement of the same turn; ``None`` when none was: the game was over, or the move was
    wrong; several actions of one turn are joined by spaces); ``moves`` the attempt's moves
    after this one (the next request sends them back);
    ``shown`` the position after the solver's move and ``after`` the position after the
    reply (the same state when there was none); ``winning`` the moves that won here (on a
    wrong move); ``depth_left`` the solver's moves still allowed."""

    verdict: str
    move: str
    reply: str | None
    moves: list[str]
    shown: State
    after: State
    winning: list[str] = field(default_factory=list)
    depth_left: int = 0

    @property
    def over(self) -> bool:
        """Whether the attempt has ended (solved or wrong)."""
        return self.verdict != RIGHT


class _Memo:
    """The searches of attempts' positions, by ``(puzzle id, moves, what)``; bounded."""

    def __init__(self, size: int = REMEMBERED) -> None:
        self.size = size
        self._found: collections.OrderedDict[tuple[Any, ...], Any] = collections.OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: tuple[Any, ...], compute: Callable[[], Any]) -> Any:
        with self._lock:
            if key in self._found:
                self._found.move_to_end(key)
                return self._found[key]
        value = compute()
        with self._lock:
            self._found[key] = value
            while len(self._found) > self.size:
                self._found.popitem(last=False)
        return value

    def clear(self) -> None:
        with self._lock:
            self._found.clear()


MEMO = _Memo()
"""The searches remembered by this process."""


def start(puzzle: Puzzle) -> State:
    """The puzzle's position, checked to be the solver's to play (its turn, or a
    simultaneous turn); :class:`ParseError` for a puzzle that is not."""
    state = puzzle.position()
    current = state.current_player()
    if current not in (puzzle.solver, SIMULTANEOUS):
        raise ParseError(f"puzzle {puzzle.id!r}: its position is not seat {puzzle.solver}'s "
                         "to play; expected the solver to move first")
    return state


class _Walk:
    """An attempt being walked from the puzzle's position: the state, the moves played and
    the solver's moves left, with the searches it asks remembered in :data:`MEMO`."""

    def __init__(self, puzzle: Puzzle, search: Searcher | None) -> None:
        self.puzzle = puzzle
        self.search = search if search is not None else searcher(puzzle.game)
        # two searchers may answer one position differently (a miner's "wins" may reach
        # past the depth the plain search counts): each remembers its own answers
        self.searched_by = (type(self.search).__qualname__, id(self.search))
        self.state = start(puzzle)
        self.moves: list[str] = []
        self.depth = puzzle.depth

    @property
    def solver(self) -> int:
        return self.puzzle.solver

    def winning(self) -> list[str]:
        """The solver's moves that win from here within the moves left."""
        key = (self.puzzle.id, self.searched_by, tuple(self.moves), "winning", self.depth)
        return list(MEMO.get(key, lambda: self.search.winning_moves(
            self.state, self.solver, self.depth)))

    def defence(self) -> str:
        """The other side's reply here (its move, or its placement of a simultaneous turn)."""
        key = (self.puzzle.id, self.searched_by, tuple(self.moves), "defence", self.depth)
        return str(MEMO.get(key, lambda: self.search.defence(self.state, self.solver,
                                                             self.depth)))

    def canonical(self, text: str, player: int) -> tuple[int, str]:
        """``text`` read as ``player``'s move here: its action and the notation's own
        spelling; :class:`ParseError` or :class:`IllegalMoveError` with one line."""
        state = self.state
        if not isinstance(text, str) or not text.strip():
            raise ParseError("empty move; expected a move in the game's notation")
        action = state.string_to_action(text.strip(), player)
        if action not in state.legal_actions(player):
            raise IllegalMoveError(presentation_of(state).explain_illegal(state, action,
                                                                          player))
        return action, state.action_to_string(action, player)

    def play_other(self) -> str | None:
        """Play what comes after the solver's turn until it is the solver's turn again or
        the game is over: chance outcomes (the first listed: an attempt is replayable) and
        the other side's defence, one action or several (the blocking queen's move and its
        blocks). The other side's actions played, joined by spaces, if any."""
        replies = []
        while True:
            current = self.state.current_player()
            if current == CHANCE:
                action = self.state.chance_outcomes()[0][0]
                text = self.state.action_to_string(action, None)
                self.state.apply_action(action)
                self.moves.append(text)
            elif current == 1 - self.solver:
                other = 1 - self.solver
                action, text = self.canonical(self.defence(), other)
                self.state.apply_action(action)
                self.moves.append(text)
                replies.append(text)
            else:
                return " ".join(replies) or None

    def play(self, text: str) -> Judgement:
        """Judge and play the solver's move ``text`` here."""
        state = self.state
        simultaneous = state.current_player() == SIMULTANEOUS
        action, move = self.canonical(text, self.solver)
        winning = self.winning()
        if move not in winning:
            shown = state.clone()
            if not simultaneous:  # the wrong move on the board; a placement shows nothing
                shown.apply_action(action)
            return Judgement(WRONG, move, None, list(self.moves), shown, shown, winning,
                             self.depth)
        reply: str | None
        if simultaneous:
            other = 1 - self.solver
            theirs, reply = self.canonical(self.defence(), other)
            state.apply_actions((action, theirs) if self.solver == 0 else (theirs, action))
            self.moves.append(f"{move} | {reply}" if self.solver == 0
                              else f"{reply} | {move}")
            self.turn_done()
            shown = state.clone()
            self.play_other()
        else:
            state.apply_action(action)
            self.moves.append(move)
            shown = state.clone()
            reply = None
            if state.current_player() != self.solver:  # the solver's turn is over
                self.turn_done()
                reply = self.play_other()
        if state.current_player() == TERMINAL:
            outcome = state.outcome()
            if outcome is None or outcome.winner != self.solver:
                raise RuntimeError(f"puzzle {self.puzzle.id!r}: a winning move lost; the "
                                   "searcher and the rules disagree")
            return Judgement(SOLVED, move, reply, list(self.moves), shown, state.clone(),
                             depth_left=self.depth)
        return Judgement(RIGHT, move, reply, list(self.moves), shown, state.clone(),
                         depth_left=self.depth)

    def turn_done(self) -> None:
        """Count one of the solver's turns as played. A turn is a move, or several actions
        of the same side (the blocking queen's move and its blocks); while the game goes on
        at least one turn is left, for a searcher that answers any depth (the palace
        numbers) may let the defence last longer than the puzzle's stated depth."""
        self.depth = max(1, self.depth - 1)

    def follow(self, played: Sequence[str]) -> None:
        """Walk the attempt's earlier moves, each checked to be what this walk would have
        played (:class:`ParseError` naming the first that is not)."""
        if len(played) > MAX_ATTEMPT_MOVES:
            raise ParseError(f"{len(played)} moves played; expected at most "
                             f"{MAX_ATTEMPT_MOVES}")
        index = 0
        while index < len(played):
            number = index + 1
            current = self.state.current_player()
            if current == TERMINAL:
                raise ParseError(f"attempt move {number}: the puzzle was over before it; "
                                 "expected the moves its answers gave")
            text = played[index]
            if not isinstance(text, str):
                raise ParseError(f"attempt move {number}: expected a move's text")
            if current == SIMULTANEOUS:
                parts = [part.strip() for part in text.split("|")]
                if len(parts) != 2:
                    raise ParseError(f"attempt move {number} {text[:40]!r}: expected both "
                                     "seats' placements joined by '|'")
                mine = parts[self.solver]
            else:
                mine = text
            if current not in (self.solver, SIMULTANEOUS):
                raise ParseError(f"attempt move {number} {text[:40]!r}: not the reply this "
                                 "puzzle played; expected the moves its answers gave")
            judged = self.play(mine)
            if judged.verdict == WRONG:
                raise ParseError(f"attempt move {number} {text[:40]!r}: not a winning move; "
                                 "expected the moves this puzzle's answers gave")
            added = judged.moves[index:]
            if added != list(played[index:index + len(added)]):
                raise ParseError(f"attempt move {number} {text[:40]!r}: not what this puzzle "
                                 "played; expected the moves its answers gave")
            index += len(added)


def judge(puzzle: Puzzle, played: Sequence[str], move: str,
          search: Searcher | None = None) -> Judgement:
    """Judge the solver's ``move`` after the attempt's moves ``played`` (each checked);
    ``search``: the game's searcher when not given (:func:`~lifearena.puzzles.search.searcher`).
    :class:`ParseError` when the attempt is over or was not this puzzle's."""
    walk = _Walk(puzzle, search)
    walk.follow(played)
    if walk.state.current_player() == TERMINAL:
        raise ParseError("the puzzle is solved; no move can be played")
    return walk.play(move)


def main_line(puzzle: Puzzle, search: Searcher | None = None) -> list[str]:
    """The solution from the puzzle's position to the win, as the record writes it: at each
    turn the puzzle's own line move where it still wins (else the first winning move), the
    defence after it."""
    walk = _Walk(puzzle, search)
    ours = list(puzzle.line)
    while walk.state.current_player() != TERMINAL:
        if len(walk.moves) > MAX_LINE:
            raise RuntimeError(f"puzzle {puzzle.id!r}: no win within {MAX_LINE} moves")
        winning = walk.winning()
        if not winning:
            raise RuntimeError(f"puzzle {puzzle.id!r}: no winning move on its main line")
        # the line lists every ply (a simultaneous game: one placement a turn), as the
        # walk's moves do, so it is followed while the defences agree with it
        at = len(walk.moves)
        preferred = ours[at] if at < len(ours) else None
        walk.play(preferred if preferred in winning else winning[0])
    return walk.moves
