"""``alphazero:FILE.pt``: War of Life or Losat (the checkpoint's game) played by batched PUCT
search with a trained policy and value network (:mod:`lifearena.rl.alphazero`, which trains
such checkpoints).

The search and the network live with the trainer, above this layer, and need torch (the
``[rl]`` extra): they are imported only when such an agent is made, so that the agents layer
stays free of both. Options: ``simulations`` (a move's simulations when the limit gives no
time and no simulation count; default 200), ``parallel`` (paths walked at once in the one
tree, evaluated in one network call; default 8) and ``c_puct``.
"""

from __future__ import annotations

from typing import Any

from lifearena.agents.registry import register_spec
from lifearena.errors import BadParameterError

SPEC_PREFIX = "alphazero:"
GAMES = ("war_of_life", "losat")
"""The games a checkpoint may play (the checkpoint says which; a checkpoint of another game
than the one asked is refused when it is loaded)."""


@register_spec(SPEC_PREFIX)
def make_alphazero_agent(rest: str, game: str | None = None, seed: int | None = 0,
                         simulations: int | str = 200, parallel: int | str = 8,
                         c_puct: float | str = 1.5) -> Any:
    """The agent of ``alphazero:FILE.pt`` (the registry passes ``FILE.pt`` as ``rest``)."""
    path = rest.strip()
    if not path:
        raise BadParameterError("agent 'alphazero:' names no file; expected alphazero:FILE.pt")
    if game is not None and game.strip().lower().replace("-", "_") not in GAMES:
        raise BadParameterError(f"agent alphazero:{path} plays {' or '.join(GAMES)}, not "
                                f"{game}")
    try:
        simulations, parallel, c_puct = int(simulations), int(parallel), float(c_puct)
    except ValueError:
        raise BadParameterError(f"alphazero options simulations={simulations!r:.20}, "
                                f"parallel={parallel!r:.20}, c_puct={c_puct!r:.20}; expected "
                                f"two integers and a number") from None
    try:
        # the one upward import of this module: the trainer's search, needing torch
        from lifearena.rl.alphazero import make_agent
    except ModuleNotFoundError as error:
        raise BadParameterError(f"agent alphazero:{path} needs {error.name} (pip install "
                                f"'lifearena[rl]')") from None
    return make_agent(path, seed=seed, simulations=simulations, parallel=parallel,
                      c_puct=c_puct, game=game)
