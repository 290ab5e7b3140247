"""The adapters' tests need the optional ``[interop]`` extra (OpenSpiel, PettingZoo,
Gymnasium), the torch trainer's the ``[rl]`` extra (torch). Without them they skip, each
naming the ``pip install`` that adds it; with ``LIFEARENA_REQUIRE_INTEROP=1`` (set by CI,
which installs the extras after running the README's command) a missing library fails the
run here instead, so no adapter test can pass by skipping. Tests that need the extras live
in this folder alone (``tests/test_extras_layout.py`` checks it), so CI can run them all by
naming it.
"""

from __future__ import annotations

import importlib
import os

INTEROP = ("pyspiel", "pettingzoo", "gymnasium")
RL = ("torch",)
"""The ``[rl]`` extra's library that the torch trainer's tests need (``test_rl_ppo.py``)."""

if os.environ.get("LIFEARENA_REQUIRE_INTEROP") == "1":
    for _name, _install in ([(name, "-e '.[interop]'") for name in INTEROP]
                            + [(name, "torch==2.13.0 -e '.[rl]'") for name in RL]):
        try:
            importlib.import_module(_name)
        except ImportError as error:
            raise RuntimeError(f"LIFEARENA_REQUIRE_INTEROP=1 but {_name} does not import "
                               f"({error}); install it with pip install {_install}"
                               ) from None
