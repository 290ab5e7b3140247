"""A run's population series: rows of (generation, colour 1, colour 2, bounding box), the
``--populations`` CSV and the ``--plot`` PNG, each written atomically (a temporary file in
the same folder, renamed over the target once complete: an error leaves nothing half
written).

>>> import numpy as np, tempfile, pathlib
>>> rows = np.array([[0, 3, 0, 1, 2, 3, 1], [1, 3, 0, 2, 1, 1, 3]])
>>> with tempfile.TemporaryDirectory() as folder:
...     path = pathlib.Path(folder) / "pops.csv"
...     write_csv(path, rows)
...     print(path.read_text(), end="")
generation,colour1,colour2,x,y,width,height
0,3,0,1,2,3,1
1,3,0,2,1,1,3
"""

from __future__ import annotations

import contextlib
import io
import os
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import IO, Any

import numpy as np

from lifearena.life.universe import Universe

SERIES_COLUMNS = ("generation", "colour1", "colour2", "x", "y", "width", "height")
"""The columns of a series row (an empty pattern's box is all zeros)."""


def series_row(universe: Universe) -> list[int]:
    """The universe's row of :data:`SERIES_COLUMNS` now."""
    one, two = universe.population()
    box = universe.bounding_box()
    where = (0, 0, 0, 0) if box is None else (box.x, box.y, box.width, box.height)
    return [universe.generation, one, two, *where]


@contextlib.contextmanager
def atomic_file(path: Path, mode: str = "w") -> Iterator[IO[Any]]:
    """A file to write ``path`` through: written beside it under a temporary name and
    renamed over it only when the block ends without an error."""
    folder = path.parent if str(path.parent) else Path(".")
    handle, temporary = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".part", dir=folder)
    # mkstemp makes the file private; the result gets the permissions a new file gets
    mask = os.umask(0)
    os.umask(mask)
    os.chmod(temporary, 0o666 & ~mask)
    try:
        with os.fdopen(handle, mode) as stream:
            yield stream
        os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise


def write_atomically(path: Path, write: Callable[[IO[bytes]], None]) -> None:
    """Call ``write`` with a binary stream whose bytes become ``path`` atomically."""
    with atomic_file(path, "wb") as stream:
        write(stream)


def write_csv(path: Path, rows: np.ndarray) -> None:
    """The series as CSV with a header of :data:`SERIES_COLUMNS`, atomically."""
    text = io.StringIO()
    text.write(",".join(SERIES_COLUMNS) + "\n")
    np.savetxt(text, np.asarray(rows, dtype=np.int64).reshape(-1, len(SERIES_COLUMNS)),
               fmt="%d", delimiter=",")
    with atomic_file(path) as stream:
        stream.write(text.getvalue())


def write_plot(path: Path, rows: np.ndarray, *, rule: str, pattern: str) -> None:
    """A PNG of each colour's population against the generation (matplotlib, Agg), titled
    with the rule and the pattern, atomically. A colour that is never alive is left out."""
    from lifearena.extras import require

    require("studies", "--plot")
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib.figure import Figure

    rows = np.asarray(rows, dtype=np.int64).reshape(-1, len(SERIES_COLUMNS))
    figure = Figure(figsize=(8, 4.5), dpi=100)
    axes = figure.add_subplot()
    for column, label, colour in ((1, "colour 1", "#408cff"), (2, "colour 2", "#f0463c")):
        if rows[:, column].any() or column == 1:
            axes.plot(rows[:, 0], rows[:, column], label=label, color=colour, linewidth=1.2)
    axes.set_xlabel("generation")
    axes.set_ylabel("population (live cells)")
    axes.set_title(f"{pattern} under {rule}")
    axes.grid(alpha=0.3)
    axes.legend()
    figure.tight_layout()
    write_atomically(path, lambda stream: figure.savefig(stream, format="png"))
