"""Round-robin tournaments between agents, for any game: paired starts, both seat orders,
games spread by the :class:`~lifearena.arena.executor.Executor`, every finished game stored
in a :class:`~lifearena.arena.storage.ResultsDB` as it arrives, resumable, with a report.

Schedule: for each pair of agents ``a``, ``b`` (``a`` listed first) the *pairing* ``"a|b"``
is played from ``games`` starts in seat order 0 (``a`` moves first) and, unless
``seats="one"``, seat order 1 (``b`` first); with ``self_play`` each agent also meets itself
(``"a|a"``, seat 0). With both seat orders and self-play this is the coursework's full table:
every (first player, second player) pair of the agents.

Paired starts: start ``i`` is the game's ``new_game(seed=s_i)`` with ``s_i`` drawn from the
master seed and ``i`` alone, so every pairing and seat order plays the same positions (and the
same chance seeds). Games are played in blocks of ``chunk`` consecutive starts; the agents of a
block are made once with seeds drawn from (master seed, block, seat), so results never depend
on the number of workers or on the order tasks finish. A block whose agents are plain names
(no options, no limits, no time control, default parameters) goes to the game's fast path
(:func:`lifearena.agents.registry.fast_player`) when it has one that knows both names;
otherwise to the referee.

>>> config = TournamentConfig("war_of_life", agents=parse_agents("random,minimax"), games=2)
>>> for pairing, seat, first, second in config.schedule():
...     print(pairing, seat, first.label, second.label)
random|random 0 random random
random|minimax 0 random minimax
random|minimax 1 minimax random
minimax|minimax 0 minimax minimax
"""

from __future__ import annotations

import csv
import functools
import importlib
import io
import json
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from lifearena.agents import Agent, Limit, available_agents, make
from lifearena.agents.base import TimeControl
from lifearena.agents.registry import fast_player, has_fast_path, is_spec_name, split_name
from lifearena.arena.executor import Executor
from lifearena.arena.referee import (
    GameResult,
    game_class,
    initial_state,
    play_game,
    result_from_moves,
)
from lifearena.arena.stats import (
    FirstPlayerRow,
    PairingRow,
    RankingRow,
    decisive_share,
    first_player_advantage,
    pairing_table,
    ranking,
)
from lifearena.arena.storage import GameKey, ResultsDB, Run
from lifearena.core import game_type
from lifearena.errors import BadParameterError

# -- agents -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class AgentSpec:
    """An entrant: its ``label`` in tables, the registered agent ``name`` it is made from,
    JSON-able factory ``options`` and a thinking ``limit`` (``"time=1,depth=3"`` form).

    >>> AgentSpec.parse("deep=minimax:depth=3,ties=random")
    AgentSpec(label='deep', name='minimax', options={'depth': 3, 'ties': 'random'}, limit=None)
    """

    label: str
    name: str
    options: Mapping[str, Any] = field(default_factory=dict)
    limit: str | None = None

    @classmethod
    def parse(cls, text: str) -> AgentSpec:
        """``NAME``, ``LABEL=NAME`` or ``LABEL=NAME:key=value,key=value`` (values read as
        JSON where they can be, else as text; the key ``limit`` takes ``time=..;nodes=..``).
        A Prolog strategy's NAME is ``prolog:FILE:PREDICATE``."""
        text = text.strip()
        head, tail = split_name(text)  # a module:callable name stays whole
        colon = bool(tail)
        label, eq, name = head.partition("=")
        label, name = label.strip(), (name if eq else head).strip()
        if name == "prolog":  # prolog:FILE:PREDICATE[:options] names one agent
            file, _, rest = tail.partition(":")
            predicate, separator, tail = rest.partition(":")
            colon = bool(separator)
            name = f"prolog:{file}:{predicate}"
            label = label if eq else name
        if not label or not name:
            raise BadParameterError(f"bad agent {text!r}; expected NAME, LABEL=NAME or "
                                    "LABEL=NAME:key=value,...")
        options: dict[str, Any] = {}
        limit = None
        for part in filter(None, (p.strip() for p in tail.split(","))) if colon else []:
            key, eq2, raw = part.partition("=")
            if not eq2 or not key.strip():
                raise BadParameterError(f"bad agent option {part!r} in {text!r}; "
                                        "expected key=value")
            if key.strip() == "limit":
                limit = raw.replace(";", ",")
                Limit.from_text(limit)
                continue
            try:
                options[key.strip()] = json.loads(raw)
            except json.JSONDecodeError:
                options[key.strip()] = raw
        return cls(label, name, options, limit)

    @property
    def plain(self) -> bool:
        """True when the entrant is a registered name with no options and no limit."""
        return not self.options and self.limit is None

    def build(self, game: str, seed: int) -> Agent:
        """A fresh agent for ``game`` seeded with ``seed``."""
        options = dict(self.options)
        if self.name == "bot":
            options.setdefault("label", self.label)  # forfeits name the bot by its label
        agent: Agent = make(self.name, game=game, seed=seed, **options)
        return agent

    def to_dict(self) -> dict[str, Any]:
        return {"label": self.label, "name": self.name, "options": dict(self.options),
                "limit": self.limit}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> AgentSpec:
        return cls(data["label"], data["name"], dict(data.get("options") or {}),
                   data.get("limit"))


