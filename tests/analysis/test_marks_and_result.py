"""The marks at their thresholds' edges, and the analysis's shape for every game."""

from __future__ import annotations

import json

import pytest

from lifearena.analysis import (
    BLUNDER,
    INACCURACY,
    MISTAKE,
    analyse,
    analyse_position,
    engines,
    mark_of,
)
from lifearena.core import Record, get_game
from lifearena.errors import BadParameterError, ParseError


@pytest.mark.parametrize(("loss", "mark"), [
    (None, None), (0.0, None), (INACCURACY - 1e-6, None), (INACCURACY, "inaccuracy"),
    (0.1 + 0.2 - 0.2, "inaccuracy"),  # arithmetic noise at the edge still marks
    (MISTAKE - 1e-6, "inaccuracy"), (MISTAKE, "mistake"), (BLUNDER - 1e-6, "mistake"),
    (0.1 + 0.2, "blunder"), (BLUNDER, "blunder"), (2.0, "blunder"),
])
def test_marks_at_the_edges(loss: float | None, mark: str | None) -> None:
    assert mark_of(loss) == mark


def test_the_thresholds_are_lichess_s() -> None:
    assert (INACCURACY, MISTAKE, BLUNDER) == (0.1, 0.2, 0.3)


def test_a_queen_game_s_analysis_and_its_summary() -> None:
    record = Record("blocking_queen", {"k": 1}, "2,2", ["a", "b"], ["1,1", "0,0"])
    data = json.loads(json.dumps(analyse(record).to_dict()))
    assert [p["eval_first"] for p in data["plies"]] == [1.0, -1.0]
    assert data["plies"][0]["sides"][0] | {"best": None} == {
        "player": 0, "best": None, "strategy": None, "played": "1,1", "loss": 2.0,
        "mark": "blunder", "symbol": "??"}
    assert data["final"] == -1.0 and data["finished"]
    assert data["summary"][0] == {"player": 0, "moves": 1, "judged": 1, "average_loss": 2.0,
                                  "inaccuracies": 0, "mistakes": 0, "blunders": 1}
    assert data["summary"][1]["blunders"] == 0 and data["summary"][1]["average_loss"] == 0.0


def test_p2life_and_losat_are_judged_with_their_searches(monkeypatch: pytest.MonkeyPatch
                                                         ) -> None:
    monkeypatch.setattr(engines, "P2LIFE_SIMULATIONS", 20)
    state = get_game("p2life", {"size": 6, "seed": 3}).new_initial_state()
    record = state.record(["a", "b"])
    record.moves = ["pass | pass"]
    ply = analyse(record).plies[0]
    assert len(ply.sides) == 2 and -1 <= ply.eval_first <= 1
    assert all(s.played == "pass" for s in ply.sides)
    losat = get_game("losat").new_initial_state()
    verdict = engines.JUDGES["losat"](losat, None)
    assert verdict.sides[0].best[0] in {losat.action_to_string(a, 0)
                                        for a in losat.legal_actions()}


def test_a_position_gives_the_board_the_choices_and_the_verdict() -> None:
    record = Record("blocking_queen", {"k": 2}, "3,3", ["a", "b"], ["3,1"])
    answer = analyse_position(record)
    assert answer["to_move"] == [0] and answer["ply"] == 1  # player 0 blocks now
    assert answer["interaction"]["0"]["kind"]
    assert {c["move"] for c in answer["choices"]["0"]} >= {"#0,1", "-"}
    assert answer["verdict"]["exact"] and answer["verdict"]["eval_first"] in (1.0, -1.0)


@pytest.mark.parametrize(("record", "error"), [
    (Record("chess", {}, "x", ["a", "b"], []), BadParameterError),
    (Record("blocking_queen", {"k": 1}, "2,2", ["a", "b"], ["5,5"]), ParseError),
    (Record("blocking_queen", {"k": 1}, "2,2", ["a", "b"], ["1,1"] * 1001), BadParameterError),
])
def test_bad_records_are_refused_in_one_line(record: Record, error: type) -> None:
    with pytest.raises(error) as caught:
        analyse(record)
    assert "\n" not in str(caught.value)
