"""The coursework strategies on positions whose answer is worked out by hand."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

from lifearena import agents
from lifearena.agents.war_of_life import minimax_values
from lifearena.errors import BadParameterError, IllegalMoveError
from lifearena.games import war_of_life as wol
from lifearena.games.war_of_life import fast


def choice(name: str, prolog: str, to_move: str = "b", **options) -> str:
    state = wol.from_prolog(prolog, to_move=to_move)
    bot = agents.make(name, game="war_of_life", **options)
    return state.action_to_string(bot.act(state.view(state.current_player()),
                                          state.current_player()))


# Blue (1,1),(1,2),(1,3) against a lone red (8,8), which dies in every crank. The best blue can
# keep is an L-tromino plus the birth in its corner: 4 pieces, first reached by (1,1)->(2,2).
# (1,1)->(2,1), first in order, keeps only 2.
ROW = "[[[1,1],[1,2],[1,3]],[[8,8]]]"
# A lone blue (4,4) against a stable red block in the top-left corner. (4,4)->(3,3),
# (3,4) and (4,3) each make red births, leaving red 5; (4,4)->(3,5), the first move
# touching nothing, leaves red 4. Blue's lone piece dies whatever it does.
BLOCK = "[[[4,4]],[[1,1],[1,2],[2,1],[2,2]]]"


@pytest.mark.parametrize(("name", "position", "expected"), [
    ("self_preservation", ROW, "[1,1,2,2]"),
    ("land_grab", ROW, "[1,1,2,2]"),
    ("minimax", ROW, "[1,1,2,2]"),  # red has no pieces after any move: land-grab value
    ("bloodlust", ROW, "[1,1,2,1]"),  # red dies whatever blue does: a tie, the first move
    ("bloodlust", BLOCK, "[4,4,3,5]"),
    ("land_grab", BLOCK, "[4,4,3,5]"),
    ("self_preservation", BLOCK, "[4,4,3,3]"),  # blue is gone after every move: the first
])
def test_strategies_on_hand_worked_positions(name, position, expected):
    assert choice(name, position) == expected


def test_red_chooses_by_the_same_rules():
    # the ROW position with the colours swapped and red to move
    assert choice("self_preservation", "[[[8,8]],[[1,1],[1,2],[1,3]]]", to_move="r") == \
        "[1,1,2,2]"
    assert choice("bloodlust", "[[[1,1],[1,2],[2,1],[2,2]],[[4,4]]]", to_move="r") == \
        "[4,4,3,5]"


def test_minimax_value_when_the_opponent_is_stalemated():
    # Red's corner piece is locked in blue's stable block. Blue's far piece (1,1) moves and
    # dies: red cannot reply, so the value is the land-grab value after blue's crank, 3 - 1.
    board = wol.prolog_to_board("[[[1,1],[7,7],[7,8],[8,7]],[[8,8]]]")
    actions, values = minimax_values(board, 0)
    texts = [wol.ACTION_TEXT[a] for a in actions]
    assert dict(zip(texts, values.tolist(), strict=True))["[1,1,1,2]"] == 2


def test_minimax_values_follow_the_definition():
    # The two-ply value of every move, against a brute force over protocol states; the first
    # position has blue's lone piece dying at once, so every value is decided by red's reply.
    for prolog in ("[[[5,5]],[[1,1],[1,2],[2,1]]]", wol.new_game(seed=11).to_prolog(),
                   "[[[3,3],[3,4],[4,3],[6,6]],[[3,5],[4,5],[5,5],[6,5]]]"):
        board = wol.prolog_to_board(prolog)
        actions, values = minimax_values(board, 0)
        assert values.tolist() == [brute_minimax(board, 0, a) for a in actions.tolist()]


def brute_minimax(board: np.ndarray, player: int, action: int) -> int:
    """The issue's definition, move by move on protocol states."""
    state = wol.WarOfLifeState(board, to_move=player)
    state._apply_action(action)
    mine = wol.WarOfLifeState(state.board, to_move=1 - player)
    own, other = len(mine.pieces(player)), len(mine.pieces(1 - player))
    replies = mine._legal_actions(1 - player)
    if other == 0 or not replies:
        return own - other
    values = []
    for reply in replies:
        after = wol.WarOfLifeState(state.board, to_move=1 - player)
        after._apply_action(reply)
        values.append(len(after.pieces(player)) - len(after.pieces(1 - player)))
    return min(values)


def test_protocol_choices_equal_the_compiled_choices_on_many_positions():
    rng = np.random.default_rng(5)
    for _ in range(40):
        board = rng.choice(3, size=(8, 8), p=[0.6, 0.2, 0.2]).astype(np.int8)
        state = wol.WarOfLifeState(board)
        if not state._legal_actions(0):
            continue
        blue, red = fast.board_to_bits(board)
        for kind, name in enumerate(fast.STRATEGIES):
            if name != "random":
                bot = agents.make(name, game="war_of_life")
                assert bot.act(state, 0) == fast.choose(kind, blue, red), name


def test_random_ties_pick_among_the_best_only():
    best = set()
    for seed in range(40):
        best.add(choice("bloodlust", ROW, seed=seed, ties="random"))
    state = wol.from_prolog(ROW)
    every = {state.action_to_string(a) for a in state.legal_actions()}
    assert len(best) > 3 and best <= every  # all moves tie here
    chosen = {choice("land_grab", BLOCK, seed=seed, ties="random") for seed in range(30)}
    # the moves leaving red 4: every move of (4,4) but those to (3,3), (3,4) and (4,3)
    assert chosen <= {"[4,4,3,5]", "[4,4,4,5]", "[4,4,5,3]", "[4,4,5,4]", "[4,4,5,5]"}
    assert len(chosen) > 1


def test_random_agent_is_uniform_and_follows_its_seed():
    state = wol.from_prolog(ROW)
    legal = state.legal_actions()
    bot = agents.make("random", game="war_of_life", seed=9)
    draws = [bot.act(state, 0) for _ in range(2000)]
    rng = np.random.default_rng(9)
    assert draws[:50] == [legal[int(rng.random() * len(legal))] for _ in range(50)]
    counts = Counter(draws)
    assert set(counts) == set(legal)
    expected = len(draws) / len(legal)
    assert all(abs(c - expected) < 5 * expected ** 0.5 for c in counts.values())


def test_agent_errors():
    with pytest.raises(BadParameterError, match="ties"):
        agents.make("minimax", game="war_of_life", ties="last")
    with pytest.raises(BadParameterError, match="takes only"):
        agents.make("minimax", game="war_of_life", depth=3)
    stalemate = wol.from_prolog("[[[1,1]],[[1,2],[2,1],[2,2]]]")
    with pytest.raises(IllegalMoveError, match="no legal move"):
        agents.make("bloodlust", game="war_of_life").act(stalemate, 0)
    assert set(agents.available_agents("war_of_life")) >= set(fast.STRATEGIES)
