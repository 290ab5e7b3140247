"""War of Life strategies written in Prolog: the board predicates against the engine, the
example strategies move for move against the Python ones, and every way a strategy can fail
(each forfeits with its reason recorded).

Without ``swipl`` these tests skip, unless ``LIFEARENA_REQUIRE_SWIPL=1`` (set by CI), where
they fail."""

from __future__ import annotations

import os
import shutil
import subprocess
import textwrap
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lifearena import agents
from lifearena.agents.prolog import (
    BOARD_PREDICATES,
    SWIPL_PACKAGE,
    PrologAgent,
    SwiplNotFound,
    parse_prolog_spec,
)
from lifearena.arena.referee import TimeControl, play_game
from lifearena.core import Termination
from lifearena.errors import BadParameterError
from lifearena.games import war_of_life as wol

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples" / "prolog" / "strategies.pl"
SWIPL = shutil.which("swipl")

if SWIPL is None and os.environ.get("LIFEARENA_REQUIRE_SWIPL") == "1":
    raise RuntimeError(f"LIFEARENA_REQUIRE_SWIPL=1 but swipl is missing; install "
                       f"{SWIPL_PACKAGE}")
needs_swipl = pytest.mark.skipif(SWIPL is None, reason=f"swipl not installed (Debian package "
                                                       f"{SWIPL_PACKAGE})")


def prolog(predicate: str, file: Path = EXAMPLES, **options: object) -> PrologAgent:
    return agents.make(f"prolog:{file}:{predicate}", game="war_of_life", **options)


def python(name: str) -> agents.Agent:
    return agents.make(name, game="war_of_life")


# -- the board predicates --------------------------------------------------------------------


def run_prolog(goal: str) -> str:
    """Run ``goal`` with the board predicates loaded; its standard output."""
    done = subprocess.run([SWIPL, "-q", "-g", f"use_module('{BOARD_PREDICATES}')", "-g", goal,
                           "-t", "halt"], capture_output=True, text=True, timeout=60,
                          check=True)
    return done.stdout


boards = st.lists(st.integers(0, 2), min_size=64, max_size=64).map(
    lambda cells: np.array(cells, dtype=np.int8).reshape(8, 8))


@needs_swipl
@settings(max_examples=10, deadline=None)
@given(st.lists(boards, min_size=1, max_size=20))
def test_next_generation_is_the_engines_crank(batch: list[np.ndarray]) -> None:
    texts = [wol.board_to_prolog(b) for b in batch]
    goal = ("forall(member(B, [" + ",".join(texts) + "]), "
            "(next_generation(B, N), format('~w~n', [N])))")
    got = run_prolog(goal).split()
    assert got == [wol.board_to_prolog(wol.crank(b)) for b in batch]


@needs_swipl
def test_neighbour_position_and_alter_board() -> None:
    out = run_prolog("findall(P, neighbour_position(1, 2, P), Ps), print(Ps), nl, "
                     "findall(P, neighbour_position(4, 4, P), Qs), length(Qs, N), print(N), nl,"
                     "alter_board([2,2,1,1], [[1,5],[2,2],[3,3]], A), print(A), nl,"
                     "(alter_board([6,6,6,7], [[1,1]], _) -> print(yes) ; print(no)), nl")
    assert out.split() == ["[[1,1],[1,3],[2,1],[2,2],[2,3]]", "8",
                           "[[1,1],[1,5],[3,3]]", "no"]


@needs_swipl
def test_possible_moves_are_the_legal_actions_in_tie_order() -> None:
    state = wol.from_prolog(wol.new_game(seed=5).to_prolog(), to_move="r")
    out = run_prolog(f"possible_moves(r, {state.to_prolog()}, Ms), print(Ms), nl")
    expected = "[" + ",".join(state.action_to_string(a) for a in state.legal_actions(1)) + "]"
    assert out.strip() == expected


# -- the examples play exactly as the Python strategies --------------------------------------

# 100 games in all: each Prolog strategy against its own Python version in both seats, against
# the other Python strategies, and against the other Prolog strategies; minimax (about half a
# second a move in Prolog) plays fewer, shorter-lived pairings.
PAIRINGS = [
    (("prolog", "bloodlust"), ("python", "bloodlust"), 8),
    (("python", "bloodlust"), ("prolog", "bloodlust"), 8),
    (("prolog", "self_preservation"), ("python", "land_grab"), 8),
    (("python", "bloodlust"), ("prolog", "self_preservation"), 8),
    (("prolog", "land_grab"), ("python", "land_grab"), 8),
    (("python", "self_preservation"), ("prolog", "land_grab"), 8),
    (("prolog", "bloodlust"), ("prolog", "land_grab"), 13),
    (("prolog", "land_grab"), ("prolog", "self_preservation"), 13),
    (("prolog", "self_preservation"), ("prolog", "bloodlust"), 14),
    (("prolog", "minimax"), ("python", "bloodlust"), 4),
    (("python", "land_grab"), ("prolog", "minimax"), 4),
    (("prolog", "minimax"), ("python", "minimax"), 2),
    (("prolog", "bloodlust"), ("prolog", "minimax"), 2),
]
assert sum(n for *_, n in PAIRINGS) == 100


