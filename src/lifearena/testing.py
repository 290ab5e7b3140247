"""The conformance check every game must pass: :func:`check_game`.

It plays random games from the states a factory makes and checks, at every node, the
promises of :mod:`lifearena.core`: legal actions sorted, unique and in range; notation
round-trips; clones independent; the history replays to the same state; records round-trip
through text and JSON; observations are int8 planes of a fixed shape; ``view`` shows the
player what they see and nothing more; returns within bounds; the maximum length holds.

Use it from a game's tests::

    def test_conformance():
        check_game(lambda seed: war_of_life.new_game(seed=seed), games=20)
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from lifearena.core import CHANCE, SIMULTANEOUS, TERMINAL, Record, State, replay
from lifearena.errors import IllegalMoveError


def _fingerprint(state: State) -> tuple:
    players = range(state.info.num_players)
    return (
        str(state),
        state.current_player(),
        state.history(),
        str(state.outcome()),
        tuple(state.observation(p).tobytes() for p in players),
    )


def _check_node(state: State) -> None:
    info = state.info
    current = state.current_player()
    assert current in (*range(info.num_players), CHANCE, SIMULTANEOUS, TERMINAL), current
    shape = state.observation(0).shape
    for player in range(info.num_players):
        obs = state.observation(player)
        assert obs.dtype == np.int8, f"observation dtype {obs.dtype}; expected int8"
        assert obs.shape == shape, "observation shapes differ between players"
        view = state.view(player)
        assert view is not state, "view must be a copy"
        assert np.array_equal(view.observation(player), obs), "view changes what the player sees"
        legal = state.legal_actions(player) if current == SIMULTANEOUS else (
            state.legal_actions() if current == player else [])
        assert legal == sorted(set(legal)), "legal actions must be sorted and unique"
        assert all(0 <= a < info.num_distinct_actions for a in legal), "action out of range"
        assert view.legal_actions(player) == state.legal_actions(player), \
            "the view must leave the player's own legal actions unchanged"
        for action in legal:
            text = state.action_to_string(action, player)
            assert state.string_to_action(text, player) == action, f"notation {text!r}"
    if current == TERMINAL:
        outcome = state.outcome()
        assert outcome is not None, "a terminal state must have an outcome"
        returns = state.returns()
        assert all(info.min_utility <= r <= info.max_utility for r in returns), returns
        if info.zero_sum:
            assert abs(sum(returns)) < 1e-9, "zero-sum game with non-zero total return"
        for player in range(info.num_players):
            assert state.legal_actions(player) == [], "no legal actions after the end"
    else:
        assert state.outcome() is None, "an unfinished game has no outcome"


def _random_step(state: State, rng: np.random.Generator) -> None:
    current = state.current_player()
    if current == CHANCE:
        actions, probs = zip(*state.chance_outcomes(), strict=True)
        assert abs(sum(probs) - 1) < 1e-9, "chance probabilities must sum to 1"
        state.apply_action(int(rng.choice(actions, p=probs)))
    elif current == SIMULTANEOUS:
        joint = [int(rng.choice(state.legal_actions(p))) for p in range(state.info.num_players)]
        state.apply_actions(joint)
    else:
        legal = state.legal_actions()
        illegal = sorted(set(range(state.info.num_distinct_actions)) - set(legal))
        if illegal:
            before = _fingerprint(state)
            try:
                state.apply_action(illegal[int(rng.integers(len(illegal)))])
            except IllegalMoveError:
                pass
            else:
                raise AssertionError("an illegal action was accepted")
            assert _fingerprint(state) == before, "a rejected move changed the state"
        state.apply_action(int(rng.choice(legal)))


def check_game(
    new_state: Callable[[int], State],
    *,
    games: int = 10,
    seed: int = 0,
    max_moves: int | None = None,
    check_every: int = 1,
) -> list[State]:
    """Play ``games`` random games from ``new_state(seed)`` and check every promise.

    ``max_moves`` stops a game early (for games that can be very long); ``check_every``
    checks only every n-th node (the replay checks run at the end of every game anyway).
    Returns the final states so a test can look at them further.
    """
    rng = np.random.default_rng(seed)
    finals = []
    for game in range(games):
        state = new_state(seed + game)
        start = state.clone()
        info = state.info
        moves = 0
        while not state.is_terminal() and (max_moves is None or moves < max_moves):
            if moves % check_every == 0:
                _check_node(state)
                before = _fingerprint(state)
                twin = state.clone()
                _random_step(twin, np.random.default_rng(moves))
                assert _fingerprint(state) == before, "moving a clone changed the original"
            before = _fingerprint(state)
            _random_step(state, rng)
            assert _fingerprint(state) != before, "a move must change the state"
            moves += 1
            assert moves <= info.max_game_length, f"game longer than {info.max_game_length}"
        _check_node(state)
        assert _fingerprint(start) == _fingerprint(type(start).from_setup(
            start.setup(), **start.params)), "from_setup(setup()) must give the same start"
        replayed = type(state).from_setup(state.setup(), **state.params)
        for item in state.history():
            if isinstance(item, tuple):
                replayed.apply_actions(item)
            else:
                replayed.apply_action(item)
        assert _fingerprint(replayed) == _fingerprint(state), "replaying the history differs"
        record = state.record(players=("a", "b"))
        for text in (record.to_text(), record.to_json()):
            again = Record.load(text)
            assert again == record, "record does not round-trip"
            assert _fingerprint(replay(again)) == _fingerprint(state), "record replay differs"
        finals.append(state)
    return finals
