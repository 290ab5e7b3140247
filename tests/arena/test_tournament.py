"""Tournaments on the tiny games: schedule, paired starts, determinism over executors,
forfeits, statistics (Wilson intervals against published values), exports."""

from __future__ import annotations

import csv
import io
import json
from dataclasses import replace
from pathlib import Path

import pytest

from lifearena.arena.executor import Executor
from lifearena.arena.stats import (
    decisive_share,
    difference_interval,
    first_player_advantage,
    pairing_table,
    ranking,
    wilson_interval,
)
from lifearena.arena.storage import ResultsDB
from lifearena.arena.tournament import (
    AgentSpec,
    TournamentConfig,
    parse_agents,
    run_tournament,
    start_seed,
)
from lifearena.errors import BadParameterError


def _untimed(table: list) -> list:
    return [replace(row, avg_time=0.0) for row in table]


# -- statistics -------------------------------------------------------------------------------

@pytest.mark.parametrize(("k", "n", "low", "high"), [
    # Newcombe (1998), Statistics in Medicine 17:857-872, Table I, method 3 (Wilson score)
    (81, 263, 0.2553, 0.3662), (15, 148, 0.0624, 0.1605), (0, 20, 0.0, 0.1611),
    (1, 29, 0.0061, 0.1718),
])
def test_wilson_against_published_values(k: int, n: int, low: float, high: float) -> None:
    lo, hi = wilson_interval(k, n)
    assert lo == pytest.approx(low, abs=5e-5) and hi == pytest.approx(high, abs=5e-5)


def test_wilson_properties_and_difference() -> None:
    assert wilson_interval(0, 0) == (0.0, 1.0)
    lo, hi = wilson_interval(50, 100, confidence=0.99)
    assert lo < 0.5 < hi and hi - lo > wilson_interval(50, 100)[1] - wilson_interval(50, 100)[0]
    # Newcombe (1998), Statistics in Medicine 17:873-890, example (a), method 10
    d, lo, hi = difference_interval(56, 70, 48, 80)
    assert (d, lo, hi) == pytest.approx((0.2, 0.0524, 0.3339), abs=5e-5)
    with pytest.raises(BadParameterError):
        wilson_interval(5, 3)
    with pytest.raises(BadParameterError):
        wilson_interval(1, 3, confidence=1.0)


SUMMARIES = [
    # a beats b as first player twice, b beats a once as first player, one draw, self-play
    {"player0": "a", "player1": "b", "winner": 0, "termination": "win", "length": 4,
     "duration": 0.5},
    {"player0": "a", "player1": "b", "winner": 0, "termination": "win", "length": 6,
     "duration": 1.5},
    {"player0": "b", "player1": "a", "winner": 0, "termination": "win", "length": 5,
     "duration": 1.0},
    {"player0": "b", "player1": "a", "winner": None, "termination": "exhaust", "length": 9,
     "duration": 1.0},
    {"player0": "a", "player1": "a", "winner": 1, "termination": "win", "length": 3,
     "duration": 1.0},
]


def test_table_ranking_first_player_by_hand() -> None:
    table = pairing_table(SUMMARIES, order=["a", "b"])
    assert [(r.p1, r.p2, r.games, r.p1_wins, r.p2_wins, r.draws) for r in table] == [
        ("a", "a", 1, 0, 1, 0), ("a", "b", 2, 2, 0, 0), ("b", "a", 2, 1, 0, 1)]
    assert table[1].avg_length == 5.0 and table[1].avg_time == 1.0
    assert dict(table[2].terminations) == {"exhaust": 1, "win": 1}
    ranks = ranking(SUMMARIES)
    assert [(r.agent, r.wins, r.draws, r.losses, r.score) for r in ranks] == [
        ("a", 2, 1, 1, 0.625), ("b", 1, 1, 2, 0.375)]
    rows = {r.agent: r for r in first_player_advantage(SUMMARIES, order=["a", "b"])}
    # a moved first 3 times (2 wins, self-play loss), second 3 times (self-play win)
    assert (rows["a"].first_wins, rows["a"].first_games) == (2, 3)
    assert (rows["a"].second_wins, rows["a"].second_games) == (1, 3)
    assert rows["a"].advantage == pytest.approx(1 / 3)
    assert (rows["(all)"].first_wins, rows["(all)"].second_wins, rows["(all)"].first_games) == \
        (3, 1, 5)
    assert decisive_share(SUMMARIES)[:3] == (3, 4, 0.75)


# -- tournaments ------------------------------------------------------------------------------

def test_agent_specs() -> None:
    assert AgentSpec.parse("random") == AgentSpec("random", "random")
    spec = AgentSpec.parse("r2=random:limit=time=0.5;depth=2,level=3")
    assert spec.label == "r2" and spec.options == {"level": 3}
    assert spec.limit == "time=0.5,depth=2" and not spec.plain
    with pytest.raises(BadParameterError, match="labels repeat"):
        parse_agents("random,random")
    with pytest.raises(BadParameterError, match="expected key=value"):
        AgentSpec.parse("x=random:depth=2,oops")
    # a segment without '=' belongs to the name: module:callable (lifearena.interop.agents)
    assert AgentSpec.parse("x=pkg.mod:policy").name == "pkg.mod:policy"


