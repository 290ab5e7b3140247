"""Fixtures of the lab's tests: a test client, and for browser tests a live server and
Playwright's chromium (skipped with a one-line reason when there is none, unless
``LIFEARENA_REQUIRE_BROWSER=1``). Screenshots go to ``$LIFEARENA_SCREENSHOTS`` when set."""

from __future__ import annotations

import contextlib
import os
import shutil
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from lifearena.web import Settings, create_app

RUN = "tournament-war_of_life"
"""The run name ``lifearena tournament war-of-life`` stores its games under."""
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync"]


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    app = create_app(Settings(tmp_path / "games.sqlite", agent_workers="thread"))
    with TestClient(app) as test_client:
        yield test_client


def _browser_path() -> str | None:
    named = os.environ.get("LIFEARENA_BROWSER")
    if named:
        return named
    for candidate in ("/usr/bin/chromium", shutil.which("chromium"),
                      shutil.which("chromium-browser")):
        if candidate and Path(candidate).exists():
            return candidate
    return None


def _unavailable(reason: str) -> None:
    if os.environ.get("LIFEARENA_REQUIRE_BROWSER") == "1":
        pytest.fail(f"browser tests required but {reason}")
    pytest.skip(reason)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    # one Playwright per module: two sync Playwrights cannot be open at once, and the other
    # web tests start their own
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        _unavailable("playwright is not installed (pip install -e '.[test]')")
    path = _browser_path()
    if path is None:
        _unavailable("no chromium found (apt-get install chromium, or set LIFEARENA_BROWSER)")
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=path, args=ARGS)
        yield launched
        launched.close()


@contextlib.contextmanager
def serving(settings: Settings) -> Iterator[str]:
    """A live server of the app for ``settings`` on a free loopback port; yields its URL."""
    import uvicorn

    app = create_app(settings)
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port,
                                           log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        if time.monotonic() > deadline:
            raise RuntimeError("the test server did not start")
        time.sleep(0.05)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=10)


@pytest.fixture(scope="session")
def base_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    db = tmp_path_factory.mktemp("lab") / "games.sqlite"
    with serving(Settings(db, agent_workers="thread")) as url:
        yield url


@pytest.fixture
def shots(tmp_path: Path) -> Path:
    folder = Path(os.environ.get("LIFEARENA_SCREENSHOTS") or tmp_path)
    folder.mkdir(parents=True, exist_ok=True)
    return folder


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    """A fresh page; the test fails if the page throws or logs an error (other than a
    refused request, which the tests check themselves)."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    opened = context.new_page()
    errors: list[str] = []
    opened.on("pageerror", lambda error: errors.append(str(error)))
    # a refused request (4xx) is logged by the browser; the tests check those refusals
    opened.on("console", lambda m: errors.append(m.text)
              if m.type == "error" and "status of 4" not in m.text else None)
    opened.set_default_timeout(15_000)
    yield opened
    context.close()
    assert not errors, errors


@pytest.fixture(scope="session")
def played(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    """A War of Life tournament file made by the CLI, and what the CLI printed."""
    path = tmp_path_factory.mktemp("tournament") / "war.sqlite"
    done = subprocess.run(
        [sys.executable, "-c", "from lifearena.cli import main; main()", "tournament",
         "war-of-life", "-n", "2", "-w", "1", "-a", "random,bloodlust,land_grab",
         "--db", str(path)],
        capture_output=True, text=True, timeout=120, check=True,
        env={**os.environ, "COLUMNS": "250", "NO_COLOR": "1"})
    return path, done.stdout
