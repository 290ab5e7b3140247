"""A game being played on the server: its state (rebuilt through :func:`core.replay`), its
seats and invitations, the pending simultaneous choices, and the view each seat or spectator
may see.

Every move names the move number (ply) it was chosen at; a move for another ply (a delayed
duplicate, a second tab behind the game) is refused with :class:`StaleMove` and changes
nothing. An online game's second seat is an invitation: the first person to
:meth:`LiveGame.claim` it gets that seat's token, and nobody can move until then.

Nothing here knows a game's rules: moves are parsed, checked and applied through the
protocol of :mod:`lifearena.core`, and the picture a page draws comes from
:meth:`State.display`.

>>> from lifearena.core import Record
>>> from lifearena.web.store import GameRow
>>> row = GameRow("g", "life_for_two", {"max_turns": None, "limit_result": "draw"},
...               "...../...../...../...../..... 1", {"kind": "online"}, ["a", "b"])
>>> game = LiveGame.from_row(row)
>>> game.play("3,4 3,3 4,3", 0, ply=0)
'pending'
>>> "3,3 4,3" in str(game.view([1])), game.view([0])["mine"]
(False, {'0': '3,3 4,3 3,4'})
>>> game.play("5,5 4,5 5,4", 1, ply=0)
'applied'
>>> game.play("1,1", 0, ply=0)
Traceback (most recent call last):
...
lifearena.web.live.StaleMove: this move was chosen at move 0; the game is at move 1: look again
>>> game.row.moves
['3,3 4,3 3,4 | 5,4 4,5 5,5']
"""

from __future__ import annotations

import dataclasses
import hmac
import json
import secrets
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from lifearena.core import (
    SIMULTANEOUS,
    TERMINAL,
    Outcome,
    Record,
    State,
    get_game,
    presentation_of,
    replay,
)
from lifearena.errors import BadParameterError, IllegalMoveError, ParseError
from lifearena.web.clock import GameClock, steady_wall
from lifearena.web.endings import Endings
from lifearena.web.models import MAX_MOVE_TEXT
from lifearena.web.refusals import SeatError, TurnError
from lifearena.web.store import DamagedRow, GameRow

MAX_PLAYER_NAME = 80
"""The longest player name an opened record keeps (longer names are cut)."""
MAX_LEGAL_SENT = 1500
"""Legal moves listed in a view; above this the page composes moves itself (Life for Two's
first turn has 2300)."""


VIEW_MOVES = 200
"""Moves a view lists, the last ones: a page asks for earlier ones when it shows them
(``GET /api/games/{id}/moves``), so a game of 10,000 moves does not send them all with
every change."""
MOVES_PAGE = 1_000
"""Most moves one request of the move list answers."""


@dataclass
class ViewCache:
    """The views of one game built since it last changed, encoded, by seats (and whether
    they list legal moves), with the sides and turns of its whole move list."""

    version: tuple[Any, ...] | None = None
    """:meth:`LiveGame.changes` when these were built."""
    texts: dict[tuple[tuple[int, ...], bool], str] = field(default_factory=dict)
    data: dict[tuple[tuple[int, ...], bool], bytes] = field(default_factory=dict)
    """The same texts encoded, for HTTP answers."""
    sides: list[int | None] | None = None
    turns: list[int] | None = None
    builds: int = 0
    """Views built so far (every one a cache miss): what tests count."""

    def reset(self, version: tuple[Any, ...]) -> None:
        """Forget what was built for an earlier version of the game."""
        self.version = version
        self.texts, self.data = {}, {}
        self.sides = self.turns = None