def test_schedule_and_paired_starts() -> None:
    config = TournamentConfig("toy_nim", parse_agents("random,first,x=random"), games=3,
                              seed=9, chunk=2)
    # 3 self-play series, 3 pairs x 2 seat orders
    assert len(config.schedule()) == 9 and config.total_games() == 27
    report = run_tournament(config)
    assert report.games == 27
    setups = {}
    with ResultsDB(":memory:") as db:
        run_tournament(config, db=db)
        for key, result in db.get_run("tournament-toy_nim").games():
            setups.setdefault(key.index, set()).add(result.setup)
            assert result.seed == start_seed(9, key.index)
    assert all(len(s) == 1 for s in setups.values()), "every pairing plays the same starts"
    one_seat = replace(config, seats="one", self_play=False)
    assert [(p, s) for p, s, _, _ in one_seat.schedule()] == [
        ("random|first", 0), ("random|x", 0), ("first|x", 0)]


def test_same_results_serial_processes_dask() -> None:
    from distributed import Client, LocalCluster

    config = TournamentConfig("toy_pennies_rounds", parse_agents("random,first"), games=5, seed=1,
                              chunk=2, params={"rounds": 3})
    serial = run_tournament(config, workers=1)
    processes = run_tournament(config, workers=2)
    with LocalCluster(n_workers=2, processes=False, threads_per_worker=1,
                      dashboard_address=None) as cluster, Client(cluster) as client:
        dask = run_tournament(config, executor=Executor(scheduler=client))
    assert _untimed(serial.table) == _untimed(processes.table) == _untimed(dask.table)
    assert serial.ranking == processes.ranking == dask.ranking
    assert serial.games == 20


def test_forfeits_are_counted_and_tournament_goes_on() -> None:
    config = TournamentConfig("toy_nim", parse_agents("first,crash"), games=2, self_play=False)
    report = run_tournament(config)
    by_pair = {(r.p1, r.p2): r for r in report.table}
    assert by_pair[("first", "crash")].p1_wins == 2 and by_pair[("first", "crash")].forfeits == 2
    assert by_pair[("crash", "first")].p2_wins == 2
    assert report.ranking[0].agent == "first" and report.ranking[0].score == 1.0


def test_bad_configurations() -> None:
    agents = parse_agents("random")
    with pytest.raises(BadParameterError, match="games=0"):
        TournamentConfig("toy_nim", agents, games=0)
    with pytest.raises(BadParameterError, match="seats"):
        TournamentConfig("toy_nim", agents, seats="three")
    with pytest.raises(BadParameterError, match="unknown game"):
        TournamentConfig("chess_test", agents)
    with pytest.raises(BadParameterError, match="unknown toy_nim parameter"):
        TournamentConfig("toy_nim", agents, params={"rounds": 3})
    with pytest.raises(BadParameterError, match="unknown agent"):
        run_tournament(TournamentConfig("toy_nim", parse_agents("nobody"), games=1))


def test_exports(tmp_path: Path) -> None:
    config = TournamentConfig("toy_nim", parse_agents("random,first"), games=4, seed=2)
    report = run_tournament(config)
    rows = list(csv.DictReader(io.StringIO(report.export(tmp_path / "t.csv").read_text())))
    assert len(rows) == 4 and rows[0]["p1"] == "random" and rows[0]["p2"] == "random"
    assert sum(int(r["games"]) for r in rows) == 16
    assert all(int(r["p1_wins"]) + int(r["p2_wins"]) + int(r["draws"]) == 4 for r in rows)
    data = json.loads(report.export(tmp_path / "t.json").read_text())
    assert data["config"]["games"] == 4 and len(data["table"]) == 4
    assert {r["agent"] for r in data["ranking"]} == {"random", "first"}
    assert data["first_player"][-1]["agent"] == "(all)"
    text = report.export(tmp_path / "t.md").read_text()
    assert "| P1 strategy | P2 strategy |" in text and "## First-player advantage" in text
    assert text.count("\n| random | first |") == 1
    with pytest.raises(BadParameterError, match=r"\.json, \.csv or \.md"):
        report.export(tmp_path / "t.xlsx")


def test_config_round_trips_and_time_control_reaches_the_referee() -> None:
    from lifearena.arena.referee import TimeControl

    config = TournamentConfig("toy_nim", parse_agents("first,r=random:limit=depth=2"), games=2,
                              time_control=TimeControl(per_move=5.0, grace=0.1), seed=4)
    assert TournamentConfig.from_dict(config.to_dict()) == config
    assert config.chunk == 4  # no fast path for toy_nim: small blocks for the referee
    tight = replace(config, time_control=TimeControl(per_move=1e-9))
    report = run_tournament(tight)
    assert all(r.forfeits == r.games for r in report.table), "every game lost on time"
