"""Replays (from a results file, a live game or uploaded text) and the live games list."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import pytest
from fastapi.testclient import TestClient

from lifearena.arena.storage import ResultsDB
from lifearena.core import Record, State, presentation_of, replay
from lifearena.web import Settings

from .conftest import RUN, make_app, serving, until


def shown(state: State) -> dict[str, Any]:
    """What a spectator's page draws of ``state``."""
    return presentation_of(state).display(state, None)


@pytest.fixture
def lab(tmp_path: Path, played: tuple[Path, str]) -> Iterator[TestClient]:
    app = make_app(Settings(tmp_path / "games.sqlite", agent_workers="thread",
                              results=(played[0],)))
    with TestClient(app, base_url="http://localhost") as client:
        yield client


def _longest(path: Path) -> tuple[Any, Record]:
    with ResultsDB(path) as db:
        key, result = max(db.get_run(RUN).games(), key=lambda kr: kr[1].length)
    return key, result.record


def test_every_position_is_cores_replay(lab: TestClient, played: tuple[Path, str]) -> None:
    _, record = _longest(played[0])
    data = lab.post("/api/lab/replay", json={"record": record.to_json()}).json()
    assert data["moves"] == record.moves
    assert len(data["positions"]) == len(record.moves) + 1
    for upto in (0, len(record.moves) // 2, len(record.moves)):
        assert data["positions"][upto] == shown(replay(record, upto=upto))
    assert data["outcome"] == str(replay(record).outcome())


def test_bad_records_are_refused(lab: TestClient) -> None:
    bad = lab.post("/api/lab/replay", json={"record": "not a record"})
    assert bad.status_code == 400
    illegal = Record("blocking_queen", {"k": 2}, "9,14", ["", ""], ["10,10"])
    response = lab.post("/api/lab/replay", json={"record": illegal.to_json()})
    assert response.status_code == 400 and "move 1" in response.json()["error"]


def _png() -> bytes:
    """A one-pixel PNG image: a picture someone gives the replay page as a record."""
    import struct
    import zlib

    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", 1, 1, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(b"\x00\xff\x00\x00")) + chunk(b"IEND", b""))


BINARY = "not a record: it is binary ({}); expected a JSON or text record"
"""How the server and the page refuse a binary file given as a record (its kind named)."""


@pytest.mark.parametrize(("data", "kind"), [
    (_png(), "PNG image"),
    (_png().replace(b"\r\n", b"\n"), "PNG image"),   # pasted: a text box's line ends
    (b"SQLite format 3\x00" + bytes(200), "SQLite database"),
    (b"GIF89a\x01\x00\x01\x00\x80\x00\x00", "GIF image"),
    (b'{"game": "losat",\x00\x01 "moves": []}', "not text"),
], ids=["png", "png-pasted", "sqlite", "gif", "control-characters"])
def test_a_binary_file_given_as_a_record_is_refused_in_one_line(
        lab: TestClient, data: bytes, kind: str) -> None:
    # as a browser's File.text() reads it: bytes that are not UTF-8 become U+FFFD
    response = lab.post("/api/lab/replay", json={"record": data.decode(errors="replace")})
    assert response.status_code == 400
    assert response.json()["error"] == "that is " + BINARY.format(kind)


def test_a_text_that_is_no_record_is_refused_in_one_short_line(lab: TestClient) -> None:
    # core's Record.load quotes a bad line cut short, for the lab as for every reader
    response = lab.post("/api/lab/replay", json={"record": "x" * 50_000})
    error = response.json()["error"]
    assert response.status_code == 400 and len(error) < 300 and "\n" not in error
    assert error.startswith("bad move line 1: 'xxx") and error.endswith("expected 'N. move'")
    assert "(50000 characters)" in error


def test_a_record_over_the_move_limit_is_refused(lab: TestClient) -> None:
    from lifearena.web.lab.replays import MAX_MOVES

    long = Record("war_of_life", {}, "", ["", ""], ["[1,1,1,2]"] * (MAX_MOVES + 1))
    response = lab.post("/api/lab/replay", json={"record": long.to_json()})
    assert response.status_code == 400
    assert f"at most {MAX_MOVES}" in response.json()["error"]


def test_the_live_list_shows_games_in_progress_only(lab: TestClient) -> None:
    made = lab.post("/api/games", json={"game": "war_of_life", "opponent": "online"}).json()
    listed = lab.get("/api/lab/live").json()["games"]
    assert [g["id"] for g in listed] == [made["id"]]
    assert listed[0]["watch"] == f"/play/{made['id']}" and listed[0]["kind"] == "online"


def test_a_replay_stepped_to_its_end_matches_core_replay(
        page: Any, tmp_path: Path, played: tuple[Path, str], shots: Path) -> None:
    key, record = _longest(played[0])
    settings = Settings(tmp_path / "games.sqlite", agent_workers="thread",
                        results=(played[0],))
    query = urlencode({"file": 1, "run": RUN, "pairing": key.pairing, "index": key.index,
                       "seat": key.seat, "move": 0})
    with serving(settings) as url:
        page.goto(f"{url}/lab/replay#{query}")
        page.wait_for_selector("body[data-ready='1']")
        assert page.get_attribute("#banner", "data-at") == "0"
        page.click("#next")
        page.keyboard.press("ArrowRight")
        assert page.get_attribute("#banner", "data-at") == "2"
        page.keyboard.press("End")
        n = len(record.moves)
        assert page.get_attribute("#banner", "data-at") == str(n)
        want = shown(replay(record))["grid"]["cells"]
        drawn = page.evaluate("""() => [...document.querySelectorAll('#board [data-cell]')]
            .map(c => [Number(c.dataset.r), Number(c.dataset.c), Number(c.dataset.v)])""")
        assert drawn and all(want[r][c] == v for r, c, v in drawn)
        # the result in the players' colours and words, no internal codes
        final = replay(record).outcome()
        assert final is not None
        banner = page.inner_text("#banner")
        if final.winner is None:
            assert "Draw — " in banner
        else:
            winner, loser = ("Blue", "Red") if final.winner == 0 else ("Red", "Blue")
            assert f"{winner} wins — " in banner
            if final.termination.value == "win":
                assert banner.endswith(f"{loser} has no pieces left")
        assert f"({final.termination.value}" not in banner
        page.screenshot(path=str(shots / "replay-end.png"))
        # the slider and a shared link to a move
        page.locator("#slider").fill("3")
        assert page.get_attribute("#banner", "data-at") == "3"
        link = page.input_value("#share")
        assert link.endswith("move=3")
        other = page.context.new_page()
        other.goto(link)
        other.wait_for_selector("body[data-ready='1']")
        until(lambda: other.get_attribute("#banner", "data-at") == "3", 120, "move 3 shown")
        at3 = shown(replay(record, upto=3))["grid"]["cells"]
        cells = other.evaluate("""() => [...document.querySelectorAll('#board [data-cell]')]
            .map(c => [Number(c.dataset.r), Number(c.dataset.c), Number(c.dataset.v)])""")
        assert all(at3[r][c] == v for r, c, v in cells)
        other.close()

        # the live list links a game in progress to its spectator page
        page.goto(f"{url}/")
        made = page.evaluate("""async () => (await (await fetch('/api/games', {method: 'POST',
            headers: {'Content-Type': 'application/json'},
            body: JSON.stringify({game: 'life_for_two', opponent: 'online'})})).json()).id""")
        page.goto(f"{url}/lab/live")
        page.wait_for_selector(f"tr[data-id='{made}'] a")
        page.screenshot(path=str(shots / "live.png"))
        page.click(f"tr[data-id='{made}'] a")
        page.wait_for_url(f"**/play/{made}")


def test_a_game_finished_here_is_listed_and_replayed(page: Any, base_url: str,
                                                     shots: Path) -> None:
    page.goto(f"{base_url}/lab/live")
    made = page.evaluate("""async () => {
        const post = (path, body, token) => fetch(path, {method: 'POST', body: JSON.stringify(body),
            headers: {'Content-Type': 'application/json', 'X-Seat-Token': token || ''}});
        const game = await (await post('/api/games', {game: 'blocking_queen',
            opponent: 'hotseat', params: {k: 1, start: 'square', x: 2, y: 2}})).json();
        await post(`/api/games/${game.id}/moves`, {move: '0,0', ply: 0}, game.token);
        return game.id; }""")
    page.wait_for_selector(f"#finished tr[data-id='{made}'] a")
    said = ("Player 1 wins — player 2 cannot move the queen: it is on the origin")
    assert page.inner_text(f"#finished tr[data-id='{made}']").split("\t")[3] == said
    page.click(f"#finished tr[data-id='{made}'] a")
    page.wait_for_selector("body[data-ready='1']")
    assert page.get_attribute("#banner", "data-at") == "1"
    want = replay(Record("blocking_queen", {"k": 1}, "2,2", ["", ""], ["0,0"]))
    assert want.outcome() is not None and want.outcome().winner == 0
    assert page.inner_text("#banner") == f"Move 1 of 1: {said}"
    page.keyboard.press("Home")
    assert page.get_attribute("#banner", "data-at") == "0"
    assert page.input_value("#share").endswith(f"game={made}&move=0")
    page.screenshot(path=str(shots / "replay-queen.png"))


@pytest.mark.parametrize("game", ["war_of_life", "life_for_two", "losat", "p2life",
                                  "blocking_queen"])
def test_the_one_pass_positions_equal_core_replay_at_every_move(game: str) -> None:
    import random

    from lifearena.web import catalog
    from lifearena.web.lab.replays import positions

    state = catalog.new_state(game, {})
    rng = random.Random(7)
    while not state.is_terminal() and len(state.history()) < 30:
        if state.is_simultaneous_node():
            state.apply_actions([rng.choice(state.legal_actions(p))
                                 for p in range(state.info.num_players)])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    record = state.record()
    drawn = positions(record)["positions"]
    assert len(drawn) == len(record.moves) + 1
    for upto, display in enumerate(drawn):
        assert display == shown(replay(record, upto=upto)), upto


def _board(page: Any) -> int:
    """How many cells the replay's board draws."""
    return int(page.evaluate("document.querySelectorAll('#board [data-cell]').length"))


@pytest.fixture
def replaying(page: Any, tmp_path: Path, played: tuple[Path, str]
              ) -> Iterator[tuple[str, str, Record]]:
    """The replay page of a server with the tournament file, showing its longest game from
    its link: (the server's URL, the link's query, the game's record)."""
    key, record = _longest(played[0])
    settings = Settings(tmp_path / "games.sqlite", agent_workers="thread",
                        results=(played[0],))
    query = urlencode({"file": 1, "run": RUN, "pairing": key.pairing, "index": key.index,
                       "seat": key.seat})
    with serving(settings) as url:
        page.goto(f"{url}/lab/replay#{query}")
        page.wait_for_selector("#banner[data-at]")
        assert _board(page) > 0 and page.locator("#moves li").count() == len(record.moves)
        yield url, query, record


def test_a_failed_load_clears_the_board_and_shows_the_error(
        page: Any, replaying: tuple[str, str, Record]) -> None:
    url, query, _ = replaying
    # a pasted record that does not open: the error, and nothing left of the replay before
    page.fill("#text", "not a record")
    page.click("#open")
    until(lambda: page.inner_text("#error"), 60, "the error")
    assert "expected" in page.inner_text("#error")
    assert _board(page) == 0 and page.locator("#moves li").count() == 0
    assert page.get_attribute("#banner", "data-at") is None
    assert page.inner_text("#banner") == "Could not open the record."
    assert page.input_value("#share") == ""
    # a link to a record that is not there: the same
    page.goto(f"{url}/lab/replay#{query}")
    page.wait_for_selector("#banner[data-at]")
    assert _board(page) > 0
    page.evaluate("location.hash = '#file=1&run=no-such-run&pairing=a|b&index=0&seat=0'")
    until(lambda: page.inner_text("#error"), 60, "the error")
    assert "no-such-run" in page.inner_text("#error")
    assert _board(page) == 0 and page.get_attribute("#banner", "data-at") is None
    assert page.inner_text("#banner") == "Could not open this link's record."


def test_a_replay_from_a_file_names_the_file_not_a_pasted_record(
        page: Any, replaying: tuple[str, str, Record]) -> None:
    _, _, record = replaying
    page.set_input_files("#file", files=[{"name": "my-game.json",
                                          "mimeType": "application/json",
                                          "buffer": record.to_json().encode()}])
    until(lambda: page.get_attribute("#banner", "data-at") == "0", 60, "the file's replay")
    assert page.inner_text("#error") == "" and _board(page) > 0
    share = page.input_value("#share")
    assert "my-game.json" in share and "pasted" not in share, share
    assert "#" not in page.url   # the address no longer names the replay opened before
    page.keyboard.press("End")
    assert "my-game.json" in page.input_value("#share")


def test_a_picture_given_as_a_record_file_is_refused_in_one_line(
        page: Any, replaying: tuple[str, str, Record], shots: Path) -> None:
    page.set_input_files("#file", files=[{"name": "board.png", "mimeType": "image/png",
                                          "buffer": _png()}])
    until(lambda: page.inner_text("#error"), 60, "the error")
    # one line naming the file and what it is, as the server words it for the same bytes
    assert page.inner_text("#error") == "board.png is " + BINARY.format("PNG image")
    assert _board(page) == 0 and page.locator("#moves li").count() == 0
    assert page.inner_text("#banner") == "Could not open board.png."
    assert page.input_value("#text") == ""   # its bytes are not pasted into the box
    page.screenshot(path=str(shots / "replay-refused-png.png"))
    # any other binary file: named as binary, never quoted
    page.set_input_files("#file", files=[{"name": "notes.bin", "mimeType": "text/plain",
                                          "buffer": b'{"game": "losat"\x00\x00}'}])
    until(lambda: "notes.bin" in page.inner_text("#error"), 60, "the error")
    assert page.inner_text("#error") == "notes.bin is " + BINARY.format("not text")
