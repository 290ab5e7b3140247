"""``lifearena ladder``: the printed table and crosstable read as the user wrote them."""

from __future__ import annotations

import re

import pytest

from lifearena.cli import main


def test_ladder_prints_full_names_and_no_negative_zero(capsys) -> None:
    with pytest.raises(SystemExit) as done:
        main(["ladder", "war-of-life", "-n", "1", "-w", "1", "-a",
              "random,land_grab,self_preservation"])
    out = capsys.readouterr().out
    assert done.value.code == 0
    header = out.split("crosstable (score % of the row against the column):\n")[1]
    assert sorted(header.splitlines()[0].split()) == ["land_grab", "random", "self_preservation"]
    assert not re.search(r"(?<![\d.])-0(?![\d.])", out), out
