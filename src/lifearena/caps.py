"""The caps on the numbers and sizes that lifearena's interfaces accept, in one place.

The command line and the web lab enforce the same caps, so they live here, below both
interfaces (they need only :mod:`lifearena.errors`). Every numeric option of ``lifearena``
takes a closed range (click checks it while parsing, before any work, and ``--help`` prints
it next to the option); sizes given as text (``WxH``, a window) are checked against
:data:`MAX_GRID_CELLS` and friends before anything is allocated. The lab's tournament form
takes the same ranges for games per pairing and seeds, and refuses a tournament of more than
:data:`MAX_TOTAL_GAMES` games. A cap is there because past it a run would exhaust memory or
never end, not to forbid big experiments: each is far above what the documented experiments
use.

>>> check_cells(1000, 1000, "--size 1000x1000")
>>> check_cells(10**9, 10**9, "--size 1000000000x1000000000")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
lifearena.errors.BadParameterError: --size 1000000000x1000000000 is 10^18 cells; expected ...
>>> CAPS["seed"]
(0, 4294967295)
"""

from __future__ import annotations

import math

from lifearena.errors import BadParameterError

MAX_SEED = 2**32 - 1
# a grid the engine builds in memory: the soup takes ~10 bytes a cell while it is drawn
MAX_GRID_CELLS = 2**28  # 16384 x 16384
MAX_GENERATIONS = 10**12  # int64 generation counters stay exact; longer is never a plan
MAX_PICTURE_PIXELS = 2**26  # 8192 x 8192 RGB, 200 MB
MAX_GIF_BYTES = 2**31  # frames kept in memory while a GIF is drawn
MAX_SCALE = 256  # pixels per cell side in a picture
MAX_FRAMES = 10_000
MAX_PAD = 100_000  # empty cells added round a pattern on each side by 'life step'
MAX_GAMES = 1_000_000  # games per pairing; results are kept per game
MAX_TOTAL_GAMES = 10_000_000  # games of one tournament or ladder, every pairing together
MAX_RUNS = 1_000_000  # runs per point of a p2life sweep
MAX_RUN_GENERATIONS = 10**9  # generation cap of one run of a sweep
MAX_WORKERS = 1024
MAX_CHUNK = 100_000
MIN_SECONDS = 0.001  # a thinking time below a millisecond is a typo
MAX_SECONDS = 86_400.0  # a thinking time of a day
MAX_BOOTSTRAP = 100_000
MAX_MOVES = 1_000_000
MAX_PALACE_SIDE = 1_000_000  # side of a palace picture region: 10^12 squares, hours
MAX_PIXELS = 16_384  # largest side of a palace picture
MAX_K = 100_000  # blocking parameter of the queen game

# (lowest, highest) of each kind of number: the table in docs/reliability.md
CAPS: dict[str, tuple[float, float]] = {
    "seed": (0, MAX_SEED),
    "generations": (0, MAX_GENERATIONS),
    "grid cells (WxH)": (1, MAX_GRID_CELLS),
    "picture pixels": (1, MAX_PICTURE_PIXELS),
    "GIF frames in memory (bytes)": (1, MAX_GIF_BYTES),
    "scale": (1, MAX_SCALE),
    "frames": (1, MAX_FRAMES),
    "pad": (0, MAX_PAD),
    "games per pairing": (1, MAX_GAMES),
    "games of a tournament or ladder": (1, MAX_TOTAL_GAMES),
    "runs per point": (1, MAX_RUNS),
    "generations per sweep run": (1, MAX_RUN_GENERATIONS),
    "workers": (1, MAX_WORKERS),
    "chunk": (1, MAX_CHUNK),
    "seconds per move/game": (MIN_SECONDS, MAX_SECONDS),
    "bootstrap samples": (1, MAX_BOOTSTRAP),
    "moves": (1, MAX_MOVES),
    "palace picture side": (1, MAX_PALACE_SIDE),
    "palace picture pixels a side": (1, MAX_PIXELS),
    "k (blocking queen)": (1, MAX_K),
}


def _magnitude(number: int) -> str:
    """``10^18`` for huge numbers (so a message stays one short line), else digits."""
    return f"10^{round(math.log10(number))}" if number >= 10**12 else f"{number:,}"


def check_cells(height: int, width: int, text: str, limit: int = MAX_GRID_CELLS) -> None:
    """Refuse a ``width x height`` grid over ``limit`` cells before it is allocated; ``text``
    names the input (an option and its value)."""
    if height < 1 or width < 1:
        raise BadParameterError(f"{text} has a side below 1; expected at least 1x1")
    if height * width > limit:
        raise BadParameterError(f"{text} is {_magnitude(height * width)} cells; expected at "
                                f"most {limit:,} ({_side(limit)})")


def _side(limit: int) -> str:
    side = math.isqrt(limit)
    return f"{side}x{side}" if side * side == limit else f"{limit:,} cells"
