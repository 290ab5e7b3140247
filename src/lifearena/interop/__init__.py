"""Adapters between lifearena's games and agents and the research libraries.

* :mod:`lifearena.interop.openspiel` registers every game with OpenSpiel
  (``pyspiel.load_game("python_war_of_life(seed=3)")``).
* :mod:`lifearena.interop.pettingzoo` offers PettingZoo environments: an AEC environment for
  the turn-based games and a ``ParallelEnv`` for the simultaneous ones.
* :mod:`lifearena.interop.gymnasium` offers a single-agent Gymnasium environment per game,
  the other seat taken by one of our agents.
* :mod:`lifearena.interop.spaces` holds what those environments share: spaces sized from the
  game's parameters (:mod:`lifearena.agents.windows`), observation layouts, the mask, and
  the options (``observation``, ``mask_in_obs``, ``illegal``).
* :mod:`lifearena.interop.agents` goes the other way: an OpenSpiel bot or a PettingZoo-style
  policy becomes one of our agents (``lifearena tournament -a mine=module:callable``).

These need the optional extra (``pip install "lifearena[interop]"``); nothing else in
lifearena imports this package, and importing it imports none of those libraries. Each
adapter is a thin layer over the protocol of :mod:`lifearena.core`: no game rules live here.
See ``docs/interop.md``.
"""
