"""The results files a server was given (``lifearena serve --results FILE``, repeatable).

Each file is addressed by its id (``1``, ``2``, ... in the order given), never by a path a
client sends, and read only (SQLite ``mode=ro``; a running tournament or sweep may still be
writing it). Its kind is told from the file itself: an arena results database (tournaments
and ladders) carries the ``LIFE`` application id, a p2life sweep file has ``meta`` and ``runs``
tables and the ``P2LD`` id (or none, in files made before that id).

>>> ResultsFiles([]).describe()
[]
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any

from lifearena.arena.storage import APPLICATION_ID
from lifearena.errors import BadParameterError, LifeArenaError
from lifearena.studies.p2life_density import APPLICATION_ID as P2LIFE_APPLICATION_ID
from lifearena.studies.p2life_density import RunRow


class UnknownResults(LifeArenaError):
    """No results file, run or game with that id (answered as 404)."""


@dataclass(frozen=True)
class ResultsFile:
    """One results file: its id, path and kind (``"arena"`` or ``"p2life"``)."""

    id: str
    path: Path
    kind: str

    @contextmanager
    def connect(self) -> Iterator[sqlite3.Connection]:
        """A read-only connection to the file."""
        connection = sqlite3.connect(f"{self.path.resolve().as_uri()}?mode=ro", uri=True,
                                     timeout=10)
        try:
            yield connection
        finally:
            connection.close()


def kind_of(path: Path) -> str:
    """``"arena"`` or ``"p2life"``; :class:`BadParameterError` for anything else."""
    if not path.is_file():
        raise BadParameterError(f"--results {path}: no such file; expected a results file "
                                "made by lifearena tournament/ladder or lifearena p2life")
    try:
        connection = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
        try:
            app_id = connection.execute("PRAGMA application_id").fetchone()[0]
            tables = {name for (name,) in connection.execute(
                "SELECT name FROM sqlite_master WHERE type = 'table'")}
        finally:
            connection.close()
    except sqlite3.Error as error:
        raise BadParameterError(f"--results {path} is not a SQLite file ({error}); expected "
                                "a lifearena results file") from None
    if app_id == APPLICATION_ID and "games" in tables:
        return "arena"
    # files written before p2life marked its own carry no application id
    if app_id in (0, P2LIFE_APPLICATION_ID) and {"meta", "runs"} <= tables:
        return "p2life"
    raise BadParameterError(f"--results {path} holds tables {', '.join(sorted(tables)) or 'none'}"
                            "; expected a tournament/ladder or p2life results file")


class ResultsFiles:
    """The server's results files, checked when the server starts."""

    def __init__(self, paths: Sequence[Path]) -> None:
        self.files = {str(i): ResultsFile(str(i), Path(p), kind_of(Path(p)))
                      for i, p in enumerate(paths, start=1)}

    def get(self, file_id: str, kind: str | None = None) -> ResultsFile:
        found = self.files.get(file_id)
        if found is None or (kind is not None and found.kind != kind):
            known = ", ".join(f.id for f in self.files.values()
                              if kind is None or f.kind == kind) or "none"
            what = f"{kind} results file" if kind else "results file"
            raise UnknownResults(f"no {what} with id {file_id!r}; this server has: {known}")
        return found

    def describe(self) -> list[dict[str, Any]]:
        return [{"id": f.id, "name": f.path.name, "kind": f.kind} for f in self.files.values()]


def p2life_rows(results: ResultsFile) -> list[RunRow]:
    """The finished runs of a p2life sweep file."""
    names = [f.name for f in fields(RunRow)]
    with results.connect() as connection:
        try:
            return [RunRow(*row) for row in connection.execute(
                f"SELECT {', '.join(names)} FROM runs ORDER BY rule, boundary, height, width, "
                "p, run")]
        except sqlite3.Error as error:
            raise BadParameterError(f"results file {results.id} cannot be read ({error})"
                                    ) from None
