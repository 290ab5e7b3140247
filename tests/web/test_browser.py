"""End-to-end tests in a real browser: Playwright driving Debian's chromium.

They skip with a one-line reason when no browser is found, unless
``LIFEARENA_REQUIRE_BROWSER=1`` (as in CI), where a missing browser fails them. Screenshots go
to ``$LIFEARENA_SCREENSHOTS`` when set (to look at), else to the test's temporary folder.
"""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import unquote

import pytest

from lifearena.core import Record
from lifearena.games import losat
from lifearena.games.losat import format_position, parse_point

from .conftest import live_server

pytestmark = pytest.mark.timeout(120)

SHORT_WAR = "[[[1,4],[1,7],[6,2]],[[2,2],[2,7],[2,8],[7,2],[7,7]]]"
"""Blue playing its first legal move ends this position within three moves, whatever red
plays (checked over every red reply)."""
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync"]


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


@pytest.fixture(scope="module")
def base_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with live_server(tmp_path_factory.mktemp("web") / "games.sqlite") as url:
        yield url


@pytest.fixture
def shots(tmp_path: Path) -> Path:
    folder = Path(os.environ.get("LIFEARENA_SCREENSHOTS") or tmp_path)
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def _page(browser: Any, errors: list[str]) -> Any:
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.set_default_timeout(15_000)
    return page


def _open_form(page: Any, base_url: str, game: str) -> None:
    """The home page with ``game``'s new-game form open."""
    page.goto(base_url + "/")
    page.wait_for_selector(f".game-card[data-game={game}]")
    page.click(f".game-card[data-game={game}] button")


def _new_game(page: Any, base_url: str, game: str, opponent: str,
              params: dict[str, str] | None = None, level: str | None = None) -> None:
    _open_form(page, base_url, game)
    for name, value in (params or {}).items():
        control = page.locator(f"#param-{name}")
        if control.evaluate("e => e.tagName") == "SELECT":
            control.select_option(value)
        else:
            control.fill(value)
    page.check(f"input[name=opponent][value={opponent}]")
    if level:
        page.select_option("#level", level)
    page.click("#start")
    page.wait_for_selector("svg.board [data-cell]")


def _banner(page: Any) -> str:
    return page.inner_text("#banner")


def test_a_whole_war_of_life_game_against_the_random_agent(browser: Any, base_url: str,
                                                          shots: Path) -> None:
    errors: list[str] = []
    page = _page(browser, errors)
    _new_game(page, base_url, "war_of_life", "agent",
              {"start": "prolog", "position": SHORT_WAR}, level="random")
    page.screenshot(path=str(shots / "war_start.png"))
    for _ in range(6):
        page.wait_for_function(
            "() => /You play|wins|Draw/.test(document.querySelector('#banner').textContent)")
        if page.locator(".banner.result").count():
            break
        # an opponent's piece explains itself
        page.locator("rect.cell[data-v='2']").first.click()
        assert "you play blue" in page.inner_text("#message")
        for piece in page.locator("rect.cell[data-v='1']").all():
            piece.click()
            if page.locator("rect.cell.target").count():
                break
        page.screenshot(path=str(shots / "war_targets.png"))
        played = page.locator("#moves .move").count()
        page.locator("rect.cell.target").first.click()
        page.wait_for_function(f"() => document.querySelectorAll('#moves .move').length > {played}")
    page.wait_for_selector(".banner.result")
    page.screenshot(path=str(shots / "war_end.png"))
    assert "wins" in _banner(page) or "Draw" in _banner(page)
    moves = page.locator("#moves .move").all_inner_texts()
    assert 2 <= len(moves) <= 6 and moves[0].startswith("[")
    href = page.get_attribute("#record-json", "href")
    record = Record.from_json(page.request.get(base_url + href).text())
    assert record.moves == moves and record.result != "*"
    assert errors == []


def _frames(page: Any, into: list[dict]) -> None:
    def watch(ws: Any) -> None:
        ws.on("framereceived", lambda payload: into.append(json.loads(payload)))
    page.on("websocket", watch)