def turn_numbers(sides: Sequence[int | None]) -> list[int]:
    """The turn (the move list's row, from 1) of each move, from the side that played each
    (``None``: both, a simultaneous turn), as the page's move list makes its rows: a
    simultaneous move is a row of its own; a row takes a side's consecutive moves and ends
    when an earlier side moves again (the JavaScript of ``movelist.js``, ``turnRows``).

    >>> turn_numbers([0, 1, 0, 1]), turn_numbers([0, 0, 1, 1, 0]), turn_numbers([None, None])
    ([1, 1, 2, 2], [1, 1, 1, 1, 2], [1, 2])
    >>> turn_numbers([1, 0])
    [1, 2]
    """
    numbers: list[int] = []
    rows, last, open_row = 0, -1, False
    for side in sides:
        if side is None:
            rows, last, open_row = rows + 1, -1, False
        else:
            if not open_row or side < last:
                rows, open_row = rows + 1, True
            last = side
        numbers.append(rows)
    return numbers


def encode_json(message: Any) -> str:
    """``message`` as compact JSON text (as a socket sends it)."""
    return json.dumps(message, separators=(",", ":"), ensure_ascii=False)


class StaleMove(TurnError):
    """A move chosen at another move number than the game's (a duplicate or a late one)."""


class InvitationTaken(TurnError):
    """An invitation someone has already claimed, or one its creator cancelled."""


def check_ply(row: GameRow, ply: int) -> None:
    """Refuse a move chosen at a move number other than the game's."""
    if ply != len(row.moves):
        raise StaleMove(f"this move was chosen at move {ply}; the game is at move "
                        f"{len(row.moves)}: look again")


def new_secret() -> str:
    """A fresh seat token or invitation (24 URL-safe characters, 144 random bits)."""
    return secrets.token_urlsafe(18)


