"""The ladder: a rated round robin of a game's agents at several strengths.

Every pair of entrants plays ``games`` start positions (seeds 0, 1, ... — the same starts for
every pair) twice, seats swapped. The results are fitted to Elo ratings
(:mod:`lifearena.arena.ratings`, ``random`` = 0) with bootstrap intervals, a crosstable, and
the first-player advantage; :func:`chart` draws the ladder as a PNG.

An entrant is written ``[label=]agent[:key=value,...]``: ``alphabeta:time=0.5``,
``deep=alphabeta:depth=4``, ``mcts:simulations=200``. Keys that are :class:`Limit` fields
(time, nodes, simulations, depth) become the entrant's thinking limit; the others are passed
to the agent's factory. A bot (``docs/bots.md``) is an entrant too:
``Entrant.bot("mybot", "python3 mybot.py", per_move=1.0)``.

Games are independent tasks (:func:`play_task`) run by the arena's executor; each finished
game is handed to ``on_result`` with its key (``game|first|second|seed``), and keys in
``done`` are not played again (resume). Given a stored run (``store=``, a
:class:`~lifearena.arena.storage.Run`), :func:`run_ladder` resumes from it, stores each game
as it finishes, and marks the run ``done`` at the end (``interrupted`` if stopped), so a
ladder killed at any moment resumes to the very ladder an uninterrupted run gives.

>>> e = Entrant.parse("deep=alphabeta:depth=4,shuffle=false")
>>> e.label, e.agent, e.options, e.limit.depth
('deep', 'alphabeta', {'shuffle': False}, 4)
>>> [s.key for s in schedule("war_of_life", ["a", "b"], games=1)]
['war_of_life|a|b|0', 'war_of_life|b|a|0']
"""

from __future__ import annotations

import shlex
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, fields
from typing import Any

from lifearena.agents.base import Agent, Limit, TimeControl
from lifearena.agents.registry import split_name
from lifearena.arena.ratings import (
    Crosstable,
    Match,
    Ratings,
    bootstrap,
    crosstable,
    first_player_score,
)
from lifearena.arena.referee import GameResult, initial_state, play_game
from lifearena.arena.storage import GameKey, Run
from lifearena.core import State, load_game
from lifearena.errors import BadParameterError
from lifearena.extras import require

_LIMIT_KEYS = {f.name for f in fields(Limit)}


def _value(text: str) -> Any:
    low = text.lower()
    if low in ("true", "false"):
        return low == "true"
    for cast in (int, float):
        try:
            return cast(text)
        except ValueError:
            pass
    return text


@dataclass(frozen=True)
class Entrant:
    """One player of the ladder: a registered agent with options and a limit, or a bot."""

    label: str
    agent: str
    options: Mapping[str, Any] = field(default_factory=dict)
    limit: Limit | None = None
    command: tuple[str, ...] | None = None

    @classmethod
    def parse(cls, text: str) -> Entrant:
        """``[label=]agent[:key=value,...]`` (see the module doc)."""
        head, tail = split_name(text.strip())  # a module:callable name stays whole
        label, eq, agent = head.partition("=")
        if not eq:
            label, agent = "", head
        agent = agent.strip()
        if agent == "prolog":  # prolog:FILE:PREDICATE[:k=v,...] names one agent
            file, _, rest = tail.partition(":")
            predicate, _, tail = rest.partition(":")
            agent = f"prolog:{file}:{predicate}"
        if not agent:
            raise BadParameterError(f"bad entrant {text!r}; expected [label=]agent[:k=v,...]")
        options: dict[str, Any] = {}
        limits: dict[str, Any] = {}
        for part in filter(None, (p.strip() for p in tail.split(","))):
            key, eq, raw = part.partition("=")
            if not eq or not key.strip():
                raise BadParameterError(f"bad option {part!r} in entrant {text!r}; expected "
                                        "key=value")
            target = limits if key.strip() in _LIMIT_KEYS else options
            target[key.strip()] = _value(raw.strip())
        limit = Limit(**limits) if limits else None
        if not label:
            label = agent + "".join(f"-{k[0]}{v}" for k, v in limits.items()) + "".join(
                f"-{k}{v}" for k, v in options.items())
        return cls(label.strip(), agent, options, limit)

    @classmethod
    def bot(cls, label: str, command: str | Sequence[str], per_move: float | None = None
            ) -> Entrant:
        """A subprocess bot speaking the JSON-lines protocol."""
        argv = shlex.split(command) if isinstance(command, str) else list(command)
        limit = Limit(time=per_move) if per_move else None
        return cls(label, "bot", {}, limit, tuple(argv))

    def make(self, game: str, seed: int) -> Agent:
        """A fresh agent for one game."""
        if self.command is not None:
            from lifearena.agents.bot import BotAgent

            tc = TimeControl(per_move=self.limit.time) if self.limit and self.limit.time \
                else None
            return BotAgent(list(self.command), time_control=tc, name=self.label)
        from lifearena import agents

        agent: Agent = agents.make(self.agent, game=game, seed=seed, **dict(self.options))
        return agent


