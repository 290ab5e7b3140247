"""The one terminal play loop behind every ``play`` command: people and agents, turn-based
and simultaneous games.

The loop asks each seat in turn: an agent acts on ``state.view(player)``, judged as the
arena's referee judges it (:func:`~lifearena.arena.referee.ask_agent`: an agent that
crashes, runs out of time or moves illegally forfeits the game); a person is prompted and
types a move in the game's own notation or a command:

========================  ===============================================================
``moves`` / ``legal``     the legal moves (the presentation's ``legal_moves_text``)
``help`` / ``?`` / empty  the notation (:attr:`State.move_help`), the legal moves, commands
``board``                 the board again (``str(state)``, or the command's own drawing)
``hint``                  a suggestion, where the command offers one
``quit`` / ``exit``       stop; the game so far is saved (``--save``) and the command ends
========================  ===============================================================

A move that does not parse or is not legal is refused with the game's own reason
(:meth:`State.read_move`, the presentation's ``explain_illegal``) and asked again. At a simultaneous
node every person enters their choice in turn; when two people share the terminal in a game
with hidden information, the choices are read without echo so the second cannot read the
first's (input from a pipe or a file is never echoed, so it is read as it is). When standard
input ends (closed, empty, Ctrl-D) the game so far is saved and :class:`InputEnded` is
raised: the command prints one line on standard error and exits with status 2 without
prompting anyone else. Ctrl-C saves the game so far too, and the command says
``interrupted`` (status 130).

:func:`replay_in_terminal` shows a saved record with the same :class:`Display`, move by move,
after checking every move (:func:`lifearena.core.replay`), so a broken record shows nothing.

Everything about a game comes from its :class:`~lifearena.core.State` hooks; a command only
chooses its seats and how the board and each move are shown (a :class:`Display`).
"""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

import numpy as np
import typer

from lifearena.agents import Agent, Limit
from lifearena.arena.referee import Forfeit, ask_agent, forfeit_outcome
from lifearena.cli.outcome_text import describe_outcome, player_name
from lifearena.core import (
    CHANCE,
    SIMULTANEOUS,
    Action,
    Information,
    Outcome,
    Record,
    State,
    Termination,
    load_game,
    presentation_of,
    replay,
)
from lifearena.errors import BadParameterError, LifeArenaError, ParseError

HUMAN = "human"
QUIT_WORDS = ("quit", "exit", "q")


class InputEnded(LifeArenaError):
    """Standard input ended while a person was to move."""


@dataclass
class Seat:
    """Who plays one side: a person (``agent`` is None) or an agent with its limit."""

    label: str
    agent: Agent | None = None
    limit: Limit | None = None

    @property
    def is_human(self) -> bool:
        return self.agent is None


class Display:
    """How a command shows the game. The defaults print the text board and one line per
    move; commands override what they draw differently (their transcripts are their own)."""

    labels: Sequence[str] = ()
    """The players' names (set by :class:`TerminalPlay` and :func:`replay_in_terminal`)."""

    def __init__(self, echo: Callable[[str], None] = typer.echo) -> None:
        self.echo = echo

    def result(self, state: State, outcome: Outcome | None = None) -> str:
        """Who won and why in words (``outcome``, else the state's), or ``unfinished``."""
        outcome = outcome or state.outcome()
        if outcome is None:
            return "unfinished"
        return describe_outcome(outcome, state.info, self.labels)

    def start(self, state: State) -> None:
        """Before the first move."""
        self.echo(str(state))

    def before_turn(self, state: State) -> None:
        """Before each turn (sequential move or joint move)."""

    def before_prompt(self, state: State, player: int) -> None:
        """Before each prompt of a person."""

    def board(self, state: State) -> None:
        """The ``board`` command."""
        self.echo(str(state))

    def prompt(self, state: State, player: int, seat: Seat) -> str:
        asked = presentation_of(state).move_prompt(state, player)
        return f"{state.info.player_symbols[player]} to move ({asked})"

    def moved(self, state: State, player: int, text: str) -> None:
        """After a sequential move ``text`` of ``player``."""
        self.echo(f"{state.move_number()}. {state.info.player_symbols[player]} {text}")
        self.echo(str(state))

    def moved_together(self, state: State, texts: Sequence[str]) -> None:
        """After a joint move at a simultaneous node (one text per player)."""
        symbols = state.info.player_symbols
        self.echo(" | ".join(f"{symbols[p]} {t}" for p, t in enumerate(texts)))
        self.echo(str(state))

    def refused(self, message: str) -> None:
        self.echo(f"refused: {message}")

    def abandoned(self, state: State) -> None:
        self.echo("game abandoned")

    def end(self, state: State, outcome: Outcome | None = None) -> None:
        """After the game (finished, forfeited: ``outcome``, or abandoned)."""
        self.echo(f"result: {self.result(state, outcome)}")

    def saved(self, record: Record, path: Path) -> None:
        self.echo(f"saved {len(record.moves)} moves to {path}")