def parse_agents(text: str | Sequence[str]) -> tuple[AgentSpec, ...]:
    """Agents from ``"a,b,c"`` (names) or a list of :meth:`AgentSpec.parse` strings."""
    items = [p for p in text.split(",")] if isinstance(text, str) else list(text)
    specs = tuple(AgentSpec.parse(item) for item in items if item.strip())
    if not specs:
        raise BadParameterError(f"no agents in {text!r}; expected names separated by commas")
    labels = [s.label for s in specs]
    if len(set(labels)) != len(labels):
        raise BadParameterError(f"agent labels repeat in {text!r}; give each entrant its own "
                                "label (LABEL=NAME)")
    return specs


def default_agents(game: str) -> tuple[AgentSpec, ...]:
    """The entrants of a game's standard table: its agent module's ``TOURNAMENT_AGENTS`` or
    ``STRATEGIES`` (War of Life: the coursework's five), else ``random`` and the agents
    registered for that game alone (the generic search agents need limits: name them)."""
    key = game_class(game).info.name
    available_agents(key)  # imports lifearena.agents.<game> where it exists
    try:
        module = importlib.import_module(f"lifearena.agents.{key}")
    except ModuleNotFoundError:
        module = None
    names = getattr(module, "TOURNAMENT_AGENTS", None) or getattr(module, "STRATEGIES", None)
    if not names:
        # generic search agents need a limit to be fair and quick: leave them to --agents
        generic = set(available_agents(None))
        names = ["random", *(n for n in available_agents(key) if n not in generic)]
    return tuple(AgentSpec(n, n) for n in names)


def default_params(game: str) -> dict[str, Any]:
    """Game parameters a tournament uses unless told otherwise: the game's
    ``tournament_params`` (e.g. a turn cap for Life for Two, which has no limit of its own),
    else none.

    >>> default_params("war_of_life")
    {}
    >>> default_params("life_for_two")
    {'max_turns': 100, 'limit_result': 'population'}
    """
    return dict(game_class(game).game_type.tournament_params)


# -- configuration ----------------------------------------------------------------------------

