"""Records keep a structured outcome and the rules version; records written before either
was kept still open; a record of other rules is refused by name; a record's positions come
one by one from ``core.replay_positions``; text that is not a record (binary text, a long bad
line, JSON too deep to read) is refused in one short line wherever a record is read."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lifearena.cli import main
from lifearena.core import Outcome, Record, Termination, replay, replay_positions
from lifearena.errors import ParseError
from lifearena.games import war_of_life

OLD_TEXT = """[Game "war_of_life"]
[Params "{}"]
[Setup "[[[1,1],[1,2],[2,1]],[[8,8],[8,7],[7,8]]]"]
[Player0 "minimax"]
[Player1 "random"]
[Result "*"]

1. [1,1,2,2]
"""
"""A record as lifearena wrote them before outcomes and versions were kept."""


def _finished() -> Record:
    state = war_of_life.from_prolog("[[[1,1],[1,2]],[[8,8]]]")
    while not state.is_terminal():
        state.apply_action(state.legal_actions()[0])
    return state.record(["first", "second"])


def test_a_finished_game_records_its_outcome_and_rules_version() -> None:
    record = _finished()
    outcome = record.outcome_value()
    assert outcome == replay(record).outcome() and outcome is not None
    assert record.version == war_of_life.WarOfLifeState.info.rules_version == 1
    for copy in (Record.from_text(record.to_text()), Record.from_json(record.to_json())):
        assert copy == record and copy.outcome_value() == outcome
    assert '[Version "1"]' in record.to_text() and "[Outcome " in record.to_text()


def test_records_from_before_outcomes_still_open() -> None:
    record = Record.load(OLD_TEXT)
    assert record.outcome is None and record.version == 1
    assert replay(record).move_number() == 1
    old_json = {k: v for k, v in json.loads(record.to_json()).items()
                if k not in ("outcome", "version")}
    assert Record.from_json(json.dumps(old_json)) == record


def test_a_record_of_other_rules_is_refused_by_name() -> None:
    record = Record.load(OLD_TEXT.replace('[Result "*"]', '[Result "*"]\n[Version "2"]'))
    with pytest.raises(ParseError, match=r"'version': war_of_life rules version 2; this "
                                         r"lifearena plays version 1"):
        replay(record)


@pytest.mark.parametrize(("outcome", "named"), [
    ({"termination": "checkmate", "winner": 0}, "termination"),
    ({"termination": "win", "winner": 2}, "winner"),
    ({"termination": "win", "winner": True}, "winner"),
    ("win", "outcome"),
])
def test_a_damaged_outcome_is_named(outcome: object, named: str) -> None:
    data = json.loads(_finished().to_json())
    data["outcome"] = outcome
    with pytest.raises(ParseError, match=named):
        Record.from_json(json.dumps(data))


@pytest.mark.parametrize("version", ["0", "x", "-1"])
def test_a_damaged_version_is_named(version: str) -> None:
    with pytest.raises(ParseError, match="[Vv]ersion"):
        Record.from_text(OLD_TEXT.replace('[Result "*"]',
                                          f'[Result "*"]\n[Version "{version}"]'))


def test_replay_positions_are_the_replays_of_each_prefix() -> None:
    record = _finished()
    seen = [(state.move_number(), str(state)) for state in replay_positions(record)]
    assert [n for n, _ in seen] == list(range(len(record.moves) + 1))
    for number, text in seen:
        assert str(replay(record, upto=number)) == text


def test_outcome_dicts_round_trip() -> None:
    for outcome in (Outcome(Termination.WIN, 1, "r"), Outcome(Termination.DRAW, None, None),
                    Outcome(Termination.FORFEIT, 0, "b", "r crashed")):
        assert Outcome.from_dict(outcome.to_dict()) == outcome


# -- text that is not a record: one short line, wherever a record is read -----------------------

SHORT = 300
"""The longest refusal of a text that is not a record, in characters."""


def _refusal(text: str) -> str | None:
    """Why ``Record.load`` refuses ``text`` (``None`` if it reads it), checked to be one
    short line of printable characters."""
    try:
        Record.load(text)
    except ParseError as error:
        message = str(error)
        assert len(message) < SHORT and message.isprintable(), message
        return message
    return None


def _text_of(data: bytes, how: str) -> str:
    """``data`` as a record's reader may be given it: as a browser's ``File.text()`` reads it
    (UTF-8, replacement characters), as Latin-1, or pasted in a text box (CR LF made LF)."""
    if how == "latin-1":
        return data.decode("latin-1")
    text = data.decode(errors="replace")
    return text.replace("\r\n", "\n") if how == "pasted" else text


_LINES = st.one_of(
    st.text(max_size=40),
    st.sampled_from(['[Game "war_of_life"]', '[Setup ""]', '[Params "{}"]', '[Result "*"]',
                     '[Version "1"]', '[Version "\u00b2"]', '[Player0 "x"]', "1. [1,1,2,2]",
                     '[Outcome "{\\"termination\\": \\"win\\"}"]', "[Params {}]", "{", "[",
                     "# a comment", ""]),
    st.text(min_size=1, max_size=3).map(lambda t: t * 60))
"""Lines of text records, broken and not, for :func:`test_no_text_is_refused_at_length`."""


@settings(max_examples=300)
@given(data=st.binary(max_size=400), how=st.sampled_from(["utf-8", "latin-1", "pasted"]))
def test_no_bytes_are_refused_at_length(data: bytes, how: str) -> None:
    # any bytes that are not a record: one line, no control characters, under 300 characters
    _refusal(_text_of(data, how))
    _refusal("{" + _text_of(data, how))
    _refusal('[Game "war_of_life"]\n[Setup ""]\n' + _text_of(data, how))


@settings(max_examples=300)
@given(lines=st.lists(_LINES, max_size=8), json_form=st.booleans())
def test_no_text_is_refused_at_length(lines: list[str], json_form: bool) -> None:
    text = "\n".join(lines)
    _refusal(json.dumps({"game": text, "params": {}, "setup": text, "players": lines,
                         "moves": lines}) if json_form else text)


def _start_of(kind: str) -> bytes:
    """The first bytes of a file of ``kind``, as each format writes them."""
    return {"PNG image": b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01",
            "GIF image": b"GIF89a\x01\x00\x01\x00\x80\x00\x00",
            "PDF document": b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n1 0 obj",
            "ZIP archive": b"PK\x03\x04\x14\x00\x00\x00\x08\x00",
            "gzip archive": b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\x03",
            "SQLite database": b"SQLite format 3\x00\x10\x00\x01\x01" + bytes(40),
            "JPEG image": b"\xff\xd8\xff\xe0\x00\x10JFIF\x00\x01"}[kind]


KINDS = ["PNG image", "GIF image", "PDF document", "ZIP archive", "gzip archive",
         "SQLite database", "JPEG image"]


@pytest.mark.parametrize("how", ["utf-8", "latin-1", "pasted"])
@pytest.mark.parametrize("kind", KINDS)
def test_a_binary_file_given_as_a_record_is_named_not_quoted(kind: str, how: str) -> None:
    text = _text_of(_start_of(kind) + bytes(range(256)), how)
    assert _refusal(text) == (f"that is not a record: it is binary ({kind}); expected a JSON "
                              "or text record")
    # text with control characters that no format names: binary all the same
    assert _refusal('{"game": "losat",\x00\x01 "moves": []}') == (
        "that is not a record: it is binary (not text); expected a JSON or text record")


@pytest.mark.parametrize(("text", "named"), [
    ("x" * 50_000, "bad move line 1: 'xxxxxxxxxx"),
    ("[Game " + "x" * 50_000 + "]", "bad tag at line 1: '[Game xxxxxxxx"),
    ("1. a\n" + "\t" * 5_000 + "y", "bad move line 2: '\\t\\t\\t"),
])
def test_a_bad_line_is_quoted_cut_short(text: str, named: str) -> None:
    refusal = _refusal(text)
    assert refusal is not None and refusal.startswith(named)
    quoted = refusal.split(": ", 1)[1].split("…", 1)[0]
    assert len(quoted) <= 102 and "characters)" in refusal, refusal


@pytest.mark.parametrize("text", [
    '{"game": ' + "1" * 5000 + "}",                        # an int of too many digits
    '{"game": ' + "[" * 100_000,                           # nesting too deep to read
    '[Game "x"]\n[Setup ""]\n[Version "\u00b2"]',           # a digit that is not 0-9
    '[Game "x"]\n[Setup ""]\n[Version "' + "1" * 5000 + '"]',
    "[Game " + "1" * 5000 + "]",
    '[Game "x"]\n[Setup ""]\n[Params "' + "[" * 100_000 + '"]',
    json.dumps({"game": "x" * 5000, "params": {}, "setup": "", "players": [], "moves": []}),
], ids=["long-number", "deep-json", "superscript-version", "long-version", "long-tag-number",
        "deep-params", "long-game-name"])
def test_text_that_broke_the_reader_is_refused_in_one_line(text: str) -> None:
    # each was a bare ValueError or RecursionError (a 500 from the server), or a long line
    assert _refusal(text) is not None


@pytest.mark.parametrize("kind", KINDS)
def test_a_binary_record_file_is_refused_naming_the_file_and_its_kind(
        tmp_path: Path, kind: str) -> None:
    path = tmp_path / "board.json"
    path.write_bytes(_start_of(kind) + b"rest")
    with pytest.raises(ParseError) as error:
        Record.read(path)
    assert str(error.value) == (f"{str(path)!r} is not a text file; expected a game record "
                                f"(JSON or text), not a {kind}")


def test_a_record_file_of_utf8_with_nuls_is_not_text(tmp_path: Path) -> None:
    path = tmp_path / "game.txt"
    path.write_bytes(OLD_TEXT.encode().replace(b"minimax", b"mini\x00max"))
    with pytest.raises(ParseError) as error:
        Record.read(path)
    assert str(error.value) == (f"{str(path)!r} is not a text file; expected a game record "
                                "(JSON or text)")
    path.write_bytes(OLD_TEXT.replace("\n", "\r\n").encode())   # a text file: still read
    assert Record.read(path) == Record.load(OLD_TEXT)


@pytest.mark.parametrize("data", [_start_of("PNG image") + bytes(range(256)),
                                  OLD_TEXT.encode().replace(b"[Result", b"\x00[Result"),
                                  b"x" * 50_000],
                         ids=["png", "nul", "long-line"])
def test_the_cli_refuses_a_record_that_is_not_one_in_one_line(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], data: bytes) -> None:
    path = tmp_path / "game.png"
    path.write_bytes(data)
    with pytest.raises(SystemExit) as stop:
        main(["war-of-life", "replay", str(path)])
    out, err = capsys.readouterr()
    assert stop.value.code == 2 and out == ""
    assert err.startswith("error: ") and err.count("\n") == 1 and "game.png" in err, err
    assert len(err) < SHORT + len(str(path)) and "Traceback" not in err
    assert ("not a PNG image" in err) == data.startswith(b"\x89PNG")
