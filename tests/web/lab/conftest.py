"""Fixtures of the lab's tests: a test client, and for browser tests a live server and
Playwright's chromium (skipped with a one-line reason when there is none, unless
``LIFEARENA_REQUIRE_BROWSER=1``). Screenshots go to ``$LIFEARENA_SCREENSHOTS`` when set.

Every app of these tests is made by :func:`make_app`, which gives the lab the operator's
token it is asked for (:data:`ADMIN`, or none) and the launcher's bounds.
"""

from __future__ import annotations

import contextlib
import dataclasses
import functools
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
from unittest import mock

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

import lifearena.web.app as web_app
from lifearena.web import Settings, create_app
from lifearena.web.lab.launcher import Launcher

RUN = "tournament-war_of_life"
"""The run name ``lifearena tournament war-of-life`` stores its games under."""
ADMIN = "test-admin-token-0123456789abcdef"
"""The operator's token of the tests' servers that are given one."""
POLL = 0.1
"""Seconds between two looks at a condition a test waits for."""
TIMEOUT_MS = 120_000
"""Milliseconds a browser page waits for what a test asks of it (Playwright's own waits)."""


def until(check: Any, seconds: float = 180, what: str = "the condition") -> Any:
    """Poll ``check()`` every :data:`POLL` seconds until it answers something true; that
    answer, or an AssertionError naming ``what`` after ``seconds`` (generous: the tests run
    beside other load)."""
    deadline = time.monotonic() + seconds
    while True:
        found = check()
        if found:
            return found
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {seconds} s waiting for {what}")
        time.sleep(POLL)


def make_app(settings: Settings, admin: str | None = None, **bounds: Any) -> FastAPI:
    """``create_app(settings)`` with the operator's token ``admin`` (``lab_admin``) and a
    launcher with the ``bounds`` given (``max_launches``, ``disk_budget``; the settings have
    none). The server answers to TestClient's host name, ``testserver``, besides its own."""
    settings = dataclasses.replace(settings, lab_admin=admin,
                                   allowed_hosts=(*settings.allowed_hosts, "testserver"))
    with mock.patch.object(web_app, "Launcher", functools.partial(Launcher, **bounds)):
        return create_app(settings)


ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync"]


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    app = make_app(Settings(tmp_path / "games.sqlite", agent_workers="thread"))
    with TestClient(app, base_url="http://localhost") as test_client:
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
def serving(settings: Settings, admin: str | None = None, **bounds: Any) -> Iterator[str]:
    """A live server of the app for ``settings`` (the lab's operator token ``admin``, the
    launcher's ``bounds``) on a free loopback port; yields its URL."""
    import uvicorn

    app = make_app(settings, admin, **bounds)
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port,
                                           log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    until(lambda: server.started, 120, "the test server to start")
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
    # generous, for this page and any other the test opens: the pages wait for slow work
    # (reports, replays, tournaments' processes) on a machine that may be loaded
    context.set_default_timeout(TIMEOUT_MS)
    opened = context.new_page()
    errors: list[str] = []
    opened.on("pageerror", lambda error: errors.append(str(error)))
    # a refused request (4xx) is logged by the browser; the tests check those refusals
    opened.on("console", lambda m: errors.append(m.text)
              if m.type == "error" and "status of 4" not in m.text else None)
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
