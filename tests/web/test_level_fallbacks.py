"""A web level played by a trained network (p2life's ``easy``: the shipped PPO baseline,
numpy alone) plays its own rules and hands other boards to the agent the level had before."""

from __future__ import annotations

from lifearena import agents
from lifearena.games.p2life import new_game
from lifearena.web import catalog


def test_p2life_easy_is_the_baseline_on_its_rules() -> None:
    name, limit = catalog.level_agent("p2life", "easy")
    assert (name, limit) == ("policy:ppo", None)
    state = new_game(size=12, seed=3)
    baseline = agents.make("policy:ppo", game="p2life", seed=0)
    expected = state.action_to_string(baseline.act(state.view(0), 0), 0)
    assert catalog.choose_move(state.view(0), 0, name, limit, seed=0) == expected


def test_on_another_board_easy_plays_random_again() -> None:
    state = new_game(size=8, seed=3)  # the network reads 12x12 planes
    moves = {catalog.choose_move(state.view(1), 1, "policy:ppo", None, seed=s)
             for s in range(6)}
    random_moves = {state.action_to_string(
        agents.make("random", game="p2life", seed=s).act(state.view(1), 1), 1)
        for s in range(6)}
    assert moves == random_moves and len(moves) > 1


def test_every_fallback_is_a_level_agent_with_fits() -> None:
    for (game, name), fallback in catalog.FALLBACKS.items():
        assert name in {agent for agent, _ in catalog.CATALOG[game].levels.values()}
        assert callable(getattr(agents.make(name, game=game), "fits", None))
        agents.make(fallback, game=game)  # a known agent of the game
