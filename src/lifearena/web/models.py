"""Every request body and WebSocket message the game server takes, as declared models.

FastAPI reads the HTTP bodies through these (so the OpenAPI schema describes each request)
and :func:`read_message` parses the socket's messages. Every field is exact: an integer is a
JSON integer (no ``0.0``, ``true`` or ``"1"`` for a seat or a ply), strings and collections
are bounded, and unknown fields are refused, so nothing a client sends can reach a game in a
shape the server did not expect.

>>> read_message('{"type": "move", "move": "b2-b3", "ply": 4}')
MoveMessage(type='move', move='b2-b3', ply=4, seat=None)
>>> read_message('{"type": "move", "move": "b2-b3", "ply": 4, "seat": 0.0}')
Traceback (most recent call last):
...
lifearena.errors.ParseError: message: seat: Input should be a valid integer
>>> read_message('{"type": "hello", "token": "' + "x" * 100 + '"}')  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
lifearena.errors.ParseError: message: token: String should have at most 64 characters
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Annotated, Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    TypeAdapter,
    ValidationError,
    model_validator,
)

from lifearena.errors import ParseError
from lifearena.web.json_limits import parse_json

MAX_MOVE_TEXT = 200
"""Longest move text accepted (the longest real move, Life for Two's first, is ~17)."""
MAX_PLY = 1_000_000
"""Largest move number a move may name."""
MAX_TOKEN = 64
"""Longest seat token, invitation or admin secret (they are 24 characters)."""
MAX_PARAMS = 16
"""Most parameters a new-game form may set."""
MAX_PARAM_TEXT = 4_096
"""Longest text parameter (a War of Life position in the coursework's notation)."""
MAX_RECORD = 262_144
"""Largest record upload, in characters."""

Seat = Annotated[int, Field(strict=True, ge=0, le=1)]
Ply = Annotated[int, Field(strict=True, ge=0, le=MAX_PLY)]
Token = Annotated[str, Field(strict=True, min_length=1, max_length=MAX_TOKEN)]
MoveText = Annotated[str, Field(strict=True, min_length=1, max_length=MAX_MOVE_TEXT)]
ParamValue = (Annotated[bool, Field(strict=True)] | Annotated[int, Field(strict=True)]
              | Annotated[float, Field(strict=True, allow_inf_nan=False)]
              | Annotated[str, Field(strict=True, max_length=MAX_PARAM_TEXT)] | None)


class Declared(BaseModel):
    """A client's message: exact types, unknown fields refused."""

    model_config = ConfigDict(strict=True, extra="forbid", frozen=True)


class TimeControl(Declared):
    """A game's time control: ``{"kind": "live", "minutes": 5, "increment": 3}`` (each side
    has ``minutes`` for the game and gains ``increment`` seconds with each of its moves) or
    ``{"kind": "correspondence", "days": 3}`` (each move within ``days`` days). A side whose
    time runs out loses (a draw when the other side could not win); see
    :mod:`lifearena.web.clock`.

    >>> TimeControl(kind="live", minutes=3, increment=2).minutes
    3.0
    >>> TimeControl(kind="correspondence", minutes=3)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    pydantic_core._pydantic_core.ValidationError: 1 validation error for TimeControl
    ...
    """

    kind: Literal["live", "correspondence"]
    minutes: Annotated[float, Field(allow_inf_nan=False, gt=0, le=180)] | None = Field(
        None, description="live: minutes each side has for the game (0.5 to 180)")
    increment: Annotated[float, Field(allow_inf_nan=False, ge=0, le=180)] = Field(
        0, description="live: seconds added to a side's time after each of its moves")
    days: Annotated[int, Field(ge=1, le=14)] | None = Field(
        None, description="correspondence: days each move may take (1 to 14)")

    @model_validator(mode="after")
    def _fields_of_kind(self) -> TimeControl:
        if self.kind == "live":
            if self.minutes is None or self.days is not None:
                raise ValueError("a live time control takes minutes (0.5 to 180) and an "
                                 "increment in seconds, not days")
        elif self.days is None or self.minutes is not None or self.increment:
            raise ValueError("a correspondence time control takes days (1 to 14) only")
        return self


class NewGame(Declared):
    """``POST /api/games``: a new game from the home page's form."""

    game: Annotated[str, Field(max_length=40)] = Field(
        description="one of the catalog's games (war_of_life, life_for_two, ...)")
    params: dict[Annotated[str, Field(max_length=40)], ParamValue] = Field(
        default_factory=dict, max_length=MAX_PARAMS,
        description="the game's parameters, checked against the catalog's bounds")
    opponent: Literal["hotseat", "online", "agent"] = "hotseat"
    side: Seat = Field(0, description="the creator's seat: 0 moves first")
    level: Annotated[str, Field(max_length=40)] = Field(
        "easy", description="the agent's level (opponent 'agent' only)")
    clock: TimeControl | None = Field(None, description="the time control (none: untimed)")
    rated: bool = Field(False, description="a rated game: needs an account on both sides (the "
                                           "computer counts as one)")


class OpenRecord(Declared):
    """``POST /api/records``: a record (JSON or PGN-like text) opened as a hot-seat game."""

    record: Annotated[str, Field(max_length=MAX_RECORD)]


class Move(Declared):
    """``POST /api/games/{id}/moves``: a move, and the move number it was made for."""

    move: MoveText = Field(description="the move in the game's notation")
    ply: Ply = Field(description="the move number the game was at when the move was chosen "
                                 "(the view's move_number); a stale or duplicate move is "
                                 "refused with 409")
    seat: Seat | None = Field(None, description="the seat moving, when a link holds both")


class Preview(Declared):
    """``POST /api/games/{id}/preview``: what a move would do, shown and not played."""

    move: MoveText = Field(description="the move in the game's notation")
    seat: Seat | None = Field(None, description="the seat whose move it is, when a link "
                                                "holds both")


class Claim(Declared):
    """``POST /api/games/{id}/claim``: take the seat an invitation offers."""

    invitation: Token


class Cancel(Declared):
    """``POST /api/games/{id}/cancel``: the creator withdraws an unanswered invitation."""


class Hello(Declared):
    """The first message on a game's socket: who this page is (no token: a spectator)."""

    type: Literal["hello"]
    token: Token | None = None


class MoveMessage(Declared):
    """A move over the socket (as :class:`Move`)."""

    type: Literal["move"]
    move: MoveText
    ply: Ply
    seat: Seat | None = None


class ResignMessage(Declared):
    """Resign (the side to move, when the page holds both seats)."""

    type: Literal["resign"]


class DrawMessage(Declared):
    """Offer a draw, or answer the opponent's offer (turn-based games only)."""

    type: Literal["draw"]
    action: Literal["offer", "accept", "decline"]


class RematchMessage(Declared):
    """Offer a rematch with colours swapped once the game is over, or answer the offer."""

    type: Literal["rematch"]
    action: Literal["offer", "accept", "decline"]


class TakebackMessage(Declared):
    """Take back the person's last move (and the agent's reply), in an untimed game against
    an agent."""

    type: Literal["takeback"]


class Resign(Declared):
    """``POST /api/games/{id}/resign``."""


class Draw(Declared):
    """``POST /api/games/{id}/draw``: offer, accept or decline a draw."""

    action: Literal["offer", "accept", "decline"]


class Rematch(Declared):
    """``POST /api/games/{id}/rematch``: offer, accept or decline a rematch."""

    action: Literal["offer", "accept", "decline"]


class Takeback(Declared):
    """``POST /api/games/{id}/takeback``."""


class Ping(Declared):
    """Keeps a socket alive; answered with nothing."""

    type: Literal["ping"]


GameAction = ResignMessage | DrawMessage | RematchMessage | TakebackMessage
"""A socket message that acts on the game other than a move."""
AnyMessage = Hello | MoveMessage | Ping | GameAction
ClientMessage = Annotated[AnyMessage, Field(discriminator="type")]
_MESSAGE: TypeAdapter[AnyMessage] = TypeAdapter(ClientMessage)


def loads(text: str | bytes) -> Any:
    """JSON a client sent over a socket, read as every body is (:func:`json_limits.parse_json
    <lifearena.web.json_limits.parse_json>`): numbers over 40 digits, NaN and Infinity, and nesting
    deeper than 32 levels are a one-line :class:`ParseError`.

    >>> loads('{"a": [1, 2.5]}')
    {'a': [1, 2.5]}
    >>> loads("[" * 40 + "]" * 40)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    lifearena.errors.ParseError: message is not JSON within this server's limits: nested ...
    >>> loads("1" * 5000)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    lifearena.errors.ParseError: message is not JSON ...: a number of 5000 digits; expected ...
    """
    try:
        return parse_json(text, "message")
    except ValueError as error:
        raise ParseError(str(error)) from None


def read_message(text: str | bytes | None) -> AnyMessage:
    """A socket message, parsed and checked, or a one-line :class:`ParseError`."""
    if text is None:
        raise ParseError("binary message; expected JSON text")
    data = loads(text)
    if not isinstance(data, dict):
        raise ParseError('message must be a JSON object; expected {"type": "hello" | "move" | '
                         '"ping" | "resign" | "draw" | "rematch" | "takeback", ...}')
    try:
        return _MESSAGE.validate_python(data)
    except ValidationError as error:
        raise ParseError(f"message: {first_error(error.errors(include_url=False))}") from None


def first_error(problems: Sequence[Any]) -> str:
    """The first of a validation error's problems (pydantic's ``errors()``), in one line:
    ``where: what``.

    >>> first_error([{"loc": ("body", "seat"), "msg": "Input should be a valid integer"}])
    'seat: Input should be a valid integer'
    """
    if not problems:
        return "invalid"
    first = problems[0]
    where = ".".join(str(p) for p in first.get("loc", ()) if p not in ("body",))
    # a tagged union names the tag first ("move.seat"): the field is what a person needs
    parts = where.split(".")
    if len(parts) > 1 and parts[0] in ("hello", "move", "ping", "resign", "draw", "rematch",
                                       "takeback"):
        where = ".".join(parts[1:])
    message = str(first.get("msg", "invalid")).splitlines()[0][:160]
    return f"{where}: {message}" if where else message


# -- the lobby's open challenges (lifearena.web.lobby) ---------------------------------------

MAX_OWNED = 16
"""Most challenge owner secrets one lobby page may name in its hello."""


class ChallengeTerms(Declared):
    """What any challenge proposes: a game, its parameters, a time control, the
    challenger's seat and whether the game is rated (the lobby's open challenges and the
    bot API's challenges to a named player)."""

    game: Annotated[str, Field(max_length=40)] = Field(
        description="one of the catalog's games (war_of_life, life_for_two, ...)")
    params: dict[Annotated[str, Field(max_length=40)], ParamValue] = Field(
        default_factory=dict, max_length=MAX_PARAMS,
        description="the game's parameters, checked against the catalog's bounds")
    clock: TimeControl | None = Field(None, description="the time control (none: untimed)")
    colour: Seat | Literal["random"] = Field(
        "random", description="the challenger's seat (0 moves first), or 'random'")
    rated: bool = Field(False, description="a rated game: both sides need accounts (bots "
                                           "and the computer are accounts)")


class NewChallenge(ChallengeTerms):
    """``POST /api/challenges``: an open challenge any visitor may accept."""

    min_rating: Annotated[int, Field(ge=0, le=4000)] | None = Field(
        None, description="the lowest rating (in this game) of a player who may accept")
    max_rating: Annotated[int, Field(ge=0, le=4000)] | None = Field(
        None, description="the highest rating (in this game) of a player who may accept")

    @model_validator(mode="after")
    def _range_in_order(self) -> NewChallenge:
        if (self.min_rating is not None and self.max_rating is not None
                and self.min_rating > self.max_rating):
            raise ValueError(f"rating range {self.min_rating} to {self.max_rating}; expected "
                             "the lowest first")
        return self


class AcceptChallenge(Declared):
    """``POST /api/challenges/{id}/accept``: take the other seat of an open challenge."""


class CancelChallenge(Declared):
    """``POST /api/challenges/{id}/cancel``: the creator withdraws an open challenge."""


class LobbyHello(Declared):
    """A lobby page's message saying which challenges are its own: the owner secrets it holds
    (sent first, and again whenever the page creates a challenge; each replaces the last)."""

    type: Literal["hello"]
    owners: list[Token] = Field(default_factory=list, max_length=MAX_OWNED)


LobbyMessage = Annotated[LobbyHello | Ping, Field(discriminator="type")]
_LOBBY_MESSAGE: TypeAdapter[LobbyHello | Ping] = TypeAdapter(LobbyMessage)


def read_lobby_message(text: str | bytes | None) -> LobbyHello | Ping:
    """A lobby socket's message, parsed and checked, or a one-line :class:`ParseError`.

    >>> read_lobby_message('{"type": "hello", "owners": ["abc"]}')
    LobbyHello(type='hello', owners=['abc'])
    >>> read_lobby_message('{"type": "move", "move": "x", "ply": 0}')  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    lifearena.errors.ParseError: message: Input tag 'move' found using 'type' does not ...
    """
    if text is None:
        raise ParseError("binary message; expected JSON text")
    data = loads(text)
    if not isinstance(data, dict):
        raise ParseError('message must be a JSON object; expected {"type": "hello", '
                         '"owners": [...]} or {"type": "ping"}')
    try:
        return _LOBBY_MESSAGE.validate_python(data)
    except ValidationError as error:
        raise ParseError(f"message: {first_error(error.errors(include_url=False))}") from None


__all__ = ["MAX_MOVE_TEXT", "AcceptChallenge", "Cancel", "CancelChallenge", "Claim",
           "ClientMessage", "Draw", "DrawMessage", "GameAction", "Hello", "LobbyHello",
           "Move", "MoveMessage", "NewChallenge", "NewGame", "OpenRecord", "Ping", "Preview",
           "Rematch", "RematchMessage", "Resign", "ResignMessage", "Takeback",
           "TakebackMessage", "TimeControl", "first_error", "loads", "read_lobby_message",
           "read_message"]


PlayerName = Annotated[str, Field(min_length=1, max_length=40,
                                  description="a display name: 2 to 20 letters, digits, '_' "
                                              "or '-'")]
Password = Annotated[str, Field(min_length=1, max_length=256,
                                description="8 to 256 characters")]


class ChooseName(Declared):
    """``POST /api/me/name``: the display name an anonymous player chooses."""

    name: PlayerName


class Credentials(Declared):
    """``POST /api/account/signup`` and ``/login``: a username and its password."""

    name: PlayerName
    password: Password


class DeleteAccount(Declared):
    """``POST /api/account/delete``: the password again, to delete the account for good."""

    password: Password


class NewToken(Declared):
    """``POST /api/account/tokens``: a personal API token with its scopes."""

    label: Annotated[str, Field(min_length=1, max_length=80)] = Field(
        description="what the token is for (shown in the list)")
    scopes: list[Literal["bot:play", "challenge:write", "board:read"]] = Field(
        min_length=1, max_length=3, description="what the token may do")