@dataclass
class LiveGame(Endings):
    """A stored game and its current state (its endings outside the rules, clocks and
    offers: :class:`~lifearena.web.endings.Endings`)."""

    row: GameRow
    state: State
    thinking: bool = False
    """Whether an agent is choosing a move for this game now."""
    agent_error: str | None = None
    """Why the agent's last attempt failed, if it did (it is tried again on reload)."""
    clock: GameClock | None = None
    """The game's clocks (``None``: untimed); ``row.clock`` is stored from it."""
    now: Callable[[], float] = steady_wall
    """The server's clock, in seconds (tests give one of their own)."""
    connected: list[bool] = field(default_factory=lambda: [False, False])
    """Whether each seat's holder has a page of the game open (the server keeps it)."""
    told: list[bool] = field(default_factory=lambda: [False, False])
    """The presence the pages were last told of
    (:meth:`~lifearena.web.rooms.presence.Presence.changed`)."""
    undone: int = 0
    """How many takebacks this copy has seen (an agent's move chosen before one is void)."""
    first_side: int | None = None
    """The side to move at the game's start (found when a move list is first drawn)."""
    address: str | None = None
    """The client address whose request last gave the agent work (in memory only): the
    agent's searches wait in that address's turn (:mod:`lifearena.web.agent_queue`)."""
    views: ViewCache = field(default_factory=ViewCache, repr=False, compare=False)
    """The views built since the game last changed (:meth:`view_text`)."""
    holders: dict[int, str] = field(default_factory=dict)
    """The player holding each seat, by id (from the players' store; a seat of nobody's
    is absent)."""
    seats_closed: bool = False
    """Whether its seats were closed (and the game rated) since it ended (in memory: the
    store's mark makes a second close after a restart change nothing)."""
    people: list[dict[str, Any] | None] = field(default_factory=lambda: [None, None])
    """Each seat's player as pages show it (name, kind, rating in this game and, once a
    rated game ended, the rating's change), or ``None``."""

    def stored_outcome(self) -> dict[str, Any] | None:
        """The outcome as the store keeps it, once the game is over; else ``None``."""
        outcome = self.outcome()
        return None if outcome is None else outcome.to_dict()

    @classmethod
    def started(cls, row: GameRow, state: State) -> LiveGame:
        """A new game at its start ``state``, whose setup ``row`` keeps: nothing is parsed
        or replayed (a form's game is built once, by :func:`~lifearena.web.catalog.start_of`)."""
        if row.moves or row.pending or row.clock is not None:
            raise ValueError(f"game {row.id!r}: a started game has no moves, choices or "
                             "clock yet")
        return cls(row, state)

    @classmethod
    def from_row(cls, row: GameRow) -> LiveGame:
        """Rebuild the game by replaying its moves from its setup; :class:`DamagedRow` when
        the row no longer makes a game (a move the rules refuse, a malformed field)."""
        try:
            check_row(row)
            row = upgraded(row)
            record = Record(row.game, dict(row.params), row.setup, ["", ""], list(row.moves))
            game = cls(row, replay(record))
            if row.clock is not None:
                game.clock = GameClock.from_dict(row.clock)
            if row.pending and game.state.current_player() != SIMULTANEOUS:
                raise ValueError("pending choices outside a simultaneous turn")
            for seat, text in row.pending.items():
                game.state.string_to_action(text, int(seat))
        except (ValueError, TypeError, KeyError) as error:
            raise DamagedRow(f"game {row.id!r}: this game's record is damaged "
                             f"({str(error).splitlines()[0][:120]}); it cannot be shown or "
                             "played") from None
        return game

    # -- who may act -----------------------------------------------------------------------

    def seats_of(self, token: str | None) -> list[int]:
        """The seats ``token`` controls (both for a hot-seat token); empty for a spectator.
        An unknown token raises :class:`SeatError`."""
        if not token:
            return []
        seats = [seat for seat, secret in enumerate(self.row.tokens)
                 if secret is not None and same_secret(secret, token)]
        if not seats:
            raise SeatError("this link's seat token does not belong to this game")
        return seats

    def seats_of_player(self, player_id: str | None) -> list[int]:
        """The seats the player ``player_id`` holds (empty for ``None`` or nobody's)."""
        if player_id is None:
            return []
        return [seat for seat, holder in sorted(self.holders.items()) if holder == player_id]

    def token_of_player(self, player_id: str | None) -> str | None:
        """The token of the seats the player holds (a player's session or API token acts as
        its seat's private link), or ``None``."""
        for seat in self.seats_of_player(player_id):
            token = self.row.tokens[seat]
            if token is not None:
                return token
        return None

    @property
    def rated(self) -> bool:
        """Whether the game is rated."""
        return bool(self.row.opponent.get("rated"))

    def awaiting(self) -> list[int]:
        """The seats whose move the game waits for now (none in a cancelled game)."""
        current = self.state.current_player()
        if current == TERMINAL or self.row.cancelled or self.row.ending is not None:
            return []
        if current == SIMULTANEOUS:
            return [s for s in range(2) if str(s) not in self.row.pending]
        return [current] if current >= 0 else []

    @property
    def waiting_for_opponent(self) -> bool:
        """Whether an online game's invitation is still unclaimed (nobody may move yet)."""
        return not self.row.cancelled and any(
            self.row.tokens[int(seat)] is None for seat in self.row.invites)

    def claim(self, invitation: str) -> tuple[int, str]:
        """Take the seat ``invitation`` offers: its seat and the seat's new token. The first
        claim wins; a later one raises :class:`InvitationTaken`, a wrong secret
        :class:`SeatError`. The caller stores the row."""
        for key, secret in self.row.invites.items():
            if same_secret(secret, invitation):
                seat = int(key)
                if self.row.cancelled:
                    raise InvitationTaken("this game was cancelled by its creator before "
                                          "anyone joined")
                if self.row.tokens[seat] is not None:
                    raise InvitationTaken("this invitation has already been claimed; you "
                                          "can watch the game as a spectator")
                token = new_secret()
                self.row.tokens[seat] = token
                return seat, token
        raise SeatError("this invitation does not belong to this game")

    def cancel(self, seats: Sequence[int]) -> None:
        """The creator (a holder of a seat, ``seats``) withdraws its unclaimed invitation;
        the game ends without a result."""
        if not seats:
            raise SeatError("cancelling needs the creator's private link")
        if not self.waiting_for_opponent:
            raise TurnError("only a game still waiting for its opponent can be cancelled")
        self.row.cancelled = True

    @property
    def agent_seat(self) -> int | None:
        """The seat an agent plays, if any."""
        seat = self.row.opponent.get("agent_seat")
        return None if seat is None else int(seat)

    # -- moves -------------------------------------------------------------------------------

    def play(self, text: str, seat: int, ply: int) -> str:
        """Play ``text`` (the game's notation) for ``seat``, chosen at move number ``ply``:
        ``"applied"`` when the state moved on, ``"pending"`` when a simultaneous choice waits
        for the other seat. Raises :class:`ParseError`, :class:`IllegalMoveError` or
        :class:`TurnError` (:class:`StaleMove` for another ply) with a one-line reason,
        leaving the game unchanged. The clocks and offers follow the move."""
        self.refuse_if_ended()
        timed = len(self.row.moves) >= 1
        played = self._play(text, seat, ply)
        self.after_move(seat, timed)
        return played

    def _play(self, text: str, seat: int, ply: int) -> str:
        if self.row.cancelled:
            raise TurnError("this game was cancelled by its creator; no move can be played")
        if self.waiting_for_opponent:
            raise TurnError("waiting for your opponent to join: send them the invitation link")
        check_ply(self.row, ply)
        if not isinstance(text, str) or not text.strip():
            raise ParseError("empty move; expected a move in the game's notation")
        if len(text) > MAX_MOVE_TEXT:
            raise ParseError(f"move text of {len(text)} characters; expected at most "
                             f"{MAX_MOVE_TEXT}")
        state = self.state
        current = state.current_player()
        if current == TERMINAL:
            raise TurnError("the game is over; no move can be played")
        if current == SIMULTANEOUS:
            if str(seat) in self.row.pending:
                raise TurnError("you have already chosen this turn; waiting for your opponent")
        elif seat != current:
            symbols = state.info.player_symbols
            raise TurnError(f"it is not {symbols[seat]}'s turn; {symbols[current]} is to move")
        action = state.string_to_action(text.strip(), seat)
        if action not in self._legal_set(seat):
            raise IllegalMoveError(self._why_illegal(action, seat))
        canonical = state.action_to_string(action, seat)
        if current != SIMULTANEOUS:
            state.apply_action(action)
            self.row.moves.append(canonical)
            return "applied"
        self.row.pending[str(seat)] = canonical
        if len(self.row.pending) < state.info.num_players:
            return "pending"
        texts = [self.row.pending[str(p)] for p in range(state.info.num_players)]
        actions = [state.string_to_action(t, p) for p, t in enumerate(texts)]
        state.apply_actions(actions)
        self.row.moves.append(" | ".join(texts))
        self.row.pending = {}
        return "applied"

    def _legal_set(self, seat: int) -> set[int]:
        return set(self.state.legal_actions(seat))

    def _why_illegal(self, action: int, seat: int) -> str:
        return presentation_of(self.state).explain_illegal(self.state, action, seat)

    # -- what people see ----------------------------------------------------------------------

    def view(self, seats: Sequence[int], *, legal: bool = True) -> dict[str, Any]:
        """The game as ``seats`` may see it (``[]``: a spectator): never another seat's
        pending choice. Its move list is the last :data:`VIEW_MOVES` moves (``moves_from``:
        how many come before them; :meth:`moves_page` gives the rest).

        Built afresh at every call: the server answers with :meth:`view_text`, which builds
        it once per change of the game."""
        return {**self._view_body(seats, legal), "clock": self.clock_view()}

    def view_text(self, seats: Sequence[int], *, legal: bool = True) -> str:
        """:meth:`view` as JSON text: built and encoded once per change of the game
        (:meth:`changes`) and seats, every reader then sharing that text; only the clocks,
        which change with time alone, are read afresh (and spliced in).

        >>> from lifearena.web.store import GameRow
        >>> game = LiveGame.from_row(GameRow("g", "blocking_queen", {"k": 2}, "9,14",
        ...                                  {"kind": "hotseat"}, ["t", "t"]))
        >>> game.view_text([]) is game.view_text([]), game.views.builds
        (True, 1)
        >>> _ = game.play("5,10", 0, ply=0)
        >>> json.loads(game.view_text([]))["moves"], game.views.builds
        (['5,10'], 2)
        """
        cache = self.views
        version = self.changes()
        if cache.version != version:
            cache.reset(version)
        key = (tuple(seats), legal)
        text = cache.texts.get(key)
        if text is None:
            body = self._view_body(seats, legal)
            if self.clock is None:
                body["clock"] = None
            text = cache.texts[key] = encode_json(body)
            cache.builds += 1
        if self.clock is None:
            return text
        # the cached text without its closing brace, then the clocks as they are now
        return f'{text[:-1]},"clock":{encode_json(self.clock_view())}}}'

    def view_bytes(self, seats: Sequence[int]) -> bytes:
        """:meth:`view_text` encoded (UTF-8) for an HTTP answer: once per change and seats,
        but for a game with clocks (whose text differs from one moment to the next)."""
        text = self.view_text(seats)
        if self.clock is not None:
            return text.encode()
        key = (tuple(seats), True)
        data = self.views.data.get(key)
        if data is None:
            data = self.views.data[key] = text.encode()
        return data

    def changes(self) -> tuple[Any, ...]:
        """What a view is made of that can change, in short: two equal answers mean an
        unchanged view (but for the clocks' time, read afresh). Every field :meth:`view`
        reads that a game's life can change must be here."""
        row = self.row
        return (id(self.state), len(row.moves), row.moves[-1] if row.moves else None,
                self.undone, tuple(sorted(row.pending.items())), self.thinking,
                self.agent_error, tuple(self.connected), row.cancelled,
                tuple(token is None for token in row.tokens), repr(row.invites),
                repr(row.ending), repr(row.offers), repr(row.opponent),
                self.clock is None, repr(self.people))

    def moves_page(self, start: int, limit: int) -> dict[str, Any]:
        """The moves ``start`` to ``start + limit`` (fewer at the end) of the move list,
        which side played each and the turn (row of the list) the first one belongs to: the
        earlier moves a view leaves out. A ``start`` past the list is refused (400).

        >>> from lifearena.web.store import GameRow
        >>> game = LiveGame.from_row(GameRow("g", "blocking_queen", {"k": 2}, "9,14",
        ...                                  {"kind": "hotseat"}, ["t", "t"],
        ...                                  ["5,10", "3,8", "2,7"]))
        >>> game.moves_page(1, 5)
        {'from': 1, 'count': 3, 'moves': ['3,8', '2,7'], 'move_sides': [0, 1], 'first_turn': 1}
        """
        count = len(self.row.moves)
        if not 0 <= start <= count:
            raise BadParameterError(f"moves from {start}; expected 0..{count}")
        end = min(count, start + limit)
        sides, turns = self._sides_and_turns()
        return {"from": start, "count": count, "moves": self.row.moves[start:end],
                "move_sides": sides[start:end],
                "first_turn": turns[start] if start < count else (turns[-1] + 1 if turns
                                                                  else 1)}

    def _view_body(self, seats: Sequence[int], legal: bool) -> dict[str, Any]:
        """:meth:`view` but its clocks."""
        state = self.state
        info = state.info
        awaiting = self.awaiting()
        player = seats[0] if len(seats) == 1 else None
        outcome = self.outcome()
        legal_moves: dict[str, Any] = {}
        if legal:
            for seat in seats:
                if seat in awaiting and seat != self.agent_seat:
                    legal_moves[str(seat)] = self._legal_view(seat)
        return {
            "type": "state",
            "id": self.row.id,
            "game": info.name,
            "title": info.long_name,
            "params": self.row.params,
            "setup": self.row.setup,
            "symbols": list(info.player_symbols),
            "simultaneous": info.dynamics.value == "simultaneous",
            "opponent": {k: v for k, v in self.row.opponent.items()
                         if k not in ("seed", "drawn")},
            "drawn": self.drawn_view(),
            "players": self.players(),
            "people": self.people,
            "rated": self.rated,
            "seats": list(seats),
            "move_number": len(self.row.moves),
            "ply": len(self.row.moves),
            "waiting_for_opponent": self.waiting_for_opponent,
            "cancelled": self.row.cancelled,
            "invitation": self._invitation_view(seats),
            **self._moves_window(),
            "awaiting": awaiting,
            "chosen": [int(s) for s in self.row.pending],
            "mine": {s: t for s, t in self.row.pending.items() if int(s) in seats},
            "mine_cells": self._pending_cells(seats),
            "display": presentation_of(state).display(state, player),
            "look": presentation_of(state).look.to_dict(),
            "legal": legal_moves,
            "move_help": type(state).move_help,
            "thinking": self.thinking,
            "agent_error": self.agent_error,
            **self.endings_view(seats),
            "outcome": None if outcome is None else {
                "text": str(outcome),
                "winner": outcome.winner,
                "termination": outcome.termination.value,
                "detail": outcome.detail,
            },
        }

    def _invitation_view(self, seats: Sequence[int]) -> dict[str, Any] | None:
        """Who the invitation seats and whether it is spent; while it waits, its link for
        the holder of the other seat (the creator: a reopened page can send it again)."""
        if not self.row.invites:
            return None
        key, secret = next(iter(self.row.invites.items()))
        shown: dict[str, Any] = {"seat": int(key), "claimed": not self.waiting_for_opponent
                                 and not self.row.cancelled}
        if self.waiting_for_opponent and seats:
            shown["link"] = f"/play/{self.row.id}#i={secret}"
        return shown

    def _legal_view(self, seat: int) -> dict[str, Any]:
        """``seat``'s legal moves with the cells a click picks and their labels, and what the
        board asks of that seat (from the game's presentation). Above
        :data:`MAX_LEGAL_SENT` moves the list is left out (``moves`` is ``None``): the
        interaction's parts then let a page compose a move (Life for Two's first turn)."""
        state = self.state
        shown = presentation_of(state)
        interaction = shown.interaction(state, seat).to_dict()
        count = len(state.legal_actions(seat))
        if count > MAX_LEGAL_SENT:
            return {"count": count, "moves": None, "interaction": interaction}
        return {"count": count, "interaction": interaction,
                "moves": [choice.to_dict() for choice in shown.choices(state, seat)]}

    def _moves_window(self) -> dict[str, Any]:
        """A view's part of the move list: its last :data:`VIEW_MOVES` moves, the sides that
        played them, how many moves come before them and the turn the first one is in."""
        count = len(self.row.moves)
        start = max(0, count - VIEW_MOVES)
        page = self.moves_page(start, VIEW_MOVES)
        return {"moves": page["moves"], "move_sides": page["move_sides"],
                "moves_from": start, "first_turn": page["first_turn"]}

    def _sides_and_turns(self) -> tuple[list[int | None], list[int]]:
        """Which side played each move of the list (``None``: both, a simultaneous turn) and
        the turn (the page's row, from 1) each is in, for the whole list: found once per
        change (a game of 10,000 moves takes milliseconds)."""
        cache = self.views
        version = self.changes()
        if cache.version != version:
            cache.reset(version)
        if cache.sides is None:
            sides = self._move_sides()
            cache.sides, cache.turns = sides, turn_numbers(sides)
        assert cache.turns is not None
        return cache.sides, cache.turns

    def _move_sides(self) -> list[int | None]:
        """Which side played each move of the list (``None``: both, a simultaneous turn),
        for a page's move list; the side to move first comes from the game's start (found
        once per loaded game)."""
        if self.first_side is None:
            start = replay(Record(self.row.game, dict(self.row.params), self.row.setup,
                                  ["", ""], []))
            first = start.current_player()
            self.first_side = first if first in (0, 1) else 0
        return presentation_of(self.state).move_sides(self.first_side, self.state.history())

    def _pending_cells(self, seats: Sequence[int]) -> dict[str, list[list[int]]]:
        """The cells of the pending choices of ``seats`` (never another seat's), from the
        presentation's ``action_cells``: what a page marks as chosen."""
        state = self.state
        shown = presentation_of(state)
        cells: dict[str, list[list[int]]] = {}
        for key, text in self.row.pending.items():
            if int(key) in seats:
                action = state.string_to_action(text, int(key))
                cells[key] = [list(cell) for cell in shown.action_cells(state, action)]
        return cells

    def players(self) -> list[str]:
        """The names a record gives the two seats: the seats' players' names where players
        hold them, else words for the kind of game."""
        words = self._seat_words()
        if self.row.opponent.get("kind") == "hotseat":
            return words
        return [person["name"] if person and seat != self.agent_seat else word
                for seat, (person, word) in enumerate(zip(self.people, words, strict=True))]

    def _seat_words(self) -> list[str]:
        opponent = self.row.opponent
        kind = opponent.get("kind")
        if kind == "agent":
            seat = int(opponent["agent_seat"])
            names = ["human", "human"]
            agent, level = opponent["agent"], opponent["level"]
            names[seat] = agent if agent == level else f"{agent} ({level})"
            return names
        if kind == "online":
            return ["online player 1", "online player 2"]
        played = opponent.get("players")
        if opponent.get("from_record") and isinstance(played, list) and len(played) == 2:
            return [str(name) for name in played]
        return ["hot-seat player 1", "hot-seat player 2"]

    def record(self) -> Record:
        """The game so far as a :class:`Record` (pending choices left out)."""
        outcome = self.outcome()
        return Record(self.row.game, dict(self.row.params), self.row.setup, self.players(),
                      list(self.row.moves), str(outcome) if outcome else "*",
                      {"web_game": self.row.id, **self.drawn()},
                      outcome.to_dict() if outcome else None,
                      self.state.info.rules_version)

    def drawn(self) -> dict[str, Any]:
        """The values the server drew for this game (a random start's seed), by parameter."""
        drawn = self.row.opponent.get("drawn")
        return dict(drawn) if isinstance(drawn, dict) else {}

    def drawn_view(self) -> list[list[Any]]:
        """The drawn values as a page shows them: ``[label, value]`` pairs."""
        labels = {spec.name: spec.label or spec.name for spec in self.state.game.specs}
        return [[labels.get(name, name), value] for name, value in self.drawn().items()]

    def position_job(self, upto: int) -> tuple[Any, ...]:
        """The arguments of :func:`position_after` for the picture after ``upto`` moves
        (plain data, for a worker process), checking ``upto``."""
        if not 0 <= upto <= len(self.row.moves):
            raise BadParameterError(f"move {upto}; expected 0..{len(self.row.moves)}")
        return (self.row.game, dict(self.row.params), self.row.setup, list(self.row.moves),
                upto)