@dataclass(frozen=True)
class GameSpec:
    """One game of the ladder: who sits first, who second, and the start seed."""

    game: str
    first: str
    second: str
    seed: int

    @property
    def key(self) -> str:
        return f"{self.game}|{self.first}|{self.second}|{self.seed}"


def storage_key(key: str) -> GameKey:
    """The :class:`GameKey` a ladder game ``game|first|second|seed`` is stored under: the
    pairing in sorted order, the start index, and the seat order.

    >>> storage_key("war_of_life|b|a|3")
    GameKey(pairing='a|b', index=3, seat=1)
    """
    _, first, second, seed = key.split("|")
    a, b = sorted((first, second))
    return GameKey(f"{a}|{b}", int(seed), 0 if first == a else 1)


def ladder_key(game: str, key: GameKey) -> str:
    """The ladder key of a stored game (the inverse of :func:`storage_key`).

    >>> ladder_key("war_of_life", storage_key("war_of_life|b|a|3"))
    'war_of_life|b|a|3'
    """
    a, b = key.pairing.split("|")
    first, second = (a, b) if key.seat == 0 else (b, a)
    return f"{game}|{first}|{second}|{key.index}"


def schedule(game: str, labels: Sequence[str], games: int, first_seed: int = 0
             ) -> list[GameSpec]:
    """Every pair of ``labels`` on ``games`` starts, each start with both seatings."""
    specs = []
    for seed in range(first_seed, first_seed + games):
        for i, a in enumerate(labels):
            for b in labels[i + 1:]:
                specs.append(GameSpec(game, a, b, seed))
                specs.append(GameSpec(game, b, a, seed))
    return specs


def ladder_plan(entrants: int, games: int) -> dict[str, int]:
    """What a ladder plans, as its results file stores it: starts per pair (``games``) and
    the games in all (each pair of ``entrants`` plays each start twice, seats swapped).

    >>> ladder_plan(3, 4)
    {'games': 4, 'total': 24}
    """
    return {"games": games, "total": entrants * (entrants - 1) * games}


def planned_total(config: Mapping[str, Any]) -> int | None:
    """A stored ladder's planned total (``None`` for a file written before plans were
    stored).

    >>> planned_total({"game": "losat", "games": 2, "total": 12}), planned_total({})
    (12, None)
    """
    total = config.get("total")
    return total if isinstance(total, int) else None


def default_entrants(game: str, time: float = 0.2) -> list[Entrant]:
    """``random``, the game's own agents, and the generic search agents at a few strengths."""
    from lifearena import agents

    load_game(game)
    key = game.replace("-", "_")
    names = agents.available_agents(key)
    own = [n for n in names if n not in ("random", "alphabeta", "mcts", "bot", "search")]
    entrants = [Entrant("random", "random")]
    entrants += [Entrant(n, n) for n in own]
    entrants += [
        Entrant.parse("alphabeta-d2=alphabeta:depth=2"),
        Entrant.parse(f"alphabeta-{time:g}s=alphabeta:time={time}"),
        Entrant.parse("mcts-200=mcts:simulations=200"),
        Entrant.parse(f"mcts-{time:g}s=mcts:time={time}"),
    ]
    return entrants


def start_state(game: str, seed: int) -> State:
    """The start for ``seed``: the game's random start, or its fixed start for games that
    have no random one (Losat)."""
    return initial_state(game, seed=seed)


def play_task(spec: GameSpec, first: Entrant, second: Entrant,
              max_moves: int | None = None) -> GameResult:
    """Play one ladder game (a picklable task for the executor)."""
    players = [first.make(spec.game, spec.seed), second.make(spec.game, spec.seed + 7919)]
    try:
        return play_game(spec.game, players, state=start_state(spec.game, spec.seed),
                         seed=spec.seed, names=[first.label, second.label],
                         limits=[first.limit, second.limit], max_moves=max_moves)
    finally:
        for agent in players:
            close = getattr(agent, "close", None)
            if close is not None:
                close()


def result_match(result: GameResult) -> Match:
    """The rating input of a finished game (draws and double forfeits are half points)."""
    winner = result.outcome.winner
    score = 0.5 if winner is None else (1.0 if winner == 0 else 0.0)
    return Match(result.players[0], result.players[1], score)


