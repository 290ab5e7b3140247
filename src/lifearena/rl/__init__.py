"""Reinforcement learning baselines trained on the compiled vector environments."""