def test_an_online_invitation_seats_one_person_and_hides_its_choice_from_everyone_else(
        browser: Any, base_url: str, shots: Path) -> None:
    """The creator passes the invitation to a second browser, which claims the seat, picks
    and confirms; neither the creator's page nor a third browser opening the spent invitation
    ever sees that choice or can play that seat."""
    errors: list[str] = []
    creator = _page(browser, errors)
    seen_by_creator: list[dict] = []
    _frames(creator, seen_by_creator)
    _new_game(creator, base_url, "life_for_two", "online")
    assert _banner(creator).startswith("Waiting for your opponent to join")
    invitation = creator.input_value("input[data-link=invite]")
    assert "#i=" in invitation and "?" not in invitation
    invitee = _page(browser, errors)
    invitee.goto(invitation)
    invitee.wait_for_function("() => /You play Orange/.test("
                              "document.querySelector('#banner').textContent)")
    assert "#t=" in invitee.url  # the seat's own token, in the fragment only
    creator.wait_for_function("() => /You play Teal/.test("
                              "document.querySelector('#banner').textContent)")
    late_errors: list[str] = []  # its claim is refused (409), as it should be
    late = _page(browser, late_errors)
    seen_by_late: list[dict] = []
    _frames(late, seen_by_late)
    late.goto(invitation)
    late.wait_for_function("() => /already been claimed/.test("
                           "document.querySelector('#banner').textContent)")
    for cell in ("3,3", "3,4", "4,4"):
        invitee.click(f"[data-cell='{cell}']")
    invitee.click("#confirm")
    invitee.wait_for_function("() => /Waiting for your opponent/.test("
                              "document.querySelector('#banner').textContent)")
    creator.wait_for_function("() => /chosen/.test(document.querySelector('#players')"
                              ".textContent)")
    late.wait_for_function("() => /chosen/.test(document.querySelector('#players')"
                           ".textContent)")
    # the spent invitation plays nothing: a click is answered as a spectator's
    late.click("[data-cell='1,1']")
    assert "Spectators watch" in late.inner_text("#message")
    creator.screenshot(path=str(shots / "lft_creator_choosing.png"))
    late.screenshot(path=str(shots / "lft_spent_invitation.png"))
    for page in (creator, late):
        assert page.locator("rect.cell.chosen, rect.cell[data-v='1'], rect.cell[data-v='2']"
                            ).count() == 0
    for cell in ("1,1", "1,2", "2,2"):
        creator.click(f"[data-cell='{cell}']")
    creator.click("#confirm")
    for page in (creator, invitee, late):
        page.wait_for_function("() => document.querySelectorAll('#moves li.turn').length === 1")
    revealed = late.locator("#moves .move").all_inner_texts()
    assert revealed == ["2,2 3,2 3,3", "4,4 5,4 5,5"]  # one row: both choices, side by side
    secret = revealed[1]
    for frames in (seen_by_creator, seen_by_late):
        before_reveal = [f for f in frames if f.get("move_number") == 0]
        assert before_reveal
        for frame in before_reveal:
            text = json.dumps({k: v for k, v in frame.items() if k != "legal"})
            assert secret not in text and "1" not in frame.get("mine", {})
    invitee.screenshot(path=str(shots / "lft_revealed.png"))
    assert errors == []
    assert late_errors == ["Failed to load resource: the server responded with a status of 409 "
                           "(Conflict)"]


