"""Say "compiling the engine (once)..." when numba compiles one of lifearena's kernels.

The first run of a compiled kernel takes 10-30 s of silence while numba compiles it and
writes its on-disk cache; later runs load the cache in a fraction of a second. Two ways to
say so:

* :func:`announcing` (and :func:`announces_compiling`, which wraps a command in it) listens
  to numba's own "numba:compile" event, which numba raises only when it really compiles (a
  kernel, or a new signature of one), never when it loads one from the cache; so the line
  is said exactly when a command compiles, whichever kernels it calls, and never on a
  run that only loads them.
* :func:`announce_compiling` says it ahead of time, for a command that wants to know
  before it starts whether a warm-up is needed (``lifearena serve`` warms its kernels only
  on a cold cache). Whether the cache is cold is read cheaply from numba's own cache index
  of each kernel (a small file beside the module, or under ``NUMBA_CACHE_DIR``), which
  numba also discards when the source changed; nothing is compiled to find out.

Either way the line is said at most once inside :func:`announcing`.

>>> import types
>>> cold_kernels(types.ModuleType("no_kernels_here"))
[]
"""

from __future__ import annotations

import functools
import importlib
import sys
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from types import ModuleType
from typing import Any, ParamSpec, TypeVar

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


_said: list[bool] = []  # one entry per announcing() block open: whether it said the line


def _say() -> None:
    """Print :data:`MESSAGE`, unless the innermost :func:`announcing` block has already."""
    if _said and _said[-1]:
        return
    if _said:
        _said[-1] = True
    print(MESSAGE, file=sys.stderr, flush=True)


def announce_compiling(*kernels: ModuleType | str) -> bool:
    """Print :data:`MESSAGE` on standard error if any of ``kernels`` (as
    :func:`cold_kernels` takes them) is not in numba's cache yet; return whether any is.
    Inside :func:`announcing` the line is not said a second time when compiling begins."""
    if not cold_kernels(*kernels):
        return False
    _say()
    return True


def _ours(dispatcher: object) -> bool:
    """Whether ``dispatcher`` is one of lifearena's kernels (numba compiles its own helpers,
    typed containers and overloads, in every process: those are not the engine)."""
    module = getattr(getattr(dispatcher, "py_func", None), "__module__", None) or ""
    return module == "lifearena" or module.startswith("lifearena.")


@functools.cache
def _listener() -> Any:
    """A numba compile-event listener that says :data:`MESSAGE` when numba begins to compile
    one of lifearena's kernels (made on first use: numba is imported only by then)."""
    from numba.core import event

    class CompileListener(event.Listener):
        def on_start(self, happening: Any) -> None:
            data = happening.data if isinstance(happening.data, dict) else {}
            if _ours(data.get("dispatcher")):
                _say()

        def on_end(self, happening: Any) -> None:
            pass

    return CompileListener()


_listening: list[tuple[ExitStack, list[bool]]] = []  # per announcing() block: its exit
# stack and whether it listens yet


def listen() -> None:
    """Inside :func:`announcing`, start listening to numba's compile events now, if not
    yet: for a command that imports its kernels only once it knows it needs them (numba
    is not imported before). Outside :func:`announcing`, nothing."""
    if not _listening or _listening[-1][1]:
        return
    from numba.core import event

    stack, started = _listening[-1]
    stack.enter_context(event.install_listener("numba:compile", _listener()))
    started.append(True)


@contextmanager
def announcing() -> Iterator[None]:
    """Within the block, say :data:`MESSAGE` on standard error (once) when numba really
    compiles one of lifearena's kernels; a kernel loaded from numba's cache says nothing.

    When numba is already loaded the listening starts at once; otherwise it starts when the
    command calls :func:`listen` (after importing its kernels), so that a command that ends
    up needing no compiled code never loads numba."""
    _said.append(False)
    with ExitStack() as stack:
        _listening.append((stack, []))
        try:
            if "numba" in sys.modules:
                listen()
            yield
        finally:
            _listening.pop()
            _said.pop()


P = ParamSpec("P")
R = TypeVar("R")


def announces_compiling(command: Callable[P, R]) -> Callable[P, R]:
    """``command`` run inside :func:`announcing`: for the commands whose work is compiled
    code (the interactive ones say nothing, so that what they print stays the game's)."""

    @functools.wraps(command)
    def run(*args: P.args, **kwargs: P.kwargs) -> R:
        with announcing():
            return command(*args, **kwargs)

    return run
