"""What a live game keeps beside its rules: endings the rules do not know (a resignation, a
draw agreed, a clock run out), its clocks, draw and rematch offers, and takebacks.

:class:`Endings` is a part of :class:`~lifearena.web.live.LiveGame` (which it is mixed
into); it changes the game's row only, and the server stores the row and tells the pages.

* **Resign**: any seat's holder, while the game is on (at one screen: the side to move).
* **Draw offers** (turn-based games only): a seat offers, the other accepts or declines; an
  offer lapses when its maker's opponent moves. An agent declines every offer: it has no
  judgement of drawn positions to go by. ``offers["draw_declined"]`` names the seat that
  declined, agent or person, until the next move (``offers["rematch_declined"]`` likewise,
  until a new offer), so the maker's page can say so.
* **Rematch**, once the game is over: the same game, parameters, setup, time control and
  opponent with the seats swapped; against an agent or at one screen it starts at once, online
  the other seat accepts. ``offers["next"]`` keeps the new game's id and, for each seat of
  this game, its holder's token in the new one, so each page is shown its own link only.
* **Takeback**, in an untimed game against an agent: the person's last move and the agent's
  reply after it are undone.
* **On time** (:mod:`lifearena.web.clock`): the side whose clock runs out loses; the game
  is drawn when the other side could not win (:meth:`lifearena.core.State.could_win`).

>>> from lifearena.web.live import LiveGame
>>> from lifearena.web.store import GameRow
>>> game = LiveGame.from_row(GameRow("g", "blocking_queen", {"k": 2}, "9,14",
...                                  {"kind": "hotseat"}, ["t", "t"]))
>>> game.draw([0, 1], "offer")
'offered'
>>> game.draw([0, 1], "accept"), str(game.outcome()), game.awaiting()
('agreed', 'draw (agreed)', [])
>>> game.resign([0, 1])
Traceback (most recent call last):
...
lifearena.web.refusals.TurnError: the game is over (draw (agreed)); it cannot be resigned
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, Literal

from lifearena.core import (
    SIMULTANEOUS,
    Outcome,
    Record,
    State,
    Termination,
    replay,
    replay_positions,
)
from lifearena.web.refusals import SeatError, TurnError

if TYPE_CHECKING:
    from lifearena.web.clock import GameClock
    from lifearena.web.store import GameRow

Answer = Literal["offered", "agreed", "declined", "create"]
"""What an offer or an answer did: an offer now waits, a draw was agreed, an offer was
declined, or a rematch is to be made now."""


class Endings:
    """Resign, draw, rematch, takeback and clocks of a live game (see the module)."""

    row: GameRow
    state: State
    clock: GameClock | None
    now: Callable[[], float]
    connected: list[bool]
    undone: int

    if TYPE_CHECKING:
        def awaiting(self) -> list[int]: ...

        @property
        def waiting_for_opponent(self) -> bool: ...

        @property
        def agent_seat(self) -> int | None: ...

    # -- the ending ------------------------------------------------------------------------------

    def outcome(self) -> Outcome | None:
        """How the game ended: its stored ending (resigned, agreed, on time), else the
        rules' outcome; ``None`` while it goes on."""
        if self.row.ending is not None:
            return Outcome.from_dict(self.row.ending)
        return self.state.outcome()

    @property
    def over(self) -> bool:
        """Whether the game has ended (by its rules or otherwise)."""
        return self.outcome() is not None

    def refuse_if_ended(self) -> None:
        """A one-line :class:`TurnError` (409) for a move once the game ended otherwise."""
        if self.row.ending is not None:
            raise TurnError(f"the game is over ({self.outcome()}); no move can be played")

    def end(self, outcome: Outcome) -> None:
        """End the game with ``outcome`` (not the rules'): clocks stop, offers of a draw and
        pending choices go."""
        self.row.ending = outcome.to_dict()
        self.row.pending = {}
        for key in ("draw", "draw_declined"):
            self.row.offers.pop(key, None)
        if self.clock is not None:
            self.clock.stop(self.now())
            self.row.clock = self.clock.to_dict()

    def _playing(self, what: str) -> None:
        """Refuse ``what`` unless the game is on (joined, not cancelled, not over)."""
        if self.row.cancelled:
            raise TurnError(f"this game was cancelled; it cannot be {what}")
        if self.over:
            raise TurnError(f"the game is over ({self.outcome()}); it cannot be {what}")
        if self.waiting_for_opponent:
            raise TurnError(f"your opponent has not joined yet; it cannot be {what} (cancel the "
                       "invitation instead)")

    def _acting_seat(self, seats: Sequence[int], what: str) -> int:
        """The seat a page holding ``seats`` acts for: its one seat, or at one screen the
        side to move."""
        if not seats:
            raise SeatError(f"{what} needs a seat's private link (token); spectators cannot")
        if len(seats) == 1:
            return seats[0]
        waiting = [s for s in self.awaiting() if s in seats]
        return waiting[0] if waiting else seats[0]

    def resign(self, seats: Sequence[int]) -> int:
        """The seat ``seats`` acts for resigns: the other side wins. Answers that seat."""
        self._playing("resigned")
        seat = self._acting_seat(seats, "resigning")
        winner = 1 - seat
        self.end(Outcome(Termination.RESIGN, winner,
                         self.state.info.player_symbols[winner]))
        return seat

    def time_out(self) -> bool:
        """End the game if a running clock has run out: that side loses, or the game is
        drawn when the other side could not win (or both ran out together). Answers whether
        it ended."""
        if self.clock is None or self.over:
            return False
        flagged = self.clock.flagged(self.now())
        if not flagged:
            return False
        symbols = self.state.info.player_symbols
        if len(flagged) > 1:
            outcome = Outcome(Termination.TIMEOUT, None, None, "both sides ran out of time")
        else:
            loser = flagged[0]
            winner = 1 - loser
            if self.state.could_win(winner):
                outcome = Outcome(Termination.TIMEOUT, winner, symbols[winner])
            else:
                outcome = Outcome(Termination.TIMEOUT, None, None,
                                  f"{symbols[loser]} ran out of time and {symbols[winner]} "
                                  "could not win")
        self.end(outcome)
        return True

    # -- clocks ----------------------------------------------------------------------------------

    def run_clocks(self) -> None:
        """Start the clocks the game waits on now (none before its first move or after its
        end) and stop the others; ``row.clock`` follows."""
        if self.clock is None:
            return
        now = self.now()
        if self.over:
            self.clock.stop(now)
        else:
            started = len(self.row.moves) >= 1 and not self.waiting_for_opponent
            self.clock.run(self.awaiting() if started else [], now)
        self.row.clock = self.clock.to_dict()

    def after_move(self, seat: int, timed: bool) -> None:
        """``seat`` has moved (or chosen): its clock is charged (with its increment when the
        move was ``timed``: any but the game's first), the next clocks run, and a draw offer
        of its opponent lapses."""
        if self.clock is not None:
            if timed:
                self.clock.moved(seat, self.now())
            self.run_clocks()
        offers = self.row.offers
        if offers.get("draw") is not None and offers["draw"] != seat:
            del offers["draw"]
        offers.pop("draw_declined", None)

    def pause_clocks(self) -> None:
        """Hold the running clocks (the server is stopping); loading resumes them."""
        if self.clock is not None and self.clock.running:
            self.clock.pause(self.now())
            self.row.clock = self.clock.to_dict()

    def resume_clocks(self) -> None:
        """Start again the clocks a stopping server paused (at the server's ``now``)."""
        if self.clock is not None:
            self.clock.resume(self.now())
            self.row.clock = self.clock.to_dict()

    # -- offers ----------------------------------------------------------------------------------

    def draw(self, seats: Sequence[int], action: str) -> Answer:
        """Offer a draw, or accept or decline the opponent's (turn-based games only)."""
        self._playing("drawn")
        if self.state.info.dynamics.value == "simultaneous":
            raise TurnError("draw offers are for turn-based games; this game's turns are "
                            "simultaneous")
        offers = self.row.offers
        offered = offers.get("draw")
        if action == "offer":
            seat = self._acting_seat(seats, "offering a draw")
            if offered == 1 - seat and (1 - seat) not in seats:  # both offered: agreed
                return self.draw(seats, "accept")
            if offered == seat:
                raise TurnError("you have already offered a draw; waiting for an answer")
            if self.agent_seat is not None:
                offers["draw_declined"] = self.agent_seat
                return "declined"
            offers["draw"] = seat
            offers.pop("draw_declined", None)
            return "offered"
        if offered is None or (1 - offered) not in seats:
            raise TurnError(f"there is no draw offer for you to {action}")
        if action == "decline":  # the maker is told, until the next move
            del offers["draw"]
            offers["draw_declined"] = 1 - offered
            return "declined"
        self.end(Outcome(Termination.AGREED, None, None))
        return "agreed"

    def rematch(self, seats: Sequence[int], action: str) -> Answer:
        """Offer a rematch once the game is over, or answer the opponent's: ``"create"`` when
        the rematch is to be made now (an agent's or a hot-seat game at once, an online
        one once the other seat accepts)."""
        if not seats:
            raise SeatError("a rematch needs a seat's private link (token); spectators "
                             "cannot ask for one")
        if self.row.cancelled or not self.over:
            raise TurnError("a rematch can be asked for once the game is over")
        offers = self.row.offers
        if offers.get("next"):
            raise TurnError("the rematch has already started; follow its link")
        offered = offers.get("rematch")
        if action == "offer":
            seat = seats[0]
            if self.row.opponent.get("kind") != "online" or len(seats) > 1:
                return "create"
            if offered == 1 - seat:
                return "create"
            if offered == seat:
                raise TurnError("you have already offered a rematch; waiting for an answer")
            offers["rematch"] = seat
            offers.pop("rematch_declined", None)
            return "offered"
        if offered is None or (1 - offered) not in seats:
            raise TurnError(f"there is no rematch offer for you to {action}")
        if action == "decline":  # the maker is told (it may offer again)
            del offers["rematch"]
            offers["rematch_declined"] = 1 - offered
            return "declined"
        return "create"

    def rematch_row(self, new_id: str, new_secret: Callable[[], str], seed: int) -> GameRow:
        """The rematch's row (the same game, parameters, setup and time control, the seats
        swapped), and this game's ``offers["next"]`` pointing each seat's holder at it."""
        from lifearena.web.clock import GameClock
        from lifearena.web.store import GameRow

        row = self.row
        opponent = {k: v for k, v in row.opponent.items()
                    if k not in ("from_record", "players", "invited")}
        old = row.tokens
        if opponent.get("kind") == "agent":
            opponent["agent_seat"] = 1 - int(opponent["agent_seat"])
            opponent["seed"] = seed
        if opponent.get("kind") == "hotseat" or old[0] == old[1]:
            one = new_secret()
            mine = [one, one]
        else:
            mine = [None if t is None else new_secret() for t in old]
        control = row.opponent.get("clock")
        clock = None if not isinstance(control, dict) else GameClock.start(control).to_dict()
        fresh = GameRow(new_id, row.game, dict(row.params), row.setup, opponent,
                        [mine[1], mine[0]], clock=clock)
        row.offers.pop("rematch", None)
        row.offers["next"] = {"id": new_id, "tokens": mine}
        return fresh

    # -- takeback --------------------------------------------------------------------------------

    @property
    def person_seat(self) -> int | None:
        """The person's seat in a game against an agent."""
        agent = self.agent_seat
        return None if agent is None else 1 - agent

    def can_take_back(self, seats: Sequence[int]) -> bool:
        """Whether the holder of ``seats`` may take back a move now: an untimed game against
        an agent, going on, where the person has moved."""
        person = self.person_seat
        if (person is None or person not in seats or self.clock is not None or self.over
                or not self.row.moves):
            return False
        return len(self.row.moves) >= 2 or self._first_mover() in (person, SIMULTANEOUS)

    def _first_mover(self) -> int:
        first = getattr(self, "_first", None)
        if first is None:
            row = self.row
            first = replay(Record(row.game, dict(row.params), row.setup, ["", ""], []
                                  )).current_player()
            self._first = first
        return int(first)

    def check_takeback(self, seats: Sequence[int]) -> int:
        """Refuse a takeback ``seats`` may not make now (one line); answer the person's
        seat."""
        if not seats:
            raise SeatError("a takeback needs your private link (token); spectators cannot")
        person = self.person_seat
        if person is None:
            raise TurnError("takebacks are for games against an agent")
        if self.clock is not None:
            raise TurnError("takebacks are for untimed games; this game has a clock")
        self._playing("taken back")
        if not self.can_take_back(seats):
            raise TurnError("nothing to take back: you have not moved yet")
        return person

    def take_back(self, kept: int, state: State) -> None:
        """Undo the moves after the first ``kept`` (``state``: the position after them)."""
        self.row.moves = self.row.moves[:kept]
        self.row.pending = {}
        self.state = state
        self.undone += 1
        for key in ("draw", "draw_declined"):
            self.row.offers.pop(key, None)

    # -- what pages see --------------------------------------------------------------------------

    def endings_view(self, seats: Sequence[int]) -> dict[str, Any]:
        """The view's keys of this part but the clocks (:meth:`clock_view`, read afresh for
        every answer): presence, offers, the rematch's link (each page its own) and whether a
        takeback is possible."""
        offers = self.row.offers
        return {
            "connected": list(self.connected),
            "offers": {"draw": offers.get("draw"), "rematch": offers.get("rematch"),
                       "draw_declined": offers.get("draw_declined"),
                       "rematch_declined": offers.get("rematch_declined")},
            "rematch": self._rematch_view(seats),
            "can_take_back": self.can_take_back(seats),
        }

    def clock_view(self) -> dict[str, Any] | None:
        """The clocks as a page sees them now (``None``: untimed): the one part of a view
        that changes with time alone, so it is never cached."""
        return None if self.clock is None else self.clock.view(self.now())

    def _rematch_view(self, seats: Sequence[int]) -> dict[str, str] | None:
        made = self.row.offers.get("next")
        if not isinstance(made, dict):
            return None
        new_id = str(made.get("id"))
        tokens = made.get("tokens") or [None, None]
        token = next((tokens[s] for s in seats if tokens[s]), None)
        link = f"/play/{new_id}#t={token}" if token else f"/play/{new_id}"
        return {"id": new_id, "link": link}


def takeback_position(game: str, params: dict[str, Any], setup: str, moves: list[str],
                      person: int) -> tuple[int, State]:
    """How many moves a takeback keeps and the position after them (a worker runs it for a
    long game): ``person``'s last turn goes (every move of it, where a turn is more than one,
    as the queen game's move and block) with the agent's reply after it.

    >>> kept, state = takeback_position("blocking_queen", {"k": 2}, "9,14",
    ...                                 ["5,10", "3,8", "2,7"], 0)
    >>> kept, state.history_strings()
    (0, [])
    """
    record = Record(game, dict(params), setup, ["", ""], list(moves))
    movers = [state.current_player() for state in replay_positions(record)][:len(moves)]
    mine = [k for k, mover in enumerate(movers) if mover in (person, SIMULTANEOUS)]
    if not mine:
        raise TurnError("nothing to take back: you have not moved yet")
    kept = mine[-1]
    while kept > 0 and movers[kept - 1] == person != SIMULTANEOUS:
        kept -= 1
    return kept, replay(record, upto=kept)


__all__ = ["Answer", "Endings", "takeback_position"]
