"""A connected bot: it reads its event stream, answers challenges, plays each game in a
thread of its own, and comes back after network faults without losing a game.

* The event stream is read in the calling thread. A ``gameStart`` starts the game's thread
  (once per game id); a ``challenge`` addressed to the bot is accepted or declined by its
  :class:`~lifearena.online.rules.AcceptRules`; a ``gameFinish`` counts the game.
* A game's thread reads the game's stream; whenever the state says it is the bot's turn and
  it has not chosen yet, it rebuilds the position from the moves, asks the agent, and posts
  the move with the move number it was chosen at (so a move is never played twice: the
  server refuses a second post of one move number, 409).
* A cut stream (:class:`~lifearena.online.api.Unreachable`) is opened again after a wait
  that doubles from :data:`FIRST_WAIT` to :data:`LONGEST_WAIT`; the event stream's
  ``gameStart`` lines on reconnect resume any game whose thread has ended, and a game's
  reopened stream starts with the whole game (``gameFull``).
* ``games``: stop once that many games have finished (and none is going on).
"""

from __future__ import annotations

import itertools
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from lifearena.errors import LifeArenaError
from lifearena.online.api import APIError, BotAPI, Unreachable
from lifearena.online.player import AgentMaker, choose, close, position, think_limit
from lifearena.online.rules import AcceptRules

FIRST_WAIT = 0.5
"""Seconds before the first reconnection."""
LONGEST_WAIT = 30.0
"""The longest wait between reconnections."""
STEADY = 10.0
"""Seconds a stream must stay open for the next fault to wait :data:`FIRST_WAIT` again."""


@dataclass(frozen=True)
class Wanted:
    """A game the bot asks for once connected, again after each game ends: a challenge
    of the player ``opponent``, or (``opponent`` ``None``) a seat in the bots' pool of
    ``game`` at ``preset``."""

    game: str
    opponent: str | None = None
    params: dict[str, Any] = field(default_factory=dict)
    clock: dict[str, Any] | None = None
    rated: bool = False
    colour: int | str = "random"
    preset: str | None = None


class Backoff:
    """Waits between reconnections, doubling up to :data:`LONGEST_WAIT`."""

    def __init__(self) -> None:
        self.wait = FIRST_WAIT
        self.since = time.monotonic()

    def connected(self) -> None:
        self.since = time.monotonic()

    def next(self) -> float:
        if time.monotonic() - self.since > STEADY:
            self.wait = FIRST_WAIT
        wait, self.wait = self.wait, min(LONGEST_WAIT, self.wait * 2)
        return wait


