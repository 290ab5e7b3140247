"""Every lab page on a desktop and on a phone: nothing runs off the right edge (no sideways
scroll of the page) and the lab's links wrap rather than being cut off. Each page is
screenshotted at both sizes (into ``$LIFEARENA_SCREENSHOTS`` when set) for a person to look
at."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import pytest

from lifearena.arena.storage import ResultsDB
from lifearena.studies.p2life_density import SweepSpec, sweep
from lifearena.web import Settings

from .conftest import RUN, serving

pytestmark = pytest.mark.timeout(300)

SIZES = ((1280, 800), (390, 844))
"""A desktop window and a phone (an iPhone 12 to 14's CSS pixels)."""


@pytest.fixture(scope="module")
def lab_url(tmp_path_factory: pytest.TempPathFactory, played: tuple[Path, str]
            ) -> Iterator[str]:
    """A server given a tournament file (id 1) and a small p2life sweep (id 2)."""
    folder = tmp_path_factory.mktemp("layout")
    p2life = folder / "sweep.sqlite"
    sweep(SweepSpec(rules=("p2life",), ps=(0.3, 0.6), sizes=((16, 16),),
                    boundaries=("torus", "bounded"), runs=2, max_generations=300),
          p2life, workers=1)
    with serving(Settings(folder / "games.sqlite", agent_workers="thread",
                          results=(played[0], p2life))) as url:
        yield url


def _replay_query(played: tuple[Path, str]) -> str:
    with ResultsDB(played[0]) as db:
        key, _ = next(iter(db.get_run(RUN).games()))
    return urlencode({"file": 1, "run": RUN, "pairing": key.pairing, "index": key.index,
                      "seat": key.seat})


def _pages(played: tuple[Path, str]) -> list[tuple[str, str, str]]:
    """(name, address, selector shown once the page has drawn its content)."""
    return [
        ("sandbox", "/lab/sandbox", "body[data-ready='1']"),
        ("palace", "/lab/palace#k=2&x=0&y=0&level=-2", "body[data-loading='0']"),
        ("p2life", "/lab/p2life#rule=p2life&colours=2&file=2", "#claims-table"),
        ("replay", f"/lab/replay#{_replay_query(played)}", "#banner[data-at]"),
        ("tournaments", f"/lab/tournaments#file=1&run={RUN}", "#ranking-table"),
        ("live", "/lab/live", "tr[data-id]"),
    ]


def test_no_lab_page_scrolls_sideways_on_a_phone_and_its_links_wrap(
        page: Any, lab_url: str, played: tuple[Path, str], shots: Path) -> None:
    # a game in progress, for the live page to list
    page.goto(f"{lab_url}/lab/live")
    page.evaluate("""async () => (await fetch('/api/games', {method: 'POST',
        headers: {'Content-Type': 'application/json'},
        body: JSON.stringify({game: 'life_for_two', opponent: 'online'})})).json()""")
    wrong = []   # every page's faults, so that one run names them all
    for width, height in SIZES:
        page.set_viewport_size({"width": width, "height": height})
        for name, address, drawn in _pages(played):
            page.goto(f"{lab_url}{address}")
            page.wait_for_selector(drawn)
            wide = page.evaluate("""() => [document.scrollingElement.scrollWidth,
                                           window.innerWidth]""")
            if wide[0] > wide[1]:
                wrong.append(f"{name} at {width}: scrolls sideways ({wide[0]} > {wide[1]})")
            # every link of the lab's menu lies whole inside the window (they wrap onto more
            # lines where they must), none clipped or off the right edge
            links = page.evaluate("""() => [...document.querySelectorAll('nav.lab a')].map(
                a => { const box = a.getBoundingClientRect();
                       return [a.textContent, box.left, box.right, box.width,
                               a.scrollWidth, a.clientWidth]; })""")
            if len(links) != 6:
                wrong.append(f"{name} at {width}: {len(links)} lab links")
            for text, left, right, box_width, inner, shown in links:
                if left < 0 or right > width or box_width <= 0 or inner > shown:
                    wrong.append(f"{name} at {width}: the link {text} is cut off "
                                 f"({left:.0f}..{right:.0f})")
            # the page's canvas, charts, board and cards shown whole, none squeezed to a sliver
            # beside another column
            for what, left, right, box_width in page.evaluate("""() => [...document
                    .querySelectorAll('main canvas, main svg.chart, main svg.board, main .card')]
                    .filter(e => e.getClientRects().length)
                    .map(e => { const box = e.getBoundingClientRect();
                                return [e.id || e.className.baseVal || e.className,
                                        box.left, box.right, box.width]; })"""):
                if left < -0.5 or right > width + 0.5 or box_width < min(250, width - 60):
                    wrong.append(f"{name} at {width}: {what} at {left:.0f}..{right:.0f}")
            page.screenshot(path=str(shots / f"lab-{name}-{width}x{height}.png"),
                            full_page=True)
    # the widths between a phone and a desktop: the header wraps wherever it must
    for width in (320, 601, 640, 768, 900):
        page.set_viewport_size({"width": width, "height": 800})
        for name, address, drawn in _pages(played):
            page.goto(f"{lab_url}{address}")
            page.wait_for_selector(drawn)
            wide = page.evaluate("document.scrollingElement.scrollWidth")
            if wide > width:
                wrong.append(f"{name} at {width}: scrolls sideways ({wide} > {width})")
    assert not wrong, wrong
