"""Accessibility in a real browser (issue #21, item 8): text contrast at WCAG AA on every
page at a desktop and a phone size, every game played by keyboard alone, a visible focus,
and moves told in words to a screen reader.

The contrast check runs in the page (``CONTRAST_JS``): for each visible element with text of
its own (placeholders and form fields' values included) it blends the text colour over the
element's effective background (its ancestors' background colours, alpha composited) and
computes the WCAG ratio; below 4.5, or 3.0 for large text (24px, or 18.66px bold), is an
offence. Disabled controls are exempt, as WCAG exempts inactive components, but each must
look unlike its enabled self. Screenshots go to ``$LIFEARENA_SCREENSHOTS`` when set.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from . import test_browser
from .conftest import QUICK_WAR, live_server, wait_until
from .test_browser import _page

browser = test_browser.browser
shots = test_browser.shots
"""The browser tests' fixtures: one browser per module, the screenshots' folder."""

pytestmark = pytest.mark.timeout(180)

SIZES = ((1280, 800), (390, 844))
"""A desktop window and a phone (an iPhone 12 to 14's CSS pixels)."""

GAMES = (("war_of_life", {}), ("life_for_two", {}), ("losat", {}), ("p2life", {}),
         ("blocking_queen", {}), ("life_for_two", {"rules": "classic"}))
"""The five games, and the 1978 program (Life for Two's "classic" setup)."""

LAB = ("sandbox", "palace", "p2life", "tournaments", "replay", "live")

COLOUR_JS = """
const parse = (text) => {
  const m = /rgba?\\(([^)]+)\\)/.exec(text || "");
  if (!m) return null;
  const p = m[1].split(/[\\s,\\/]+/).filter(Boolean).map(Number);
  return [p[0], p[1], p[2], p.length > 3 ? p[3] : 1];
};
// `top` drawn over `bottom` (alpha compositing)
const over = (top, bottom) => {
  const a = top[3] + bottom[3] * (1 - top[3]);
  if (a === 0) return [0, 0, 0, 0];
  const mix = (i) => (top[i] * top[3] + bottom[i] * bottom[3] * (1 - top[3])) / a;
  return [mix(0), mix(1), mix(2), a];
};
const luminance = (c) => {
  const lin = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
  return 0.2126 * lin(c[0]) + 0.7152 * lin(c[1]) + 0.0722 * lin(c[2]);
};
const ratio = (a, b) => {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
};
// the colour behind an element: its own and its ancestors' backgrounds down to the first
// opaque one, over the canvas's white
const backdrop = (element) => {
  const layers = [];
  for (let e = element; e; e = e.parentElement) {
    const c = parse(getComputedStyle(e).backgroundColor);
    if (c && c[3] > 0) { layers.push(c); if (c[3] >= 1) break; }
  }
  let colour = [255, 255, 255, 1];
  for (const layer of layers.reverse()) colour = over(layer, colour);
  return colour;
};
const opacity = (element) => {
  let o = 1;
  for (let e = element; e; e = e.parentElement) o *= Number(getComputedStyle(e).opacity);
  return o;
};
const hex = (c) => "#" + c.slice(0, 3)
  .map((v) => Math.round(v).toString(16).padStart(2, "0")).join("");
const where = (element) => {
  const parts = [];
  for (let e = element; e && e !== document.body && parts.length < 3; e = e.parentElement) {
    const classes = typeof e.className === "string" && e.className.trim()
      ? "." + e.className.trim().split(/\\s+/).join(".") : "";
    parts.unshift(e.tagName.toLowerCase() + (e.id ? "#" + e.id : "") + classes);
  }
  return parts.join(" > ");
};
"""

CONTRAST_JS = "() => {" + COLOUR_JS + """
  const offenders = [], looksEnabled = [];
  let checked = 0;
  const shown = (e) => e.checkVisibility({ checkOpacity: true, checkVisibilityCSS: true,
    opacityProperty: true, visibilityProperty: true });
  for (const element of document.body.querySelectorAll("*")) {
    if (element instanceof SVGElement || !shown(element)) continue;
    const box = element.getBoundingClientRect();
    if (box.width <= 1 || box.height <= 1) continue;  // visually hidden (read aloud only)
    const style = getComputedStyle(element);
    const texts = [];  // [text, its colour]
    const own = [...element.childNodes].filter((n) => n.nodeType === 3)
      .map((n) => n.textContent.trim()).join(" ").trim();
    if (own) texts.push([own, style.color]);
    const field = element instanceof HTMLInputElement || element instanceof HTMLTextAreaElement;
    const typed = field
      && !["checkbox", "radio", "range", "hidden", "color"].includes(element.type);
    if (typed && element.value) texts.push([element.value, style.color]);
    if (typed && !element.value && element.placeholder) {
      texts.push([element.placeholder, getComputedStyle(element, "::placeholder").color]);
    }
    if (element instanceof HTMLSelectElement && element.selectedOptions.length) {
      texts.push([element.selectedOptions[0].textContent.trim(), style.color]);
    }
    if (!texts.length) continue;
    const control = element.closest(":disabled");
    if (control) {
      // exempt from contrast, but it must look unlike its enabled self
      if (control instanceof HTMLButtonElement) {
        const twin = control.cloneNode(true);
        twin.disabled = false;
        control.after(twin);
        const a = getComputedStyle(control), b = getComputedStyle(twin);
        const differs = a.opacity !== b.opacity || a.color !== b.color
          || a.backgroundColor !== b.backgroundColor || a.borderColor !== b.borderColor;
        twin.remove();
        if (!differs) looksEnabled.push(where(control));
      }
      continue;
    }
    const back = backdrop(element);
    const size = parseFloat(style.fontSize), weight = Number(style.fontWeight) || 400;
    const large = size >= 24 || (size >= 18.66 && weight >= 700);
    const need = large ? 3 : 4.5;
    for (const [text, colour] of texts) {
      checked += 1;
      const ink = parse(colour) || [0, 0, 0, 1];
      const seen = over([ink[0], ink[1], ink[2], ink[3] * opacity(element)], back);
      const r = ratio(seen, back);
      if (r < need) {
        offenders.push(`${where(element)} "${text.slice(0, 40)}": ${hex(seen)} on ${hex(back)}`
          + ` = ${r.toFixed(2)} (needs ${need}, ${size}px ${weight})`);
      }
    }
  }
  return { offenders, looksEnabled, checked };
}"""

BOARD_JS = "() => {" + COLOUR_JS + """
  // the board's essential graphics: its labels read at 4.5, a piece (its fill or its
  // outline) stands out from the board at 3
  const svg = document.querySelector("svg.board");
  const offenders = [];
  if (!svg || !svg.checkVisibility()) return offenders;
  const ground = parse(getComputedStyle(svg.querySelector("rect")).fill);
  for (const label of svg.querySelectorAll(":scope > text")) {
    const r = ratio(over(parse(getComputedStyle(label).fill), ground), ground);
    if (r < 4.5) offenders.push(`label ${label.textContent}: ${r.toFixed(2)}`);
  }
  const seen = new Set();
  for (const piece of svg.querySelectorAll("circle.piece")) {
    const style = getComputedStyle(piece);
    const key = style.fill + style.stroke;
    if (seen.has(key)) continue;
    seen.add(key);
    const fill = ratio(over(parse(style.fill), ground), ground);
    const edge = parse(style.stroke);
    const outline = edge ? ratio(over(edge, ground), ground) : 1;
    if (Math.max(fill, outline) < 3) {
      offenders.push(`${piece.getAttribute("class")} ${hex(parse(style.fill))} on ${hex(ground)}:`
        + ` fill ${fill.toFixed(2)}, outline ${outline.toFixed(2)}`);
    }
  }
  return offenders;
}"""

FOCUS_JS = "() => {" + COLOUR_JS + """
  // whether the focused element shows it: an outline or a box-shadow, and an outline's
  // colour at 3:1 against what surrounds it (WCAG 1.4.11)
  const e = document.activeElement;
  if (!e || e === document.body) return "";  // Tab went past the page's last stop
  const style = getComputedStyle(e);
  const name = where(e) + " " + JSON.stringify((e.getAttribute("aria-label") || e.textContent
    || "").trim().slice(0, 30));
  const outlined = style.outlineStyle !== "none" && parseFloat(style.outlineWidth) > 0;
  if (!outlined && style.boxShadow === "none") return `${name}: no outline or box-shadow`;
  if (outlined && style.outlineStyle !== "auto") {
    const around = backdrop(e.parentElement || e);
    const r = ratio(over(parse(style.outlineColor), around), around);
    if (r < 3) return `${name}: its outline has contrast ${r.toFixed(2)}`;
  }
  return "";
}"""


@pytest.fixture(scope="module")
def base_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    # this module makes many games from one address: more than the server's usual bound
    with live_server(tmp_path_factory.mktemp("a11y") / "games.sqlite",
                     creates_per_minute=10_000) as url:
        yield url


def _post(page: Any, base_url: str, path: str, body: dict, token: str | None = None) -> dict:
    headers = {"Content-Type": "application/json"}
    if token:
        headers["X-Seat-Token"] = token
    response = page.request.post(base_url + path, data=body, headers=headers)
    assert response.ok, response.text()
    answer: dict = response.json()
    return answer


def _view(page: Any, base_url: str, created: dict) -> dict:
    response = page.request.get(f"{base_url}/api/games/{created['id']}",
                                headers={"X-Seat-Token": created["token"]})
    assert response.ok, response.text()
    answer: dict = response.json()
    return answer


def _hotseat(page: Any, base_url: str, game: str, params: dict, **extra: Any) -> dict:
    return _post(page, base_url, "/api/games",
                 {"game": game, "opponent": "hotseat", "params": params, **extra})


def _open_game(page: Any, base_url: str, created: dict) -> None:
    page.goto(base_url + created["links"]["you"])
    page.wait_for_function("() => /You play|: /.test(document.querySelector('#banner')"
                           ".textContent)")


def _contrast(page: Any, where: str) -> list[str]:
    """The page's contrast offenders, and its disabled buttons that look enabled."""
    found = page.evaluate(CONTRAST_JS)
    assert found["checked"] > 5, f"{where}: hardly any text was checked"
    return ([f"{where}: {o}" for o in found["offenders"]]
            + [f"{where}: {b} is disabled but looks enabled" for b in found["looksEnabled"]])


# -- contrast -----------------------------------------------------------------------------------


def test_the_contrast_check_finds_faint_text_and_spares_large_text(browser: Any) -> None:
    """The check itself, on a page of known colours: faint text, a faint placeholder and
    see-through text fail; large text at 3:1 and black text pass; a disabled button styled
    exactly as an enabled one is named."""
    page = _page(browser, [])
    page.set_content("""<style>.faint { color: #999; } .large { color: #949494; font-size: 24px; }
        .hint::placeholder { color: #bbb; } .see { color: rgba(0, 0, 0, 0.3); }
        button, button:disabled { color: #000; background: #fff; border: 1px solid #000;
          opacity: 1; }</style>
        <p class="faint">faint grey</p><p class="large">large grey</p>
        <input class="hint" placeholder="a hint"><p class="see">see-through</p>
        <p>black</p><p>more black</p><p>yet more black</p><button disabled>off</button>""")
    found = page.evaluate(CONTRAST_JS)
    assert [o.split(":")[0] for o in found["offenders"]] == [
        'p.faint "faint grey"', 'input.hint "a hint"', 'p.see "see-through"']
    assert "= 2.85 (needs 4.5" in found["offenders"][0]
    assert found["looksEnabled"] == ["button"]
    assert found["checked"] == 7


@pytest.mark.parametrize("size", SIZES, ids=["desktop", "phone"])
def test_the_home_page_reads_at_aa_contrast(browser: Any, base_url: str, shots: Any,
                                            size: tuple[int, int]) -> None:
    errors: list[str] = []
    page = _page(browser, errors)
    page.set_viewport_size({"width": size[0], "height": size[1]})
    # something in each of the home page's lists
    finished = _hotseat(page, base_url, "war_of_life", {"start": "prolog", "position": QUICK_WAR})
    for ply, text in enumerate(["[2,2,1,1]", "[6,6,5,5]"]):
        _post(page, base_url, f"/api/games/{finished['id']}/moves",
              {"move": text, "ply": ply, "seat": ply}, finished["token"])
    _hotseat(page, base_url, "losat", {})
    page.goto(base_url + "/")
    page.wait_for_selector("body[data-listed='1']")
    page.wait_for_selector("#quick-games .quick-game button")
    offenders = _contrast(page, "home")
    page.click("#new-challenge")  # the challenge form, open
    page.wait_for_selector("#challenge-form:not([hidden])")
    page.check("input[name=opponent][value=agent]")
    offenders += _contrast(page, "home, forms open")
    page.screenshot(path=str(shots / f"a11y_home_{size[0]}.png"), full_page=True)
    assert offenders == []
    assert errors == []


@pytest.mark.parametrize("size", SIZES, ids=["desktop", "phone"])
@pytest.mark.parametrize(("game", "params"), GAMES,
                         ids=[g + ("_classic" if p else "") for g, p in GAMES])
def test_each_game_page_reads_at_aa_contrast(browser: Any, base_url: str, shots: Any, game: str,
                                             params: dict, size: tuple[int, int]) -> None:
    errors: list[str] = []
    page = _page(browser, errors)
    page.set_viewport_size({"width": size[0], "height": size[1]})
    page.goto(base_url + "/")
    created = _hotseat(page, base_url, game, params,
                       clock={"kind": "live", "minutes": 30, "increment": 0})
    _open_game(page, base_url, created)
    offenders = _contrast(page, game)
    offenders += [f"{game} board: {o}" for o in page.evaluate(BOARD_JS)]
    # an explained refusal: the message box in its error tone
    page.fill("#typed-move", "nonsense")
    page.press("#typed-move", "Enter")
    page.wait_for_function("() => document.querySelector('#message').textContent !== ''")
    offenders += _contrast(page, f"{game}, a refusal said")
    suffix = "_classic" if params else ""
    page.screenshot(path=str(shots / f"a11y_{game}{suffix}_{size[0]}.png"), full_page=True)
    assert offenders == []
    assert errors == []


@pytest.mark.parametrize("size", SIZES, ids=["desktop", "phone"])
def test_a_finished_game_and_an_earlier_position_read_at_aa_contrast(
        browser: Any, base_url: str, shots: Any, size: tuple[int, int]) -> None:
    """The banner's other tones: a win, a loss, and looking back at an earlier position."""
    errors: list[str] = []
    page = _page(browser, errors)
    page.set_viewport_size({"width": size[0], "height": size[1]})
    page.goto(base_url + "/")
    won = _hotseat(page, base_url, "war_of_life", {"start": "prolog", "position": QUICK_WAR})
    for ply, text in enumerate(["[2,2,1,1]", "[6,6,5,5]"]):
        _post(page, base_url, f"/api/games/{won['id']}/moves",
              {"move": text, "ply": ply, "seat": ply}, won["token"])
    page.goto(base_url + won["links"]["you"])
    page.wait_for_selector(".banner.result")
    offenders = _contrast(page, "a win")
    page.locator("#banner").focus()
    page.keyboard.press("Home")
    page.wait_for_function("() => /after move 0/.test(document.querySelector('#banner')"
                           ".textContent)")
    offenders += _contrast(page, "an earlier position")
    lost = _post(page, base_url, "/api/games", {
        "game": "blocking_queen", "opponent": "agent", "level": "hard", "side": 1,
        "params": {"k": 1, "start": "square", "x": 2, "y": 2}})
    page.goto(base_url + lost["links"]["you"])
    page.wait_for_selector(".banner.result.lost")
    offenders += _contrast(page, "a loss")
    page.screenshot(path=str(shots / f"a11y_lost_{size[0]}.png"), full_page=True)
    assert offenders == []
    assert errors == []


@pytest.mark.parametrize("size", SIZES, ids=["desktop", "phone"])
@pytest.mark.parametrize("lab", LAB)
def test_each_lab_page_reads_at_aa_contrast(browser: Any, base_url: str, shots: Any, lab: str,
                                            size: tuple[int, int]) -> None:
    errors: list[str] = []
    page = _page(browser, errors)
    page.set_viewport_size({"width": size[0], "height": size[1]})
    page.goto(base_url + "/")
    played = _hotseat(page, base_url, "war_of_life", {"start": "prolog", "position": QUICK_WAR})
    _post(page, base_url, f"/api/games/{played['id']}/moves",
          {"move": "[2,2,1,1]", "ply": 0, "seat": 0}, played["token"])
    path = f"/lab/{lab}" + (f"#game={played['id']}" if lab == "replay" else "")
    page.goto(base_url + path)
    page.wait_for_load_state("networkidle")
    if lab == "replay":
        page.wait_for_selector("#moves .move, #moves li")
    offenders = _contrast(page, lab)
    page.screenshot(path=str(shots / f"a11y_lab_{lab}_{size[0]}.png"), full_page=True)
    assert offenders == []
    assert errors == []


def _rgba(colour: str) -> tuple[float, float, float, float]:
    """A look's colour ("#rrggbb", "#rgb" or "rgba(r,g,b,a)") as red, green, blue, alpha."""
    if colour.startswith("#"):
        digits = colour[1:]
        if len(digits) == 3:
            digits = "".join(d * 2 for d in digits)
        return (int(digits[0:2], 16), int(digits[2:4], 16), int(digits[4:6], 16), 1.0)
    red, green, blue, *alpha = (float(p) for p in colour[colour.index("(") + 1:-1].split(","))
    return (red, green, blue, alpha[0] if alpha else 1.0)


def _ratio(colour: str, ground: str) -> float:
    """The WCAG contrast ratio of ``colour`` drawn over the opaque ``ground``."""
    top, bottom = _rgba(colour), _rgba(ground)
    seen = [top[i] * top[3] + bottom[i] * (1 - top[3]) for i in range(3)]

    def luminance(rgb: Any) -> float:
        lin = [v / 255 / 12.92 if v / 255 <= 0.03928 else ((v / 255 + 0.055) / 1.055) ** 2.4
               for v in rgb]
        return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]

    high, low = sorted((luminance(seen), luminance(bottom[:3])), reverse=True)
    return (high + 0.05) / (low + 0.05)


