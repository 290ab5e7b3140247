"""Say "compiling the engine (once)..." when a command is about to compile numba kernels.

The first run of a compiled kernel takes 10-30 s of silence while numba compiles it and
writes its on-disk cache; later runs load the cache in a fraction of a second. Whether the
cache is cold is read cheaply from numba's own cache index of each kernel (a small file
beside the module, or under ``NUMBA_CACHE_DIR``), which numba also discards when the source
changed; nothing is compiled to find out.

>>> import types
>>> cold_kernels(types.ModuleType("no_kernels_here"))
[]
"""

from __future__ import annotations

import importlib
import sys
from types import ModuleType

MESSAGE = "compiling the engine (once)..."


def _cached_dispatchers(module: ModuleType) -> list[object]:
    """The numba functions of ``module`` compiled with ``cache=True``."""
    return [obj for obj in vars(module).values()
            if getattr(obj, "_cache", None) is not None and hasattr(obj, "py_func")
            and getattr(obj.py_func, "__module__", None) == module.__name__]


def _has_cache(dispatcher: object) -> bool:
    """Whether numba's cache holds a compiled version of ``dispatcher`` for its source as it
    is now; ``True`` when the cache cannot be read (then nothing is said)."""
    try:
        cache_file = dispatcher._cache._cache_file  # type: ignore[attr-defined]
        return bool(cache_file._load_index())
    except Exception:
        # a numba without this layout: say nothing rather than something wrong
        return True


def cold_kernels(*kernels: ModuleType | str) -> list[str]:
    """The cached numba kernels among ``kernels`` that would be compiled now.

    Each item is a module (all its cached kernels), a module name, or ``"module:function"``
    for one kernel: name a command's entry kernels, since the kernels a command never calls
    stay cold for good. A named kernel that is not there raises :class:`LookupError` (a list
    of entry kernels that has gone stale would otherwise check nothing).
    """
    cold = []
    for item in kernels:
        name = None
        if isinstance(item, str):
            module_name, _, name = item.partition(":")
            module = importlib.import_module(module_name)
        else:
            module = item
        found = False
        for dispatcher in _cached_dispatchers(module):
            function = dispatcher.py_func.__name__  # type: ignore[attr-defined]
            if not name or function == name:
                found = True
                if not _has_cache(dispatcher):
                    cold.append(f"{module.__name__}:{function}")
        if name and not found:
            raise LookupError(f"{item}: {module.__name__} has no cached numba kernel {name!r}")
    return cold


def announce_compiling(*kernels: ModuleType | str) -> bool:
    """Print :data:`MESSAGE` on standard error if any of ``kernels`` (as
    :func:`cold_kernels` takes them) is not in numba's cache yet; return whether it was
    printed."""
    if not cold_kernels(*kernels):
        return False
    print(MESSAGE, file=sys.stderr, flush=True)
    return True


# the entry kernels of the commands (each compiles the kernels it calls with it)
EVOLVE_KERNELS = ("lifearena.life.kernels.bitwise:evolve_planes",
                  "lifearena.life.kernels.bitplanes:_pack",
                  "lifearena.life.kernels.bitplanes:_unpack")
RUN_KERNELS = (*EVOLVE_KERNELS, "lifearena.life.kernels.bitwise:run_planes")
WAR_OF_LIFE_KERNELS = ("lifearena.games.war_of_life.fast:play",)
PALACE_KERNELS = ("lifearena.games.blocking_queen.palace_kernels",)