def record_players(record: Record) -> list[str]:
    """The two names an opened record's players keep (each one line, at most
    :data:`MAX_PLAYER_NAME` characters), or the hot-seat names when the record has not two.

    >>> record_players(Record("losat", {}, "", ["alphabeta (hard)", "me"], []))
    ['alphabeta (hard)', 'me']
    >>> record_players(Record("losat", {}, "", ["x" * 200, "a\\nb"], []))[1]
    'a b'
    >>> record_players(Record("losat", {}, "", ["solo"], []))
    ['hot-seat player 1', 'hot-seat player 2']
    """
    names = record.players
    if not isinstance(names, list) or len(names) != 2:
        return ["hot-seat player 1", "hot-seat player 2"]
    shown = []
    for seat, name in enumerate(names):
        text = " ".join(str(name).split())[:MAX_PLAYER_NAME]
        shown.append(text or f"player {seat + 1}")
    return shown


def position_after(game: str, params: dict[str, Any], setup: str, moves: list[str],
                   upto: int) -> dict[str, Any]:
    """The display of a game after its first ``upto`` moves, as a spectator sees it (run in
    a worker: replaying 10,000 moves takes a while).

    >>> position_after("blocking_queen", {"k": 2}, "9,14", ["5,10", "3,8"], 1)["queen"]
    [5, 10]
    """
    record = Record(game, dict(params), setup, ["", ""], list(moves))
    position = replay(record, upto=upto)
    return presentation_of(position).display(position, None)


