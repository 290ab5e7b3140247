"""The "compiling the engine (once)..." line: said when numba really compiles, never when it
loads a kernel from its cache."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from numba import njit

from lifearena.cli import compiling
from lifearena.cli.compiling import MESSAGE, announce_compiling, announcing, cold_kernels
from lifearena.life.step import evolve

EVOLVE_KERNELS = ("lifearena.life.kernels.bitwise:evolve_planes",
                  "lifearena.life.kernels.bitplanes:_pack",
                  "lifearena.life.kernels.bitplanes:_unpack")


def _warm() -> None:
    evolve(np.zeros((3, 3), dtype=np.int8), "life", 1)  # compiles once, then loads the cache


def test_warm_cache_says_nothing(capsys) -> None:  # type: ignore[no-untyped-def]
    _warm()
    assert cold_kernels(*EVOLVE_KERNELS) == []
    assert announce_compiling(*EVOLVE_KERNELS) is False
    assert capsys.readouterr().err == ""


def test_cold_cache_says_it_once_on_stderr(capsys, monkeypatch) -> None:  # type: ignore
    _warm()
    monkeypatch.setattr(compiling, "_has_cache", lambda dispatcher: False)
    assert "lifearena.life.kernels.bitwise:evolve_planes" in cold_kernels(*EVOLVE_KERNELS)
    assert announce_compiling(*EVOLVE_KERNELS) is True
    out, err = capsys.readouterr()
    assert out == "" and err == MESSAGE + "\n"


def test_a_stale_index_counts_as_cold(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    _warm()
    from lifearena.life.kernels import bitwise

    cache_file = bitwise.evolve_planes._cache._cache_file
    # numba discards an index whose source stamp differs from the module's: the same here
    monkeypatch.setattr(cache_file, "_source_stamp", ("not", "the source"))
    assert "lifearena.life.kernels.bitwise:evolve_planes" in cold_kernels(*EVOLVE_KERNELS)


def test_every_named_entry_kernel_exists() -> None:
    """A list of entry kernels that names a moved or renamed kernel fails here, instead of
    checking nothing."""
    from lifearena.web.warmup import WEB_KERNELS

    for kernels in (WEB_KERNELS, EVOLVE_KERNELS):
        compiling.cold_kernels(*kernels)  # raises LookupError naming a stale entry
    with pytest.raises(LookupError, match="no cached numba kernel 'gone'"):
        compiling.cold_kernels("lifearena.life.kernels.bitwise:gone")


def _fresh_kernel(module: str):  # type: ignore[no-untyped-def]
    """A numba function never compiled before, that claims to live in ``module``."""
    def kernel(x: int) -> int:
        return x + 1

    kernel.__module__ = module
    return njit(kernel)


def test_announcing_says_it_once_when_one_of_ours_really_compiles(capsys) -> None:  # type: ignore
    with announcing():
        _fresh_kernel("elsewhere")(1)  # not lifearena's: numba's helpers compile every run
        assert capsys.readouterr().err == ""
        _fresh_kernel("lifearena.probe")(1)
        _fresh_kernel("lifearena.probe")(2)
        _warm()  # loaded from the cache: says nothing either
        assert announce_compiling(*EVOLVE_KERNELS) is False
    assert capsys.readouterr().err == MESSAGE + "\n"
    _fresh_kernel("lifearena.probe")(3)  # outside the block nobody listens
    assert capsys.readouterr().err == ""


def test_announcing_after_announce_compiling_does_not_repeat_it(capsys,  # type: ignore
                                                                monkeypatch) -> None:
    monkeypatch.setattr(compiling, "_has_cache", lambda dispatcher: False)
    with announcing():
        assert announce_compiling(*EVOLVE_KERNELS) is True
        _fresh_kernel("lifearena.probe")(1)
    assert capsys.readouterr().err == MESSAGE + "\n"


PROBE = """
import sys
from numba.core import event

compiled = []


class Count(event.Listener):
    def on_start(self, happening):
        compiled.append(happening.data["dispatcher"].py_func.__qualname__)

    def on_end(self, happening):
        pass


event.register("numba:compile", Count())
from lifearena.cli import main

try:
    main(sys.argv[1:])
finally:
    print(f"numba compiled {len(compiled)}: {sorted(set(compiled))[:8]}", file=sys.stderr)
"""
"""Runs the command line given as its arguments and says, last on standard error, how many
functions numba compiled (numba raises its compile event only on a cache miss)."""

GLIDER = "x = 3, y = 3, rule = B3/S23\nbob$2bo$3o!\n"


@pytest.mark.timeout(900)
@pytest.mark.parametrize("argv", [
    ["life", "step", "{tmp}/glider.rle", "-n", "4"],
    ["queen", "picture", "-k", "3", "--size", "40", "-o", "{tmp}/palace.png"],
], ids=["life step", "queen picture"])
def test_the_second_run_compiles_nothing_and_says_nothing(tmp_path: Path,
                                                          argv: list[str]) -> None:
    """Each kernel is compiled once per install: with a fresh numba cache the first run
    compiles (and says so), the second loads everything from the cache and says nothing
    (these two commands used to say it on every run)."""
    (tmp_path / "glider.rle").write_text(GLIDER)
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "numba-cache")}
    command = [sys.executable, "-c", PROBE, *(a.replace("{tmp}", str(tmp_path)) for a in argv)]
    runs = [subprocess.run(command, capture_output=True, text=True, env=env, cwd=tmp_path,
                           timeout=600, check=False) for _ in range(2)]
    for run in runs:
        assert run.returncode == 0, run.stderr[-2000:]
    first, second = (run.stderr for run in runs)
    assert MESSAGE in first and "numba compiled 0:" not in first
    assert MESSAGE not in second
    assert "numba compiled 0:" in second, second[-2000:]
