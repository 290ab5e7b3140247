"""One module per game, each on the protocol of :mod:`lifearena.core`.

Find a game's state class by name with :func:`lifearena.core.load_game`. Beside the games sit
their helpers, which work on plain arrays and strings and never import the state module back
(the state module calls them): ``war_of_life_fast`` (the compiled bitboard simulator),
``losat_eval`` (Losat's heuristic), ``life_for_two_batch`` (many boards at once) and
``blocking_queen_palace`` with its kernels (palace numbers, the blocking queen game's
solution).
"""
