"""``lifearena bot connect URL``: play online as a bot account, with any agent the arena
knows, through the server's bot API (:mod:`lifearena.online`; ``docs/bots.md``).

It parses and presents only: the connection, the games and the reconnections are
:class:`~lifearena.online.runner.BotRunner`'s.
"""

from __future__ import annotations

from datetime import datetime
from typing import Annotated

import typer
from rich.console import Console

from lifearena import caps
from lifearena.arena.game_names import game_name
from lifearena.cli.tournament import parse_params
from lifearena.errors import BadParameterError

app = typer.Typer(help="Play online as a bot account through a server's bot API.",
                  no_args_is_help=True)
TOKEN_VARIABLE = "LIFEARENA_TOKEN"


def canonical_game(text: str, option: str) -> str:
    """The game's own name (``war_of_life``) from a name or alias, or a one-line error."""
    from lifearena.core import load_game

    try:
        return load_game(game_name(text)).info.name
    except (ValueError, KeyError):
        raise BadParameterError(f"{option} {text!r}: no such game; expected war-of-life, "
                                "life-for-two, losat, p2life or queen") from None


@app.command("connect")
def connect(
    url: Annotated[str, typer.Argument(help="The server, e.g. http://127.0.0.1:8000.")],
    token: Annotated[str, typer.Option(
        "--token", envvar=TOKEN_VARIABLE, show_envvar=True,
        help="The bot account's API token with the scope bot:play (make one on /account). "
             f"Better in ${TOKEN_VARIABLE} than on the command line.")],
    agent: Annotated[str | None, typer.Option(
        "--agent", "-a", help="The agent: NAME[:key=value,...] (random, alphabeta:time=0.5, "
        "mcts:simulations=200...), module:callable or file.py:callable, "
        "prolog:FILE:PREDICATE, policy:FILE.")] = None,
    command: Annotated[str | None, typer.Option(
        "--command", help="Instead of --agent: a program speaking the JSON-lines bot "
        "protocol, e.g. 'python3 mybot.py'.")] = None,
    accept: Annotated[str, typer.Option(
        "--accept", help="Challenges accepted: any, rated, casual or none.")] = "any",
    accept_games: Annotated[list[str] | None, typer.Option(
        "--accept-game", help="A game whose challenges are accepted (repeat; default: "
        "every game the agent plays).")] = None,
    accept_clocks: Annotated[list[str] | None, typer.Option(
        "--accept-clock", help="A kind of time control accepted: untimed, live or "
        "correspondence (repeat; default: any).")] = None,
    max_games: Annotated[int, typer.Option(
        "--max-games", help="Games played at once; challenges past it are declined "
        "('later').", min=1, max=64)] = 2,
    challenge: Annotated[str | None, typer.Option(
        "--challenge", help="Challenge this player or bot (again after each game, up to "
        "--games).")] = None,
    seek: Annotated[str | None, typer.Option(
        "--seek", help="Wait in the bots' pool at this time control (1+0, 3+2, 5+3, "
        "10+5, 1d, 3d), again after each game.")] = None,
    game: Annotated[str | None, typer.Option(
        "--game", help="The game of --challenge or --seek (war-of-life, losat...).")] = None,
    param: Annotated[list[str] | None, typer.Option(
        "--param", help="A parameter of the challenged game, KEY=VALUE (repeat).")] = None,
    clock: Annotated[str, typer.Option(
        "--clock", help="The challenge's time control: MINUTES+INCREMENT (3+2), DAYSd (2d) "
        "or none.")] = "none",
    rated: Annotated[bool, typer.Option(
        "--rated", help="Ask for rated games (--challenge, --seek).")] = False,
    colour: Annotated[str, typer.Option(
        "--colour", help="The seat asked for in a challenge: 0 (moves first), 1 or "
        "random.")] = "random",
    games: Annotated[int, typer.Option(
        "--games", "-n", help="Stop after this many finished games (0: play until "
        "interrupted).", min=0, max=caps.MAX_GAMES)] = 0,
    time_per_move: Annotated[float, typer.Option(
        "--time-per-move", help="Seconds the agent thinks per move at most (less when a "
        "live clock runs short).", min=caps.MIN_SECONDS, max=caps.MAX_SECONDS)] = 1.0,
    seed: Annotated[int, typer.Option("--seed", help="Seed of the agents' randomness.",
                                      min=0, max=caps.MAX_SEED)] = 0,
) -> None:
    """Connect a bot account to a lifearena server and play.

    Reads the account's event stream; accepts or declines challenges by the --accept rules,
    plays each game in a thread with the agent (the position rebuilt from the game's moves,
    a move within the clock), and reconnects after network faults without losing a game.
    """
    from lifearena.extras import require

    require("web", "lifearena bot connect")
    from lifearena.online.api import BotAPI
    from lifearena.online.player import AgentMaker
    from lifearena.online.rules import CLOCK_KINDS, AcceptRules, parse_clock
    from lifearena.online.runner import BotRunner, Wanted

    if accept not in ("any", "rated", "casual", "none"):
        raise BadParameterError(f"--accept {accept!r}; expected any, rated, casual or none")
    for kind in accept_clocks or []:
        if kind not in CLOCK_KINDS:
            raise BadParameterError(f"--accept-clock {kind!r}; expected one of "
                                    f"{', '.join(CLOCK_KINDS)}")
    if challenge is not None and seek is not None:
        raise BadParameterError("give --challenge NAME or --seek PRESET, not both")
    if (challenge is not None or seek is not None) and game is None:
        raise BadParameterError(f"{'--challenge' if challenge else '--seek'} needs --game "
                                "GAME (war-of-life, losat, ...)")
    if colour not in ("0", "1", "random"):
        raise BadParameterError(f"--colour {colour!r}; expected 0, 1 or random")
    maker = AgentMaker(agent, command, time_per_move)
    accepted = None
    if accept_games:
        accepted = frozenset(canonical_game(g, "--accept-game") for g in accept_games)
        for name in accepted:
            problem = maker.problem(name)
            if problem is not None:
                raise BadParameterError(f"--agent {maker.label!r} cannot play {name}: "
                                        f"{problem}")
    if accepted is None and game is None:  # it takes challenges of any game: one at least
        from lifearena.core import available_games

        problems = [maker.problem(name) for name in available_games()]
        if all(problems):
            raise BadParameterError(f"--agent {maker.label!r} plays none of the games: "
                                    f"{problems[0]}")
    wanted = None
    if game is not None:
        name = canonical_game(game, "--game")
        problem = maker.problem(name)
        if problem is not None:
            raise BadParameterError(f"--agent {maker.label!r} cannot play {name}: {problem}")
        wanted = Wanted(name, challenge, parse_params(param or []), parse_clock(clock),
                        rated, int(colour) if colour != "random" else "random", seek)
    rules = AcceptRules(accepted, accept, None if not accept_clocks
                        else frozenset(accept_clocks), max_games)  # type: ignore[arg-type]
    console = Console(stderr=True, highlight=False)

    def log(line: str) -> None:  # one line per event, the time first
        console.print(f"{datetime.now():%H:%M:%S} {line}", markup=False, soft_wrap=True)

    api = BotAPI(url, token)
    runner = BotRunner(api, maker, rules, games=games or None, wanted=wanted, log=log,
                       seed=seed)
    try:
        played = runner.run()
    finally:
        runner.stop.set()
        api.close()
    log(f"done: {played} games finished")


def register(root: typer.Typer) -> None:
    """Add the ``bot`` group to the root ``app``."""
    root.add_typer(app, name="bot")
