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

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

from lifearena.errors import ParseError
from lifearena.web.guard import parse_json

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


class Ping(Declared):
    """Keeps a socket alive; answered with nothing."""

    type: Literal["ping"]


ClientMessage = Annotated[Hello | MoveMessage | Ping, Field(discriminator="type")]
_MESSAGE: TypeAdapter[Hello | MoveMessage | Ping] = TypeAdapter(ClientMessage)


def loads(text: str | bytes) -> Any:
    """JSON a client sent over a socket, read as every body is (:func:`guard.parse_json
    <lifearena.web.guard.parse_json>`): numbers over 40 digits, NaN and Infinity, and nesting
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


def read_message(text: str | bytes | None) -> Hello | MoveMessage | Ping:
    """A socket message, parsed and checked, or a one-line :class:`ParseError`."""
    if text is None:
        raise ParseError("binary message; expected JSON text")
    data = loads(text)
    if not isinstance(data, dict):
        raise ParseError('message must be a JSON object; expected {"type": "hello" | "move" | '
                         '"ping", ...}')
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
    if len(parts) > 1 and parts[0] in ("hello", "move", "ping"):
        where = ".".join(parts[1:])
    message = str(first.get("msg", "invalid")).splitlines()[0][:160]
    return f"{where}: {message}" if where else message


__all__ = ["MAX_MOVE_TEXT", "Cancel", "Claim", "ClientMessage", "Hello", "Move",
           "MoveMessage", "NewGame", "OpenRecord", "Ping", "first_error", "loads",
           "read_message"]
