"""Reinforcement learning on lifearena's games: an interface layer beside
:mod:`lifearena.interop`, built on its environments.

* :mod:`lifearena.rl.versions`: the versioned environment ids (``lifearena/<game>-v1``), each
  fixing every rule parameter, the observation encoding and the default opponent; plain data,
  importable without the ``interop`` extra.
* :mod:`lifearena.rl.envs`: those ids registered with Gymnasium (single environments and
  ``gymnasium.make_vec``); importing it registers them.
* :mod:`lifearena.rl.eval_sets`: the frozen evaluation sets, one JSON file of starts per id.
* :mod:`lifearena.rl.evaluate`: a policy played from an id's evaluation set against the
  game's built-in agents, both seats, by the arena's referee (``lifearena rl evaluate``).
* The torch modules (:mod:`lifearena.rl.network`, :mod:`lifearena.rl.checkpoint`,
  :mod:`lifearena.rl.ppo`, :mod:`lifearena.rl.torch_agent`, :mod:`lifearena.rl.alphazero`)
  need the ``[rl]`` extra
  (``pip install -e ".[rl]"``). Importing this package imports none of them.
"""