def replayed(row: GameRow) -> LiveGame:
    """A new game from ``row`` (an uploaded record), every move checked: the rules' own error
    for the first move they refuse (run in a worker when the record is long).

    >>> row = GameRow("g", "blocking_queen", {"k": 2}, "9,14", {"kind": "hotseat"},
    ...               ["t", "t"], ["5,10", "3,8"])      # a queen's move, then a block
    >>> replayed(row).state
    BlockingQueen.from_moves('9,14', ['5,10', '#3,8'], k=2)
    >>> row.moves.append("9,9")
    >>> replayed(row)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    lifearena.errors.ParseError: record move 3 '9,9': illegal move for player 2 (2): 9,9: ...
    """
    check_row(row)
    return LiveGame(row, replay(Record(row.game, dict(row.params), row.setup, ["", ""],
                                       list(row.moves))))


OLD_CLASSIC = "life_for_two_classic"
"""The stored name of a game of the 1978 Life for Two program before the program was a state
of ``life_for_two``: no parameters, no setup, and every line typed, refused ones included."""


def upgraded(row: GameRow) -> GameRow:
    """``row`` in the form this version stores (``row`` itself when it is): a game of the
    1978 program stored as :data:`OLD_CLASSIC` becomes Life for Two with the classic setup
    and the answers the program took (a refused line changed nothing but the transcript).
    The server stores the upgraded row the first time it loads it.

    >>> row = GameRow("g", OLD_CLASSIC, {}, "", {"kind": "hotseat"}, ["t", "t"],
    ...               ["1,1", "9,9", "three", "1,1", " 2, 1"])
    >>> new = upgraded(row)
    >>> new.game, new.params, new.setup, new.moves
    ('life_for_two', {}, 'classic', ['1,1', '2,1'])
    """
    if row.game != OLD_CLASSIC:
        return row
    state = get_game("life_for_two", rules="classic").new_initial_state()
    for line in row.moves:
        if state.is_terminal():
            break
        try:
            state.apply_action(state.read_move(line))
        except ValueError:  # the program said why and asked again
            continue
    return dataclasses.replace(row, game=state.info.name, params=dict(state.params),
                               setup=state.setup(), moves=state.history_strings())