class BotRunner:
    """One connected bot (see the module)."""

    def __init__(self, api: BotAPI, maker: AgentMaker, rules: AcceptRules, *,
                 games: int | None = None, wanted: Wanted | None = None,
                 log: Callable[[str], None] = print, seed: int = 0) -> None:
        self.api = api
        self.maker = maker
        self.rules = rules
        self.games = games
        self.wanted = wanted
        self.log = log
        self.seeds = itertools.count(seed)
        self.stop = threading.Event()
        self.lock = threading.Lock()
        self.playing: dict[str, threading.Thread] = {}
        self.finished: dict[str, str] = {}
        self.me: dict[str, Any] = {}
        self.failure: LifeArenaError | None = None
        self._asked = 0  # games asked for (challenges made, seeks)

    # -- the whole run -------------------------------------------------------------------

    def run(self) -> int:
        """Play until ``games`` games have finished (or forever); answer how many did."""
        self.me = self._who_am_i()
        backoff = Backoff()
        try:
            while not self.stop.is_set():
                try:
                    self._read_events(backoff)
                except Unreachable as error:
                    if self.stop.is_set():
                        break
                    wait = backoff.next()
                    self.log(f"connection lost ({error}); reconnecting in {wait:.1f} s")
                    self.stop.wait(wait)
                if self.failure is not None:
                    raise self.failure
        finally:
            self.stop.set()
            for thread in list(self.playing.values()):
                thread.join(timeout=5)
        return len(self.finished)

    def _who_am_i(self) -> dict[str, Any]:
        player = self.api.me().get("player")
        if not player:
            raise APIError(401, "this API token belongs to nobody")
        if player.get("kind") != "bot":
            raise APIError(403, f"{player.get('name')!r} is a {player.get('kind')} account; "
                           "only bot accounts play through the bot API (make it a bot on the "
                           "account page before its first game)")
        self.log(f"connected to {self.api.url} as {player['name']}, playing "
                 f"{self.maker.label}")
        return dict(player)

    def _read_events(self, backoff: Backoff) -> None:
        # asked before the stream opens: a game that starts meanwhile is in the stream's
        # first lines (every game in progress), so none is missed
        self._ask_for_games()
        first = True
        for event in self.api.events():
            if first:
                first = False
                backoff.connected()
            kind = event.get("type")
            if kind == "gameStart":
                self._start_game(event["game"])
            elif kind == "gameFinish":
                self._game_over(event["game"])
            elif kind == "challenge":
                self._challenge(event["challenge"])
            elif kind in ("challengeDeclined", "challengeCanceled"):
                self._challenge_closed(kind, event["challenge"])
            elif kind == "keepAlive":
                self._keep_seeking()
            if self._done():
                self.stop.set()
            if self.stop.is_set():
                return
        if not self.stop.is_set():
            raise Unreachable("the event stream ended")

    def _done(self) -> bool:
        with self.lock:
            here = threading.current_thread()
            active = any(t.is_alive() and t is not here for t in self.playing.values())
            return (self.games is not None and len(self.finished) >= self.games
                    and not active) or self.failure is not None

    # -- asking for games ----------------------------------------------------------------

    def _ask_for_games(self) -> None:
        """Challenge or seek, once per game still wanted and not being played."""
        wanted = self.wanted
        if wanted is None:
            return
        with self.lock:
            active = sum(t.is_alive() for t in self.playing.values())
            target = len(self.finished) + active
        if self.games is not None and target >= self.games:
            return
        if self._asked > target:
            return  # the last request has not turned into a game yet
        try:
            if wanted.opponent is not None:
                made = self.api.challenge(wanted.opponent, wanted.game, wanted.params,
                                          wanted.clock, wanted.rated, wanted.colour)
                self.log(f"challenged {wanted.opponent} to {wanted.game} "
                         f"({'rated' if wanted.rated else 'casual'}): "
                         f"{made['challenge']['id']}")
            else:
                assert wanted.preset is not None
                self.api.seek(wanted.game, wanted.preset, wanted.rated)
                self.log(f"waiting in the bots' pool of {wanted.game} {wanted.preset}")
            self._asked = target + 1
        except APIError as error:
            self.failure = error

    def _keep_seeking(self) -> None:
        """While a seek has not become a game, tell the pools this bot still waits, and
        seek again if it was dropped (a restarted server forgets its pools)."""
        wanted = self.wanted
        if wanted is None or wanted.preset is None:
            return
        with self.lock:
            target = len(self.finished) + sum(t.is_alive() for t in self.playing.values())
        if self._asked <= target:
            return  # not waiting
        try:
            where = self.api.seeking()
        except APIError as error:
            self.log(f"could not ask the pools where this bot waits: {error}")
            return
        if not where.get("seeking") and not where.get("paired"):
            self._asked = target
            self._ask_for_games()

    def _challenge(self, challenge: dict[str, Any]) -> None:
        if challenge.get("status") != "open":
            return
        challenger = challenge.get("challenger", {})
        if challenger.get("id") == self.me.get("id"):
            return  # our own, told back to us
        with self.lock:
            playing = sum(t.is_alive() for t in self.playing.values())
        reason = self.rules.refusal(challenge, playing)
        if reason is None and self.maker.problem(str(challenge.get("game"))) is not None:
            reason = "game"
        if reason is None and self.games is not None and \
                len(self.finished) + playing >= self.games:
            reason = "later"
        who = challenger.get("name", "?")
        try:
            if reason is None:
                self.api.accept(challenge["id"])
                self.log(f"accepted {who}'s challenge to {challenge.get('game')}")
            else:
                self.api.decline(challenge["id"], reason)
                self.log(f"declined {who}'s challenge to {challenge.get('game')} ({reason})")
        except APIError as error:  # taken back or expired meanwhile
            self.log(f"{who}'s challenge could not be answered: {error}")

    def _challenge_closed(self, kind: str, challenge: dict[str, Any]) -> None:
        if challenge.get("challenger", {}).get("id") != self.me.get("id"):
            return
        dest = challenge.get("dest", {}).get("name", "?")
        said = "declined" if kind == "challengeDeclined" else challenge.get("status")
        reason = f" ({challenge['reason']})" if challenge.get("reason") else ""
        self.log(f"{dest} {said} the challenge{reason}")
        self.failure = APIError(409, f"{dest} {said} the challenge{reason}")

    # -- games ---------------------------------------------------------------------------

    def _start_game(self, game: dict[str, Any]) -> None:
        game_id = str(game["id"])
        with self.lock:
            thread = self.playing.get(game_id)
            if game_id in self.finished or (thread is not None and thread.is_alive()):
                return
            thread = threading.Thread(target=self._play, args=(game_id,), daemon=True,
                                      name=f"game {game_id}")
            self.playing[game_id] = thread
        opponent = (game.get("opponent") or {}).get("name", "?")
        self.log(f"game {game_id}: {game.get('game')} against {opponent}, seat "
                 f"{game.get('seat')}{', rated' if game.get('rated') else ''}")
        thread.start()

    def _game_over(self, game: dict[str, Any]) -> None:
        game_id = str(game["id"])
        with self.lock:
            if game_id in self.finished:
                return
            self.finished[game_id] = str(game.get("result"))
        outcome = (game.get("outcome") or {}).get("text", game.get("status"))
        self.log(f"game {game_id} over: {outcome} ({game.get('result') or 'no result'}); "
                 f"{len(self.finished)} finished")
        if not self.stop.is_set():
            self._ask_for_games()

    def _play(self, game_id: str) -> None:
        """One game's thread: its stream, read again after each fault, until it ends."""
        game = GamePlay(self, game_id)
        backoff = Backoff()
        try:
            while not self.stop.is_set():
                try:
                    if game.follow(backoff):
                        return
                except Unreachable as error:
                    if self.stop.is_set():
                        return
                    wait = backoff.next()
                    self.log(f"game {game_id}: stream lost ({error}); again in {wait:.1f} s")
                    self.stop.wait(wait)
                except APIError as error:
                    self.log(f"game {game_id}: {error}")
                    return
        finally:
            game.close()
            if self._done() and not self.stop.is_set():
                # the last game is over: wake the event stream's reader, which may wait for
                # a line that never comes
                self.stop.set()
                self.api.close()