def _capture_record() -> str:
    state = losat.new_game(width=9, length=13)
    board = state.board.copy()  # the state's board is read-only
    for name, value in (("C8", 1), ("D8", 1), ("E8", 1), ("D7", 2)):
        point = parse_point(name, 9, 13)
        board[point // 9, point % 9] = value
    setup = format_position(board, 0, (0, 0), 0)
    return Record("losat", dict(state.params), setup, ["alphabeta (hard)", "greedy"],
                  []).to_text()


def test_a_losat_capture_by_clicking(browser: Any, base_url: str, shots: Path) -> None:
    errors: list[str] = []
    page = _page(browser, errors)
    page.goto(base_url + "/")
    page.wait_for_selector(".game-card")  # the page's script is ready (it draws the cards)
    page.fill("#record-text", _capture_record())
    page.click("#open")
    page.wait_for_selector("svg.board [data-cell]")
    page.click("[data-cell='12,0']")  # A1: nothing legal there; the points with a move light up
    page.wait_for_function("() => /Nothing can be played at A1/.test("
                           "document.querySelector('#message').textContent)")
    assert page.locator("rect.cell.target[data-cell='6,3']").count() == 1
    # a point with one move only (a stone of either colour to add, or one to remove) is not
    # played by one click: the point is selected and its move offered on a button
    game, token = page.url.split("/play/")[1].split("#t=")
    view = page.request.get(f"{base_url}/api/games/{game}",
                            headers={"X-Seat-Token": unquote(token)}).json()
    moves = view["legal"]["0"]["moves"]
    at: dict[str, list[dict]] = {}
    for move in moves:
        if move["cells"]:
            at.setdefault("{},{}".format(*move["cells"][0]), []).append(move)
    point, [only] = next((k, v) for k, v in at.items() if len(v) == 1)
    page.click(f"[data-cell='{point}']")
    page.wait_for_selector(f"rect.cell.selected[data-cell='{point}']")
    assert page.locator("#choices #action-0").inner_text().lower().startswith(only["label"])
    assert "Click the point again" in page.inner_text("#message")
    for size in ({"width": 1280, "height": 800}, {"width": 390, "height": 844}):
        page.set_viewport_size(size)
        page.locator("#choices").scroll_into_view_if_needed()
        page.screenshot(path=str(shots / f"losat-point-selected-{size['width']}x"
                                         f"{size['height']}.png"))
    page.set_viewport_size({"width": 1280, "height": 900})
    assert page.locator("#moves .move").count() == 0
    page.click("#choices #clear")
    page.click("[data-cell='6,3']")  # D7, a white stone three black stones surround
    page.wait_for_selector("#choices button:has-text('Capture at D7')")
    page.screenshot(path=str(shots / "losat_choice.png"))
    page.click("#choices button:has-text('Capture at D7')")
    page.wait_for_function("() => document.querySelectorAll('#moves .move').length === 1")
    page.screenshot(path=str(shots / "losat_captured.png"))
    assert page.locator("#moves .move").inner_text() == "xD7"
    assert "1 capture ·" in page.inner_text(".player[data-seat='0']")
    assert page.locator("svg.board circle.last-ring").count() == 1  # the captured point
    assert "alphabeta (hard)" in page.inner_text(".player[data-seat='0']")  # who played it
    assert "greedy" in page.inner_text(".player[data-seat='1']")
    assert page.get_attribute("[data-cell='6,3']", "data-v") == "1"
    assert errors == []


def test_a_reloaded_page_resumes_where_the_game_stands(browser: Any, base_url: str,
                                                      shots: Path) -> None:
    errors: list[str] = []
    page = _page(browser, errors)
    _new_game(page, base_url, "blocking_queen", "hotseat",
              {"start": "square", "x": "6", "y": "9", "k": "2"})
    page.click("[data-cell='3,3']")  # queen 6,9 -> 3,3? not on a line: refused
    page.wait_for_function("() => /west, north or north-west/.test("
                           "document.querySelector('#message').textContent)")
    page.click("[data-cell='6,6']")  # north-west to 6,6... x = 6, y = 6: straight north
    page.wait_for_function("() => /blocks/.test(document.querySelector('#players')"
                           ".textContent)")
    page.click("[data-cell='6,0']")  # block 0,6
    page.wait_for_function("() => document.querySelectorAll('#moves .move').length === 2")
    banner, moves = _banner(page), page.locator("#moves .move").all_inner_texts()
    page.reload()
    page.wait_for_function("() => document.querySelectorAll('#moves .move').length === 2")
    page.screenshot(path=str(shots / "queen_reloaded.png"))
    assert page.locator("#moves .move").all_inner_texts() == moves == ["6,6", "#0,6"]
    assert _banner(page) == banner
    assert page.locator("rect.blocked-square").count() == 1
    page.locator("svg.board").focus()
    for key in ["ArrowDown"] * 6 + ["ArrowRight"] * 2:
        page.keyboard.press(key)
    page.keyboard.press("Enter")  # the cursor went from 0,0 to 2,6: a queen move west
    page.wait_for_function("() => document.querySelectorAll('#moves .move').length === 3")
    assert page.locator("#moves .move").nth(2).inner_text() == "2,6"
    assert errors == []


def test_life_for_two_classic_offers_only_this_screen(browser: Any, base_url: str,
                                                      shots: Path) -> None:
    errors: list[str] = []
    page = _page(browser, errors)
    _open_form(page, base_url, "life_for_two")
    page.check("input[name=opponent][value=agent]")
    page.select_option("#param-rules", "classic")
    assert page.is_checked("input[name=opponent][value=hotseat]")
    assert page.is_disabled("input[name=opponent][value=agent]")
    assert page.is_disabled("input[name=opponent][value=online]")
    assert "at this screen only" in page.inner_text("#opponent-note")
    assert not page.is_visible("#level")
    page.screenshot(path=str(shots / "l42-classic-form.png"))
    page.click("#start")
    page.wait_for_url("**/play/**")
    # the program's output instead of a board, answered in the typed box
    page.wait_for_selector("#terminal:not([hidden])")
    assert "LIFE2" in page.inner_text("#terminal") and page.is_hidden("svg.board")
    assert _banner(page) == "Player 1: answer the program with x,y below"
    for answer in ("1,1", "1,1"):
        page.fill("#typed-move", answer)
        page.press("#typed-move", "Enter")
        page.wait_for_function("() => document.querySelectorAll('#moves .move').length === 1")
    page.wait_for_function("() => /ILLEGAL COORDS. RETYPE/.test("
                           "document.querySelector('#message').textContent)")
    assert "? 1,1" in page.inner_text("#terminal")
    assert page.locator("#choices button").count() == 0
    page.screenshot(path=str(shots / "l42-classic-game.png"))
    # back to the written rules: every opponent is offered again
    _open_form(page, base_url, "life_for_two")
    page.select_option("#param-rules", "classic")
    page.select_option("#param-rules", "instructed")
    assert not page.is_disabled("input[name=opponent][value=agent]")
    assert not page.is_visible("#opponent-note")
    assert errors == []


def test_a_finished_game_says_who_won_and_why_in_words(browser: Any, base_url: str,
                                                       shots: Path) -> None:
    errors: list[str] = []
    page = _page(browser, errors)
    page.goto(base_url + "/")
    link = page.evaluate("""async () => {
        const post = (path, body, token) => fetch(path, {method: 'POST', body: JSON.stringify(body),
            headers: {'Content-Type': 'application/json', 'X-Seat-Token': token || ''}});
        const game = await (await post('/api/games', {game: 'blocking_queen', opponent: 'agent',
            level: 'hard', side: 1, params: {k: 1, start: 'square', x: 2, y: 2}})).json();
        return game.links.you; }""")
    page.goto(base_url + link)
    page.wait_for_selector(".banner.result")
    # the perfect player takes the origin at once: player 2 (you) cannot move
    assert _banner(page) == ("You lose. Player 1 wins — player 2 cannot move the queen: it is "
                             "on the origin")
    status = page.inner_text("#players .help-line")
    assert "moves the queen" not in status and status == "k = 1"
    page.screenshot(path=str(shots / "queen-end.png"))
    assert errors == []


def test_player_labels_and_the_links_card_fit_the_game(browser: Any, base_url: str,
                                                       shots: Path) -> None:
    from playwright.sync_api import expect

    errors: list[str] = []
    page = _page(browser, errors)
    _new_game(page, base_url, "war_of_life", "agent", level="easy")
    labels = page.locator("#players .player").all_inner_texts()
    assert labels[1].startswith("Red: policy:ppo-small (easy)")
    assert "nvitation" not in page.inner_text("#links")
    assert page.locator("input[data-link=invite]").count() == 0
    assert page.locator("#invite-box").is_hidden()
    _new_game(page, base_url, "war_of_life", "online")
    assert _banner(page).startswith("Waiting for your opponent to join")
    # the invitation comes first, in its own box under the banner: the page's first link
    # and first Copy button are the invitation's, not the creator's own private link
    box = page.locator("#invite-box")
    assert box.is_visible() and "Invite your opponent" in box.inner_text()
    assert page.locator("input[data-link]").first.get_attribute("data-link") == "invite"
    assert page.get_by_role("button", name="Copy").first.get_attribute(
        "aria-label") == "Copy invitation"
    assert page.locator("#links input[data-link]").evaluate_all(
        "fs => fs.map(f => f.dataset.link)") == ["you", "spectator"]
    assert "Private" in page.inner_text("#links")
    assert "Opponent: not joined yet" in page.inner_text("#controls")
    assert "left the page" not in page.inner_text("#controls")
    # the whole invitation is in view beside its Copy button, which copies it
    field = box.locator("input[data-link=invite]")
    assert field.evaluate("f => f.clientWidth") >= 200
    for size in ({"width": 1280, "height": 800}, {"width": 390, "height": 844}):
        page.set_viewport_size(size)
        page.evaluate("() => window.scrollTo(0, 0)")
        found = box.bounding_box()  # on the first screen, a phone's too
        assert found is not None and found["y"] + found["height"] <= size["height"], found
        page.screenshot(path=str(shots / f"friend-waiting-{size['width']}x{size['height']}.png"))
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    copy = box.get_by_role("button", name="Copy invitation")
    copy.click()
    expect(copy).to_have_text("Copied", timeout=5000)  # polls without eval (the page's CSP)
    copied = page.evaluate("() => navigator.clipboard.readText()")
    assert copied == field.input_value() and "#i=" in copied
    assert errors == []


def _api_game(page: Any, body: dict) -> dict:
    """Create a game through the API from ``page`` (which must be on the server's origin)."""
    created: dict = page.evaluate("""async (body) => {
        const r = await fetch('/api/games', {method: 'POST', body: JSON.stringify(body),
            headers: {'Content-Type': 'application/json'}});
        return await r.json(); }""", body)
    assert "links" in created, created
    return created


def _rows(page: Any) -> int:
    return int(page.locator("#moves li.turn").count())


@pytest.mark.parametrize("game", ["life_for_two", "p2life"])
def test_a_pending_selection_survives_the_opponents_commit(browser: Any, base_url: str,
                                                           shots: Path, game: str) -> None:
    """Two people online: one is half-way through picking when the other commits; the
    half-made choice stays on the board, and both then finish the turn by clicks."""
    errors: list[str] = []
    first = _page(browser, errors)
    first.goto(base_url + "/")
    created = _api_game(first, {"game": game, "opponent": "online"})
    first.goto(base_url + created["links"]["you"])
    second = _page(browser, errors)  # a browser context of its own
    second.goto(base_url + created["links"]["invite"])
    for page in (first, second):
        page.wait_for_function("() => /You play/.test(document.querySelector('#banner')"
                               ".textContent)")
    empty = first.locator("rect.cell[data-v='0']")
    picks = 2 if game == "life_for_two" else 1
    mine = [empty.nth(i).get_attribute("data-cell") for i in range(picks)]
    for cell in mine:
        first.click(f"[data-cell='{cell}']")
    assert first.locator("rect.cell.selected").count() == picks
    # the other side commits its whole choice
    theirs = [second.locator("rect.cell[data-v='0']").nth(-1 - i).get_attribute("data-cell")
              for i in range(3 if game == "life_for_two" else 1)]
    for cell in theirs:
        second.click(f"[data-cell='{cell}']")
    second.click("#confirm")
    first.wait_for_function("() => /chosen/.test(document.querySelector('#players')"
                            ".textContent)")
    first.screenshot(path=str(shots / f"{game}_pending_kept.png"))
    assert [first.get_attribute(f"rect.cell.selected >> nth={i}", "data-cell")
            for i in range(picks)] == mine
    assert "You play" in _banner(first)  # still asked for its choice
    if game == "life_for_two":
        extra = first.locator("rect.cell[data-v='0']:not(.selected)").first
        first.click(f"[data-cell='{extra.get_attribute('data-cell')}']")
    first.click("#confirm")
    for page in (first, second):
        page.wait_for_function("() => document.querySelectorAll('#moves li.turn').length === 1")
        assert page.locator("#moves .move").count() == 2
    assert errors == []


def test_arrow_keys_step_through_the_positions_and_moves_are_announced(
        browser: Any, base_url: str) -> None:
    errors: list[str] = []
    page = _page(browser, errors)
    _new_game(page, base_url, "blocking_queen", "hotseat",
              {"start": "square", "x": "6", "y": "9", "k": "1"})
    for cell, plies in (("9,3", 1), ("3,3", 2), ("3,1", 3)):  # the queen to 3,9, 3,3, 1,3
        page.click(f"[data-cell='{cell}']")
        page.wait_for_function("n => document.querySelectorAll('#moves .move').length === n",
                               arg=plies)
    assert page.inner_text("#announce") == "Player 1 played 1,3"
    queen = "() => document.querySelector('text.queen').getAttribute('x')"
    now = page.evaluate(queen)
    page.locator("#banner").focus()
    page.keyboard.press("ArrowLeft")
    page.wait_for_function("() => /after move 2/.test(document.querySelector('#banner')"
                           ".textContent)")
    assert page.locator("#moves .move.viewing").get_attribute("data-ply") == "2"
    page.wait_for_function(f"x => ({queen})() !== x", arg=now)  # the board, once it came
    page.keyboard.press("Home")
    page.wait_for_function("() => /after move 0/.test(document.querySelector('#banner')"
                           ".textContent)")
    page.keyboard.press("ArrowRight")
    page.wait_for_function("() => /after move 1/.test(document.querySelector('#banner')"
                           ".textContent)")
    page.click("[data-cell='0,0']")  # no move while looking back: the page says why
    assert "earlier position" in page.inner_text("#message")
    page.keyboard.press("End")
    page.wait_for_function("() => /^Player [12]: /.test(document.querySelector('#banner')"
                           ".textContent)")
    assert page.evaluate(queen) == now and page.locator("#moves .move.viewing").count() == 0
    assert errors == []


def test_a_game_played_by_keyboard_alone(browser: Any, base_url: str, shots: Path) -> None:
    """Life for Two at one screen: Tab reaches the board, arrows move the cursor, Space
    picks, Escape clears, Enter confirms; both players choose without a mouse."""
    errors: list[str] = []
    page = _page(browser, errors)
    _new_game(page, base_url, "life_for_two", "hotseat")
    for _ in range(10):
        page.keyboard.press("Tab")
        if page.evaluate("() => document.activeElement.id") == "board":
            break
    assert page.evaluate("() => document.activeElement.id") == "board"
    page.keyboard.press("Space")
    assert page.locator("rect.cell.selected").count() == 1
    page.keyboard.press("Escape")
    assert page.locator("rect.cell.selected").count() == 0
    for who, keys in (("Teal", ["Space", "ArrowRight", "Space", "ArrowDown", "Space"]),
                      ("Orange", ["ArrowDown", "ArrowDown", "Space", "ArrowRight", "Space",
                                  "ArrowDown", "Space"])):  # 1,1 2,1 2,2, then 2,4 3,4 3,5
        page.wait_for_function("who => document.querySelector('#banner').textContent"
                               ".startsWith(who)", arg=who)
        for key in keys:
            page.keyboard.press(key)
        assert "Pick" not in page.inner_text("#confirm")
        page.keyboard.press("Enter")
    page.wait_for_function("() => document.querySelectorAll('#moves li.turn').length === 1")
    assert page.locator("#moves .move").all_inner_texts() == ["1,1 2,1 2,2", "2,4 3,4 3,5"]
    page.screenshot(path=str(shots / "lft_keyboard.png"))
    # every button of the page is reachable by Tab
    reached: set[str] = set()
    for _ in range(60):
        page.keyboard.press("Tab")
        reached.add(page.evaluate("() => document.activeElement.id || "
                                  "document.activeElement.textContent"))
    assert {"sound", "typed-move", "banner"} <= reached
    assert errors == []


def _long_p2life_record(turns: int) -> str:
    """Two still blocks that pass every turn: a p2life game of ``turns`` rows."""
    return Record("p2life", {"seed": 0, "torus": False, "max_generations": 300, "moves": 4},
                  "....../.ww.../.ww.../....../...bb./...bb. 0:0", ["white", "black"],
                  ["pass | pass"] * turns).to_text()


@pytest.mark.parametrize("width", [1280, 390])
def test_the_move_list_numbers_past_a_thousand_are_not_clipped(browser: Any, base_url: str,
                                                               shots: Path, width: int) -> None:
    errors: list[str] = []
    page = _page(browser, errors)
    page.set_viewport_size({"width": width, "height": 844})
    page.goto(base_url + "/")
    link = page.evaluate("""async (record) => {
        const r = await fetch('/api/records', {method: 'POST', body: JSON.stringify({record}),
            headers: {'Content-Type': 'application/json'}});
        const d = await r.json(); return d.links ? d.links.you : JSON.stringify(d); }""",
                         _long_p2life_record(1050))
    assert link.startswith("/play/"), link
    page.goto(base_url + link)
    # the view lists the last 200 moves; scrolled to its top, the list fetches earlier pages
    page.wait_for_function("() => document.querySelectorAll('#moves li.turn').length === 200",
                           timeout=60_000)
    assert page.locator("#moves li.turn .number").first.inner_text() == "851."
    assert page.inner_text("#earlier-moves") == "850 earlier moves…"
    for _ in range(5):
        listed = page.locator("#moves li.turn").count()
        if listed == 1050:
            break
        page.evaluate("""() => { const list = document.querySelector('#moves');
            list.scrollTop = 0; list.dispatchEvent(new Event('scroll')); }""")
        page.wait_for_function("n => document.querySelectorAll('#moves li.turn').length > n",
                               arg=listed)
    assert page.locator("#moves li.turn").count() == 1050
    assert page.locator("#earlier-moves").count() == 0
    numbers = page.evaluate("() => [...document.querySelectorAll('#moves .number')]"
                            ".map((n) => n.textContent)")
    assert numbers == [f"{turn}." for turn in range(1, 1051)]
    last = page.locator("#moves li.turn").last
    assert last.locator(".number").inner_text() == "1050."
    clipped = page.evaluate("""() => [...document.querySelectorAll('#moves .number')]
        .filter((n) => n.scrollWidth > n.clientWidth + 1
            || n.getBoundingClientRect().left < n.closest('ol').getBoundingClientRect().left)
        .map((n) => n.textContent)""")
    assert clipped == []
    page.screenshot(path=str(shots / f"long_moves_{width}.png"))
    assert errors == []


def test_no_game_page_scrolls_sideways_on_a_phone(browser: Any, base_url: str,
                                                 shots: Path) -> None:
    errors: list[str] = []
    page = _page(browser, errors)
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(base_url + "/")
    for game, params in (("war_of_life", {}), ("life_for_two", {}), ("losat", {}),
                         ("p2life", {}), ("blocking_queen", {}),
                         ("life_for_two", {"rules": "classic"})):
        created = _api_game(page, {"game": game, "opponent": "hotseat", "params": params})
        page.goto(base_url + created["links"]["you"])
        page.wait_for_function("() => /You play|: /.test(document.querySelector('#banner')"
                               ".textContent)")
        page.screenshot(path=str(shots / f"phone_{game}{params.get('rules', '')}.png"),
                        full_page=True)
        assert page.evaluate("() => document.documentElement.scrollWidth") <= 390, game
        board = page.locator("svg.board")
        if board.is_visible():
            box = board.bounding_box()
            assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 390
    assert errors == []


def test_a_mistyped_seat_link_falls_back_and_breaks_nothing(browser: Any,
                                                            base_url: str) -> None:
    """A seat link with a wrong token is refused once: the page says so, plays with the
    token this browser stored for the game (or watches), and stores nothing it was not
    given by the server; the game's other links keep working in that browser."""
    errors: list[str] = []
    player = _page(browser, errors)
    player.goto(base_url + "/")
    created = _api_game(player, {"game": "war_of_life", "opponent": "hotseat"})
    game = created["id"]
    key = f"lifearena-seat-{game}"
    player.goto(base_url + created["links"]["you"])
    player.wait_for_function("() => /^Blue: /.test(document.querySelector('#banner').textContent)")
    good = player.evaluate("k => localStorage.getItem(k)", key)
    assert good and good in created["links"]["you"]
    player.goto(f"{base_url}/play/{game}#t=typo")
    player.reload()  # a fragment alone does not load the page again
    player.wait_for_function("() => /not valid/.test("
                             "document.querySelector('#message').textContent)")
    assert player.inner_text("#message").startswith("This link's seat key is not valid")
    player.wait_for_function("() => /^Blue: /.test(document.querySelector('#banner').textContent)")
    assert player.evaluate("k => localStorage.getItem(k)", key) == good
    assert player.url.endswith("#t=" + good)
    # a browser that never held a seat watches, and keeps no token
    stranger = _page(browser, errors)
    stranger.goto(f"{base_url}/play/{game}#t=typo")
    stranger.wait_for_function("() => document.querySelector('#banner').textContent === "
                               "\"This link's seat key is not valid: you are watching as a "
                               "spectator.\"")
    assert stranger.locator("svg.board [data-cell]").count() == 64
    assert stranger.evaluate("k => localStorage.getItem(k)", key) is None
    assert "#t=" not in stranger.url
    stranger.goto(f"{base_url}/play/{game}")  # the spectators' link, afterwards
    stranger.reload()
    stranger.wait_for_function("() => /^Spectating/.test(document.querySelector('#banner')"
                               ".textContent)")
    assert stranger.locator("svg.board [data-cell]").count() == 64
    assert stranger.is_hidden("#move-help")  # how to type a move: for players only
    claim_errors: list[str] = []
    late = _page(browser, claim_errors)
    late.goto(f"{base_url}/play/{game}#t=typo")
    late.wait_for_function("() => /spectator/.test(document.querySelector('#banner').textContent)")
    late.goto(f"{base_url}/play/{game}#i=garbage")
    late.reload()
    late.wait_for_function("() => /invitation/.test(document.querySelector('#banner').textContent)")
    assert "#t=" not in late.url
    assert late.evaluate("k => localStorage.getItem(k)", key) is None
    assert errors == []


SLOW_POSITIONS = """(() => {
  // each position the page asks for arrives late; window.__pending counts those on the way
  const real = window.fetch;
  window.__pending = 0;
  window.fetch = async (...args) => {
    if (!String(args[0]).includes("/position?")) return real(...args);
    window.__pending++;
    try {
      const answer = await real(...args);
      await new Promise((done) => setTimeout(done, 700));
      return answer;
    } finally { window.__pending--; }
  };
})()"""


def test_quick_steps_through_the_positions_are_neither_lost_nor_undone(
        browser: Any, base_url: str) -> None:
    errors: list[str] = []
    page = _page(browser, errors)
    page.add_init_script(SLOW_POSITIONS)
    _new_game(page, base_url, "blocking_queen", "hotseat",
              {"start": "square", "x": "6", "y": "9", "k": "1"})
    for cell, plies in (("9,3", 1), ("3,3", 2), ("3,1", 3)):
        page.click(f"[data-cell='{cell}']")
        page.wait_for_function("n => document.querySelectorAll('#moves .move').length === n",
                               arg=plies)
    live = page.inner_text("#banner")
    settled = "() => window.__pending === 0"
    # move 1, then End before its position came: the late answer does not undo End
    page.click("#moves .move[data-ply='1']")
    page.locator("#banner").focus()
    page.keyboard.press("End")
    page.wait_for_function(settled)
    assert page.inner_text("#banner") == live
    assert page.locator("#moves .move.viewing").count() == 0
    # Home, then two steps forward at once: each key steps from the one before it
    page.keyboard.press("Home")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    assert page.locator("#moves .move.viewing").get_attribute("data-ply") == "2"
    page.wait_for_function(settled)
    assert "after move 2" in page.inner_text("#banner")
    assert page.locator("#moves .move.viewing").get_attribute("data-ply") == "2"
    assert errors == []


def test_the_banner_asks_what_the_board_asks(browser: Any, base_url: str) -> None:
    """After the queen moves the game waits for a block: the banner says so, in the words
    of the interaction the server sends."""
    errors: list[str] = []
    page = _page(browser, errors)
    _new_game(page, base_url, "blocking_queen", "agent", {"start": "square", "x": "6", "y": "9",
                                                          "k": "2"}, level="random")
    game, token = page.url.split("/play/")[1].split("#t=")
    for _ in range(2):
        page.wait_for_function("() => /^You play/.test(document.querySelector('#banner')"
                               ".textContent)")
        view = page.request.get(f"{base_url}/api/games/{game}",
                                headers={"X-Seat-Token": unquote(token)}).json()
        [seat] = view["seats"]
        prompt = view["legal"][str(seat)]["interaction"]["prompt"]
        assert page.inner_text("#banner").endswith(prompt), (page.inner_text("#banner"), prompt)
        if "block" in prompt:
            break
        moves = view["legal"][str(seat)]["moves"]
        r, c = moves[0]["cells"][0]
        page.click(f"[data-cell='{r},{c}']")
        page.wait_for_function("n => document.querySelectorAll('#moves .move').length > n",
                               arg=len(view["moves"]))
    assert errors == []


def test_a_click_shows_no_keyboard_cursor_and_cells_are_named_in_the_notation(
        browser: Any, base_url: str) -> None:
    errors: list[str] = []
    page = _page(browser, errors)
    _new_game(page, base_url, "war_of_life", "hotseat")
    cursor = "() => getComputedStyle(document.querySelector('svg.board .cursor')).display"
    page.click("[data-cell='0,0']")
    assert page.evaluate("() => document.activeElement.id") == "board"
    assert page.evaluate(cursor) == "none"
    page.keyboard.press("ArrowRight")
    assert page.evaluate(cursor) != "none"
    # row 1, column 2, as War of Life's notation [r1,c1,r2,c2] writes it
    assert page.inner_text("#announce").startswith("1,2,")
    # an error from the server reads as a sentence
    page.fill("#typed-move", "zz")
    page.press("#typed-move", "Enter")
    page.wait_for_selector("#message.error")
    text = page.inner_text("#message")
    assert text[0].isupper(), text
    assert errors == []
