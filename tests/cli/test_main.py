"""The root command (``lifearena``, ``cli/__init__.py``): its own options."""

from __future__ import annotations

from importlib.metadata import version

import pytest

from lifearena.cli import main


def test_version_is_the_installed_package_version(capsys) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["--version"])
    assert exit_info.value.code == 0
    assert capsys.readouterr().out == f"lifearena {version('lifearena')}\n"
