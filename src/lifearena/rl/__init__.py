"""Reinforcement learning on lifearena's games: an interface layer beside
:mod:`lifearena.interop`, built on its environments.

Its modules say what they hold; the torch ones (:mod:`lifearena.rl.network`,
:mod:`lifearena.rl.checkpoint`, :mod:`lifearena.rl.ppo`, :mod:`lifearena.rl.torch_agent`)
need the ``[rl]`` extra (``pip install -e ".[rl]"``). Importing this package imports none of
them.
"""