@pytest.mark.parametrize("game", ["war_of_life", "life_for_two", "losat", "p2life",
                                  "blocking_queen"])
def test_each_sides_pieces_stand_out_from_the_board(browser: Any, base_url: str,
                                                   game: str) -> None:
    """The board's essential graphics (WCAG 1.4.11): each side's piece, by its fill or by its
    outline, at 3:1 against the board it is drawn on."""
    page = _page(browser, [])
    look = _view(page, base_url, _hotseat(page, base_url, game, {}))["look"]
    faint = [f"{side['name']} {side['colour']} (outline {side['outline']}) on {look['board']}: "
             f"{_ratio(side['colour'], look['board']):.2f}"
             for side in look["sides"]
             if max(_ratio(side["colour"], look["board"]),
                    _ratio(side["outline"], look["board"])) < 3]
    assert faint == []


# -- keyboard -----------------------------------------------------------------------------------


def _focus_shows(page: Any) -> str:
    """"" when the focused element shows its focus, else what is wrong."""
    said: str = page.evaluate(FOCUS_JS)
    return said


def _tab_to(page: Any, test: str, arg: Any = None, limit: int = 80) -> None:
    """Press Tab until ``test`` (a page function of the focused element) holds; each element
    the focus passes on the way must show that it has it."""
    unseen: list[str] = []
    for _ in range(limit):
        page.keyboard.press("Tab")
        problem = _focus_shows(page)
        if problem:
            unseen.append(problem)
        if page.evaluate(f"(arg) => ({test})(document.activeElement, arg)", arg):
            assert unseen == [], unseen
            return
    raise AssertionError(f"Tab never reached {test} ({arg})")


