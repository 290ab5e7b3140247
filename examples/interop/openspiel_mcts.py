"""OpenSpiel's Python MCTS bot plays War of Life against OpenSpiel's uniform random bot.

Run: python examples/interop/openspiel_mcts.py  (needs: pip install -e ".[interop]")
"""

from __future__ import annotations

import numpy as np
import pyspiel
from open_spiel.python.algorithms import mcts

import lifearena.interop.openspiel  # noqa: F401 - registers python_war_of_life & co.

GAMES = 6
wins = draws = losses = 0
for seed in range(GAMES):
    game = pyspiel.load_game(f"python_war_of_life(seed={seed})")
    rng = np.random.RandomState(seed)
    searcher = mcts.MCTSBot(game, 2.0, 30, mcts.RandomRolloutEvaluator(1, rng), random_state=rng)
    seat = seed % 2  # the MCTS bot takes each seat in turn
    bots = {seat: searcher, 1 - seat: pyspiel.make_uniform_random_bot(1 - seat, seed)}
    state = game.new_initial_state()
    while not state.is_terminal():
        state.apply_action(bots[state.current_player()].step(state))
    result = state.returns()[seat]
    wins, draws, losses = wins + (result > 0), draws + (result == 0), losses + (result < 0)
    print(f"seed {seed}: MCTS as player {seat}, {len(state.history())} moves, "
          f"return {result:+.0f}; last move {state.inner.history_strings()[-1]}")
print(f"MCTS (30 simulations) against random: {wins} wins, {draws} draws, {losses} losses")
