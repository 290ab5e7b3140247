"""Policies and OpenSpiel bots as lifearena agents, through agents.make and the CLI."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import numpy as np
import pytest

from lifearena.agents import make
from lifearena.arena.referee import play_game
from lifearena.cli import main
from lifearena.errors import BadParameterError
from lifearena.interop.agents import OpenSpielBotAgent, PolicyAgent, load_object
from lifearena.interop.games import new_state

POLICY = """
import numpy as np

def last_legal(observation, action_mask):
    assert observation.dtype == np.int8 and action_mask.dtype == np.int8
    return int(np.flatnonzero(action_mask)[-1])
"""

BOT_FACTORY = """
import numpy as np
from open_spiel.python.algorithms import mcts

def make_bot(game, player, seed, simulations=8):
    rng = np.random.RandomState(seed)
    return mcts.MCTSBot(game, 2.0, simulations, mcts.RandomRolloutEvaluator(1, rng),
                        random_state=rng)
"""


@pytest.fixture()
def policy_file(tmp_path: Path) -> Path:
    path = tmp_path / "my_policy.py"
    path.write_text(POLICY)
    return path


def test_a_policy_from_a_file_is_an_agent(policy_file: Path) -> None:
    agent = make(f"{policy_file}:last_legal", game="war_of_life", seed=0)
    assert isinstance(agent, PolicyAgent)
    state = new_state("war_of_life")
    assert agent.act(state.view(0), 0) == state.legal_actions()[-1]


def test_a_policy_module_in_the_current_directory(policy_file: Path, monkeypatch) -> None:
    monkeypatch.chdir(policy_file.parent)
    agent = make("my_policy:last_legal", game="life_for_two")
    state = new_state("life_for_two")
    assert agent.act(state, 1) == state.legal_actions(1)[-1]


def test_agents_play_through_the_referee(policy_file: Path) -> None:
    agents = [make(f"{policy_file}:last_legal", game="war_of_life"),
              make("lifearena.interop.agents:first_legal", game="war_of_life")]
    result = play_game("war_of_life", agents, seed=2)
    assert result.record.moves


def test_bad_specs_raise_the_librarys_errors(policy_file: Path) -> None:
    with pytest.raises(BadParameterError, match="no module 'no_such_module'"):
        make("no_such_module:policy", game="war_of_life")
    with pytest.raises(BadParameterError, match="has no 'nothing'"):
        make(f"{policy_file}:nothing", game="war_of_life")
    with pytest.raises(BadParameterError, match="no file"):
        make("missing/file.py:policy", game="war_of_life")
    with pytest.raises(BadParameterError, match="takes no options"):
        make(f"{policy_file}:last_legal", game="war_of_life", depth=2)
    with pytest.raises(BadParameterError, match="expected module:callable"):
        load_object("module:")


def test_a_broken_module_is_one_error_naming_it(tmp_path: Path, monkeypatch) -> None:
    broken = tmp_path / "broken.py"
    broken.write_text("def policy(:\n")
    for _ in range(2):  # the second try must not find a half-imported module
        with pytest.raises(BadParameterError, match="broken.py did not import: SyntaxError"):
            make(f"{broken}:policy", game="war_of_life")
    broken.write_text(POLICY)
    assert isinstance(make(f"{broken}:last_legal", game="war_of_life"), PolicyAgent)
    (tmp_path / "needs_dep.py").write_text("import no_such_dependency\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    with pytest.raises(BadParameterError, match="needs_dep did not import: "
                                                "ModuleNotFoundError.*no_such_dependency"):
        make("needs_dep:policy", game="war_of_life")


def test_tournament_and_ladder_take_module_callable(policy_file: Path, tmp_path: Path,
                                                    capsys) -> None:
    spec = f"mine={policy_file}:last_legal"
    out = tmp_path / "table.json"
    with pytest.raises(SystemExit) as done:
        main(["tournament", "war-of-life", "-n", "2", "--workers", "1", "-a",
              f"{spec},random", "--export", str(out)])
    assert done.value.code == 0
    ranking = {row["agent"]: row for row in json.loads(out.read_text())["ranking"]}
    assert set(ranking) >= {"mine", "random"}
    with pytest.raises(SystemExit) as done:
        main(["ladder", "war-of-life", "-n", "1", "-a", spec, "-a", "random"])
    assert done.value.code == 0
    assert "mine" in capsys.readouterr().out


def test_an_openspiel_bot_factory_is_an_agent(tmp_path: Path) -> None:
    pytest.importorskip("pyspiel", reason="needs OpenSpiel: pip install -e '.[interop]'")
    path = tmp_path / "bots.py"
    path.write_text(textwrap.dedent(BOT_FACTORY))
    agent = make(f"{path}:make_bot", game="war_of_life", seed=3, simulations=4)
    assert isinstance(agent, OpenSpielBotAgent)
    state = new_state("war_of_life", {"seed": 5})
    rng = np.random.default_rng(0)
    while not state.is_terminal():
        if state.current_player() == 0:
            action = agent.act(state.view(0), 0)
        else:
            action = int(rng.choice(state.legal_actions()))
        state.apply_action(action)
    assert state.outcome() is not None


def test_an_openspiel_bot_in_a_tournament(tmp_path: Path) -> None:
    pytest.importorskip("pyspiel", reason="needs OpenSpiel: pip install -e '.[interop]'")
    path = tmp_path / "bots.py"
    path.write_text(textwrap.dedent(BOT_FACTORY))
    out = tmp_path / "table.json"
    with pytest.raises(SystemExit) as done:
        main(["tournament", "war-of-life", "-n", "1", "--workers", "1", "-a",
              f"mcts_os={path}:make_bot:simulations=4,random", "--export", str(out)])
    assert done.value.code == 0
    assert "mcts_os" in out.read_text()


@pytest.mark.parametrize(("game", "params"), [("life_for_two", {"max_turns": 6}),
                                              ("p2life", {"size": 6, "max_generations": 4})])
def test_an_openspiel_search_bot_plays_the_simultaneous_games(tmp_path: Path, game: str,
                                                               params: dict) -> None:
    pytest.importorskip("pyspiel", reason="needs OpenSpiel: pip install -e '.[interop]'")
    path = tmp_path / "bots.py"
    path.write_text(textwrap.dedent(BOT_FACTORY))
    for seat in (0, 1):
        agents = [make("random", game=game, seed=2)]
        agents.insert(seat, make(f"{path}:make_bot", game=game, seed=1, simulations=4))
        result = play_game(game, agents, seed=3, params=params)
        assert not result.forfeit, result.outcome  # it used to forfeit every game
        assert all(" | " in move for move in result.moves)
