"""The "compiling the engine (once)..." line: said when numba's cache is cold, not when warm."""

from __future__ import annotations

import numpy as np
import pytest

from lifearena.cli import compiling
from lifearena.cli.compiling import EVOLVE_KERNELS, MESSAGE, announce_compiling, cold_kernels
from lifearena.life.step import evolve


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


@pytest.mark.parametrize("kernels", [compiling.RUN_KERNELS, compiling.WAR_OF_LIFE_KERNELS,
                                     compiling.PALACE_KERNELS])
def test_named_kernels_exist(kernels) -> None:  # type: ignore[no-untyped-def]
    for item in kernels:
        module, _, name = item.partition(":")
        found = compiling._cached_dispatchers(__import__(module, fromlist=["_"]))
        assert found and (not name or name in {d.py_func.__name__ for d in found})


def test_every_named_entry_kernel_exists() -> None:
    """A list of entry kernels that names a moved or renamed kernel fails here, instead of
    checking nothing."""
    from lifearena.cli import compiling
    from lifearena.web.warmup import WEB_KERNELS

    for kernels in (WEB_KERNELS, compiling.RUN_KERNELS, compiling.WAR_OF_LIFE_KERNELS,
                    compiling.PALACE_KERNELS):
        compiling.cold_kernels(*kernels)  # raises LookupError naming a stale entry
    with pytest.raises(LookupError, match="no cached numba kernel 'gone'"):
        compiling.cold_kernels("lifearena.life.kernels.bitwise:gone")
