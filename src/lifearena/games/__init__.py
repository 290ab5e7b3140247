"""One package per game, each on the protocol of :mod:`lifearena.core`.

Find a game by name with :func:`lifearena.core.get_game` (its state class with
:func:`lifearena.core.load_game`). Each package holds the game's ``rules`` (the state and its
:class:`~lifearena.core.Game`), the presentation a terminal and a page show, and its fast
paths, which work on plain arrays and strings and never import the state module back:
``war_of_life.fast`` (the compiled bitboard simulator), ``losat.evaluation`` (Losat's
heuristic), ``life_for_two.batch`` (many boards at once), ``life_for_two.classic`` (the 1978
program) and ``blocking_queen.palace`` with its kernels (palace numbers, the game's solution).
"""
