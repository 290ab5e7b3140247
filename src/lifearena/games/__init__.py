"""One module per game, each on the protocol of :mod:`lifearena.core`.

Find a game's state class by name with :func:`lifearena.core.load_game`.
"""
