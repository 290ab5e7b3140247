"""The bodies of the lab's POST requests, as declared models.

FastAPI reads every lab body through one of these, so the OpenAPI schema describes it and
nothing a client sends reaches the lab in a shape it did not expect: integers are JSON
integers (no ``2.0``, ``true`` or ``"2"``), strings and lists are bounded, and unknown fields
are refused. A body that does not fit is answered by the app's validation handler (400, one
line naming the field). What depends on the game (the agents it offers, the caps of a
tournament) is checked after this, by the code that knows the game.

>>> LaunchBody.model_validate({"game": "losat", "agents": ["random"], "games": 2, "seed": 1})
LaunchBody(game='losat', agents=['random'], games=2, seed=1)
>>> from pydantic import ValidationError
>>> try:
...     LaunchBody.model_validate({"game": "losat", "agents": ["random"], "games": "2"})
... except ValidationError as error:
...     print(error.errors()[0]["loc"], error.errors()[0]["msg"])
('games',) Input should be a valid integer
"""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import (
    Discriminator,
    Field,
    StrictBool,
    StrictFloat,
    StrictInt,
    StrictStr,
    Tag,
)

from lifearena import caps
from lifearena.web.models import Declared

MAX_NAME = 64
"""Longest game or agent name (the registry's longest is under 20 characters)."""
MAX_ENTRANTS = 12
"""Most entrants of a tournament started from the page."""
MAX_TEXT = 262_144
"""Longest text a lab body holds: an RLE pattern or a record (the app's body bound)."""
MAX_SIDE = 256
"""The sandbox's largest grid side, in cells (``sandbox.MAX_SIDE``)."""
MAX_RULE = 4_000
"""Longest rule text (a clause table)."""
MAX_RECORD_MOVES = 1_000
"""Most moves of a record the replay page opens (``replays.MAX_MOVES``)."""
MAX_MOVE = 200
"""Longest move text (the longest real one, Life for Two's first, is about 17)."""
MAX_FIELDS = 16
"""Most entries of a record's ``params`` or ``extra``."""
MAX_VALUE = 4_096
"""Longest text value in ``params`` or ``extra`` (a forfeit's reason, a War of Life setup)."""
MAX_SETUP = 65_536
"""Longest setup of a record (a position in the game's notation)."""

Name = Annotated[StrictStr, Field(min_length=1, max_length=MAX_NAME)]
Key = Annotated[StrictStr, Field(max_length=MAX_NAME)]
#: a JSON scalar as a record's params and extra hold them
Value = (StrictBool | StrictInt | Annotated[StrictFloat, Field(allow_inf_nan=False)]
         | Annotated[StrictStr, Field(max_length=MAX_VALUE)] | None)


class LabBody(Declared):
    """A lab request's body: exact types, unknown fields refused (as every message)."""


class LaunchBody(LabBody):
    """``POST /api/lab/tournaments/start``: a tournament to run on this server."""

    game: Name = Field(description="one of the catalog's games")
    agents: list[Name] = Field(min_length=1, max_length=MAX_ENTRANTS,
                               description="the entrants, each once, among those the form "
                                           "offers for the game")
    games: StrictInt = Field(ge=1, le=caps.MAX_GAMES, description="games per pairing")
    seed: StrictInt = Field(0, ge=0, le=caps.MAX_SEED)


class RleText(LabBody):
    """``POST /api/lab/rle/read``: a pattern in Golly RLE."""

    text: Annotated[StrictStr, Field(max_length=MAX_TEXT)]


class RleGrid(LabBody):
    """``POST /api/lab/rle/write``: a grid as the sandbox sends it, to write as RLE."""

    height: StrictInt = Field(ge=1, le=MAX_SIDE)
    width: StrictInt = Field(ge=1, le=MAX_SIDE)
    cells: StrictStr = Field(max_length=MAX_SIDE * MAX_SIDE,
                             description="height x width digits 0, 1 or 2, row by row")
    rule: Annotated[StrictStr, Field(max_length=MAX_RULE)] | None = Field(
        None, description="the rule named in the RLE header (a typed table is left out)")


class RecordOutcome(LabBody):
    """How a recorded game ended (:meth:`lifearena.core.Outcome.to_dict`)."""

    termination: Annotated[StrictStr, Field(max_length=MAX_NAME)]
    winner: Annotated[StrictInt, Field(ge=0, le=1)] | None = None
    winner_symbol: Annotated[StrictStr, Field(max_length=MAX_NAME)] | None = None
    detail: Annotated[StrictStr, Field(max_length=MAX_VALUE)] = ""


class RecordObject(LabBody):
    """A game record as JSON fields (:class:`lifearena.core.Record`)."""

    game: Name
    params: dict[Key, Value] = Field(default_factory=dict, max_length=MAX_FIELDS)
    setup: Annotated[StrictStr, Field(max_length=MAX_SETUP)] = ""
    players: list[Annotated[StrictStr, Field(max_length=MAX_NAME * 4)]] = Field(
        default_factory=lambda: ["", ""], max_length=8)
    moves: list[Annotated[StrictStr, Field(max_length=MAX_MOVE)]] = Field(
        max_length=MAX_RECORD_MOVES)
    result: Annotated[StrictStr, Field(max_length=MAX_VALUE)] = "*"
    extra: dict[Key, Value] = Field(default_factory=dict, max_length=MAX_FIELDS)
    outcome: RecordOutcome | None = None
    version: Annotated[StrictInt, Field(ge=1, le=1_000)] = 1


def _record_form(value: Any) -> str:
    # a string is a record's text; anything else is checked as its fields, so a bad field is
    # named alone rather than beside "Input should be a valid string"
    return "text" if isinstance(value, str) else "fields"


class ReplayBody(LabBody):
    """``POST /api/lab/replay``: a record, as text (JSON or PGN-like) or as its fields.

    >>> ReplayBody.model_validate({"record": "[Game \\"losat\\"]"}).record
    '[Game "losat"]'
    >>> ReplayBody.model_validate({"record": {"game": "losat", "moves": []}}).record.setup
    ''
    """

    record: Annotated[
        Annotated[Annotated[StrictStr, Field(max_length=MAX_TEXT)], Tag("text")]
        | Annotated[RecordObject, Tag("fields")],
        Discriminator(_record_form)] = Field(
        description="the record's text (JSON or PGN-like), or its fields")


__all__ = ["LabBody", "LaunchBody", "RecordObject", "RecordOutcome", "ReplayBody", "RleGrid",
           "RleText"]