class GamePlay:
    """What a game's thread knows: the game, the agent, the move numbers already answered."""

    def __init__(self, runner: BotRunner, game_id: str) -> None:
        self.runner = runner
        self.game_id = game_id
        self.full: dict[str, Any] | None = None
        self.agent: Any = None
        self.answered: set[int] = set()
        self.outcome: Any = None

    def follow(self, backoff: Backoff) -> bool:
        """Read the game's stream to its end (``True``: the game is over)."""
        for message in self.runner.api.game(self.game_id):
            backoff.connected()
            if message.get("type") == "gameFull":
                self.full = message
                state = message["state"]
            elif message.get("type") == "gameState":
                state = message
            else:
                continue
            if state["status"] in ("ended", "cancelled"):
                self.outcome = state.get("outcome")
                self.runner._game_over({"id": self.game_id, "status": state["status"],
                                        "outcome": state.get("outcome"),
                                        "result": self._result(state)})
                return True
            if self.runner.stop.is_set():
                return True
            self._maybe_move(state)
        raise Unreachable("the game's stream ended before the game")

    def _result(self, state: dict[str, Any]) -> str | None:
        outcome = state.get("outcome") or {}
        seat = None if self.full is None else self.full.get("your_seat")
        if seat is None or outcome.get("termination") == "aborted" or not outcome:
            return None
        winner = outcome.get("winner")
        return "draw" if winner is None else "win" if winner == seat else "loss"

    def _maybe_move(self, state: dict[str, Any]) -> None:
        full = self.full
        number = int(state["move_number"])
        if full is None or not state["your_turn"] or state.get("mine") is not None \
                or number in self.answered:
            return
        seat = full["your_seat"]
        if self.agent is None:
            self.agent = self.runner.maker.make(full["game"], next(self.runner.seeds))
        here = position(full["game"], full["params"], full["setup"], state["moves"])
        limit = think_limit(state, seat, self.runner.maker.per_move)
        try:
            move = choose(self.agent, here, seat, limit)
        except Exception as error:  # an agent that fails (a bot program that crashed)
            self.runner.log(f"game {self.game_id}: the agent failed ({error}); resigning")
            self.answered.add(number)
            self.runner.api.resign(self.game_id)
            return
        try:
            self.runner.api.move(self.game_id, move, number)
        except APIError as error:
            if error.status == 409:  # the game moved on meanwhile (or the move already landed)
                self.answered.add(number)
                return
            if error.status == 422:
                self.runner.log(f"game {self.game_id}: move {move!r} refused ({error}); "
                                "resigning")
                self.answered.add(number)
                self.runner.api.resign(self.game_id)
                return
            raise
        self.answered.add(number)

    def close(self) -> None:
        if self.agent is not None:
            close(self.agent, self.outcome)


__all__ = ["Backoff", "BotRunner", "Wanted"]
