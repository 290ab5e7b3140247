"""The game page's controls in real browsers, two people on two machines (two browser
contexts, each with its own storage): a challenge with a short live clock accepted from the
home page and played by clicking until one clock runs out; resigning with its confirm step;
a draw offered, declined and accepted; a rematch on the other colours; a takeback against
the computer; the opponent's page closing and opening again. Each page is also looked at on a
phone (390x844): nothing scrolls sideways and its controls are clicked there. Screenshots go
to ``$LIFEARENA_SCREENSHOTS`` when set.

Every wait is a condition with a deadline (playwright's waits, or :func:`until`)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from . import test_browser
from .conftest import live_server, wait_until
from .test_lobby_browser import _home, _seat_of

browser = test_browser.browser
shots = test_browser.shots
"""The browser tests' fixtures: one browser per module, the screenshots' folder."""

pytestmark = pytest.mark.timeout(120)

DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
"""A desktop window and a phone (an iPhone 12 to 14's CSS pixels)."""

CLOCK_MINUTES = "0.2"
"""The timed game's clock: 12 seconds a side, time enough for a click, short enough to wait
for (the test server allows clocks down to 0.01 minutes)."""


@pytest.fixture(scope="module")
def base_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with live_server(tmp_path_factory.mktemp("controls") / "games.sqlite",
                     shortest_clock=0.01) as url:
        yield url


# -- people and their pages -----------------------------------------------------------------------

def _person(browser: Any, errors: list[str]) -> Any:
    """A page in a browser context of its own (one person's machine), collecting its
    script errors into ``errors``."""
    context = browser.new_context(viewport=DESKTOP)
    page = context.new_page()
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.set_default_timeout(15_000)
    return page


def _view(page: Any, base_url: str, game: str, token: str | None = None) -> dict:
    """The server's view of ``game`` (as the holder of ``token``)."""
    headers = {"X-Seat-Token": token} if token else {}
    response = page.request.get(f"{base_url}/api/games/{game}", headers=headers)
    assert response.ok, response.text()
    return dict(response.json())


def _controls_button(page: Any, name: str) -> Any:
    return page.locator("#controls").get_by_role("button", name=name, exact=True)


def _started(page: Any) -> None:
    """Wait until the game is on for this page: its Resign button shows."""
    _controls_button(page, "Resign").wait_for()


def _result(page: Any) -> str:
    """The banner once it shows a result."""
    page.wait_for_selector("#banner.result")
    return str(page.inner_text("#banner"))


def _click_move(page: Any, base_url: str, game: str, token: str) -> str:
    """Play the first legal move of this page's seat by clicking its cells on the board;
    wait until the server has it; answer the move."""
    before = _view(page, base_url, game, token)
    [seat] = before["seats"]
    assert before["awaiting"] == [seat], before["awaiting"]
    chosen = before["legal"][str(seat)]["moves"][0]
    for row, column in chosen["cells"]:
        page.click(f"svg.board [data-cell][data-r='{row}'][data-c='{column}']")
    wait_until(lambda: _view(page, base_url, game)["ply"] > before["ply"],
          f"seat {seat}'s move {chosen['move']} played")
    return str(chosen["move"])


def _online_game(browser: Any, base_url: str, errors: list[str], game: str = "war_of_life"
                 ) -> tuple[Any, Any, str, str, str]:
    """An online game made with the home page's "Play a friend" by A (moving first) and
    joined by B through the invitation link: both pages, the game, A's and B's tokens."""
    alice, bob = _person(browser, errors), _person(browser, errors)
    _home(alice, base_url)
    alice.select_option("#quick-side", "0")
    alice.click(f".quick-game[data-game='{game}'] button.quick-online")
    alice.wait_for_url("**/play/**")
    invitation = alice.locator("input[data-link=invite]").input_value()
    bob.goto(invitation)
    bob.wait_for_url("**#t=**")
    for page in (alice, bob):
        _started(page)
    (game_a, token_a), (game_b, token_b) = _seat_of(alice, base_url), _seat_of(bob, base_url)
    assert game_a == game_b and token_a != token_b
    assert _view(alice, base_url, game_a, token_a)["seats"] == [0]
    assert _view(bob, base_url, game_a, token_b)["seats"] == [1]
    return alice, bob, game_a, token_a, token_b


def _fits_a_phone(page: Any, where: str) -> None:
    """At 390x844 the page does not scroll sideways and every control, scrolled into view,
    lies within the screen."""
    page.set_viewport_size(PHONE)
    wide = page.evaluate("[document.scrollingElement.scrollWidth, innerWidth]")
    assert wide[0] <= wide[1], f"{where}: the page scrolls sideways on a phone ({wide})"
    controls = page.locator("#controls button, #controls a")
    for k in range(controls.count()):
        control = controls.nth(k)
        control.scroll_into_view_if_needed()
        box = control.bounding_box()
        assert box is not None, f"{where}: control {k} has no box"
        slack = 1  # scrolled into view, a box may end a fraction of a pixel past the edge
        inside = (box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]
                  and box["y"] >= -slack and box["y"] + box["height"] <= PHONE["height"] + slack)
        assert inside, f"{where}: {control.inner_text()!r} is off the screen at {box}"


