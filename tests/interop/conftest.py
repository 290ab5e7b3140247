"""The adapters' tests need the optional ``[interop]`` extra (OpenSpiel, PettingZoo,
Gymnasium), and the reinforcement-learning ones the ``[rl]`` extra (torch,
Stable-Baselines3, sb3-contrib). Without them they skip, each naming the ``pip install``
that adds it; with ``LIFEARENA_REQUIRE_INTEROP=1`` (set by CI, which installs the extras
after running the README's command) a missing library fails the run here instead, so no
adapter test can pass by skipping. Tests that need the extras live in this folder alone
(``tests/test_extras_layout.py`` checks it), so CI can run them all by naming it.
"""

from __future__ import annotations

import importlib
import os

INTEROP = {"pyspiel": "interop", "pettingzoo": "interop", "gymnasium": "interop",
           "torch": "rl", "stable_baselines3": "rl", "sb3_contrib": "rl"}
"""The libraries CI requires, and the extra that installs each."""

if os.environ.get("LIFEARENA_REQUIRE_INTEROP") == "1":
    for _name, _extra in INTEROP.items():
        try:
            importlib.import_module(_name)
        except ImportError as error:
            raise RuntimeError(f"LIFEARENA_REQUIRE_INTEROP=1 but {_name} does not import "
                               f"({error}); install it with pip install -e '.[{_extra}]'"
                               ) from None
