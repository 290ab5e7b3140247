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


def test_one_entrant_is_told_how_to_add_another(capsys) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["ladder", "war-of-life", "-a", "random"])
    err = capsys.readouterr().err
    assert exit_info.value.code == 2
    assert err == ("error: a ladder needs at least two entrants, got only random; expected "
                   "another -a AGENT\n")



def test_ladder_prints_a_name_longer_than_a_line_whole(capsys) -> None:
    label = "ppo_trained_twenty_minutes_against_the_whole_pool_seed_0_" + "x" * 40
    with pytest.raises(SystemExit) as done:
        main(["ladder", "war-of-life", "-n", "1", "-w", "1", "-a", f"{label}=random,bloodlust"])
    out = capsys.readouterr().out
    assert done.value.code == 0
    table, crosstable = out.split("crosstable (score % of the row against the column):\n")
    assert table.count(label) == 1, table
    # the crosstable: a header of three names and a row per agent, each on one line
    header, *rows = crosstable.splitlines()
    assert sorted(header.split()) == sorted([label, "random", "bloodlust"])
    assert len(rows) == 3 and all(len(row.split()) == 4 for row in rows), crosstable
    assert sum(row.startswith(label) for row in rows) == 1