def _shoot(page: Any, shots: Path, name: str) -> None:
    """Screenshots of the page with its controls in view, on a desktop and on a phone (the
    page is left at the desktop's size)."""
    for size in (DESKTOP, PHONE):
        page.set_viewport_size(size)
        page.locator("#controls").scroll_into_view_if_needed()
        page.screenshot(path=str(shots / f"{name}-{size['width']}x{size['height']}.png"))
    page.set_viewport_size(DESKTOP)


def _close(*pages: Any) -> None:
    for page in pages:
        page.context.close()


# -- the flows ------------------------------------------------------------------------------------

def test_a_challenge_with_a_live_clock_is_played_until_a_flag_falls(
        browser: Any, base_url: str, shots: Path) -> None:
    errors: list[str] = []
    alice, bob = _person(browser, errors), _person(browser, errors)
    _home(alice, base_url)
    _home(bob, base_url)
    alice.click("#new-challenge")
    alice.select_option("#challenge-game", "war_of_life")
    alice.select_option("#challenge-clock-kind", "live")
    # the form offers half a minute at the least; this test server allows less
    alice.eval_on_selector("#challenge-clock-minutes", "e => { e.min = '0'; e.step = 'any'; }")
    alice.fill("#challenge-clock-minutes", CLOCK_MINUTES)
    alice.fill("#challenge-clock-increment", "0")
    alice.select_option("#challenge-colour", "0")
    alice.click("#post-challenge")
    alice.wait_for_selector("#challenge-form", state="hidden")
    offered = bob.locator("#challenges li:not(.own)")
    offered.wait_for()
    assert "0.2 min" in offered.locator(".about").inner_text()
    offered.locator("button.accept").click()
    for page in (alice, bob):
        page.wait_for_url("**/play/**")
        _started(page)
    (game, token_a), (_, token_b) = _seat_of(alice, base_url), _seat_of(bob, base_url)
    assert _view(alice, base_url, game, token_a)["seats"] == [0]
    assert _view(bob, base_url, game, token_b)["seats"] == [1]
    for page in (alice, bob):  # two clocks, none running before the first move
        assert page.locator("#controls .clock").count() == 2
        assert page.locator("#controls .clock.running").count() == 0
    # named by their sides in the players' card's order, the page's own marked
    names = "#controls .clock-name"
    assert alice.locator(names).all_inner_texts() == ["Blue (you)", "Red"]
    assert bob.locator(names).all_inner_texts() == ["Blue", "Red (you)"]
    _click_move(alice, base_url, game, token_a)
    for page in (alice, bob):
        page.wait_for_selector("#controls .clock.running[data-seat='1']")
    _click_move(bob, base_url, game, token_b)
    for page in (alice, bob):
        page.wait_for_selector("#controls .clock.running[data-seat='0']")
    # A's clock counts down on both pages, between the server's messages
    start = bob.inner_text("#controls .clock[data-seat='0'] .clock-time")
    bob.wait_for_function(
        "s => document.querySelector(\"#controls .clock[data-seat='0'] .clock-time\")"
        ".textContent !== s", arg=start)
    _shoot(bob, shots, "controls-timed")
    _fits_a_phone(alice, "timed game")
    alice.set_viewport_size(DESKTOP)
    # A lets its clock run out: both pages say so, and their clocks stop
    assert _result(alice).startswith("You lose.") and "ran out of time" in _result(alice)
    assert _result(bob).startswith("You win!") and "ran out of time" in _result(bob)
    ending = _view(alice, base_url, game)
    assert ending["outcome"]["termination"] == "timeout" and ending["outcome"]["winner"] == 1
    assert ending["clock"]["running"] == []
    for page in (alice, bob):
        page.wait_for_function("() => !document.querySelector('#controls .clock.running')")
        assert page.inner_text("#controls .clock[data-seat='0'] .clock-time") == "0.0"
        # the texts hold still over ten checks a tenth of a second apart
        page.evaluate("() => { window.__seen = [...document.querySelectorAll("
                      "'#controls .clock-time')].map(e => e.textContent); window.__still = 0;"
                      " window.__moved = false; }")
        page.wait_for_function(
            """() => {
                const now = [...document.querySelectorAll('#controls .clock-time')]
                    .map(e => e.textContent);
                if (now.join() !== window.__seen.join()) window.__moved = true;
                return ++window.__still >= 10;
            }""", polling=100)
        assert page.evaluate("window.__moved") is False, "a stopped clock still ticks"
    _fits_a_phone(bob, "timed game over")
    _close(alice, bob)
    assert errors == []


