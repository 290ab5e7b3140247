"""``lifearena serve``: bad options are one line on stderr and exit status 2."""

from __future__ import annotations

from pathlib import Path

import pytest

from lifearena.cli import main


@pytest.mark.parametrize(("args", "fragment"), [
    (["--port", "70000"], "--port 70000: expected"),
    (["--workers", "0"], "--workers 0: expected"),
    (["--creates-per-minute", "0"], "--creates-per-minute 0: expected"),
    (["--db", "{tmp}"], "is a folder"),
    (["--db", "{tmp}/missing/games.sqlite"], "does not exist"),
    (["--db", "{tmp}/not-sqlite"], "not a lifearena games database"),
    (["--db", "mysql://me@127.0.0.1/games"], "--db 'mysql://me@127.0.0.1/games' is not a "
     "file path or a supported URL; expected"),
    (["--db", "postgresql://me:secret@127.0.0.1:1/games"],
     "--db postgresql+psycopg://me:***@127.0.0.1:1/games cannot be used:"),
    (["--db", "{tmp}/games.sqlite", "--broker", "redis://127.0.0.1:6379/0"],
     "--broker needs a shared store; expected --db postgresql://"),
    (["--db", "postgresql://me@127.0.0.1:1/games", "--broker", "http://cache"],
     "--broker: broker URL 'http://cache'; expected redis://host:port/db"),
    (["--db", "postgresql://me@127.0.0.1:1/games", "--broker", "redis://127.0.0.1:6379/0",
      "--replica-id", "a b"], "--replica-id 'a b'; expected 1 to 64 letters"),
    (["--db", "postgresql://me@127.0.0.1:1/games", "--broker",
      "redis://:secret@127.0.0.1:1/0"], "--broker: the broker at redis://:***@127.0.0.1:1/0 "
     "cannot be reached"),
    (["--lane", "1"], "--lane needs --broker; expected a replica of several"),
    (["--db", "postgresql://me@127.0.0.1:1/games", "--broker", "redis://127.0.0.1:1/0",
      "--lane", "64"], "--lane"),
])
def test_bad_serve_options_exit_2_with_one_line(args: list[str], fragment: str, tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "not-sqlite").write_text("this is not a database " * 100)
    with pytest.raises(SystemExit) as exit_info:
        main(["serve", *(a.replace("{tmp}", str(tmp_path)) for a in args)])
    assert exit_info.value.code == 2
    err = capsys.readouterr().err.strip()
    assert fragment in err and len(err.splitlines()) == 1
    assert "secret" not in err
