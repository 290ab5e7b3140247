"""Start-up: ``lifearena --help`` and a one-generation run load none of the heavy packages
(numba, matplotlib, fastapi; SciPy and Pillow neither), so they take a fraction of a second;
the help's command list, made without importing the commands, says what they say."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from lifearena import cli
from lifearena.life import frames, picture

HEAVY = ("numba", "matplotlib", "fastapi", "scipy", "PIL", "sqlalchemy")


def _loaded_after(*argv: str) -> dict[str, object]:
    """Run ``lifearena ARGV`` in a fresh interpreter; which heavy modules it loaded, its
    exit status and output."""
    code = ("import sys, json, io, contextlib\n"
            "from lifearena.cli import main\n"
            "out = io.StringIO()\n"
            "with contextlib.redirect_stdout(out):\n"
            "    try:\n"
            f"        main({list(argv)!r})\n"
            "    except SystemExit as done:\n"
            "        status = done.code\n"
            f"print(json.dumps({{'loaded': [m for m in {HEAVY!r} if m in sys.modules],"
            " 'status': status, 'out': out.getvalue()}))\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=120, check=True)
    result: dict[str, object] = json.loads(done.stdout.splitlines()[-1])
    return result


@pytest.mark.parametrize("argv", [["--help"], [], ["--version"], ["life", "--help"]])
def test_help_loads_no_heavy_package(argv: list[str]) -> None:
    result = _loaded_after(*argv)
    assert result["status"] == 0 and result["loaded"] == []


def test_a_one_generation_run_loads_no_compiled_engine() -> None:
    result = _loaded_after("life", "run", "-p", "glider", "-n", "1", "--no-show")
    assert result["status"] == 0 and result["loaded"] == []
    assert "colour 1 (blue, O) │ 5 " in str(result["out"])


def test_a_larger_run_loads_the_compiled_engine() -> None:
    # the condition above can fail: a run past the small-run budget is compiled code
    result = _loaded_after("life", "run", "--size", "512x512", "-n", "50", "--no-show")
    assert result["status"] == 0 and "numba" in result["loaded"]  # type: ignore[operator]


def test_the_help_lists_each_command_with_its_own_summary() -> None:
    whole = cli.build_command()
    assert list(whole.commands) == list(cli.COMMANDS)
    for name, (_, summary) in cli.COMMANDS.items():
        assert " ".join(whole.commands[name].short_help.split()) == summary, name


def test_the_help_is_the_same_with_or_without_the_commands_loaded(capsys) -> None:
    with pytest.raises(SystemExit):
        cli.main(["--help"])
    light = capsys.readouterr().out
    with pytest.raises(SystemExit):
        cli.build_command().main(["--help"], prog_name="lifearena", standalone_mode=True)
    assert capsys.readouterr().out == light


def test_constants_copied_to_keep_imports_light_match_their_sources() -> None:
    from lifearena.cli import life as life_cli
    from lifearena.life.step import KERNELS

    assert life_cli.KERNELS == KERNELS
    assert frames.MAX_SIDE == picture.MAX_SIDE