def _agent(kind: str, name: str) -> agents.Agent:
    return prolog(name) if kind == "prolog" else python(name)


@needs_swipl
@pytest.mark.parametrize(("blue", "red", "games"), PAIRINGS,
                         ids=[f"{b[0]}-{b[1]}-vs-{r[0]}-{r[1]}" for b, r, _ in PAIRINGS])
def test_prolog_examples_play_move_for_move_as_python(blue, red, games) -> None:
    players = [_agent(*blue), _agent(*red)]
    reference = [python(blue[1]), python(red[1])]
    for seed in range(100, 100 + games):
        got = play_game("war_of_life", players, seed=seed)
        assert got.outcome.termination is not Termination.FORFEIT, got.outcome.detail
        final = wol.play_all([wol.new_game(seed=seed)], reference)[0]
        assert got.moves == final.history_strings(), f"seed {seed}"
        assert got.outcome == final.outcome()
    for agent in players:
        if isinstance(agent, PrologAgent):
            agent.close()


# -- failures ----------------------------------------------------------------------------------

BAD = {
    "fails": "s(_, _, _, _) :- fail.",
    "throws": "s(_, _, _, _) :- X is foo + 1, print(X).",
    "malformed": "s(_, Board, Board, move(1, 2)).",
    "unbound": "s(_, Board, Board, [1, 1, _, 2]).",
    "illegal": "s(_, Board, Board, [1, 1, 1, 2]).",
    "mismatch": "s(Colour, Board, Board, Move) :- possible_move(Colour, Board, Move), !.",
    "bad_board": "s(Colour, Board, [oops], Move) :- possible_move(Colour, Board, Move), !.",
    "loops": "s(C, B, N, M) :- s(C, B, N, M).",
    "chatty": """s(Colour, Board, New, Move) :-
                     format("my move coming up~n"), print(Board), nl,
                     possible_move(Colour, Board, Move), !, make_move(Colour, Board, Move, New),
                     draw_board(New).""",
    "reader": """s(Colour, Board, New, Move) :-
                     read(Term), print(Term), nl,
                     possible_move(Colour, Board, Move), !, make_move(Colour, Board, Move, New).""",
    "own_helpers": """opponent(mine, theirs).
                      next_generation(_, nonsense).
                      s(Colour, Board, New, Move) :-
                          opponent(mine, theirs), war_of_life:possible_move(Colour, Board, Move),
                          !, alter_board_of(Colour, Board, Move, New).
                      alter_board_of(b, [B, R], M, [B1, R]) :- alter_board(M, B, B1).
                      alter_board_of(r, [B, R], M, [B, R1]) :- alter_board(M, R, R1).""",
}

START = "[[[4,4],[4,5],[5,4]],[[7,7],[7,8],[8,7]]]"  # [1,1] is empty: [1,1,1,2] is illegal


def _write(tmp_path: Path, body: str) -> Path:
    file = tmp_path / "student.pl"
    file.write_text(textwrap.dedent(body) + "\n")
    return file


def _forfeit(tmp_path: Path, body: str, per_move: float | None = None):
    agent = prolog("s", _write(tmp_path, body))
    tc = TimeControl(per_move=per_move) if per_move else None
    result = play_game("war_of_life", [agent, python("land_grab")], setup=START,
                       time_control=tc)
    agent.close()
    return result


@needs_swipl
@pytest.mark.parametrize(("case", "reason", "detail"), [
    ("fails", "crash", "s(b, [[[4,4],[4,5],[5,4]],[[7,7],[7,8],[8,7]]], NewBoardState, Move) "
                       "failed"),
    ("throws", "crash", "NewBoardState, Move) threw: is/2: Arithmetic: `foo/0' is not a "
                        "function"),
    ("malformed", "illegal", "garbage from prolog strategy 'student:s': s(b, "),
    ("unbound", "illegal", "expected a list [R1,C1,R2,C2] of 4 integers"),
    ("illegal", "illegal", "played '[1,1,1,2]', which is not legal here"),
    ("mismatch", "illegal", "played [4,4,3,3] but gave NewBoardState = "
                            "[[[4,4],[4,5],[5,4]],[[7,7],[7,8],[8,7]]]; expected the board "
                            "after that move, [[[3,3],[4,5],[5,4]],[[7,7],[7,8],[8,7]]]"),
    ("bad_board", "illegal", "gave NewBoardState = [oops]"),
])
def test_a_failing_strategy_forfeits_with_its_reason(tmp_path, case, reason, detail) -> None:
    result = _forfeit(tmp_path, BAD[case])
    assert result.outcome.termination is Termination.FORFEIT
    assert result.outcome.winner == 1
    assert result.extra["forfeit"] == reason
    assert detail in result.outcome.detail
    assert result.record.extra["forfeit"] == reason


