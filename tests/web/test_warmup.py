"""``lifearena serve`` warms the engine before it shows its URL: the home page's catalog then
answers without compiling or running anything, and a cold cache is announced."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from lifearena.cli import compiling as compiling_module
from lifearena.cli import main
from lifearena.cli.compiling import MESSAGE, cold_kernels
from lifearena.web import Settings, catalog, create_app, warmup


def test_after_the_warm_up_no_kernel_of_the_web_is_cold() -> None:
    warmup.warm_up()
    assert cold_kernels(*warmup.WEB_KERNELS) == []


def test_after_the_warm_up_the_catalog_runs_no_engine(tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    warmup.warm_up()

    def engine_run(game: str) -> dict[str, Any]:
        raise AssertionError(f"/api/catalog built {game}'s picture on demand")

    monkeypatch.setattr(catalog, "sample_display", engine_run)
    app = create_app(Settings(tmp_path / "games.sqlite", agent_workers="thread"))
    with TestClient(app, base_url="http://localhost") as client:
        answer = client.get("/api/catalog")
    assert answer.status_code == 200
    assert [g["name"] for g in answer.json()["games"]] == list(catalog.GAMES)
    pictures = {g["name"]: g["picture"] for g in answer.json()["games"]}
    assert pictures == {game: catalog.home_pictures()[game] for game in catalog.GAMES}


def test_serve_announces_and_warms_before_it_shows_its_url(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    import uvicorn

    events: list[str] = []
    monkeypatch.setattr(compiling_module, "cold_kernels", lambda *kernels: ["a:kernel"])
    monkeypatch.setattr(warmup, "warm_up", lambda: events.append("warm"))
    def run(self: uvicorn.Server, sockets: object = None) -> None:
        events.append("run")
        self.config.app.state.server.settings.on_ready()  # what its start-up ends with

    monkeypatch.setattr(uvicorn.Server, "run", run)
    monkeypatch.setattr("typer.echo", lambda text: events.append(str(text).split(":")[0]))
    with pytest.raises(SystemExit) as exit_info:
        main(["serve", "--port", str(_free_port()), "--db", str(tmp_path / "games.sqlite")])
    assert exit_info.value.code == 0
    assert capsys.readouterr().err.strip() == MESSAGE
    assert events[:3] == ["warm", "run", "lifearena web"]


def _free_port() -> int:
    import socket

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])
