"""The lobby in real browsers, two visitors with their own storage: a challenge made by one
appears live on the other's page, is accepted there, and both land in the same game on their
own seats (the creator's page going there by itself); a cancelled challenge leaves the other
list; and the home page's play buttons and challenge list are above the fold on a desktop
and a phone, with nothing scrolling sideways (the lab's live list neither). Screenshots go
to ``$LIFEARENA_SCREENSHOTS`` when set."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import unquote

import pytest

from . import test_browser
from .conftest import live_server, wait_until
from .test_browser import _page

browser = test_browser.browser
shots = test_browser.shots
"""The browser tests' fixtures: one browser per module, the screenshots' folder."""

pytestmark = pytest.mark.timeout(120)

SIZES = ((1280, 800), (390, 844))
"""A desktop window and a phone (an iPhone 12 to 14's CSS pixels)."""
LONG_POSITION = ("[[[1,1],[1,2],[2,1],[2,2],[3,3],[3,4],[4,3],[4,4],[1,5],[1,6],[2,5],[2,6]],"
                 "[[8,8],[8,7],[7,8],[7,7],[6,6],[6,5],[5,6],[5,5],[8,4],[8,3],[7,4],[7,3]]]")
"""A typed War of Life start of twelve pieces a side, longer than a phone is wide."""


@pytest.fixture(scope="module")
def base_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with live_server(tmp_path_factory.mktemp("lobby") / "games.sqlite") as url:
        yield url



def _home(page: Any, base_url: str) -> None:
    page.goto(base_url + "/")
    page.wait_for_selector("body[data-lobby='1']")  # the lobby's snapshot is shown


def _post_challenge(page: Any, game: str, params: dict[str, str], colour: str,
                    minutes: str | None = None) -> str:
    """Make a challenge with the page's form; its id (once the page lists it as its own)."""
    before = set(page.eval_on_selector_all("#challenges li.own", "l => l.map(e => e.dataset.id)"))
    page.click("#new-challenge")
    page.select_option("#challenge-game", game)
    for name, value in params.items():
        page.fill(f"#challenge-param-{name}", value)
    if minutes is not None:
        page.select_option("#challenge-clock-kind", "live")
        page.fill("#challenge-clock-minutes", minutes)
    page.select_option("#challenge-colour", colour)
    page.click("#post-challenge")
    page.wait_for_selector("#challenge-form", state="hidden")
    found: list[str] = []

    def listed() -> bool:
        ids = page.eval_on_selector_all("#challenges li.own", "l => l.map(e => e.dataset.id)")
        found[:] = [i for i in ids if i not in before]
        return bool(found)

    wait_until(listed, "the new challenge listed as the creator's own")
    return found[0]


def _seat_of(page: Any, base_url: str) -> tuple[str, str]:
    """The game and seat token of a game page (its link's fragment)."""
    path, _, fragment = page.url.partition("#t=")
    return path.rsplit("/", 1)[1], unquote(fragment)


def test_a_challenge_is_accepted_by_another_visitor_and_both_play(
        browser: Any, base_url: str, shots: Path) -> None:
    errors: list[str] = []
    alice, bob = _page(browser, errors), _page(browser, errors)
    _home(alice, base_url)
    _home(bob, base_url)
    made = _post_challenge(alice, "blocking_queen", {"k": "3"}, "0", minutes="10")
    # the creator's own: a Cancel button, no Accept
    own = alice.locator(f"#challenges li[data-id='{made}']")
    assert own.locator("button.accept").count() == 0 and own.locator("button.cancel").count()
    # the other visitor sees it come, live, in words
    seen = bob.locator(f"#challenges li[data-id='{made}']")
    seen.wait_for()
    about = seen.locator(".about").inner_text()
    assert about == "Anonymous · k 3 · 10 min + 3 s · you play Player 2", about
    assert seen.locator(".age").inner_text() == "just now"
    bob.screenshot(path=str(shots / "lobby-challenge-seen.png"))
    seen.locator("button.accept").click()
    # both go to the game: the acceptor by its answer, the creator by its lobby socket
    bob.wait_for_url("**/play/**")
    alice.wait_for_url("**/play/**")
    bob.wait_for_selector("svg.board [data-cell]")
    alice.wait_for_selector("svg.board [data-cell]")
    (game_a, token_a), (game_b, token_b) = _seat_of(alice, base_url), _seat_of(bob, base_url)
    assert game_a == game_b and token_a and token_b and token_a != token_b
    api = alice.request

    def view(token: str | None = None) -> dict:
        headers = {"X-Seat-Token": token} if token else {}
        response = api.get(f"{base_url}/api/games/{game_a}", headers=headers)
        assert response.ok, response.text()
        return dict(response.json())

    assert view(token_a)["seats"] == [0] and view(token_b)["seats"] == [1]
    assert view()["opponent"]["clock"]["minutes"] == 10
    # a move by each, typed into each one's own page
    pages, tokens = {0: alice, 1: bob}, {0: token_a, 1: token_b}
    moved: set[int] = set()
    while moved != {0, 1}:
        state = view()
        if not state["awaiting"]:  # a fresh random start may be won at the first move
            assert moved and state["outcome"] is not None, state
            break
        [seat] = state["awaiting"]
        text = view(tokens[seat])["legal"][str(seat)]["moves"][0]["move"]
        pages[seat].fill("#typed-move", text)
        pages[seat].press("#typed-move", "Enter")
        number = state["move_number"]
        wait_until(lambda n=number: view()["move_number"] > n, f"seat {seat}'s move {text} played")
        moved.add(seat)
    alice.screenshot(path=str(shots / "lobby-creator-in-game.png"))
    for page in (alice, bob):
        page.context.close()
    assert errors == []


def test_a_cancelled_challenge_leaves_the_other_visitors_list(
        browser: Any, base_url: str, shots: Path) -> None:
    errors: list[str] = []
    alice, bob = _page(browser, errors), _page(browser, errors)
    _home(alice, base_url)
    _home(bob, base_url)
    made = _post_challenge(alice, "losat", {}, "random")
    bob.locator(f"#challenges li[data-id='{made}']").wait_for()
    # a page opened later lists it as well (the snapshot), and still as the creator's own
    again = alice.context.new_page()
    _home(again, base_url)
    again.wait_for_selector(f"#challenges li.own[data-id='{made}'] button.cancel")
    again.close()
    alice.click(f"#challenges li[data-id='{made}'] button.cancel")
    bob.locator(f"#challenges li[data-id='{made}']").wait_for(state="detached")
    alice.locator(f"#challenges li[data-id='{made}']").wait_for(state="detached")
    assert bob.locator("#challenges li").count() == 0
    assert bob.is_visible("#no-challenges")
    for page in (alice, bob):
        page.context.close()
    assert errors == []


def test_one_click_plays_the_computer_or_invites_a_friend(browser: Any, base_url: str,
                                                          shots: Path) -> None:
    errors: list[str] = []
    page = _page(browser, errors)
    _home(page, base_url)
    page.select_option("#quick-level", "random")
    page.select_option("#quick-side", "1")
    page.click(".quick-game[data-game='blocking_queen'] button.quick-agent")
    page.wait_for_url("**/play/**")
    page.wait_for_selector("svg.board [data-cell]")
    game, token = _seat_of(page, base_url)
    seen = page.request.get(f"{base_url}/api/games/{game}", headers={"X-Seat-Token": token})
    shown = seen.json()
    assert shown["seats"] == [1] and shown["opponent"]["kind"] == "agent"
    assert shown["opponent"]["level"] == "random" and shown["opponent"]["agent_seat"] == 0
    # a friend: an online game whose page shows the invitation, with a copy button
    _home(page, base_url)
    page.click(".quick-game[data-game='losat'] button.quick-online")
    page.wait_for_url("**/play/**")
    page.wait_for_selector("#invite-box:not([hidden])")
    invite = page.locator("#invite-row input").evaluate_all("l => l.map(e => e.value)")
    assert len(invite) == 1 and "#i=" in invite[0], invite
    assert page.locator("#invite-row button", has_text="Copy").count() == 1
    page.screenshot(path=str(shots / "lobby-friend-invited.png"))
    page.context.close()
    assert errors == []


def test_play_buttons_and_challenges_are_above_the_fold_and_nothing_scrolls_sideways(
        browser: Any, base_url: str, shots: Path) -> None:
    errors: list[str] = []
    page = _page(browser, errors)
    page.request.post(base_url + "/api/challenges", data={"game": "p2life", "colour": 1},
                      headers={"Content-Type": "application/json"})
    page.request.post(base_url + "/api/games", data={"game": "losat", "opponent": "online"},
                      headers={"Content-Type": "application/json"})
    # a typed start is listed whole (no space in it to break at), and still fits a phone
    typed = page.request.post(base_url + "/api/challenges", data={
        "game": "war_of_life", "colour": 0,
        "params": {"start": "prolog", "position": LONG_POSITION}},
        headers={"Content-Type": "application/json"})
    assert typed.status == 201, typed.text()
    wrong = []
    for width, height in SIZES:
        page.set_viewport_size({"width": width, "height": height})
        _home(page, base_url)
        page.wait_for_selector("#challenges li")
        listed = page.locator(f"#challenges li[data-id='{typed.json()['id']}'] .about")
        assert LONG_POSITION in listed.inner_text().replace("\n", "")
        boxes = page.evaluate("""() => [...document.querySelectorAll(
                '.quick-game button, #challenges-title, #new-challenge')].map(e => {
            const r = e.getBoundingClientRect();
            return [e.textContent.trim(), r.left, r.top, r.right, r.bottom]; })""")
        assert len(boxes) == 5 * 2 + 2
        for text, left, top, right, bottom in boxes:
            if left < 0 or top < 0 or right > width or bottom > height:
                wrong.append(f"home at {width}: {text!r} is not in the first screen "
                             f"({left:.0f}, {top:.0f}, {right:.0f}, {bottom:.0f})")
        page.screenshot(path=str(shots / f"lobby-home-{width}x{height}.png"))
        for name, address, drawn in (("home", "/", "body[data-listed='1']"),
                                     ("live", "/lab/live", "body[data-ready='1']")):
            page.goto(base_url + address)
            page.wait_for_selector(drawn)
            wide = page.evaluate("[document.scrollingElement.scrollWidth, innerWidth]")
            if wide[0] > wide[1]:
                wrong.append(f"{name} at {width}: scrolls sideways ({wide[0]} > {wide[1]})")
            page.screenshot(path=str(shots / f"lobby-{name}-{width}x{height}-full.png"),
                            full_page=True)
        # the challenge form open on a phone fits too
        _home(page, base_url)
        page.click("#new-challenge")
        wide = page.evaluate("[document.scrollingElement.scrollWidth, innerWidth]")
        if wide[0] > wide[1]:
            wrong.append(f"challenge form at {width}: scrolls sideways")
    assert not wrong, wrong
    page.context.close()
    assert errors == []
