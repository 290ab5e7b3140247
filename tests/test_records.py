"""Records keep a structured outcome and the rules version; records written before either
was kept still open; a record of other rules is refused by name; a record's positions come
one by one from ``core.replay_positions``."""

from __future__ import annotations

import json

import pytest

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
