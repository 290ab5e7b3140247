"""``lifearena serve --results``: a missing or foreign file is one line and exit status 2."""

from __future__ import annotations

import socket
import sqlite3
from pathlib import Path

import pytest

from lifearena.cli import main


@pytest.mark.parametrize(("name", "fragment"), [
    ("missing.sqlite", "no such file"),
    ("notes.txt", "not a SQLite file"),
    ("other.sqlite", "expected a tournament/ladder or p2life results file"),
])
def test_bad_results_files_exit_2_with_one_line(name: str, fragment: str, tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "notes.txt").write_text("not a database " * 100)
    with sqlite3.connect(tmp_path / "other.sqlite") as connection:
        connection.execute("CREATE TABLE birds (name TEXT)")
    with pytest.raises(SystemExit) as exit_info:
        main(["serve", "--db", str(tmp_path / "games.sqlite"), "--results",
              str(tmp_path / name)])
    assert exit_info.value.code == 2
    err = capsys.readouterr().err.strip()
    assert fragment in err and len(err.splitlines()) == 1


@pytest.mark.parametrize("value", ["-1", "17", "two"])
def test_tournaments_outside_its_range_exits_2(value: str, tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["serve", "--db", str(tmp_path / "games.sqlite"), "--tournaments", value])
    assert exit_info.value.code == 2
    assert "--tournaments" in capsys.readouterr().err


def test_tournaments_reach_the_server(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                      capsys: pytest.CaptureFixture[str]) -> None:
    import uvicorn

    served: list[object] = []
    monkeypatch.setattr(uvicorn.Server, "run",
                        lambda self, sockets=None: served.append(self.config.app))
    from fastapi.testclient import TestClient

    def serve(*args: str) -> None:
        with pytest.raises(SystemExit) as exit_info:
            main(["serve", "--db", str(tmp_path / "games.sqlite"), "--port", str(port),
                  "--workers", "1", *args])
        assert exit_info.value.code == 0

    with socket.socket() as probe:  # a free port: serve binds it before serving
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]

    serve("--tournaments", "0")
    with TestClient(served[0], base_url="http://localhost") as client:  # type: ignore[arg-type]
        assert client.get("/api/lab/tournaments/form").json()["enabled"] is False
    serve("--tournaments", "3")
    with TestClient(served[1], base_url="http://localhost") as client:  # type: ignore[arg-type]
        assert client.get("/api/lab/tournaments/form").json()["limit"] == 3
    assert "games-tournaments" in capsys.readouterr().out
