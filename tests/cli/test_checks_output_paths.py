"""Every command that writes a file checks its path (folder, file type) before any work.

The arguments below would each take minutes (or wait for a person) if the check came after
the work, so a pass within the timeout shows the check comes first.
"""

from __future__ import annotations

import pytest

from lifearena.cli import main
from lifearena.cli.checks import check_output
from lifearena.errors import BadParameterError

MISSING = "/no/such/folder/out"

SLOW = ["--runs", "100000", "--size", "512", "--workers", "1"]
CASES = [
    (["war-of-life", "play", "--save", f"{MISSING}.txt"], "--save"),
    (["life-for-two", "play", "--save", f"{MISSING}.json"], "--save"),
    (["losat", "play", "--save", f"{MISSING}.txt"], "--save"),
    (["p2life", "play", "--record", f"{MISSING}.txt"], "--record"),
    (["p2life", "meanfield", "--png", f"{MISSING}.png"], "--png"),
    (["p2life", "ratio", *SLOW, "--png", f"{MISSING}.png"], "--png"),
    (["p2life", "ratio", *SLOW, "--results", f"{MISSING}.sqlite"], "--results"),
    (["p2life", "density", *SLOW, "--export", f"{MISSING}.csv"], "--export"),
    (["p2life", "density", *SLOW, "--results", f"{MISSING}.sqlite"], "--results"),
    (["p2life", "report", "--runs", "100000", "--out", f"{MISSING}/report"], "--out"),
    (["queen", "picture", "-k", "5", "--size", "100000", "--out", f"{MISSING}.png"], "--out"),
]


@pytest.mark.timeout(20)
@pytest.mark.parametrize(("argv", "option"), CASES, ids=[" ".join(c[0][:2]) + " " + c[1]
                                                         for c in CASES])
def test_missing_output_folder_is_refused_before_the_work(capsys, argv, option) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(argv)
    out, err = capsys.readouterr()
    assert exit_info.value.code == 2
    assert err.startswith(f"error: {option} ") and "does not exist" in err
    assert err.count("\n") == 1 and out == ""


@pytest.mark.parametrize(("argv", "message"), [
    (["p2life", "meanfield", "--png", "plot.gif"], "--png 'plot.gif' has the wrong file type"),
    (["p2life", "ratio", "--runs", "100000", "--png", "hist.svg"], "wrong file type"),
    (["p2life", "report", "--runs", "100000", "--name", "report.txt"], "--name 'report.txt'"),
    (["p2life", "report", "--runs", "100000", "--name", "sub/r.md"], "expected a file name"),
])
def test_wrong_file_type_is_refused_before_the_work(capsys, tmp_path, monkeypatch, argv,
                                                     message) -> None:
    monkeypatch.chdir(tmp_path)
    with pytest.raises(SystemExit) as exit_info:
        main(argv)
    _, err = capsys.readouterr()
    assert exit_info.value.code == 2 and message in err and err.count("\n") == 1
    assert list(tmp_path.iterdir()) == []


def test_check_output_accepts_a_good_path_and_refuses_a_folder(tmp_path) -> None:
    check_output(None, "--png", (".png",))
    check_output(tmp_path / "a.PNG", "--png", (".png",))
    check_output(tmp_path / "record", "--save")
    with pytest.raises(BadParameterError, match="is a folder"):
        check_output(tmp_path, "--save")
    # the trial open leaves no file behind
    assert list(tmp_path.iterdir()) == []


@pytest.mark.timeout(20)
def test_an_unwritable_folder_is_refused_before_compiling(capsys, tmp_path) -> None:
    # /proc takes no new files even for root, whose permission bits say yes; a folder
    # without write permission does the same for other users
    target = "/proc/lifearena-x.png"
    with pytest.raises(SystemExit) as exit_info:
        main(["queen", "picture", "-k", "3", "--size", "100000", "--out", target])
    out, err = capsys.readouterr()
    assert exit_info.value.code == 2 and out == ""
    assert err.startswith(f"error: --out '{target}' cannot be written (")
    assert err.endswith("expected a file name in a folder you can write to\n")
    assert err.count("\n") == 1