@dataclass(frozen=True)
class TournamentConfig:
    """Everything that decides a tournament's games (and nothing that does not: workers,
    scheduler and the results file are not part of it)."""

    game: str
    agents: tuple[AgentSpec, ...]
    games: int = 100
    seed: int = 0
    seats: str = "both"
    self_play: bool = True
    params: Mapping[str, Any] = field(default_factory=dict)
    time_control: TimeControl | None = None
    chunk: int | None = None
    fast: bool = True

    def __post_init__(self) -> None:
        info = game_class(self.game).info
        object.__setattr__(self, "game", info.name)
        game_type(info.name)(self.params)  # every parameter known and within its spec
        if self.games < 1:
            raise BadParameterError(f"games={self.games}; expected at least 1 per pairing")
        if self.seed < 0:
            raise BadParameterError(f"seed={self.seed}; expected a non-negative integer")
        if self.seats not in ("both", "one"):
            raise BadParameterError(f"seats={self.seats!r}; expected 'both' or 'one'")
        if self.chunk is not None and self.chunk < 1:
            raise BadParameterError(f"chunk={self.chunk}; expected at least 1")
        if not self.agents:
            raise BadParameterError("a tournament needs at least one agent")
        known = set(available_agents(info.name))
        for spec in self.agents:  # an unknown agent is refused before any game is played
            if spec.name.strip().lower().replace("-", "_") not in known \
                    and not is_spec_name(spec.name):
                raise BadParameterError(f"unknown agent {spec.name!r} for {info.name}; "
                                        f"expected one of: {', '.join(sorted(known))}")
        if self.chunk is None:
            object.__setattr__(self, "chunk", 50 if self._fast_candidate() else 4)

    def _fast_candidate(self) -> bool:
        return bool(self.fast and self.time_control is None and not self.params
                    and all(a.plain for a in self.agents)
                    and has_fast_path(self.game))

    def schedule(self) -> list[tuple[str, int, AgentSpec, AgentSpec]]:
        """``(pairing, seat, first player, second player)`` for every series of games."""
        out = []
        for i, a in enumerate(self.agents):
            for b in self.agents[i:]:
                if a is b:
                    if self.self_play:
                        out.append((f"{a.label}|{a.label}", 0, a, a))
                    continue
                out.append((f"{a.label}|{b.label}", 0, a, b))
                if self.seats == "both":
                    out.append((f"{a.label}|{b.label}", 1, b, a))
        return out

    def total_games(self) -> int:
        return len(self.schedule()) * self.games

    def total_blocks(self) -> int:
        """How many tasks (blocks of ``chunk`` games) the whole tournament is."""
        assert self.chunk is not None
        return len(self.schedule()) * -(-self.games // self.chunk)

    def to_dict(self) -> dict[str, Any]:
        return {
            "game": self.game, "agents": [a.to_dict() for a in self.agents],
            "games": self.games, "seed": self.seed, "seats": self.seats,
            "self_play": self.self_play, "params": dict(self.params),
            "time_control": self.time_control.to_dict() if self.time_control else None,
            "chunk": self.chunk, "fast": self.fast,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> TournamentConfig:
        return cls(game=data["game"], agents=tuple(AgentSpec.from_dict(a) for a in data["agents"]),
                   games=data["games"], seed=data["seed"], seats=data["seats"],
                   self_play=data["self_play"], params=dict(data["params"]),
                   time_control=TimeControl.from_dict(data["time_control"]),
                   chunk=data["chunk"], fast=data["fast"])


def start_seed(master: int, index: int) -> int:
    """The seed of start ``index`` (the same for every pairing: paired starts)."""
    return int(np.random.SeedSequence([master, index]).generate_state(1, np.uint32)[0])


def agent_seed(master: int, block: int, seat: int) -> int:
    """The seed of the agent moving ``seat``-th (0 first) in block ``block``."""
    return int(np.random.SeedSequence([master, 1_000_003, block, seat])
               .generate_state(1, np.uint32)[0])


# -- playing one block (runs in a worker) -----------------------------------------------------

@functools.lru_cache(maxsize=8192)
def _start_setup(game: str, params_key: str, seed: int) -> str:
    # every pairing plays the same starts: a worker makes each one once
    return initial_state(game, seed=seed, params=json.loads(params_key)).setup()


def play_block(config: Mapping[str, Any], pairing: str, seat: int, block: int
               ) -> list[tuple[GameKey, GameResult]]:
    """Play block ``block`` of ``(pairing, seat)``: the task the executor runs."""
    cfg = TournamentConfig.from_dict(config)
    series = {(p, s): (a, b) for p, s, a, b in cfg.schedule()}
    first, second = series[(pairing, seat)]
    assert cfg.chunk is not None
    indices = range(block * cfg.chunk, min((block + 1) * cfg.chunk, cfg.games))
    seeds = [start_seed(cfg.seed, i) for i in indices]
    agent_seeds = (agent_seed(cfg.seed, block, 0), agent_seed(cfg.seed, block, 1))
    params_key = json.dumps(dict(cfg.params), sort_keys=True)
    setups = [_start_setup(cfg.game, params_key, s) for s in seeds]
    names = [first.label, second.label]
    fast = fast_player(cfg.game, (first.name, second.name), agent_seeds) \
        if cfg._fast_candidate() else None
    results: list[GameResult]
    if fast is not None:
        results = [result_from_moves(cfg.game, setup, names, moves, outcome, seconds,
                                     params=cfg.params, seed=s)
                   for setup, s, (moves, outcome, seconds) in zip(setups, seeds,
                                                                    fast.play(setups),
                                                                    strict=True)]
    else:
        players = [first.build(cfg.game, agent_seeds[0]), second.build(cfg.game, agent_seeds[1])]
        limits = [Limit.from_text(a.limit) if a.limit else None for a in (first, second)]
        results = [play_game(cfg.game, players, setup=setup, seed=s, params=cfg.params,
                             names=names, limits=limits, time_control=cfg.time_control)
                   for setup, s in zip(setups, seeds, strict=True)]
    return [(GameKey(pairing, i, seat), r) for i, r in zip(indices, results, strict=True)]


# -- running ----------------------------------------------------------------------------------

Progress = Callable[[int, int], None]
"""Called as ``progress(games_just_stored, games_total)``."""


def pending_blocks(config: TournamentConfig, done: set[GameKey]
                   ) -> list[tuple[str, int, int]]:
    """``(pairing, seat, block)`` still to play, block-major so that an interrupted tournament
    has every pairing equally advanced."""
    assert config.chunk is not None
    blocks = -(-config.games // config.chunk)
    out = []
    for block in range(blocks):
        indices = range(block * config.chunk, min((block + 1) * config.chunk, config.games))
        for pairing, seat, _, _ in config.schedule():
            if any(GameKey(pairing, i, seat) not in done for i in indices):
                out.append((pairing, seat, block))
    return out


def run_tournament(config: TournamentConfig, *, db: ResultsDB | str | Path | None = None,
                   name: str | None = None, executor: Executor | None = None,
                   workers: int | None = 1, scheduler: Any = None,
                   progress: Progress | None = None, fresh: bool = False) -> TournamentReport:
    """Play (or finish) the tournament and return its report.

    Results go to ``db`` (a path or an open :class:`ResultsDB`; in memory when ``None``) under
    the run ``name`` (default ``"tournament-<game>"``); games already stored there are not
    played again. ``executor`` (or ``workers``/``scheduler`` to make one) spreads the blocks.
    ``progress(new, total)`` is called first with the games already done, then per block.
    """
    own_db = not isinstance(db, ResultsDB)
    database = db if isinstance(db, ResultsDB) else ResultsDB(":memory:" if db is None else db)
    try:
        run = database.open_run(name or f"tournament-{config.game}", "tournament",
                                config.to_dict(), fresh=fresh)
        done = run.done_games()
        total = config.total_games()
        if progress:
            progress(len(done), total)
        todo = pending_blocks(config, done)
        if todo:
            run.set_status("running")
            data = config.to_dict()
            tasks = ((play_block, (data, pairing, seat, block)) for pairing, seat, block in todo)
            pool = executor or Executor(workers, scheduler=scheduler, tasks=len(todo))
            try:
                with pool:
                    for _, games in pool.run(tasks):
                        added = run.add_games(games)
                        if progress:
                            progress(added, total)
            except BaseException:
                run.set_status("interrupted")
                raise
        run.set_status("done")
        return report(run)
    finally:
        if own_db:
            database.close()


# -- the report -------------------------------------------------------------------------------

@dataclass
class TournamentReport:
    """A tournament's table, ranking and first-player advantage, with exports."""

    config: TournamentConfig
    table: list[PairingRow]
    ranking: list[RankingRow]
    first_player: list[FirstPlayerRow]
    decisive: tuple[int, int, float, float, float]
    games: int
    forfeits: list[ForfeitRow] = field(default_factory=list)
    """Who forfeited games and why (a bot that crashed, timed out or played illegally)."""

    def to_json(self) -> str:
        return json.dumps({
            "config": self.config.to_dict(), "games": self.games,
            "table": [r.as_dict() for r in self.table],
            "ranking": [r.as_dict() for r in self.ranking],
            "first_player": [r.as_dict() for r in self.first_player],
            "first_player_share_of_decisive": dict(zip(
                ("wins", "decisive", "share", "low", "high"), self.decisive, strict=True)),
            "forfeits": [r.as_dict() for r in self.forfeits],
        }, indent=2)

    TABLE_COLUMNS = ("p1", "p2", "games", "p1_wins", "p2_wins", "draws", "avg_length",
                     "avg_time", "forfeits")

    def to_csv(self) -> str:
        """The pairing table as CSV (one row per first player, second player)."""
        buffer = io.StringIO()
        writer = csv.writer(buffer, lineterminator="\n")
        writer.writerow(self.TABLE_COLUMNS)
        for row in self.table:
            writer.writerow([getattr(row, c) for c in self.TABLE_COLUMNS])
        return buffer.getvalue()

    def to_markdown(self) -> str:
        cfg = self.config
        lines = [f"# {cfg.game} tournament", "",
                 f"{self.games} games; {cfg.games} per pairing and seat order; seed {cfg.seed}.",
                 "", "| P1 strategy | P2 strategy | games | P1 wins | P2 wins | draws | "
                 "avg length | avg time (ms) |", "|---|---|---:|---:|---:|---:|---:|---:|"]
        for r in self.table:
            lines.append(f"| {r.p1} | {r.p2} | {r.games} | {r.p1_wins} | {r.p2_wins} | "
                         f"{r.draws} | {r.avg_length:.2f} | {1000 * r.avg_time:.3f} |")
        lines += ["", "## Ranking (self-play excluded)", "",
                  "| rank | agent | games | wins | draws | losses | score | win rate (95% CI) |",
                  "|---:|---|---:|---:|---:|---:|---:|---|"]
        for i, ranked in enumerate(self.ranking, start=1):
            lines.append(f"| {i} | {ranked.agent} | {ranked.games} | {ranked.wins} | "
                         f"{ranked.draws} | {ranked.losses} | {ranked.score:.3f} | "
                         f"{_pct(ranked.win_rate, ranked.win_low, ranked.win_high)} |")
        lines += ["", "## First-player advantage", "",
                  "| agent | wins moving first | wins moving second | advantage (95% CI) |",
                  "|---|---|---|---|"]
        for first in self.first_player:
            lines.append(f"| {first.agent} | "
                         f"{_pct(first.first_rate, first.first_low, first.first_high)} | "
                         f"{_pct(first.second_rate, first.second_low, first.second_high)} | "
                         f"{_signed(first.advantage, first.advantage_low, first.advantage_high)} |")
        wins, decisive, share, low, high = self.decisive
        lines += ["", f"The first player won {wins} of {decisive} decisive games: "
                  f"{_pct(share, low, high)}.", ""]
        if self.forfeits:
            lines += ["## Forfeits", "", *(f"- {r.describe()}" for r in self.forfeits), ""]
        return "\n".join(lines)

    def export(self, path: str | Path) -> Path:
        """Write the report to ``path``: ``.json``, ``.csv`` (the table) or ``.md``."""
        target = Path(path)
        writers = {".json": self.to_json, ".csv": self.to_csv, ".md": self.to_markdown,
                   ".markdown": self.to_markdown}
        if target.suffix.lower() not in writers:
            raise BadParameterError(f"cannot export to {str(path)!r}; expected a file name "
                                    "ending in .json, .csv or .md")
        target.write_text(writers[target.suffix.lower()](), encoding="utf-8")
        return target


def _pct(rate: float, low: float, high: float) -> str:
    return f"{100 * rate:.1f}% [{100 * low:.1f}, {100 * high:.1f}]"


def _signed(rate: float, low: float, high: float) -> str:
    return f"{100 * rate:+.1f} pts [{100 * low:+.1f}, {100 * high:+.1f}]"


@dataclass(frozen=True)
class ForfeitRow:
    """How many games an agent forfeited, by reason (``crash``, ``timeout``, ``illegal``...),
    with the referee's words for the first one.

    >>> ForfeitRow("mine", 72, (("crash", 72),), "mine crashed: no such file").describe()
    'mine forfeited 72 games (crash 72): mine crashed: no such file'
    """

    agent: str
    games: int
    reasons: tuple[tuple[str, int], ...]
    detail: str

    def describe(self) -> str:
        reasons = ", ".join(f"{reason} {count}" for reason, count in self.reasons)
        plural = "game" if self.games == 1 else "games"
        return f"{self.agent} forfeited {self.games} {plural} ({reasons}): {self.detail}"

    def as_dict(self) -> dict[str, Any]:
        return {"agent": self.agent, "games": self.games, "reasons": dict(self.reasons),
                "detail": self.detail}


def forfeit_rows(results: Iterator[tuple[GameKey, GameResult]], order: Sequence[str] = ()
                 ) -> list[ForfeitRow]:
    """Who forfeited the forfeited games among ``results``: the loser of a single forfeit,
    both players of a double one; listed in ``order``, then by name."""
    counts: dict[str, dict[str, int]] = {}
    details: dict[str, str] = {}
    for _, result in results:
        if not result.forfeit:
            continue
        winner = result.winner
        losers = set(result.players) if winner is None else {result.players[1 - winner]}
        reason = str(result.extra.get("forfeit") or "forfeit")
        for loser in losers:
            by_reason = counts.setdefault(loser, {})
            by_reason[reason] = by_reason.get(reason, 0) + 1
            details.setdefault(loser, result.outcome.detail)
    rank = {name: i for i, name in enumerate(order)}
    return [ForfeitRow(agent, sum(counts[agent].values()), tuple(sorted(counts[agent].items())),
                       details[agent])
            for agent in sorted(counts, key=lambda a: (rank.get(a, len(rank)), a))]


def report(run: Run) -> TournamentReport:
    """The report of a stored tournament run."""
    config = TournamentConfig.from_dict(run.config)
    summaries = run.summaries()
    order = [a.label for a in config.agents]
    # the reasons live in the games' records: read them only when some game was forfeited
    forfeited = any(s["termination"] == "forfeit" for s in summaries)
    return TournamentReport(
        config=config, table=pairing_table(summaries, order), ranking=ranking(summaries),
        first_player=first_player_advantage(summaries, order),
        decisive=decisive_share(summaries), games=len(summaries),
        forfeits=forfeit_rows(run.games(), order) if forfeited else [])


def iter_results(run: Run) -> Iterator[tuple[GameKey, GameResult]]:
    """Every stored game of a run with its record (for replays and further analysis)."""
    return run.games()
