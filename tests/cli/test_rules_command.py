"""``lifearena <game> rules``: every game's rules card at the terminal, worded for the
parameters given, and bad parameters refused in one line (exit 2)."""

from __future__ import annotations

import contextlib
import io

import pytest

from lifearena.cli import main


def run(*argv: str) -> tuple[int, str, str]:
    """``lifearena ARGV`` in this process: its exit status, stdout and stderr."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            main(list(argv))
            code = 0
        except SystemExit as stop:
            code = stop.code if isinstance(stop.code, int) else 1
    return code, out.getvalue(), err.getvalue()


def test_war_of_life_rules_prints_the_card_and_its_picture() -> None:
    code, out, err = run("war-of-life", "rules")
    assert code == 0 and err == "", err
    lines = out.splitlines()
    assert lines[0] == "War of Life"
    for title in ("Your move", "The rule of Life", "How to win"):
        assert title in lines
    assert "Immigration" in out and "survives" in out and "born" in out
    assert "Picture: Blue moves 2,5 to 3,4." in out
    assert "before" in out and "after" in out  # the picture, drawn
    assert ". . b b . . . ." in out and "Lesson: /learn/war_of_life" in out


@pytest.mark.parametrize(("group", "name"), [("life-for-two", "Life for Two"),
                                             ("losat", "Losat"), ("p2life", "p2life"),
                                             ("queen", "Blocking queen")])
def test_every_game_has_the_command(group: str, name: str) -> None:
    code, out, err = run(group, "rules")
    assert code == 0 and out.splitlines()[0] == name, err


def test_parameters_change_the_words_and_bad_ones_are_one_line() -> None:
    code, out, _ = run("p2life", "rules", "--param", "torus=false", "-p", "moves=2")
    assert code == 0 and "permanently empty" in out and "every 2 turns" in out
    code, out, err = run("losat", "rules", "-p", "neighbours=5")
    assert code == 2 and out == ""
    assert err.strip().count("\n") == 0 and "neighbours" in err and "8, 4" in err