@needs_swipl
def test_an_endless_strategy_is_stopped_at_its_time_control(tmp_path) -> None:
    result = _forfeit(tmp_path, BAD["loops"], per_move=1.0)
    assert result.extra["forfeit"] == "timeout"
    assert "did not answer in time" in result.outcome.detail
    assert 1.0 <= result.duration < 5.0


@needs_swipl
def test_the_default_time_control_stops_an_endless_strategy_outside_the_referee(
        tmp_path) -> None:
    agent = PrologAgent(_write(tmp_path, BAD["loops"]), "s",
                        time_control=TimeControl(per_move=0.5))
    state = wol.from_prolog(START)
    with pytest.raises(agents.base.AgentTimeout):
        agent.act(state, 0)
    assert agent._proc is None  # the looping Prolog was killed


@needs_swipl
def test_a_missing_predicate_or_file_error_is_recorded(tmp_path) -> None:
    file = _write(tmp_path, "other(_, _, _, _).")
    result = play_game("war_of_life", [prolog("s", file), python("land_grab")], setup=START)
    assert result.extra["forfeit"] == "crash"
    assert "does not define s/4" in result.outcome.detail


@needs_swipl
def test_printing_reading_strategies_and_own_helpers_still_play(tmp_path) -> None:
    for case in ("chatty", "reader", "own_helpers"):
        result = _forfeit(tmp_path, BAD[case])
        assert result.outcome.termination is not Termination.FORFEIT, result.outcome.detail
        assert result.moves[0] == "[4,4,3,3]"


@needs_swipl
def test_one_prolog_session_serves_many_games_and_restarts_after_a_failure(tmp_path) -> None:
    agent = prolog("land_grab")
    play_game("war_of_life", [agent, python("random")], seed=1)
    pid = agent._proc.pid
    play_game("war_of_life", [python("random"), agent], seed=2)
    assert agent._proc.pid == pid
    agent._proc.kill()
    agent._proc.wait()
    result = play_game("war_of_life", [agent, python("random")], seed=3)
    assert result.outcome.termination is not Termination.FORFEIT
    agent.close()


# -- specs and errors --------------------------------------------------------------------------


def test_spec_parsing() -> None:
    assert parse_prolog_spec("a/b.pl:land_grab") == (Path("a/b.pl"), "land_grab")
    for bad in ("nocolon", ":pred", "f.pl:Upper", "f.pl:"):
        with pytest.raises(BadParameterError):
            parse_prolog_spec(bad)


def test_arena_specs_keep_the_file_and_predicate_together() -> None:
    from lifearena.arena.ladder import Entrant
    from lifearena.arena.tournament import AgentSpec

    spec = AgentSpec.parse("bl=prolog:dir/s.pl:bloodlust:per_move=2")
    assert (spec.label, spec.name, dict(spec.options)) == ("bl", "prolog:dir/s.pl:bloodlust",
                                                           {"per_move": 2})
    entrant = Entrant.parse("bl=prolog:dir/s.pl:bloodlust:time=1")
    assert (entrant.label, entrant.agent, entrant.limit.time) == \
        ("bl", "prolog:dir/s.pl:bloodlust", 1)


def test_spec_prefixes_come_from_the_registry_not_a_list_of_their_own(monkeypatch) -> None:
    from lifearena.agents import registry

    assert not registry.is_python_spec(f"prolog:{EXAMPLES}:bloodlust")
    monkeypatch.setitem(registry._SPECS, "toy:", lambda rest, **options: rest)
    assert not registry.is_python_spec("toy:thing")
    assert registry.is_spec_name("toy:thing")
    assert registry.make("toy:thing") == "thing"
    assert registry.make(" TOY:thing") == "thing"  # in any case, as agent names are
    assert not registry.is_python_spec("Prolog:my.pl:bloodlust")
    assert registry.is_python_spec("mypkg.policies:greedy")


def test_a_missing_swipl_is_one_line_naming_the_package(monkeypatch, tmp_path) -> None:
    monkeypatch.setenv("LIFEARENA_SWIPL", str(tmp_path / "no-swipl-here"))
    with pytest.raises(SwiplNotFound, match=SWIPL_PACKAGE) as caught:
        agents.make(f"prolog:{EXAMPLES}:bloodlust", game="war_of_life")
    assert "\n" not in str(caught.value)
    assert isinstance(caught.value, ValueError)


def test_prolog_strategies_play_only_war_of_life() -> None:
    with pytest.raises(BadParameterError, match="War of Life"):
        agents.make(f"prolog:{EXAMPLES}:bloodlust", game="losat")
