"""A command whose optional extra is not installed says which ``pip install`` adds it: one
line on stderr and exit status 2, before any work (a module of the extra that cannot be
imported stands for the missing extra)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from lifearena.cli import main
from lifearena.extras import EXTRAS, MissingExtra, require


def _without(monkeypatch: pytest.MonkeyPatch, *modules: str) -> None:
    """Make ``modules`` impossible to import, as where they are not installed."""
    for module in modules:
        monkeypatch.setitem(sys.modules, module, None)


def _refused(argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    with pytest.raises(SystemExit) as ended:
        main(argv)
    assert ended.value.code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1, err
    return err


def test_serve_without_the_web_extra_says_how_to_install_it(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        tmp_path: Path) -> None:
    _without(monkeypatch, "fastapi")
    err = _refused(["serve", "--port", "8123", "--db", str(tmp_path / "games.sqlite")], capsys)
    assert err == ("error: lifearena serve needs lifearena's web extra (fastapi is not "
                   "installed); install it with: pip install 'lifearena[web]'\n")
    assert not (tmp_path / "games.sqlite").exists()  # refused before anything was made


def test_a_palace_picture_without_the_studies_extra_says_how_to_install_it(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        tmp_path: Path) -> None:
    _without(monkeypatch, "matplotlib", "matplotlib.backend_bases")
    err = _refused(["queen", "picture", "-k", "2", "--size", "20", "--out",
                    str(tmp_path / "palace.png")], capsys)
    assert "pip install 'lifearena[studies]'" in err and "matplotlib" in err
    assert not (tmp_path / "palace.png").exists()


def test_a_dask_scheduler_without_the_cluster_extra_says_how_to_install_it(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from lifearena.arena.executor import check_scheduler

    _without(monkeypatch, "distributed")
    with pytest.raises(MissingExtra, match=r"pip install 'lifearena\[cluster\]'"):
        check_scheduler("tcp://10.0.0.1:8786")


@pytest.mark.parametrize("extra", sorted(set(EXTRAS) - {"interop"}))
def test_every_extra_the_tests_install_is_found_and_each_missing_one_is_named(
        extra: str, monkeypatch: pytest.MonkeyPatch) -> None:
    require(extra, "this test")  # the test extra installs web, cluster and studies
    _without(monkeypatch, EXTRAS[extra][-1])
    with pytest.raises(MissingExtra) as refused:
        require(extra, "this test")
    assert f"pip install 'lifearena[{extra}]'" in str(refused.value)
    assert isinstance(refused.value, ValueError)  # the library's errors are ValueErrors


def test_the_default_install_imports_no_extra() -> None:
    """Every module outside ``web/`` and ``interop/`` imports, and ``lifearena --help``
    runs, with no extra's package importable (as on ``pip install lifearena``)."""
    import subprocess

    code = """
import pkgutil, sys
for module in ("fastapi", "starlette", "uvicorn", "matplotlib", "dask", "distributed",
               "pyspiel", "pettingzoo", "gymnasium"):
    sys.modules[module] = None
import lifearena
for found in pkgutil.walk_packages(lifearena.__path__, "lifearena."):
    if not found.name.startswith(("lifearena.web", "lifearena.interop")) \\
            and not found.name.endswith("conftest"):
        __import__(found.name)
from lifearena.cli import main
sys.argv = ["lifearena", "--help"]
main()
"""
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    assert "serve" in done.stdout