def test_resigning_asks_to_confirm_and_both_pages_show_the_result(
        browser: Any, base_url: str, shots: Path) -> None:
    errors: list[str] = []
    alice, bob, game, _, _ = _online_game(browser, base_url, errors, "losat")
    alice.set_viewport_size(PHONE)  # resigning from a phone
    _controls_button(alice, "Resign").click()
    assert "Resign this game?" in alice.inner_text("#controls")
    alice.screenshot(path=str(shots / "controls-resign-confirm-390x844.png"))
    _controls_button(alice, "No").click()
    _controls_button(alice, "Resign").click()
    _controls_button(alice, "Yes, resign").click()
    assert _result(alice).startswith("You lose.") and "resigned" in _result(alice)
    assert _result(bob).startswith("You win!") and "resigned" in _result(bob)
    assert _view(alice, base_url, game)["outcome"]["termination"] == "resign"
    for page in (alice, bob):  # no Resign once the game is over: a rematch instead
        assert _controls_button(page, "Resign").count() == 0
        assert _controls_button(page, "Rematch").count() == 1
    _fits_a_phone(alice, "resigned")
    _fits_a_phone(bob, "resigned")
    _close(alice, bob)
    assert errors == []


def test_a_draw_offer_is_declined_then_accepted(browser: Any, base_url: str,
                                                shots: Path) -> None:
    errors: list[str] = []
    alice, bob, game, _, _ = _online_game(browser, base_url, errors)
    bob.set_viewport_size(PHONE)  # B answers from a phone
    _controls_button(alice, "Offer draw").click()
    alice.locator("#controls .offer-text", has_text="waiting for your opponent").wait_for()
    _controls_button(bob, "Accept draw").wait_for()
    assert "Your opponent offers a draw." in bob.inner_text("#controls")
    _fits_a_phone(bob, "draw offered")
    _controls_button(bob, "Decline").click()
    for page in (alice, bob):  # declined: either may offer again, the game goes on
        _controls_button(page, "Offer draw").wait_for()
    # the maker is told, the decliner is not
    alice.locator("#controls .offer-text.declined",
                  has_text="Your opponent declined the draw.").wait_for()
    assert bob.locator("#controls .offer-text").count() == 0
    _shoot(alice, shots, "controls-draw-declined")
    assert _view(alice, base_url, game)["outcome"] is None
    _controls_button(alice, "Offer draw").click()
    _controls_button(bob, "Accept draw").wait_for()
    _shoot(bob, shots, "controls-draw-offered")
    bob.set_viewport_size(PHONE)
    _controls_button(bob, "Accept draw").click()
    for page in (alice, bob):
        assert _result(page) == "Draw — drawn by agreement"
    assert _view(alice, base_url, game)["outcome"]["termination"] == "agreed"
    _fits_a_phone(alice, "drawn")
    _close(alice, bob)
    assert errors == []


