"""Life for Two's classic rules in the browser: the 1978 BASIC program LIFE2, run exactly.

The program (:mod:`lifearena.games.life_for_two.classic`) reads one ``x,y`` answer per
prompt from a single terminal, bugs and unfairness included (player 2 sees player 1's setup
pieces; a shared cell on a later turn clears a neighbour). Here it is a hot-seat game whose
stored "moves" are the answers typed so far: every change replays the program on them and
shows its transcript, so the web layer adds no rule of its own.

>>> from lifearena.web.store import GameRow
>>> game = ClassicGame.from_row(GameRow("c", CLASSIC, {}, "", {"kind": "hotseat"}, ["t", "t"]))
>>> for answer in ["1,1", "2,1", "1,2", "3,4", "4,4", "5,4", "3,2", "3,2"]:
...     _ = game.play(answer, game.awaiting()[0], ply=len(game.row.moves))
>>> game.view([0, 1])["outcome"]["text"], "SAME COORD" in game.transcript
('1 wins (win, the 1978 program)', True)
"""

from __future__ import annotations

import contextlib
import io
import json
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from lifearena.errors import BadParameterError, ParseError
from lifearena.games.life_for_two.classic import play_classic
from lifearena.web.live import SeatError, TurnError, check_ply, same_secret
from lifearena.web.store import GameRow

CLASSIC = "life_for_two_classic"
"""The stored game name of a classic Life for Two game."""
MAX_ANSWER = 20
MAX_ANSWERS = 2_000
_ASKED = re.compile(r"PLAYER ?(\d)")


@dataclass
class ClassicGame:
    """A classic Life for Two game: the answers so far and the program's transcript."""

    row: GameRow
    transcript: str = ""
    winner: int | None = None
    over: bool = False
    thinking: bool = False
    agent_error: str | None = None
    agent_seat: int | None = field(default=None, init=False)
    waiting_for_opponent: bool = field(default=False, init=False)

    @classmethod
    def from_row(cls, row: GameRow) -> ClassicGame:
        game = cls(row)
        game._run()
        return game

    def _run(self) -> None:
        out = io.StringIO()
        try:
            self.winner = play_classic(self.row.moves, out, echo=True)
            self.over = True
        except ParseError:  # the answers ran out: the program waits at its prompt
            self.over = False
        self.transcript = out.getvalue()

    def seats_of(self, token: str | None) -> list[int]:
        if not token:
            return []
        if not any(t is not None and same_secret(t, token) for t in self.row.tokens):
            raise SeatError("this link's seat token does not belong to this game")
        return [0, 1]

    def awaiting(self) -> list[int]:
        """The player the program is asking (from its last ``PLAYER n`` line)."""
        if self.over:
            return []
        asked = _ASKED.findall(self.transcript)
        return [int(asked[-1]) - 1] if asked else [0]

    def claim(self, invitation: str) -> tuple[int, str]:
        """A classic game is played at one screen: it has no invitation to claim."""
        raise SeatError("this game is played at one screen; it has no invitation")

    def cancel(self, seats: Sequence[int]) -> None:
        """A classic game has no invitation to withdraw."""
        raise TurnError("only a game still waiting for its opponent can be cancelled")

    def play(self, text: str, seat: int, ply: int) -> str:
        """Type ``text`` at the program's prompt (``ply``: the answers typed when it was
        chosen)."""
        check_ply(self.row, ply)
        if self.over:
            raise TurnError("the game is over; no move can be played")
        if not isinstance(text, str) or not text.strip() or len(text) > MAX_ANSWER:
            raise ParseError(f"answer {str(text)[:30]!r}; expected x,y (at most {MAX_ANSWER} "
                             "characters)")
        if len(self.row.moves) >= MAX_ANSWERS:
            raise TurnError(f"{MAX_ANSWERS} answers typed; this game can take no more")
        self.row.moves.append(text.strip())
        self._run()
        return "applied"

    def view(self, seats: Sequence[int], *, legal: bool = True) -> dict[str, Any]:
        outcome = None
        if self.over:
            outcome = {"text": "draw (draw, the 1978 program)" if self.winner is None
                       else f"{self.winner + 1} wins (win, the 1978 program)",
                       "winner": self.winner,
                       "termination": "draw" if self.winner is None else "win",
                       "detail": "A DRAW" if self.winner is None
                       else f"PLAYER {self.winner + 1} IS THE WINNER"}
        return {
            "type": "state", "id": self.row.id, "game": CLASSIC,
            "title": "Life for Two (the 1978 program)", "params": {"rules": "classic"},
            "setup": "", "symbols": ["1", "2"], "simultaneous": False,
            "opponent": dict(self.row.opponent), "players": self.players(),
            "seats": list(seats), "move_number": len(self.row.moves),
            "ply": len(self.row.moves), "waiting_for_opponent": False, "cancelled": False,
            "invitation": None,
            "moves": list(self.row.moves), "awaiting": self.awaiting(), "chosen": [],
            "mine": {}, "display": {"text": self.transcript}, "legal": {},
            "move_help": ("answer the program's ? with x,y (column, row, 1..5). As in 1978, "
                          "player 2 sees player 1's setup pieces: look away in turn"),
            "thinking": False, "agent_error": None, "outcome": outcome,
        }

    def players(self) -> list[str]:
        return ["hot-seat player 1", "hot-seat player 2"]

    def download(self, form: str) -> tuple[str, str, str]:
        """The game as (body, media type, file suffix): the transcript, or JSON with the
        answers that replay it."""
        if form == "text":
            return self.transcript, "text/plain; charset=utf-8", "txt"
        body = json.dumps({"game": CLASSIC, "answers": self.row.moves,
                           "transcript": self.transcript})
        return body, "application/json", "json"

    def position_job(self, upto: int) -> tuple[Any, ...]:
        """The arguments of :func:`transcript_after` for the first ``upto`` answers."""
        if not 0 <= upto <= len(self.row.moves):
            raise BadParameterError(f"answer {upto}; expected 0..{len(self.row.moves)}")
        return (self.row.moves[:upto],)


def transcript_after(answers: list[str]) -> dict[str, Any]:
    """The program's transcript after ``answers`` (run in a worker, like any replay)."""
    out = io.StringIO()
    with contextlib.suppress(ParseError):  # the answers end before the game does
        play_classic(answers, out, echo=True)
    return {"text": out.getvalue()}
