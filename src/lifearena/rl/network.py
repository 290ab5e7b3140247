"""One small torch network for every game's observation planes: a masked policy over the
game's ``Discrete(A)`` actions and a value.

The input is an environment's observation ``(C, H, W)`` (``observation="planes"``,
:class:`lifearena.interop.spaces.Encoding`) plus one constant plane holding the seat whose
view it is (0 or 1): Losat's planes show black and white, not "mine" and "theirs", so
without it a network could not tell which side it plays there.

* **Trunk**: a 3x3 convolution to ``channels`` planes, ``blocks`` residual blocks (two 3x3
  convolutions each), and one global-pooling bias (the mean of each channel over the board,
  through a linear layer, added back everywhere) so that a cell's features see the whole
  board, not only the trunk's receptive field.
* **Policy**: most games number their actions by board cell: ``kinds`` actions a cell (War
  of Life's eight directions, Losat's remove / add black / add white / capture) and a few
  that belong to no cell (a pass). :data:`LAYOUTS` says how each game lays them out; the
  cell actions' logits come from a 1x1 convolution (``kinds`` outputs a cell: the same
  weights everywhere, as the rules are), the others from a linear layer over a
  ``head_channels``-plane summary of the board (Life for Two's 2,300 first-turn triples
  too). A game or size that fits no layout gets the linear head for every action.
* **Value**: the same kind of summary, one hidden layer of ``value_hidden``, one output.
* **Mirror** (``mirror=True``, for the games of :data:`MIRRORS`): seat 1's view is turned
  into seat 0's before the trunk (the colour planes swapped, the rows flipped) and its cell
  logits turned back after the heads (the rows flipped back, the colour-specific kinds
  swapped). Losat's planes show black and white and its two seats march in opposite
  directions: mirrored, both seats play one task, so what the network learns in one seat
  serves the other (without it, a 15-minute run learned white's seat while it unlearned
  black's). The seat plane stays, since moving first or second still differs.

Illegal actions are masked out of the logits (:func:`masked_logits`): their probability is
zero, so sampling, the log-probabilities and the entropy only ever see legal moves.

A checkpoint weighs 0.06 to 0.86 MB in every game at its default parameters with the
trainer's default sizes (16 channels, 1 block), 0.2 to 1.0 MB with this class's (32
channels, 2 blocks): the blocking queen's 40x40 corner is the largest, then Life for Two
(its linear head over 2,300 triples) and Losat's 19x19.

>>> config = NetworkConfig.for_game("p2life", (2, 6, 6), 73)
>>> (config.prefix, config.kinds, config.cell_major, config.suffix)
(1, 2, False, 0)
>>> net = PlanesNetwork(config)
>>> logits, value = net(torch.zeros(4, 2, 6, 6), torch.tensor([0, 1, 0, 1]))
>>> tuple(logits.shape), tuple(value.shape)
((4, 73), (4,))
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields
from typing import Any

import torch
from torch import nn

from lifearena.errors import BadParameterError
from lifearena.rl.afterstates import AfterstateScorer, afterstate_logits

LAYOUTS: dict[str, tuple[int, int, bool]] = {
    # game: (actions before the cell blocks, actions a cell, cell-major?)
    "war_of_life": (0, 8, True),      # 8 * cell + direction
    "life_for_two": (0, 1, False),    # the 25 cells, then the 2,300 first-turn triples
    "p2life": (1, 2, False),          # pass, then place on each cell, then remove
    "losat": (0, 4, False),           # kind * points + point, then pass
    "blocking_queen": (0, 2, False),  # move to a square, block a square, then stop blocking
}
"""How each game numbers its actions by cell (read off the games' notation modules): the
actions not in a cell block come after them (see :meth:`NetworkConfig.for_game`)."""

MIRRORS: dict[str, tuple[tuple[int, ...], tuple[int, ...]]] = {
    # game: (its planes in seat 1's mirrored view, its cell kinds in seat 1's mirrored view)
    "losat": ((1, 0), (0, 2, 1, 3)),  # black <-> white; remove, add white <-> add black, capture
}
"""The games whose board looks the same to both seats once turned upside down with the
colours swapped (Losat's start is, but for one column: White's heptomino stands one column
right of Black's; the convolutions do not mind)."""

ILLEGAL_LOGIT = -1e8
"""The logit of an illegal action: its probability is exactly zero in float32."""


@dataclass(frozen=True)
class NetworkConfig:
    """Everything that shapes a :class:`PlanesNetwork` (saved in every checkpoint)."""

    planes: int
    """Observation planes (the seat plane is added on top)."""
    height: int
    width: int
    num_actions: int
    prefix: int
    """Actions before the cell blocks (from the linear head)."""
    kinds: int
    """Actions a cell (0: every action from the linear head)."""
    cell_major: bool
    """``prefix + cell * kinds + kind`` (True) or ``prefix + kind * cells + cell``."""
    suffix: int
    """Actions after the cell blocks (from the linear head)."""
    channels: int = 32
    blocks: int = 2
    head_channels: int = 2
    value_hidden: int = 64
    mirror_planes: tuple[int, ...] = ()
    """Seat 1's view mirrored into seat 0's: its planes in this order, its rows flipped
    (:data:`MIRRORS`; empty: no mirror)."""
    mirror_kinds: tuple[int, ...] = ()
    """... and its cell logits' kinds in this order, their rows flipped back."""
    afterstates: bool = False
    """War of Life: the move logits are the scores of each legal move's board after its
    crank (:mod:`lifearena.rl.afterstates`); the forward pass then needs the mask."""

    @classmethod
    def for_game(cls, game: str, shape: tuple[int, ...], num_actions: int,
                 mirror: bool = False, afterstates: bool = False,
                 **sizes: int) -> NetworkConfig:
        """The network of ``game``'s planes ``shape`` and ``num_actions`` actions; ``sizes``
        are ``channels``, ``blocks``, ``head_channels``, ``value_hidden``; ``mirror`` asks
        for seat 1's mirrored view (:data:`MIRRORS`; refused for a game without one).

        >>> NetworkConfig.for_game("losat", (2, 19, 19), 1445).suffix
        1
        >>> NetworkConfig.for_game("losat", (2, 19, 19), 1000).kinds   # fits no layout
        0
        """
        if len(shape) != 3 or min(shape) < 1 or num_actions < 1:
            raise BadParameterError(f"observation shape {shape} with {num_actions} actions; "
                                    f"expected planes (C, H, W) and at least one action")
        planes, height, width = (int(n) for n in shape)
        prefix, kinds, cell_major = LAYOUTS.get(game, (0, 0, False))
        suffix = num_actions - prefix - kinds * height * width
        if suffix < 0 or (cell_major and suffix):
            prefix, kinds, cell_major, suffix = 0, 0, False, num_actions
        if mirror and (game not in MIRRORS or kinds != len(MIRRORS[game][1])
                       or planes != len(MIRRORS[game][0])):
            raise BadParameterError(f"mirror for {game} with planes {shape}; expected one of "
                                    f"{', '.join(sorted(MIRRORS))} at their own encoding")
        if afterstates and (game != "war_of_life" or (planes, height, width, num_actions)
                            != (3, 8, 8, 512)):
            raise BadParameterError(f"afterstates for {game} with planes {shape}; expected "
                                    f"war_of_life's (3, 8, 8) planes and 512 actions")
        swaps = MIRRORS[game] if mirror else ((), ())
        config = cls(planes, height, width, int(num_actions), prefix, kinds, cell_major,
                     suffix, **sizes, mirror_planes=swaps[0], mirror_kinds=swaps[1],
                     afterstates=bool(afterstates))
        for name in ("channels", "blocks", "head_channels", "value_hidden"):
            value = getattr(config, name)
            if not isinstance(value, int) or not (0 if name == "blocks" else 1) <= value <= 512:
                raise BadParameterError(f"network {name}={value!r}; expected an integer "
                                        f"{0 if name == 'blocks' else 1}..512")
        return config

    def to_dict(self) -> dict[str, Any]:
        """The config as plain data (what a checkpoint stores)."""
        return asdict(self)

    @classmethod
    def from_dict(cls, data: Any) -> NetworkConfig:
        """The config stored by :meth:`to_dict`; :class:`BadParameterError` if it is not
        (the mirror's and the afterstates' fields, added later, default to none)."""
        names = {f.name for f in fields(cls)}
        if isinstance(data, dict):
            data = {"mirror_planes": (), "mirror_kinds": (), "afterstates": False, **data}
            for name in ("mirror_planes", "mirror_kinds"):
                if isinstance(data[name], list | tuple):
                    data[name] = tuple(data[name])
        if not isinstance(data, dict) or set(data) != names:
            raise BadParameterError(f"network config {data!r:.80}; expected the keys "
                                    f"{', '.join(sorted(names))}")
        config = cls(**data)
        if config.prefix + config.kinds * config.height * config.width + config.suffix \
                != config.num_actions:
            raise BadParameterError(f"network config {data!r:.80} does not add up to "
                                    f"{config.num_actions} actions")
        if (config.mirror_planes or config.mirror_kinds) and (
                sorted(config.mirror_planes) != list(range(config.planes))
                or sorted(config.mirror_kinds) != list(range(config.kinds))):
            raise BadParameterError(f"network config {data!r:.80}: its mirror is not a "
                                    f"permutation of its {config.planes} planes and "
                                    f"{config.kinds} kinds")
        return config


class ResidualBlock(nn.Module):
    """Two 3x3 convolutions with a skip connection."""

    def __init__(self, channels: int) -> None:
        super().__init__()
        self.first = nn.Conv2d(channels, channels, 3, padding=1)
        self.second = nn.Conv2d(channels, channels, 3, padding=1)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.relu(x + self.second(torch.relu(self.first(x))))


class PlanesNetwork(nn.Module):
    """The policy and value network of one game (see the module doc)."""

    def __init__(self, config: NetworkConfig) -> None:
        super().__init__()
        self.config = c = config
        cells = c.height * c.width
        self.stem = nn.Conv2d(c.planes + 1, c.channels, 3, padding=1)
        self.body = nn.Sequential(*(ResidualBlock(c.channels) for _ in range(c.blocks)))
        self.pool_bias = nn.Linear(c.channels, c.channels)
        self.cell_policy = (nn.Conv2d(c.channels, c.kinds, 1)
                            if c.kinds and not c.afterstates else None)
        self.afterstate_scorer = (AfterstateScorer(c.channels, c.blocks, c.value_hidden,
                                                   ResidualBlock)
                                  if c.afterstates else None)
        dense = c.prefix + c.suffix
        self.dense_summary = nn.Conv2d(c.channels, c.head_channels, 1) if dense else None
        self.dense_policy = nn.Linear(c.head_channels * cells, dense) if dense else None
        self.value_summary = nn.Conv2d(c.channels, c.head_channels, 1)
        self.value_hidden = nn.Linear(c.head_channels * cells, c.value_hidden)
        self.value_out = nn.Linear(c.value_hidden, 1)
        # a near-uniform first policy and a value near zero, as CleanRL initialises its heads
        for head in (self.cell_policy, self.dense_policy):
            if head is not None and head.bias is not None:
                nn.init.normal_(head.weight, std=0.01)
                nn.init.zeros_(head.bias)
        nn.init.normal_(self.value_out.weight, std=0.01)
        nn.init.zeros_(self.value_out.bias)

    def forward(self, planes: torch.Tensor, seat: torch.Tensor,
                mask: torch.Tensor | None = None) -> tuple[torch.Tensor, torch.Tensor]:
        """Raw logits ``(B, A)`` (unmasked) and values ``(B,)`` of observations
        ``(B, C, H, W)`` seen by ``seat`` ``(B,)``; the legal moves ``mask`` ``(B, A)`` is
        needed by an afterstate network only (the others mask their logits afterwards)."""
        c = self.config
        batch = planes.shape[0]
        flipped = None
        if c.mirror_planes:
            flipped = (seat == 1).view(batch, 1, 1, 1)
            planes = torch.where(flipped, planes[:, list(c.mirror_planes)].flip(2), planes)
        seat_plane = seat.to(planes.dtype).view(batch, 1, 1, 1).expand(
            batch, 1, c.height, c.width)
        x = torch.relu(self.stem(torch.cat((planes, seat_plane), dim=1)))
        x = self.body(x)
        x = torch.relu(x + self.pool_bias(x.mean(dim=(2, 3)))[:, :, None, None])
        parts = []
        dense = None
        if self.dense_policy is not None and self.dense_summary is not None:
            dense = self.dense_policy(torch.relu(self.dense_summary(x)).flatten(1))
            parts.append(dense[:, :c.prefix])
        if self.afterstate_scorer is not None:
            if mask is None:
                raise ValueError("an afterstate network needs the legal moves' mask")
            parts.append(afterstate_logits(self.afterstate_scorer, planes, mask))
        if self.cell_policy is not None:
            cell = self.cell_policy(x)  # (B, kinds, H, W)
            if flipped is not None:  # back from the mirrored view to seat 1's own
                cell = torch.where(flipped, cell[:, list(c.mirror_kinds)].flip(2), cell)
            cell = cell.flatten(2)  # (B, kinds, cells), kind-major
            parts.append((cell.transpose(1, 2) if c.cell_major else cell).flatten(1))
        if dense is not None:
            parts.append(dense[:, c.prefix:])
        logits = parts[0] if len(parts) == 1 else torch.cat(parts, dim=1)
        value = self.value_summary(x)
        value = self.value_out(torch.relu(self.value_hidden(torch.relu(value).flatten(1))))
        return logits, value.squeeze(1)


def masked_logits(logits: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
    """``logits`` with every action outside the boolean ``mask`` set to
    :data:`ILLEGAL_LOGIT` (a row with no legal action stays uniform: its action is ignored)."""
    return torch.where(mask, logits, torch.full_like(logits, ILLEGAL_LOGIT))


def masked_entropy(logits: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
    """The entropy of each row's distribution over its legal actions (``logits`` already
    masked)."""
    log_probs = torch.log_softmax(logits, dim=1)
    terms = torch.where(mask, log_probs.exp() * log_probs, torch.zeros_like(log_probs))
    return -terms.sum(dim=1)
