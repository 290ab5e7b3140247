"""Every command, every bad input: one line on stderr naming the input, exit status 2.

The command tree is walked (:func:`lifearena.cli.build_command`), so a new command or a new
numeric option is covered without editing this file: every numeric option must state its
range (the caps, shown in ``--help``), and hypothesis throws values outside it at each one
(negative, zero, huge such as 10^30, not a number, empty). Sizes given as text, malformed
files (truncated or binary RLE, bad Prolog positions, broken rule tables, records with an
illegal move in the middle, results files that are not SQLite or are cut short) and the
items found by trying lifearena as a new user would are driven through the same check:

* exit status 2 and exactly one line on stderr, starting ``error:``, naming the input;
* no traceback, nothing on stdout, nothing written;
* no hang (each test has a timeout; a size is refused before anything is allocated).

Commands run in this process through :func:`lifearena.cli.main` (a few milliseconds each);
only the Ctrl-C test needs a subprocess. Each bad input is counted (``bad_input``) and the
total is printed in the terminal summary.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import pty
import re
import select
import signal
import sqlite3
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from lifearena.caps import MAX_GRID_CELLS
from lifearena.cli import build_command, main
from signals import ctrl_c_reaches_children  # tests/signals.py

GLIDER = "x = 3, y = 3, rule = B3/S23\nbob$2bo$3o!\n"
GUN = ("#N Gosper glider gun\nx = 36, y = 9, rule = B3/S23\n"
       "24bo$22bobo$12b2o6b2o12b2o$11bo3bo4b2o12b2o$2o8bo5bo3b2o$2o8bo3bob2o4b\n"
       "obo$10bo5bo7bo$11bo3bo$12b2o!\n")
FEW = settings(max_examples=8, deadline=None, derandomize=True,
               suppress_health_check=[HealthCheck.function_scoped_fixture,
                                      HealthCheck.too_slow])


@dataclass
class Result:
    code: int
    out: str
    err: str


def invoke(argv: list[str], stdin: str = "") -> Result:
    """Run ``lifearena ARGV`` in this process with ``stdin``; capture what it prints."""
    out, err = io.StringIO(), io.StringIO()
    old_stdin = sys.stdin
    sys.stdin = io.StringIO(stdin)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                main([str(a) for a in argv])
                code = 0
            except SystemExit as stop:
                code = stop.code if isinstance(stop.code, int) else 1
    finally:
        sys.stdin = old_stdin
    return Result(code, out.getvalue(), err.getvalue())


def assert_refused(result: Result, *names: str) -> None:
    """The promise: exit 2, one ``error:`` line on stderr naming ``names``, nothing else."""
    assert result.code == 2, (result.code, result.err[-2000:], result.out[-500:])
    assert "Traceback" not in result.err
    assert result.err.startswith("error: ") and result.err.count("\n") == 1, result.err
    assert result.out == "", result.out[-500:]
    for name in names:
        assert name in result.err, (name, result.err)


# -- the command tree ----------------------------------------------------------------------

def _leaves(command, path=()):  # type: ignore[no-untyped-def]
    subs = getattr(command, "commands", None)
    if subs:
        for name, sub in subs.items():
            yield from _leaves(sub, (*path, name))
    else:
        yield path, command


COMMANDS = list(_leaves(build_command()))


def _is_number(param) -> bool:  # type: ignore[no-untyped-def]
    descriptor = getattr(param, "type_descriptor", None)
    return (getattr(param, "param_type_name", "") == "option" and descriptor is not None
            and descriptor.annotation in (int, float))


NUMERIC = [(path, param) for path, command in COMMANDS for param in command.params
           if _is_number(param)]

# arguments a command needs before its options are looked at; a new command with required
# arguments must be added here (test_every_command_with_arguments_has_a_base)
BASE: dict[tuple[str, ...], list[str]] = {
    ("tournament",): ["war-of-life"],
    ("ladder",): ["war-of-life"],
    ("life", "step"): ["{glider}"],
    ("war-of-life", "replay"): ["{glider}"],
    ("analyse",): ["{glider}"],
    ("war-of-life", "test-strategy"): ["random", "random"],
    ("bot", "connect"): ["http://127.0.0.1:9", "--token", "lat_x", "--agent", "random"],
    ("puzzles", "generate"): ["war-of-life"],
    ("puzzles", "show"): ["war-of-life"],
    ("puzzles", "check"): ["war-of-life"],
    ("rl", "evaluate"): ["random", "--env", "lifearena/war_of_life-v1"],
    ("rl", "export"): ["missing.pt"],
    ("deploy", "nginx"): ["--replica", "127.0.0.1:8001"],
}


def _base(path: tuple[str, ...], folder: Path) -> list[str]:
    glider = folder / "glider.rle"
    if not glider.exists():
        glider.write_text(GLIDER)
    return [a.format(glider=glider) for a in BASE.get(path, [])]


def test_every_command_is_walked() -> None:
    names = {" ".join(path) for path, _ in COMMANDS}
    assert {"life run", "life step", "tournament", "ladder", "p2life density",
            "queen picture", "war-of-life play"} <= names
    assert len(NUMERIC) >= 40


def test_every_command_with_arguments_has_a_base() -> None:
    for path, command in COMMANDS:
        required = [p for p in command.params
                    if getattr(p, "param_type_name", "") == "argument" and p.required]
        if required:
            assert path in BASE, f"add the arguments of 'lifearena {' '.join(path)}' to BASE"


@pytest.mark.parametrize(("path", "param"), NUMERIC,
                         ids=[f"{' '.join(p)} {o.opts[0]}" for p, o in NUMERIC])
def test_every_numeric_option_states_its_caps(path, param) -> None:  # type: ignore
    assert param.min is not None and param.max is not None, (
        f"lifearena {' '.join(path)} {param.opts[0]} takes any number; give it min= and max=")


@pytest.mark.timeout(60)
def test_every_help_shows_the_caps_and_no_stray_types() -> None:
    for path, command in COMMANDS:
        result = invoke([*path, "--help"])
        assert result.code == 0 and result.err == "", (path, result.err)
        text = " ".join(result.out.split())
        assert "<bool>" not in text and "<list[" not in text, path
        ranges = [p for p in command.params if _is_number(p)]
        assert text.count("<=x<=") + text.count("<= x <=") >= len(ranges), (path, text)


def test_command_lists_show_each_summary_without_line_breaks() -> None:
    # a docstring's first paragraph over two lines was listed broken mid-sentence
    groups = [build_command(), *(c for c in build_command().commands.values()
                                 if getattr(c, "commands", None))]
    for group in groups:
        for name, command in group.commands.items():
            assert command.short_help and "\n" not in command.short_help, name
    serve = build_command().commands["serve"].short_help
    assert ("online (your own link and an invitation for your opponent) or against an "
            "agent.") in serve


def test_lifearena_alone_prints_the_help_and_exits_0() -> None:
    result = invoke([])
    assert result.code == 0 and "Usage: lifearena" in result.out and result.err == ""


def test_help_keeps_brackets(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setenv("COLUMNS", "200")  # the whole help line, not cut with an ellipsis
    result = invoke(["war-of-life", "play", "--help"])
    assert "[[[r,c],...],[[r,c],...]]" in "".join(result.out.replace("│", " ").split())


# -- numbers out of range, not numbers, empty ----------------------------------------------

def _bad_numbers(param) -> st.SearchStrategy[str]:  # type: ignore[no-untyped-def]
    low, high = param.min, param.max
    is_int = param.type_descriptor.annotation is int
    words = st.text(st.characters(categories=["L"]), min_size=1, max_size=8).filter(
        lambda t: t.strip().lower() not in ("nan", "inf", "infinity", "e"))
    out: list[st.SearchStrategy[str]] = [
        st.sampled_from(["", " ", "abc", "1,5", "--", "0x10", "10^30"]), words,
        st.integers(min_value=int(high) + 1).map(str),
        st.sampled_from([str(10**30), str(10**12 * 10**12), "9" * 40]).filter(
            lambda t: int(t) > high),
    ]
    if is_int:
        out.append(st.integers(max_value=int(low) - 1).map(str))
    else:
        out.append(st.floats(max_value=low, exclude_max=True, allow_nan=False,
                             allow_infinity=False).map(repr))
        out.append(st.floats(min_value=high, exclude_min=True, allow_nan=False,
                             allow_infinity=False).map(repr))
    if is_int:
        out.append(st.sampled_from(["1.5", "1e3", "nan"]))
    else:
        out.append(st.sampled_from(["nan", "inf", "-inf", "1e400"]))
    return st.one_of(out)


@pytest.mark.timeout(120)
@pytest.mark.parametrize(("path", "param"), NUMERIC,
                         ids=[f"{' '.join(p)} {o.opts[0]}" for p, o in NUMERIC])
def test_bad_numbers_are_refused(path, param, tmp_path_factory, bad_input) -> None:  # type: ignore
    folder = tmp_path_factory.mktemp("numbers")
    option = next((o for o in param.opts if o.startswith("--")), param.opts[0])

    @FEW
    @given(value=_bad_numbers(param))
    def check(value: str) -> None:
        bad_input(f"{' '.join(path)} {option}")
        result = invoke([*path, *_base(path, folder), option, value])
        assert_refused(result, option)

    check()
    assert {p.name for p in folder.iterdir()} <= {"glider.rle"}


# -- sizes written as text -----------------------------------------------------------------

def _bad_sizes() -> st.SearchStrategy[str]:
    side = st.integers(min_value=MAX_GRID_CELLS // 2 + 1, max_value=10**9)
    return st.one_of(
        st.sampled_from(["", "x", "abc", "0", "0x0", "0x5", "5x0", "-3x4", "3x-4", "10^30",
                         "1000000000x1000000000", "1e9x1e9", "8x8x8", "nan"]),
        st.tuples(side, st.integers(min_value=3, max_value=10**9)).map(
            lambda wh: f"{wh[0]}x{wh[1]}"),
    )


SIZE_OPTIONS = [
    (["life", "run", "--no-show"], "--size"),
    (["life", "step", "{glider}"], "--size"),
    (["p2life", "density", "--runs", "1", "--results", "{folder}/r.sqlite"], "--size"),
    (["p2life", "ratio", "--runs", "1", "--results", "{folder}/r.sqlite",
      "--png", "{folder}/r.png"], "--size"),
    (["p2life", "report", "--runs", "1", "--out", "{folder}/report"], "--sizes"),
]


@pytest.mark.timeout(120)
@pytest.mark.parametrize(("argv", "option"), SIZE_OPTIONS,
                         ids=[" ".join(a[:2]) for a, _ in SIZE_OPTIONS])
def test_bad_sizes_are_refused_before_allocation(argv, option, tmp_path_factory,
                                                 bad_input) -> None:  # type: ignore
    folder = tmp_path_factory.mktemp("sizes")
    (folder / "glider.rle").write_text(GLIDER)
    args = [a.format(glider=folder / "glider.rle", folder=folder) for a in argv]

    @FEW
    @given(size=_bad_sizes())
    def check(size: str) -> None:
        bad_input(f"{' '.join(argv[:2])} {option}")
        assert_refused(invoke([*args, option, size]))

    check()
    assert {p.name for p in folder.iterdir()} == {"glider.rle"}  # nothing written


@pytest.mark.timeout(60)
@FEW
@given(window=st.one_of(
    st.sampled_from(["", "1,2", "a,b,c,d", "0,0,0,5", "-1,0,5,5", "0,0,5,-5", "1,2,3,4,5"]),
    st.tuples(st.integers(0, 10**12), st.integers(0, 10**12),
              st.integers(10**6 + 1, 10**15), st.integers(1, 10**15)).map(
        lambda t: ",".join(map(str, t)))))
def test_bad_palace_windows_are_refused(window, tmp_path_factory, bad_input) -> None:  # type: ignore
    bad_input("queen picture --window")
    out = tmp_path_factory.mktemp("window") / "p.png"
    assert_refused(invoke(["queen", "picture", "-k", "5", "--window", window, "--out", out]))
    assert not out.exists()


# -- malformed files -----------------------------------------------------------------------

BAD_PATTERNS = [b"x = 1000000000, y = 1000000000\nbo!\n", b"x = 20000, y = 20000\nbo!\n",
                b"x = 3, y = 3\n5o!\n", b"x = 3, y = 3\nb?b!\n", b"\x00\xff\xfe",
                b"x = -3, y = 3\nbo!\n", b"x = 3, y = 3\n3o$3o$3o$3o!\n"]


def _broken_patterns() -> st.SearchStrategy[bytes]:
    truncated = st.integers(0, GUN.index("!") - 1).map(lambda i: GUN[:i].encode())
    return st.one_of(
        truncated,
        st.binary(min_size=1, max_size=300).filter(lambda b: b"!" not in b),
    )


@pytest.mark.timeout(120)
@pytest.mark.parametrize("suffix", [".rle", ".cells"])
@pytest.mark.parametrize("command", [["life", "step"], ["life", "run", "--no-show", "-i"]],
                         ids=["step", "run"])
def test_broken_pattern_files_are_refused(command, suffix, tmp_path_factory,
                                          bad_input) -> None:  # type: ignore
    folder = tmp_path_factory.mktemp("patterns")

    def refused(body: bytes) -> None:
        path = folder / f"broken{suffix}"
        path.write_bytes(body)
        bad_input(f"pattern file{suffix}")
        result = invoke([*command, path])
        if suffix == ".cells" and result.code == 0:
            return  # a text grid of any characters it knows is a pattern, not an error
        assert_refused(result, str(path))

    for body in BAD_PATTERNS:
        refused(body)
    FEW(given(body=_broken_patterns())(refused))()


def _bad_positions() -> st.SearchStrategy[str]:
    cell = st.tuples(st.integers(1, 8), st.integers(1, 8))
    cells = st.lists(cell, min_size=1, max_size=6, unique=True)

    def text(blue: list, red: list) -> str:  # type: ignore[type-arg]
        def side(c: list) -> str:  # type: ignore[type-arg]
            return "[" + ",".join(f"[{r},{k}]" for r, k in c) + "]"
        return f"[{side(blue)},{side(red)}]"

    duplicate = st.tuples(cells, cells).map(lambda br: text(br[0] + br[0][:1], br[1]))
    shared = st.tuples(cells, cells).map(lambda br: text(br[0], br[1] + br[0][:1]))
    outside = st.tuples(cells, cells, st.sampled_from([(9, 9), (0, 1), (1, 0), (-1, 3)])).map(
        lambda t: text(t[0] + [t[2]], t[1]))
    garbage = st.sampled_from(["", "[", "[[],[]", "[[[1,1]],[[2,2]]", "[[[1,1]]]", "hello",
                               "[[[1,1,1]],[[2,2]]]", "[[[a,b]],[[2,2]]]"])
    return st.one_of(duplicate, shared, outside, garbage)


@pytest.mark.timeout(60)
@settings(max_examples=24, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(position=_bad_positions())
def test_bad_prolog_positions_are_refused(position, bad_input) -> None:  # type: ignore
    bad_input("war-of-life play --position")
    assert_refused(invoke(["war-of-life", "play", "--position", position]))


BAD_RULE_TABLES = [b"", b"name: empty\n", b"0 9 0 -> 1\n", b"0 0 0 -> 7\n",
                   b"0 0 3 -> 1\n0 0 x -> 1\n", b"\xff\xfe\x00",
                   # gaps inside a clause: an empty count, an open range, no NEXT
                   b"0 3,,5 0 -> 1\n", b"0 2- 0 -> 1\n", b"0 3,5, 0 -> 1\n", b"0 3 0 1\n",
                   b"1 if w >= -> 1\n"]


def _broken_rule_tables() -> st.SearchStrategy[bytes]:
    table = invoke(["life", "rules", "life"]).out
    lines = table.splitlines()
    clauses = [i for i, line in enumerate(lines) if "->" in line]

    def cut(choice: tuple[int, int]) -> bytes:
        index, keep = choice
        line = lines[clauses[index % len(clauses)]]
        broken = line[: keep % (len(line) - 1) + 1].rstrip()
        if broken == line.rstrip():
            broken = line.rstrip()[:-1]
        rest = lines[:]
        rest[clauses[index % len(clauses)]] = broken
        return ("\n".join(rest) + "\n").encode()

    return st.one_of(
        st.tuples(st.integers(0, 100), st.integers(0, 100)).map(cut),
        st.binary(min_size=1, max_size=200).filter(lambda b: b"->" not in b),
    )


@pytest.mark.timeout(120)
@pytest.mark.parametrize("command", [
    ["life", "run", "--size", "8x8", "-n", "1", "--no-show", "--rule"],
    ["life", "step", "{glider}", "--rule"],
    ["p2life", "meanfield", "--rule"],
], ids=["life run", "life step", "p2life meanfield"])
def test_broken_rule_tables_are_refused(command, tmp_path_factory, bad_input) -> None:  # type: ignore
    folder = tmp_path_factory.mktemp("rules")
    (folder / "glider.rle").write_text(GLIDER)
    args = [a.format(glider=folder / "glider.rle") for a in command]

    def refused(body: bytes) -> None:
        path = folder / "broken.rule"
        path.write_bytes(body)
        bad_input("rule table @FILE")
        assert_refused(invoke([*args, f"@{path}"]))

    for body in BAD_RULE_TABLES:
        refused(body)
    FEW(given(body=_broken_rule_tables())(refused))()


def _record(game: str, seed: int):  # type: ignore[no-untyped-def]
    """A finished or long game of ``game`` between random agents, as a record."""
    from lifearena import agents

    if game == "war_of_life":
        from lifearena.games.war_of_life import new_game
        state = new_game(seed=seed)
    elif game == "blocking_queen":
        from lifearena.games.blocking_queen import BlockingQueen
        state = BlockingQueen.from_setup("30,40", k=2)
    else:
        from lifearena.games.losat import new_game as losat_game
        state = losat_game()
    bots = [agents.make("random", game=game, seed=seed + i) for i in (0, 1)]
    for _ in range(40):
        if state.is_terminal():
            break
        player = state.current_player()
        state.apply_action(bots[player].act(state.view(player), player))
    return state.record(players=["random", "random"])


def _with_illegal_move(record, index: int):  # type: ignore[no-untyped-def]
    """``record`` with its move ``index`` replaced by one that core.replay refuses (tried in
    turn: an earlier move again, a later one, a move off the board)."""
    from dataclasses import replace

    from lifearena.core import replay
    from lifearena.errors import LifeArenaError

    candidates = [*record.moves[:index], *record.moves[index + 1:], "99,99", "[9,9,9,9]",
                  "Z99"]
    for text in candidates:
        moves = [*record.moves]
        moves[index] = text
        broken = replace(record, moves=moves)
        try:
            replay(broken)
        except LifeArenaError:
            return broken
    raise AssertionError("found no illegal move to put in the record")


REPLAYS = [
    ("war_of_life", ["war-of-life", "replay"]),
    ("war_of_life", ["war-of-life", "play", "--replay"]),
    ("blocking_queen", ["queen", "play", "--replay"]),
    ("losat", ["losat", "play", "--replay"]),
]


@pytest.mark.timeout(120)
@pytest.mark.parametrize(("game", "command"), REPLAYS, ids=[" ".join(c) for _, c in REPLAYS])
@pytest.mark.parametrize("suffix", [".txt", ".json"])
def test_records_with_an_illegal_move_are_refused(game, command, suffix, tmp_path,
                                                  bad_input) -> None:  # type: ignore
    record = _record(game, seed=3)
    assert len(record.moves) >= 3
    for index in (1, len(record.moves) // 2, len(record.moves) - 1):
        broken = _with_illegal_move(record, index)
        path = broken.save(tmp_path / f"broken-{index}{suffix}")
        bad_input("record with an illegal move")
        result = invoke([*command, path])
        assert_refused(result, "move")
    truncated = tmp_path / f"cut{suffix}"
    text = record.to_json() if suffix == ".json" else record.to_text()
    truncated.write_text(text[: len(text) // 3])
    bad_input("truncated record")
    assert_refused(invoke([*command, truncated]))


def _sqlite_file(path: Path) -> None:
    with sqlite3.connect(path) as db:
        db.execute("CREATE TABLE t (x TEXT)")
        db.executemany("INSERT INTO t VALUES (?)", [("x" * 500,)] * 200)
    db.close()


DB_COMMANDS = [
    ["tournament", "war-of-life", "-a", "random,bloodlust", "-n", "1", "-w", "1", "--db"],
    ["ladder", "war-of-life", "-a", "bloodlust", "-n", "1", "--db"],
    ["p2life", "density", "--runs", "1", "--size", "16", "--p", "0.5", "--boundary",
     "torus", "--workers", "1", "--results"],
]


@pytest.mark.timeout(120)
@pytest.mark.parametrize("command", DB_COMMANDS, ids=[" ".join(c[:2]) for c in DB_COMMANDS])
@pytest.mark.parametrize("kind", ["truncated", "text", "binary", "empty-folder"])
def test_results_files_that_are_not_sqlite_are_refused(command, kind, tmp_path,
                                                       bad_input) -> None:  # type: ignore
    path = tmp_path / "results.sqlite"
    if kind == "truncated":
        _sqlite_file(path)
        data = path.read_bytes()
        path.write_bytes(data[: len(data) // 2 + 100])
    elif kind == "text":
        path.write_text("these are my notes, not a database\n" * 50)
    elif kind == "binary":
        path.write_bytes(bytes(range(256)) * 40)
    else:
        path.mkdir()
    before = path.read_bytes() if path.is_file() else None
    bad_input(f"--db {kind}")
    result = invoke([*command, path])
    assert_refused(result, "results.sqlite")
    if before is not None:
        assert path.read_bytes() == before  # a bad file is never written to


# -- the items found by trying lifearena as a new user ---------------------------------------

FOUND = [
    (["tournament", "war-of-life", "--games", str(10**12)], "--games"),
    (["ladder", "war-of-life", "-n", str(10**12)], "--games"),
    (["p2life", "density", "--runs", str(10**12)], "--runs"),
    (["queen", "picture", "--size", str(10**9)], "--size"),
    (["life", "run", "--png", "{tmp}/a.png", "--scale", "100000"], "--scale"),
    (["life", "run", "-n", str(10**30)], "--generations"),
    (["ladder", "war-of-life", "-a", "alphabeta:time=abc"], "alphabeta:time=abc"),
    (["ladder", "war-of-life", "--bootstrap", "0"], "--bootstrap"),
    (["ladder", "war-of-life", "-a", "bloodlust", "--chart", "{tmp}/c.txt"], "--chart"),
    (["life", "run", "--rule", "@{tmp}/binary.rule"], "not text"),
    (["tournament", "war-of-life", "--agents", "random", "--no-self-play"], "no game"),
    (["tournament", "war-of-life", "--agents", ""], "--agents ''"),
    (["tournament", "war-of-life", "-a", "bloodlust", "-a", " , "], "names no agent"),
    (["life", "run", "--rule", ""], "--rule ''"),
    (["life", "step", "{tmp}/glider.rle", "--rule", ""], "--rule ''"),
    (["p2life", "report", "--runs", "1", "--out", "{tmp}/docs"], "--force"),
    (["tournament", "queen", "-a", "random,nobody"], "nobody"),
]


@pytest.mark.timeout(60)
@pytest.mark.parametrize(("argv", "names"), FOUND, ids=[" ".join(a[:3]) for a, _ in FOUND])
def test_found_by_a_new_user(argv, names, tmp_path, bad_input) -> None:  # type: ignore
    (tmp_path / "binary.rule").write_bytes(bytes(range(256)))
    (tmp_path / "glider.rle").write_text(GLIDER)
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "p2life.md").write_text("the repository's own report\n")
    bad_input("found by a new user")
    os.chdir(tmp_path)
    result = invoke([a.format(tmp=tmp_path) for a in argv])
    assert_refused(result, names)
    assert (tmp_path / "docs" / "p2life.md").read_text() == "the repository's own report\n"
    assert not (tmp_path / "a.png").exists() and not (tmp_path / "c.txt").exists()


@pytest.fixture(autouse=True)
def _keep_cwd():  # type: ignore[no-untyped-def]
    cwd = os.getcwd()
    yield
    os.chdir(cwd)


@pytest.mark.timeout(120)
def test_same_spellings_in_tournament_and_ladder(tmp_path) -> None:
    db = tmp_path / "t.sqlite"
    result = invoke(["tournament", "queen", "-a", "random", "--agent", "greedy", "-n", "1",
                     "-w", "1", "--time", "5", "--results", db, "--no-self-play"])
    assert result.code == 0, result.err
    assert "blocking_queen" in result.out and db.exists()
    result = invoke(["ladder", "queen", "--agents", "random,greedy", "-n", "1",
                     "--time-per-move", "0.5", "--results", tmp_path / "l.sqlite",
                     "--bootstrap", "10"])
    assert result.code == 0, result.err
    assert "ladder" in result.out


STARTUP = 300.0
"""Seconds ``life run`` may take to reach its run on a busy machine: the imports, and on a
fresh install the compilation of the engine."""

ESCAPES = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")


def _shown(raw: bytes) -> list[str]:
    """The lines a terminal shows of ``raw``, escape sequences left out (a line redrawn
    after a carriage return counts as a line of its own)."""
    text = ESCAPES.sub("", raw.decode(errors="replace"))
    return [line for line in text.splitlines() if line.strip()]


def _read_terminal(fd: int, deadline: float, until: str | None = None) -> bytes:
    """Read what a process writes to the terminal ``fd`` until ``until`` is shown, or until
    the process closes it (``until=None``), or the deadline."""
    read = b""
    while time.monotonic() < deadline:
        if until is not None and until in ESCAPES.sub("", read.decode(errors="replace")):
            break
        ready, _, _ = select.select([fd], [], [], 0.1)
        if not ready:
            continue
        try:
            chunk = os.read(fd, 4096)
        except OSError:  # Linux: the process closed its end
            chunk = b""
        if not chunk:
            break
        read += chunk
    return read


@pytest.mark.timeout(STARTUP + 180)
def test_ctrl_c_during_life_run_is_one_line_and_exit_130(tmp_path) -> None:
    # standard error is a terminal, as for a person at the keyboard, so that the progress bar
    # is drawn: it is the sign that the run has started (past the imports and any compilation)
    command = [sys.executable, "-m", "lifearena", "life", "run", "--size", "2048x2048",
               "-n", str(10**9), "--no-show", "--rule", "life"]
    env = {key: value for key, value in os.environ.items()
           if key not in ("FORCE_COLOR", "TTY_COMPATIBLE")}
    controller, terminal = pty.openpty()
    with ctrl_c_reaches_children():
        process = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                   stderr=terminal, cwd=tmp_path, env={**env, "TERM": "xterm"})
    os.close(terminal)
    try:
        shown = _read_terminal(controller, time.monotonic() + STARTUP, until="running")
        assert "running" in " ".join(_shown(shown)), shown[-2000:]
        process.send_signal(signal.SIGINT)
        shown += _read_terminal(controller, time.monotonic() + 60)
        process.wait(60)
    finally:
        process.kill()
        process.wait()
        os.close(controller)
    lines = _shown(shown)
    assert process.returncode == 130, lines[-20:]
    assert "Traceback" not in " ".join(lines) and lines[-1] == "interrupted", lines[-20:]


def test_records_are_json_or_text_only(tmp_path, bad_input) -> None:
    path = tmp_path / "game.json"
    path.write_text(json.dumps({"game": "war_of_life"}))
    bad_input("record missing fields")
    assert_refused(invoke(["war-of-life", "replay", path]), "game.json")


def test_the_caps_table_in_the_docs_is_the_code_s() -> None:
    from lifearena.caps import CAPS

    doc = (Path(__file__).parents[2] / "docs" / "reliability.md").read_text()
    rows = {line.split("|")[1].strip(): line.split("|")[2:4] for line in doc.splitlines()
            if line.startswith("| ") and line.count("|") >= 5}

    def number(text: str) -> float:
        return float(text.strip().replace(",", ""))

    for kind, (low, high) in CAPS.items():
        assert kind in rows, f"docs/reliability.md has no row for {kind!r}"
        assert (number(rows[kind][0]), number(rows[kind][1])) == (low, high), kind


def test_an_interrupt_inside_a_compiled_kernel_is_one_line(monkeypatch) -> None:  # type: ignore
    # numba returns from a kernel interrupted by Ctrl-C with a SystemError caused by the
    # KeyboardInterrupt; that is an interruption, not a crash
    from lifearena.life.packed import PackedGrid

    def interrupted(*args, **kwargs):  # type: ignore[no-untyped-def]
        try:
            raise KeyboardInterrupt
        except KeyboardInterrupt as cause:
            raise SystemError("<numba> returned a result with an exception set") from cause

    monkeypatch.setattr(PackedGrid, "step", interrupted)
    # large enough to run packed (a small run steps with numpy, no compiled code)
    result = invoke(["life", "run", "--size", "256x256", "-n", "100", "--no-show"])
    assert result.code == 130 and result.err == "interrupted\n"


def test_ctrl_c_while_the_command_line_loads_is_one_line() -> None:
    """A Ctrl-C in the second the command line takes to load (stood for by an import that
    raises KeyboardInterrupt) ends as one in a command does: one line, status 130."""
    code = ("import sys, importlib.abc\n"
            "class CtrlC(importlib.abc.MetaPathFinder):\n"
            "    def find_spec(self, name, path, target=None):\n"
            "        if name == 'lifearena.cli':\n"
            "            raise KeyboardInterrupt\n"
            "sys.meta_path.insert(0, CtrlC())\n"
            "sys.argv = ['lifearena', '--version']\n"
            "from lifearena._entry import main\n"
            "main()\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=120)
    assert (done.returncode, done.stderr, done.stdout) == (130, "interrupted\n", "")


def test_ctrl_c_in_any_command_says_interrupted(monkeypatch) -> None:  # type: ignore
    # typer ends a command interrupted in plain Python with a silent status 130; every
    # command says "interrupted" instead, once
    from lifearena.life.packed import PackedGrid

    def interrupted(*args, **kwargs):  # type: ignore[no-untyped-def]
        raise KeyboardInterrupt

    monkeypatch.setattr(PackedGrid, "step", interrupted)
    # large enough to run packed (a small run steps with numpy, no compiled code)
    result = invoke(["life", "run", "--size", "256x256", "-n", "100", "--no-show"])
    assert result.code == 130 and result.err == "interrupted\n"
