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


def test_every_seed_option_takes_the_seed_range() -> None:
    # click's range is the only check of a seed now, so every seed option must carry it
    from lifearena.caps import MAX_SEED
    from lifearena.cli import build_command

    def seeds(command, path=()):  # type: ignore[no-untyped-def]
        for param in command.params:
            if param.name and param.name.endswith("seed"):
                yield " ".join(path), param
        for name, sub in getattr(command, "commands", {}).items():
            yield from seeds(sub, (*path, name))

    found = list(seeds(build_command()))
    assert len(found) >= 12
    for path, param in found:
        assert (param.min, param.max) == (0, MAX_SEED), f"lifearena {path} {param.opts[0]}"