def check_row(row: GameRow) -> None:
    """Refuse a row whose fields have the wrong shape (the store may hold rows written by an
    earlier version, or damaged): :class:`ValueError` naming the field."""
    if not isinstance(row.params, dict) or not isinstance(row.opponent, dict):
        raise ValueError("params and opponent must be objects")
    if not isinstance(row.moves, list) or not all(isinstance(m, str) for m in row.moves):
        raise ValueError("moves must be a list of texts")
    if (not isinstance(row.tokens, list) or len(row.tokens) != 2
            or not all(t is None or isinstance(t, str) for t in row.tokens)):
        raise ValueError("tokens must be two texts or nulls")
    if row.ending is not None:
        Outcome.from_dict(row.ending)
    if not isinstance(row.offers, dict):
        raise ValueError("offers must be an object")
    for name, table in (("pending", row.pending), ("invites", row.invites)):
        if (not isinstance(table, dict) or not set(table) <= {"0", "1"}
                or not all(isinstance(v, str) for v in table.values())):
            raise ValueError(f"{name} must map seats '0' and '1' to texts")


def same_secret(a: str, b: str) -> bool:
    """Compare two tokens in constant time."""
    return hmac.compare_digest(a.encode(), b.encode())


__all__ = ["MAX_MOVE_TEXT", "IllegalMoveError", "InvitationTaken", "LiveGame", "SeatError",
           "StaleMove", "TurnError", "check_ply", "position_after", "replayed"]
