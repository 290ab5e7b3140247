"""War of Life's afterstates in torch: each legal move's board after its crank, scored by a
small convolutional network, as the policy's logits.

In War of Life a move's worth lies in the generation that follows it: from the planes alone
a policy network has to learn to run Conway's crank in its head, and on the two-core
machine it had not after 15 minutes (52-69% against ``random``). This module gives the
network the rules instead of the features: for every legal move it builds the board the
move leads to (the piece moved, then one Immigration generation on the bounded 8x8 board,
exactly the game's rule, checked against :mod:`lifearena.games.war_of_life.fast` by the
tests) and scores those raw planes (the mover's pieces, the opponent's) with a
convolutional network; the scores are the move logits. Nothing hand-made is read: no piece
counts, no features, only the two planes of each afterstate, which is how TD-Gammon and the
afterstate methods of Sutton and Barto (2018, section 6.8) use a known model.

>>> planes = torch.zeros(1, 3, 8, 8)
>>> planes[0, 0, 0, :3] = 1          # three of the mover's pieces in a row at the top
>>> mask = torch.zeros(1, 512, dtype=torch.bool)
>>> mask[0, 8 * 2 + 6] = True        # the right-hand one steps down (direction 6)
>>> boards, index = afterstates(planes, mask)   # index: board * 512 + action
>>> index.tolist(), int(boards[0, 0].sum()), int(boards[0, 1].sum())
([22], 2, 0)
"""

from __future__ import annotations

import torch
from torch import nn

from lifearena.games.war_of_life.fast import TARGET_OF

_TARGETS = torch.from_numpy(TARGET_OF.copy())
_NEIGHBOURS = torch.ones(1, 1, 3, 3)
_NEIGHBOURS[0, 0, 1, 1] = 0.0


def crank(own: torch.Tensor, other: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    """One Immigration generation of ``(K, 8, 8)`` 0/1 boards (bounded: no wrap): a piece
    with 2 or 3 neighbours survives in its colour; an empty cell with exactly 3 gets the
    colour of at least two of them.

    >>> own = torch.zeros(1, 8, 8); own[0, 3, 2:5] = 1     # a blinker turns
    >>> new_own, new_other = crank(own, torch.zeros(1, 8, 8))
    >>> new_own[0, 2:5, 3].tolist(), int(new_own.sum()), int(new_other.sum())
    ([1.0, 1.0, 1.0], 3, 0)
    """
    weights = _NEIGHBOURS.to(own.device, own.dtype)
    n_own = torch.conv2d(own[:, None], weights, padding=1)[:, 0]
    n_other = torch.conv2d(other[:, None], weights, padding=1)[:, 0]
    count = n_own + n_other
    alive = (own + other) > 0
    survives = alive & ((count == 2) | (count == 3))
    born = ~alive & (count == 3)
    new_own = (own > 0) & survives | born & (n_own >= 2)
    new_other = (other > 0) & survives | born & (n_other >= 2)
    return new_own.to(own.dtype), new_other.to(own.dtype)


def afterstates(planes: torch.Tensor, mask: torch.Tensor
                ) -> tuple[torch.Tensor, torch.Tensor]:
    """The board after each legal move of each observation and its crank: ``(K, 2, 8, 8)``
    (the mover's pieces, the opponent's) and ``(K,)`` the index of the move, ``board *
    512 + action``, for the ``K`` true entries of ``mask`` ``(B, 512)``. ``planes`` are War
    of Life's ``(B, 3, 8, 8)`` observations from the mover's view."""
    boards, actions = mask.nonzero(as_tuple=True)
    own = planes[boards, 0].reshape(-1, 64).clone()
    other = planes[boards, 1].reshape(-1, 64)
    rows = torch.arange(len(boards), device=planes.device)
    own[rows, actions // 8] = 0.0
    own[rows, _TARGETS.to(planes.device)[actions]] = 1.0
    new_own, new_other = crank(own.view(-1, 8, 8), other.reshape(-1, 8, 8))
    return torch.stack((new_own, new_other), dim=1), boards * 512 + actions


class AfterstateScorer(nn.Module):
    """A score for each afterstate ``(K, 2, 8, 8)``: a 3x3 convolution to ``channels``
    planes, ``blocks`` residual blocks, the mean and the maximum of each channel over the
    board, one hidden layer and one output."""

    def __init__(self, channels: int, blocks: int, hidden: int,
                 block: type[nn.Module]) -> None:
        super().__init__()
        self.stem = nn.Conv2d(2, channels, 3, padding=1)
        self.body = nn.Sequential(*(block(channels) for _ in range(blocks)))
        self.hidden = nn.Linear(2 * channels, hidden)
        self.out = nn.Linear(hidden, 1)
        nn.init.normal_(self.out.weight, std=0.01)  # near-uniform first policy
        nn.init.zeros_(self.out.bias)

    def forward(self, boards: torch.Tensor) -> torch.Tensor:
        x = self.body(torch.relu(self.stem(boards)))
        pooled = torch.cat((x.mean(dim=(2, 3)), x.amax(dim=(2, 3))), dim=1)
        score: torch.Tensor = self.out(torch.relu(self.hidden(pooled))).squeeze(1)
        return score


def afterstate_logits(scorer: AfterstateScorer, planes: torch.Tensor, mask: torch.Tensor
                      ) -> torch.Tensor:
    """``(B, 512)`` logits: each legal move's afterstate score, 0 elsewhere (the callers
    mask the illegal ones)."""
    flat = torch.zeros(mask.numel(), dtype=planes.dtype, device=planes.device)
    if mask.any():
        boards, index = afterstates(planes, mask)
        flat = flat.index_put((index,), scorer(boards).to(planes.dtype))
    return flat.view(mask.shape)
