"""What a move preview and a rules card cost the server's event loop.

A preview (``POST /api/games/{id}/preview``) copies the seat's view, plays one move on it and
builds two displays (:func:`lifearena.web.learning_routes.preview`); it runs on the event
loop, so it must stay well under a millisecond. A rules card plays an example move and is
kept once built; one not kept is built in a slow-work worker. This prints the median
microseconds of each over ``--positions`` positions reached by random play, for War of Life
and Losat (the turn-based Life games) and the queen game:

    .venv/bin/python benchmarks/bench_preview.py --positions 20
"""

from __future__ import annotations

import argparse
import functools
import random
import statistics
import time
from collections.abc import Callable

from lifearena.core import get_game, presentation_of
from lifearena.web.learning_routes import preview
from lifearena.web.live import LiveGame
from lifearena.web.store import GameRow

GAMES = ("war_of_life", "losat", "blocking_queen")


def live_game(game: str, plies: int, rng: random.Random) -> LiveGame:
    """A hot-seat game of ``game`` after up to ``plies`` random moves, still going."""
    state = get_game(game).new_initial_state()
    moves: list[str] = []
    for _ in range(plies):
        child = state.clone()
        action = rng.choice(child.legal_actions())
        text = child.action_to_string(action)
        child.apply_action(action)
        if child.is_terminal():
            break
        state = child
        moves.append(text)
    row = GameRow("bench", game, dict(state.params), state.setup(), {"kind": "hotseat"},
                  ["t", "t"], moves)
    return LiveGame.from_row(row)


def median_us(work: Callable[[], object], repeat: int) -> float:
    """The median wall time of ``work()`` in microseconds over ``repeat`` runs."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        work()
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=20)
    parser.add_argument("--repeat", type=int, default=50)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    for game in GAMES:
        previews, cards = [], []
        for _ in range(args.positions):
            live = live_game(game, rng.randrange(0, 60), rng)
            state = live.state
            seat = state.current_player()
            texts = [state.action_to_string(a) for a in state.legal_actions()]
            preview(live, seat, texts[0])  # the first call of a kernel is not measured
            previews.append(median_us(
                functools.partial(lambda live, seat, texts: preview(live, seat,
                                                                   rng.choice(texts)),
                                  live, seat, texts), args.repeat))
            card = functools.partial(presentation_of(state).rules, state)
            cards.append(median_us(card, max(1, args.repeat // 5)))
        print(f"{game:15s} preview {statistics.median(previews):7.1f} us "
              f"(max {max(previews):7.1f})   rules card {statistics.median(cards):7.1f} us")


if __name__ == "__main__":
    main()