@dataclass
class TerminalPlay:
    """One game at the terminal: ``state`` played by ``seats`` until it ends or a person
    quits. ``commands`` adds a command's own words (a function of the state and the player
    to move); ``hint`` returns the line suggesting a move; ``read`` replaces the prompt
    (``read(prompt, hidden) -> text``, raising ``EOFError`` at the end of input); ``seed``
    drives chance nodes; ``record_extra`` goes into the saved record."""

    state: State
    seats: Sequence[Seat]
    display: Display = field(default_factory=Display)
    save: Path | None = None
    commands: dict[str, Callable[[State, int], None]] = field(default_factory=dict)
    hint: Callable[[State, int], str] | None = None
    read: Callable[[str, bool], str] | None = None
    seed: int = 0
    record_extra: dict[str, object] = field(default_factory=dict)
    forfeited: int | None = field(default=None, init=False)
    """The player whose agent forfeited (failed, timed out, moved illegally), if one did."""
    outcome: Outcome | None = field(default=None, init=False)
    """How the game ended: the state's outcome, or the other side's win by forfeit."""
    _forfeit_detail: str = field(default="", init=False, repr=False)
    _forfeit_reason: str = field(default="", init=False, repr=False)

    def __post_init__(self) -> None:
        if len(self.seats) != self.state.info.num_players:
            raise BadParameterError(f"{len(self.seats)} seats for a "
                                    f"{self.state.info.num_players}-player game; expected one "
                                    "per player")
        self._chance = np.random.default_rng(self.seed)
        if not self.display.labels:
            self.display.labels = [seat.label for seat in self.seats]

    @property
    def hidden(self) -> bool:
        """Read choices without echo: people share the terminal and may not see each other's
        choices (a simultaneous game with hidden information)."""
        info = self.state.info
        return (info.information is Information.IMPERFECT
                and sum(seat.is_human for seat in self.seats) > 1)

    def command_words(self) -> str:
        words = ["moves", "help", "board", *(["hint"] if self.hint else []), *self.commands,
                 "quit"]
        return ", ".join(words)

    def run(self) -> State:
        """Play to the end, or until a person quits; save the record if asked. Raises
        :class:`InputEnded` (after saving) when standard input runs out."""
        state, display = self.state, self.display
        display.start(state)
        try:
            while not state.is_terminal():
                display.before_turn(state)
                current = state.current_player()
                if current == SIMULTANEOUS:
                    joint = []
                    for player in range(state.info.num_players):
                        action = self._choose(player)
                        if action is None:
                            break
                        joint.append(action)
                    else:
                        texts = [state.action_to_string(a, p) for p, a in enumerate(joint)]
                        state.apply_actions(joint)
                        display.moved_together(state, texts)
                        continue
                    if self.forfeited is None:
                        display.abandoned(state)
                    break
                if current == CHANCE:
                    actions, weights = zip(*state.chance_outcomes(), strict=True)
                    p = np.asarray(weights, dtype=float)
                    state.apply_action(int(self._chance.choice(actions, p=p / p.sum())))
                    continue
                action = self._choose(current)
                if action is None:
                    if self.forfeited is None:
                        display.abandoned(state)
                    break
                text = state.action_to_string(action, current)
                state.apply_action(action)
                display.moved(state, current, text)
        except (InputEnded, KeyboardInterrupt):
            self._save()  # the game so far is kept: the command says "interrupted" for Ctrl-C
            raise
        self.outcome = self._forfeit_outcome() or state.outcome()
        display.end(state, self.outcome)
        self._save()
        return state

    def _forfeit_outcome(self) -> Outcome | None:
        """The other side's win when an agent forfeited (as the arena's referee scores it)."""
        if self.forfeited is None:
            return None
        return forfeit_outcome(self.state.info, self.forfeited, self._forfeit_detail)

    def _save(self) -> None:
        if self.save is None:
            return
        extra = dict(self.record_extra)
        if self.forfeited is not None:
            extra["forfeit"] = self._forfeit_reason  # as the arena's referee records it
        record = self.state.record(players=[seat.label for seat in self.seats], **extra)
        if self.outcome is not None and self.forfeited is not None:
            record = replace(record, result=str(self.outcome))
        record.save(self.save)
        self.display.saved(record, self.save)

    def _choose(self, player: int) -> Action | None:
        seat = self.seats[player]
        if seat.agent is not None:
            try:
                return ask_agent(self.state, player, seat.agent, seat.label, seat.limit)
            except Forfeit as failure:
                # an agent that crashes, times out or moves illegally forfeits, as in the arena
                symbol = self.state.info.player_symbols[player]
                typer.echo(f"{symbol} ({seat.label}) forfeits: {failure.detail}")
                self.forfeited = player
                self._forfeit_detail = failure.detail
                self._forfeit_reason = failure.reason
                return None
        return self._ask(player, seat)

    def _read(self, prompt: str, hidden: bool) -> str:
        if self.read is not None:
            return self.read(prompt, hidden)
        if sys.stdin is None or sys.stdin.closed:
            raise EOFError
        if hidden and _piped(sys.stdin):
            hidden = False  # piped input is never echoed, and getpass would talk on stderr
        try:
            # typer's prompt (not click's): typer may vendor its own click, whose test runner
            # stands in for the terminal
            return typer.prompt(prompt, default="", show_default=False, hide_input=hidden,
                                prompt_suffix="> ")
        except typer.Abort as abort:
            # the prompt turns Ctrl-C and the end of input into the same Abort
            if isinstance(abort.__context__, KeyboardInterrupt):
                raise KeyboardInterrupt from None
            raise EOFError from None

    def _ask(self, player: int, seat: Seat) -> Action | None:
        """Prompt ``player`` until they type a legal move; ``None`` when they quit."""
        state, display = self.state, self.display
        name = player_name(state.info, player, self.display.labels)
        while True:
            display.before_prompt(state, player)
            try:
                text = self._read(display.prompt(state, player, seat), self.hidden).strip()
            except EOFError:
                display.echo("")
                raise InputEnded(f"standard input ended while waiting for {name}'s move; "
                                 "expected a move or 'quit'") from None
            word = text.lower()
            if word in QUIT_WORDS:
                return None
            if word in ("moves", "legal"):
                display.echo(presentation_of(state).legal_moves_text(state, player))
                continue
            if word in ("help", "?", ""):
                display.echo(f"type a move ({state.move_help}) or a command "
                             f"({self.command_words()})")
                legal = presentation_of(state).legal_moves_text(state, player)
                display.echo(f"legal:\n{legal}" if "\n" in legal else f"legal: {legal}")
                continue
            if word == "board":
                display.board(state)
                continue
            if word == "hint" and self.hint is not None:
                display.echo(self.hint(state, player))
                continue
            if word in self.commands:
                self.commands[word](state, player)
                continue
            try:
                return state.read_move(text, player)
            except LifeArenaError as error:
                display.refused(str(error))