def _cursor(page: Any) -> tuple[int, int]:
    """The board cursor's cell, [row, column]."""
    where = page.evaluate("""() => {
        const cursor = document.querySelector('svg.board .cursor');
        const at = (e, name) => parseFloat(e.getAttribute(name));
        const x = at(cursor, 'x') + at(cursor, 'width') / 2;
        const y = at(cursor, 'y') + at(cursor, 'height') / 2;
        for (const cell of document.querySelectorAll('svg.board rect.cell')) {
            if (x > at(cell, 'x') && x < at(cell, 'x') + at(cell, 'width')
                && y > at(cell, 'y') && y < at(cell, 'y') + at(cell, 'height'))
                return [Number(cell.dataset.r), Number(cell.dataset.c)];
        }
        return null; }""")
    assert where is not None
    return where[0], where[1]


def _go(page: Any, cell: list[int]) -> None:
    """Move the board's cursor to ``cell`` with the arrow keys (the board has the focus)."""
    row, col = _cursor(page)
    keys = (["ArrowDown"] * (cell[0] - row) + ["ArrowUp"] * (row - cell[0])
            + ["ArrowRight"] * (cell[1] - col) + ["ArrowLeft"] * (col - cell[1]))
    for key in keys:
        page.keyboard.press(key)
    assert _cursor(page) == (cell[0], cell[1])


