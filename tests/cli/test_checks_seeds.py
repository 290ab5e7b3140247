"""Negative seeds on every command that takes one: one line naming the option, exit code 2.

numpy refuses negative seeds with a bare ValueError, which used to escape as a traceback.
"""

from __future__ import annotations

import pytest

from lifearena.cli import main


@pytest.mark.parametrize(("argv", "option"), [
    (["life", "run", "--size", "8x8", "--seed", "-1", "--no-show"], "--seed -1: expected"),
    (["war-of-life", "play", "--blue", "random", "--red", "random", "--agent-seed", "-1"],
     "--agent-seed -1: expected"),
    (["war-of-life", "test-strategy", "-n", "2", "random", "random", "--seed", "-3"],
     "--seed -3: expected"),
    (["life-for-two", "play", "--player1", "random", "--player2", "random", "--seed", "-1"],
     "--seed -1: expected"),
    (["losat", "play", "--black", "random", "--white", "random", "--seed", "-1"],
     "--seed -1: expected"),
    (["p2life", "play", "--white", "random", "--black", "random", "--seed", "-1"],
     "--seed -1: expected"),
    (["queen", "play", "--first", "random", "--second", "random", "--seed", "-1"],
     "--seed -1: expected"),
])
def test_negative_seed_is_a_one_line_error(capsys, argv, option) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(argv)
    out, err = capsys.readouterr()
    assert exit_info.value.code == 2
    assert err.startswith("error: ") and len(err.strip().splitlines()) == 1
    assert option in err and "expected a whole number from 0 to" in err
    assert out == ""
