"""``lifearena bot connect``: bad options and an unreachable server are one line on stderr
and exit status 2, before any game (the games themselves: ``tests/web/test_bot_api.py``)."""

from __future__ import annotations

import socket

import pytest

from lifearena.cli import main


def run_cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    with pytest.raises(SystemExit) as exit_info:
        main(list(argv))
    out, err = capsys.readouterr()
    return int(exit_info.value.code or 0), out, err


def closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


BASE = ("bot", "connect", "http://127.0.0.1:9", "--token", "lat_x")


@pytest.mark.parametrize(("extra", "said"), [
    ((), "give one of --agent SPEC or --command"),
    (("--agent", "random", "--command", "python3 x.py"), "give one of --agent"),
    (("--agent", "random", "--accept", "maybe"), "--accept 'maybe'; expected any, rated"),
    (("--agent", "random", "--accept-clock", "blitz"), "--accept-clock 'blitz'"),
    (("--agent", "random", "--challenge", "Ann"), "--challenge needs --game"),
    (("--agent", "random", "--challenge", "Ann", "--seek", "3+2", "--game", "losat"),
     "not both"),
    (("--agent", "random", "--seek", "3+2", "--game", "chess"), "--game 'chess': no such"),
    (("--agent", "minimax", "--accept-game", "losat"), "cannot play losat"),
    (("--agent", "nosuchagent"), "plays none of the games: unknown agent 'nosuchagent'"),
    (("--agent", "random", "--challenge", "Ann", "--game", "losat", "--clock", "fast"),
     "--clock 'fast'"),
    (("--agent", "random", "--colour", "2"), "--colour '2'"),
])
def test_bad_options_are_one_line_and_status_2(capsys: pytest.CaptureFixture[str],
                                               extra: tuple[str, ...], said: str) -> None:
    code, out, err = run_cli(capsys, *BASE, *extra)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith("error:") and said in err, err


def test_a_bad_url_and_an_unreachable_server_are_one_line(
        capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run_cli(capsys, "bot", "connect", "localhost:8000", "--token", "lat_x",
                           "--agent", "random")
    assert code == 2 and "expected http://HOST" in err and err.count("\n") == 1
    code, _, err = run_cli(capsys, "bot", "connect", f"http://127.0.0.1:{closed_port()}",
                           "--token", "lat_x", "--agent", "random")
    assert code == 2 and "did not answer" in err and err.count("\n") == 1, err


def test_the_help_names_every_option(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run_cli(capsys, "bot", "connect", "--help")
    text = " ".join(out.split())
    assert code == 0
    for option in ("--token", "--agent", "--command", "--accept", "--accept-game",
                   "--accept-clock", "--max-games", "--challenge", "--seek", "--games",
                   "LIFEARENA_TOKEN"):
        assert option in text, option
