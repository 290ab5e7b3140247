"""Records edited by hand: an illegal move, a wrong parameter, a missing or mistyped field, an
unknown game. Each is refused by ``Record.from_json`` / ``Record.from_text`` / ``replay`` with
a message naming the move number or the field; nothing is written."""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from lifearena import agents
from lifearena.arena.referee import play_game
from lifearena.core import Record, replay
from lifearena.errors import ParseError

FIELDS = ("game", "params", "setup", "players", "moves")


def played(game: str, seed: int) -> Record:
    bots = [agents.make("random", game=game, seed=seed + i) for i in range(2)]
    return play_game(game, bots, seed=seed, max_moves=12).record


RECORDS = {game: played(game, 3) for game in ("war_of_life", "life_for_two", "toy_nim")}
game_names = st.sampled_from(sorted(RECORDS))
junk = st.one_of(st.integers(), st.none(), st.booleans(), st.lists(st.integers(), max_size=2),
                 st.dictionaries(st.text(max_size=3), st.integers(), max_size=2))


def refused_naming(call, *words: str) -> None:
    with pytest.raises(ParseError) as refused:
        call()
    message = str(refused.value)
    assert "\n" not in message
    assert any(w in message for w in words), message


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(game=game_names, data=st.data())
def test_a_changed_move_is_refused_naming_its_number(game: str, data, faults) -> None:
    record = RECORDS[game]
    assert record.moves, "the sample game has moves"
    index = data.draw(st.integers(0, len(record.moves) - 1), label="move index")
    text = data.draw(st.one_of(st.text(max_size=12), st.sampled_from(record.moves)),
                     label="new move")
    moves = list(record.moves)
    moves[index] = text
    tampered = Record(record.game, record.params, record.setup, record.players, moves)
    faults.injected("tampered record")
    try:
        state = replay(Record.from_json(tampered.to_json()))
    except ParseError as error:
        number = int(re.search(r"record move (\d+)", str(error)).group(1))
        assert number >= index + 1 or number <= len(moves), str(error)
        # every move before the one named replays
        replay(tampered, upto=number - 1)
        assert number == index + 1 or moves[number - 1] == record.moves[number - 1]
    else:  # the new text happened to be a legal move there: the record is a valid game
        assert len(state.history_strings()) >= len(moves)
    faults.survived("tampered record")


@settings(max_examples=40, deadline=None)
@given(game=game_names, field=st.sampled_from(FIELDS), value=junk)
def test_a_mistyped_or_missing_field_is_refused_naming_it(game: str, field: str, value,
                                                          faults) -> None:
    data = json.loads(RECORDS[game].to_json())
    faults.injected("tampered record", 2)
    try:
        replay(Record.from_json(json.dumps({**data, field: value})))
    except ParseError as error:
        assert "\n" not in str(error)
        assert f"'{field}'" in str(error) or "record move" in str(error), str(error)
    else:  # a value of the right type that still makes a game (e.g. no players named)
        assert isinstance(value, type(data[field]))
    del data[field]
    refused_naming(lambda: Record.from_json(json.dumps(data)), field)
    faults.survived("tampered record", 2)


@settings(max_examples=30, deadline=None)
@given(game=game_names, key=st.text(min_size=1, max_size=8), name=st.text(max_size=12))
def test_a_wrong_parameter_or_unknown_game_is_refused_naming_the_field(game: str, key: str,
                                                                      name: str,
                                                                      faults) -> None:
    record = RECORDS[game]
    faults.injected("tampered record", 2)
    params = {**record.params, f"x_{key}": 1}
    refused_naming(lambda: replay(Record(record.game, params, record.setup, record.players,
                                         record.moves)), "'params'")
    if name.strip().lower().replace("-", "_") not in RECORDS:
        refused_naming(lambda: replay(Record(f"zz{name}", record.params, record.setup,
                                             record.players, record.moves)), "'game'")
    faults.survived("tampered record", 2)


def test_a_broken_setup_and_text_records_are_refused(tmp_path: Path, faults) -> None:
    record = RECORDS["war_of_life"]
    faults.injected("tampered record", 3)
    refused_naming(lambda: replay(Record(record.game, record.params, "[[[9,9]]]",
                                         record.players, record.moves)), "'setup'")
    text = record.to_text().replace("1. ", "1. [0,0,9,9]\n2. ", 1)
    path = tmp_path / "game.txt"
    path.write_text(text)
    before = hashlib.sha256(path.read_bytes()).hexdigest()
    refused_naming(lambda: replay(Record.read(path)), "record move 1")
    refused_naming(lambda: Record.from_text(text.replace("[Game", "[Gam")), "Game")
    assert hashlib.sha256(path.read_bytes()).hexdigest() == before  # nothing written
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game.txt"]
    faults.survived("tampered record", 3)


def test_a_binary_file_read_as_a_record_is_named_not_quoted(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    path.write_bytes(b"SQLite format 3\x00" + bytes(range(128, 256)))
    with pytest.raises(ParseError, match=r"game\.json' is not a text file; expected a game "
                                         r"record \(JSON or text\)"):
        Record.read(path)