def _piped(stream: object) -> bool:
    """Whether ``stream`` is a real file descriptor that is not a terminal (a pipe, a file,
    /dev/null); a test runner's stand-in counts as a terminal."""
    try:
        return not os.isatty(stream.fileno())  # type: ignore[attr-defined]
    except (AttributeError, OSError, ValueError):
        return False


def make_seats(names: Sequence[str], make: Callable[[str, int], Agent],
               limit: Limit | None = None) -> list[Seat]:
    """One seat per name: ``human`` for a person, else ``make(name, player)``'s agent."""
    return [Seat(name, None if name.strip().lower() == HUMAN else make(name, player), limit)
            for player, name in enumerate(names)]


def replay_in_terminal(path: Path, game: str, display: Display) -> Record:
    """Show the game saved in ``path`` (which must be a game of ``game``) move by move with
    ``display``; every move is checked before anything is shown. Returns the record."""
    record = Record.read(path)
    expected = load_game(game).info.name
    if record.game != expected:
        raise ParseError(f"{path} records a game of {record.game!r}; expected {expected}")
    try:
        final = replay(record)
    except ParseError as error:
        raise ParseError(f"{path}: {error}") from None
    state = type(final).from_setup(record.setup, **record.params)
    if not display.labels:
        display.labels = list(record.players)
    display.start(state)
    for item in final.history():
        display.before_turn(state)
        if isinstance(item, tuple):
            texts = [state.action_to_string(a, p) for p, a in enumerate(item)]
            state.apply_actions(item, check=False)
            display.moved_together(state, texts)
        else:
            player = state.current_player()
            text = state.action_to_string(item, None if player < 0 else player)
            state.apply_action(item, check=False)
            display.moved(state, player, text)
    display.end(state, recorded_forfeit(record, state.info.player_symbols))
    return record


def recorded_forfeit(record: Record, symbols: Sequence[str]) -> Outcome | None:
    """The forfeit a record ends with (``extra.forfeit`` and its structured outcome, or, in
    records written before outcomes were kept, a result such as ``r wins (forfeit,
    DETAIL)``), so that a replay ends as the game did; ``None`` for other records.

    >>> r = Record("war_of_life", {}, "x", ["a", "b"], [], "r wins (forfeit, b crashed)",
    ...            {"forfeit": "crash"})
    >>> recorded_forfeit(r, ("b", "r"))
    Outcome(termination=<Termination.FORFEIT: 'forfeit'>, winner=1, winner_symbol='r', \
detail='b crashed')
    """
    if not record.extra.get("forfeit"):
        return None
    if record.outcome is not None:  # the structured outcome; older records: the words
        outcome = record.outcome_value()
        return outcome if outcome is not None and \
            outcome.termination is Termination.FORFEIT else None
    found = re.match(r"^(?:(\S+) wins|draw) \(forfeit(?:, (.*))?\)$", record.result, re.S)
    if found is None or (found.group(1) is not None and found.group(1) not in symbols):
        return None
    winner = None if found.group(1) is None else list(symbols).index(found.group(1))
    return Outcome(Termination.FORFEIT, winner, found.group(1), found.group(2) or "")
