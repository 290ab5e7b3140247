"""Warm what the pages of ``lifearena serve`` need before the server answers its first
request.

On a fresh install the first call of each numba kernel compiles it (10-30 s of silence, more
for all the games together); a server that compiled on demand showed an empty home page for
that long and made the first agent move wait. :func:`warm_up` builds the home page's
pictures (the catalog's ``/api/catalog`` answers from them), the lab's first palace tiles,
and has every level's agent of every game choose one move from the start, so each kernel
the pages and agents call is compiled now and written to numba's on-disk cache, from which
the agent worker processes load it in a fraction of a second. :data:`WEB_KERNELS` names
some of those kernels, so that ``serve`` can say "compiling the engine (once)..." only
when the cache is cold.
"""

from __future__ import annotations

from lifearena import puzzles
from lifearena.agents import Limit
from lifearena.web import catalog
from lifearena.web.lab.palace import compute_tile

WEB_KERNELS = ("lifearena.life.kernels.bitwise:evolve_planes",
               "lifearena.life.kernels.bitplanes:fill_ghosts",
               "lifearena.life.kernels.bitlogic:eval_terms",
               "lifearena.life.kernels.batch:evolve_boards",
               "lifearena.games.losat.fast:set_point",
               "lifearena.games.losat.fast:board_features",
               "lifearena.games.blocking_queen.palace_kernels:sparse_fill",
               "lifearena.games.blocking_queen.palace_kernels:fold_rows_sum")
"""Entry kernels the web's pages and agents call (as :func:`~lifearena.cli.compiling.
cold_kernels` takes them): when one is cold, the warm-up compiles."""

WARM_LIMIT = Limit(time=0.05)
"""How long an agent thinks during the warm-up: enough to call each of its kernels once."""


def warm_up() -> None:
    """Compile (or load from numba's cache) what the pages and agents call: the home page's
    pictures, the shipped puzzles, a tile of the lab's palace map at each kind of zoom, and
    one move of each level's agent from each game's default start.
    """
    catalog.home_pictures()  # built once and kept: /api/catalog answers from them
    for game in catalog.GAMES:  # the shipped puzzles, read once and kept by the package
        puzzles.load(game)
    compute_tile(1, 0, 0, 0)  # the palace map's kernels (exact values and block means)
    compute_tile(1, 1, 0, 0)
    for game in catalog.GAMES:
        entry = catalog.CATALOG[game]
        start = catalog.new_state(game, {})
        current = start.current_player()
        seat = current if current >= 0 else 0  # a simultaneous start: seat 0 moves too
        # each agent the form's levels name, once (two levels may share one)
        for agent in dict.fromkeys(agent for agent, _ in entry.levels.values()):
            catalog.choose_move(start.view(seat), seat, agent, WARM_LIMIT, seed=1)