def test_a_rematch_seats_each_person_on_the_other_colour(browser: Any, base_url: str,
                                                        shots: Path) -> None:
    errors: list[str] = []
    alice, bob, game, token_a, token_b = _online_game(browser, base_url, errors)
    _controls_button(bob, "Resign").click()
    _controls_button(bob, "Yes, resign").click()
    _result(alice)
    _controls_button(alice, "Rematch").click()
    alice.locator("#controls .offer-text", has_text="waiting for your opponent").wait_for()
    _controls_button(bob, "Accept rematch").wait_for()
    _fits_a_phone(bob, "rematch offered")
    _controls_button(bob, "Accept rematch").click()
    for page in (alice, bob):  # both pages go to the new game by themselves
        page.wait_for_url(lambda url: game not in url)
        _started(page)
    (new_a, again_a), (new_b, again_b) = _seat_of(alice, base_url), _seat_of(bob, base_url)
    assert new_a == new_b != game
    assert len({again_a, again_b, token_a, token_b}) == 4  # fresh tokens, one per person
    assert _view(alice, base_url, new_a, again_a)["seats"] == [1]
    assert _view(bob, base_url, new_a, again_b)["seats"] == [0]
    # each plays its own seat on its own turn: B moves first now
    _click_move(bob, base_url, new_a, again_b)
    _click_move(alice, base_url, new_a, again_a)
    assert len(_view(alice, base_url, new_a)["moves"]) == 2
    _fits_a_phone(alice, "the rematch")
    _close(alice, bob)
    assert errors == []


def test_taking_back_against_the_computer_restores_the_position(
        browser: Any, base_url: str, shots: Path) -> None:
    errors: list[str] = []
    page = _person(browser, errors)
    _home(page, base_url)
    page.select_option("#quick-level", "random")
    page.select_option("#quick-side", "0")
    page.click(".quick-game[data-game='war_of_life'] button.quick-agent")
    page.wait_for_url("**/play/**")
    _started(page)
    game, token = _seat_of(page, base_url)
    cells = "() => [...document.querySelectorAll('svg.board rect.cell')].map(e => e.dataset.v)"
    start = page.evaluate(cells)
    assert _controls_button(page, "Take back").count() == 0  # nothing to take back yet
    _controls_button(page, "Offer draw").click()
    page.locator("#controls .offer-text.declined",
                 has_text="The computer declines draws.").wait_for()
    _click_move(page, base_url, game, token)
    page.wait_for_function("() => document.querySelectorAll('#moves .move').length === 2")
    assert page.evaluate(cells) != start
    _fits_a_phone(page, "against the computer")
    _controls_button(page, "Take back").click()  # on the phone
    page.wait_for_function("() => document.querySelectorAll('#moves .move').length === 0")
    page.wait_for_function(f"s => JSON.stringify(({cells})()) === JSON.stringify(s)", arg=start)
    assert _view(page, base_url, game)["moves"] == []
    assert _controls_button(page, "Take back").count() == 0
    _close(page)
    assert errors == []


def test_a_page_closed_and_opened_again_is_shown_to_the_opponent(
        browser: Any, base_url: str, shots: Path) -> None:
    errors: list[str] = []
    alice, bob, _, _, _ = _online_game(browser, base_url, errors)
    for page in (alice, bob):
        page.locator("#controls .presence.here", has_text="Opponent: connected").wait_for()
    link = bob.url
    context = bob.context
    bob.close()
    alice.locator("#controls .presence.gone", has_text="Opponent: left the page").wait_for()
    _shoot(alice, shots, "controls-opponent-left")
    _fits_a_phone(alice, "opponent left")
    again = context.new_page()
    again.goto(link)
    _started(again)
    alice.locator("#controls .presence.here", has_text="Opponent: connected").wait_for()
    again.locator("#controls .presence.here", has_text="Opponent: connected").wait_for()
    _close(alice, again)
    assert errors == []