@dataclass
class Ladder:
    """The finished ladder: ratings with intervals, crosstable, first-player figures."""

    game: str
    entrants: list[str]
    matches: list[Match]
    ratings: Ratings
    table: Crosstable
    first_score: tuple[float, int, tuple[float, float]]
    forfeits: dict[str, int]
    new_games: int = 0
    """Games played by this call (the others were stored before)."""
    stored_games: int = 0
    """Games found already played (``done`` or the stored run) and not played again."""

    def rows(self) -> list[dict[str, Any]]:
        """One row per entrant, strongest first."""
        rows = []
        for label in self.ratings.ranking():
            lo, hi = self.ratings.intervals.get(label, (float("nan"), float("nan")))
            mine = [m for m in self.matches if label in (m.first, m.second)]
            points = sum(m.score if m.first == label else 1 - m.score for m in mine)
            rows.append({"agent": label, "elo": self.ratings.elo[label], "low": lo,
                         "high": hi, "games": len(mine),
                         "score": points / len(mine) if mine else 0.0,
                         "forfeits": self.forfeits.get(label, 0)})
        return rows


def rate(game: str, results: Iterable[GameResult], *, samples: int = 200, seed: int = 0,
         anchor: str = "random") -> Ladder:
    """Fit the ladder from finished games."""
    results = list(results)
    matches = [result_match(r) for r in results]
    forfeits: dict[str, int] = {}
    for r in results:
        if r.forfeit and r.outcome.winner is not None:
            loser = r.players[1 - r.outcome.winner]
            forfeits[loser] = forfeits.get(loser, 0) + 1
    ratings = bootstrap(matches, samples=samples, seed=seed, anchor=anchor)
    labels = sorted({p for m in matches for p in (m.first, m.second)})
    return Ladder(game, labels, matches, ratings, crosstable(matches),
                  first_player_score(matches), forfeits)


def run_ladder(
    game: str,
    entrants: Sequence[Entrant],
    games: int,
    *,
    executor: Any = None,
    done: Mapping[str, GameResult] | None = None,
    on_result: Callable[[str, GameResult], None] | None = None,
    max_moves: int | None = None,
    samples: int = 200,
    seed: int = 0,
    store: Run | None = None,
) -> Ladder:
    """Play (or resume) the ladder and rate it.

    ``executor`` is an entered :class:`~lifearena.arena.executor.Executor` (``None``: play in
    this process); ``done`` maps keys of games already stored to their results; ``store`` is
    a stored run to resume from and write each finished game to.
    """
    labels = [e.label for e in entrants]
    if len(set(labels)) != len(labels):
        raise BadParameterError(f"entrant labels must differ; got {', '.join(labels)}")
    if len(entrants) < 2:
        raise BadParameterError("a ladder needs at least two entrants")
    by_label = {e.label: e for e in entrants}
    specs = schedule(game, labels, games)
    known = dict(done or {})
    if store is not None:
        known.update({ladder_key(game, k): r for k, r in store.games()})
    wanted = {s.key for s in specs}
    results: dict[str, GameResult] = {k: v for k, v in known.items() if k in wanted}
    stored = len(results)
    todo = [s for s in specs if s.key not in results]
    tasks = [(play_task, (s, by_label[s.first], by_label[s.second], max_moves)) for s in todo]
    if executor is None:
        stream: Iterable[tuple[int, GameResult]] = (
            (i, fn(*args)) for i, (fn, args) in enumerate(tasks))
    else:
        stream = executor.run(tasks)
    if store is not None and todo:
        store.set_status("running")
    try:
        for index, result in stream:
            key = todo[index].key
            results[key] = result
            if store is not None:
                store.add_games([(storage_key(key), result)])  # at once: a kill loses nothing
            if on_result is not None:
                on_result(key, result)
    except BaseException:
        if store is not None:
            store.set_status("interrupted")
        raise
    if store is not None:
        store.set_status("done")
    ordered = [results[s.key] for s in specs]
    anchor = "random" if "random" in labels else labels[0]
    ladder = rate(game, ordered, samples=samples, seed=seed, anchor=anchor)
    ladder.new_games, ladder.stored_games = len(todo), stored
    return ladder


def chart(ladder: Ladder, path: str, title: str | None = None) -> None:
    """Write the ladder as a PNG: each entrant's Elo with its bootstrap interval."""
    require("studies", "a ladder's chart")
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rows = list(reversed(ladder.rows()))
    fig, ax = plt.subplots(figsize=(7, 0.45 * len(rows) + 1.6), dpi=120)
    ys = range(len(rows))
    elo = [r["elo"] for r in rows]
    low = [r["elo"] - r["low"] for r in rows]
    high = [r["high"] - r["elo"] for r in rows]
    ax.errorbar(elo, list(ys), xerr=[low, high], fmt="o", color="#1f5fa8", ecolor="#7aa6d6",
                capsize=4)
    ax.set_yticks(list(ys), [r["agent"] for r in rows])
    ax.axvline(0, color="grey", lw=0.8, ls="--")
    first, n, (lo, hi) = ladder.first_score
    ax.set_xlabel(f"Elo (random = 0; 95% bootstrap intervals) — first player scores "
                  f"{100 * first:.0f}% [{100 * lo:.0f}, {100 * hi:.0f}] over {n} games",
                  fontsize=8)
    ax.set_title(title or f"{ladder.game} ladder")
    ax.grid(axis="x", alpha=0.3)
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)