def _to_board(page: Any) -> None:
    if page.evaluate("() => document.activeElement.id") != "board":
        _tab_to(page, "(e) => e.id === 'board'")


def _press_button(page: Any, label: str) -> None:
    """From the board, Tab to the choice button whose text starts with ``label``, and press
    Enter."""
    _tab_to(page, "(e, label) => e.tagName === 'BUTTON' && e.textContent.startsWith(label)",
            label, limit=10)
    page.keyboard.press("Enter")


def _play_turn(page: Any, view: dict) -> None:
    """One seat's move (or choice) made with the keyboard alone, from the server's legal
    view: the cursor to the cells, Enter or Space, the choice buttons by Tab and Enter."""
    seat = next(s for s in view["awaiting"] if view["legal"].get(str(s)))
    legal = view["legal"][str(seat)]
    asked = legal["interaction"]
    kind, moves = asked["kind"], legal["moves"] or []
    _to_board(page)
    if kind == "piece-then-target":
        chosen = moves[0]["cells"]
        _go(page, chosen[0])
        page.keyboard.press("Enter")
        page.wait_for_selector("rect.cell.target")
        _go(page, chosen[1])
        page.keyboard.press("Enter")
    elif kind == "cells":
        for part in asked["parts"][:: max(1, len(asked["parts"]) // asked["count"])][
                :asked["count"]]:
            _go(page, part["cell"])
            page.keyboard.press("Space")
        page.keyboard.press("Enter")
    elif kind == "cell-or-pass":
        place = next(m for m in moves if m["cells"])
        _go(page, place["cells"][0])
        page.keyboard.press("Enter")  # picks; the button then plays it
        _press_button(page, place["label"].capitalize())
    elif kind == "point-then-action":
        at: dict[tuple[int, int], list[dict]] = {}
        for m in moves:
            if m["cells"]:
                at.setdefault(tuple(m["cells"][0]), []).append(m)
        several = [ms for ms in at.values() if len(ms) > 1]
        if several:  # a point with a choice: its buttons, by Tab and Enter
            _go(page, list(several[0][0]["cells"][0]))
            page.keyboard.press("Enter")
            _press_button(page, several[0][0]["label"].capitalize())
        else:  # a point with one move: the first Enter picks it, the second plays it
            _go(page, moves[0]["cells"][0])
            page.keyboard.press("Enter")
            page.wait_for_selector("#choices button")
            page.keyboard.press("Enter")
    elif kind == "square-then-blocks":
        if asked.get("parts"):
            _go(page, asked["parts"][0]["cell"])
            page.keyboard.press("Enter")
        else:
            _press_button(page, "")
    else:
        raise AssertionError(f"no keyboard play for {kind}")


def _keeps_focus(page: Any) -> bool:
    """Whether, after a move, the keyboard's focus is still where play goes on: on the board
    or a choice button (not lost to the page's start)."""
    return bool(page.evaluate("() => document.activeElement.id === 'board' || "
                              "Boolean(document.activeElement.closest('#choices'))"))


def _changed(view: dict, before: tuple[int, int]) -> dict | None:
    """``view`` if its ply or its simultaneous choices differ from ``before``, else None."""
    return view if (view["ply"], len(view["chosen"])) != before else None



@pytest.mark.parametrize("game", ["war_of_life", "life_for_two", "losat", "p2life",
                                  "blocking_queen"])
def test_each_game_is_played_by_keyboard_alone_and_each_move_is_announced(
        browser: Any, base_url: str, shots: Any, game: str) -> None:
    """At one screen, both sides move with keys only (Tab to the board, the arrows, Enter or
    Space, the choice buttons by Tab and Enter); the move list grows, and the live region
    says who moved and what the generation did."""
    errors: list[str] = []
    page = _page(browser, errors)
    page.goto(base_url + "/")
    # a fixed start (a game with a random start draws a fresh one otherwise): eight turns
    # are played from it
    seeded = {"seed": 1} if game in ("war_of_life", "p2life", "blocking_queen") else {}
    created = _hotseat(page, base_url, game, seeded)
    _open_game(page, base_url, created)
    page.locator("body").focus()
    moved: set[int] = set()
    for _ in range(8):
        view = _view(page, base_url, created)
        before = (view["ply"], len(view["chosen"]))
        _play_turn(page, view)
        after = wait_until(lambda before=before: _changed(_view(page, base_url, created), before),
                       f"{game}: the keyboard's move to be played")
        if after["ply"] == view["ply"]:  # one side of a simultaneous turn has chosen
            page.wait_for_function("() => /chosen/.test(document.querySelector('#players')"
                                   ".textContent)")
            assert _keeps_focus(page), f"{game}: the focus was lost"
            continue
        listed = sum(2 if s is None else 1 for s in after["move_sides"])
        page.wait_for_function("n => document.querySelectorAll('#moves .move').length === n",
                               arg=listed)  # the move list grew
        side = after["move_sides"][-1]
        moved |= {0, 1} if side is None else {side}
        last = after["moves"][-1]
        names = [s["name"] for s in after["look"]["sides"]]
        said = page.inner_text("#announce")
        if side is None:
            first, second = last.split(" | ")
            assert said.startswith(f"{names[0]} chose {first}, {names[1]} chose {second}"), said
        else:
            assert said.startswith(f"{names[side]} played {last}"), said
        if after["display"].get("before"):
            assert "born" in said and "died" in said, said
        assert _keeps_focus(page), f"{game}: the focus was lost"
        if moved == {0, 1}:
            break
    assert moved == {0, 1}
    rows = page.locator("#moves .move")
    assert rows.count() >= 2
    assert {rows.nth(i).get_attribute("data-side") for i in range(rows.count())} >= {"0", "1"}
    assert _contrast(page, f"{game} after moves") == []
    assert page.evaluate(BOARD_JS) == []
    page.screenshot(path=str(shots / f"a11y_keyboard_{game}.png"))
    assert errors == []


@pytest.mark.parametrize("size", SIZES, ids=["desktop", "phone"])
def test_the_home_pages_one_click_games_start_by_keyboard(browser: Any, base_url: str,
                                                          size: tuple[int, int]) -> None:
    errors: list[str] = []
    page = _page(browser, errors)
    page.set_viewport_size({"width": size[0], "height": size[1]})
    for label, banner in (("Play the computer", "You play"),
                          ("Play a friend", "Waiting for your opponent to join")):
        page.goto(base_url + "/")
        page.wait_for_selector("#quick-games .quick-game button")
        _tab_to(page, "(e, label) => (e.getAttribute('aria-label') || '').startsWith(label)",
                label)
        page.keyboard.press("Enter")
        page.wait_for_url("**/play/**")
        page.wait_for_function("b => document.querySelector('#banner').textContent"
                               ".startsWith(b)", arg=banner)
    assert errors == []


def test_the_banner_takes_the_focus_and_every_stop_of_a_game_page_shows_it(
        browser: Any, base_url: str) -> None:
    errors: list[str] = []
    page = _page(browser, errors)
    page.goto(base_url + "/")
    _open_game(page, base_url, _hotseat(page, base_url, "war_of_life", {}))
    page.locator("body").focus()
    _tab_to(page, "(e) => e.id === 'banner'")
    assert page.get_attribute("#banner", "aria-live") == "polite"
    _tab_to(page, "(e) => e.id === 'board'")
    _tab_to(page, "(e) => e.textContent === 'New game'")
    assert errors == []
