"""The players' routes: who I am, names, accounts, API tokens, my games, player pages'
data, leaderboards and the computer's ratings (thin FastAPI routes over
:mod:`lifearena.web.identity`, :mod:`lifearena.web.players` and :mod:`lifearena.web.rated`).

* ``GET /api/me``: the request's player (``null`` for a browser that has done nothing yet)
  and its ratings; ``POST /api/me/name``: an anonymous player's display name.
* ``POST /api/account/signup``, ``/login``, ``/logout``, ``/delete``, ``/bot``: accounts
  (a bot account is for good, and only before any game).
* ``GET|POST /api/account/tokens``, ``POST /api/account/tokens/{id}/revoke``: personal API
  tokens (the secret is in the answer that makes it, and nowhere else ever).
* ``GET /api/me/games``: the games the player is in, with ``your_turn`` marks.
* ``GET /api/players/{name}``, ``/games`` (finished, paged and filtered), ``/history``
  (a game's rating after each rated game): a player page's data.
* ``GET /api/leaderboard?game=``: established ratings, best first; ``GET /api/computer``:
  the computer's levels' ratings per game.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Query, Request, Response

from lifearena.errors import BadParameterError, LifeArenaError
from lifearena.web import catalog
from lifearena.web.heavy import client_of
from lifearena.web.identity import Identity
from lifearena.web.models import ChooseName, Credentials, DeleteAccount, NewToken
from lifearena.web.players import Player, PlayerStore, UnknownPlayer

PAGE = 20
"""Finished games one page of a player's list holds."""
PLAYING_LISTED = 50
"""Most games in progress ``/api/me/games`` looks at."""


def router_for(server: Any, identity: Identity) -> APIRouter:
    """The players' routes over ``server`` (its games, players and ratings)."""
    router = APIRouter()
    book: PlayerStore = server.players

    def named(name: str) -> Player:
        player = book.by_name(name) if 1 <= len(name) <= 40 else None
        if player is None:
            raise UnknownPlayer(f"no player named {name[:40]!r}")
        return player

    @router.get("/api/me")
    async def me(request: Request) -> dict[str, Any]:
        player = identity.player_of(request)
        if player is None:
            return {"player": None, "ratings": {}}
        return {"player": player.to_json(),
                "ratings": {game: row.to_json()
                            for game, row in book.ratings_of(player.id).items()}}

    @router.post("/api/me/name")
    async def choose_name(body: ChooseName, request: Request, response: Response
                          ) -> dict[str, Any]:
        return {"player": identity.choose_name(request, response, body.name).to_json()}

    @router.post("/api/account/signup", status_code=201)
    async def signup(body: Credentials, request: Request, response: Response
                     ) -> dict[str, Any]:
        player = await identity.signup(request, response, body.name, body.password)
        return {"player": player.to_json()}

    @router.post("/api/account/login")
    async def login(body: Credentials, request: Request, response: Response
                    ) -> dict[str, Any]:
        player = await identity.login(request, response, body.name, body.password)
        return {"player": player.to_json()}

    @router.post("/api/account/logout")
    async def logout(request: Request, response: Response) -> dict[str, Any]:
        identity.logout(request, response)
        return {"player": None}

    @router.post("/api/account/delete")
    async def delete(body: DeleteAccount, request: Request, response: Response
                     ) -> dict[str, Any]:
        player = await identity.delete_account(request, response, body.password)
        for live in list(server.games.values()):  # open pages show the name gone
            if player.id in live.holders.values():
                server.seats.describe(live)
                server.broadcast(live)
        return {"player": None, "deleted": True}

    @router.post("/api/account/bot")
    async def become_bot(request: Request) -> dict[str, Any]:
        player = identity.account(request)
        return {"player": book.become_bot(player.id).to_json()}

    @router.get("/api/account/tokens")
    async def token_list(request: Request) -> dict[str, Any]:
        player = identity.account(request)
        return {"tokens": [token.to_json() for token in book.tokens_of(player.id)]}

    @router.post("/api/account/tokens", status_code=201)
    async def new_token(body: NewToken, request: Request) -> dict[str, Any]:
        if identity.bearer(request.headers) is not None:
            raise BadParameterError("a token cannot make tokens; use the account's page")
        player = identity.account(request)
        secret, entry = book.new_token(player.id, body.label, body.scopes)
        return {**entry.to_json(), "token": secret}

    @router.post("/api/account/tokens/{token_id}/revoke")
    async def revoke(token_id: str, request: Request) -> dict[str, Any]:
        player = identity.account(request)
        book.revoke_token(player.id, token_id[:40])
        return {"tokens": [token.to_json() for token in book.tokens_of(player.id)]}

    @router.get("/api/me/games")
    async def my_games(request: Request) -> dict[str, Any]:
        player = identity.player_of(request)
        if player is None:
            return {"playing": [], "your_turn": 0}
        client = client_of(request.client)
        playing: list[dict[str, Any]] = []
        for entry in book.games_of(player.id, finished=False, limit=PLAYING_LISTED):
            if any(item["id"] == entry["game_id"] for item in playing):
                continue  # both seats of a game at one screen: listed once
            try:
                live = await server.game(entry["game_id"], client)
            except LifeArenaError:
                continue
            if live.over or live.row.cancelled:
                continue
            mine = live.seats_of_player(player.id)
            turn = bool(set(mine) & set(live.awaiting())) and not live.waiting_for_opponent
            playing.append({**game_entry(live, mine, player.id), "your_turn": turn})
        playing.sort(key=lambda item: (not item["your_turn"], -item["updated"]))
        return {"playing": playing, "your_turn": sum(item["your_turn"] for item in playing)}

    @router.get("/api/players/{name}")
    async def profile(name: str, request: Request) -> dict[str, Any]:
        player = named(name)
        ratings = {game: row.to_json() for game, row in book.ratings_of(player.id).items()}
        client = client_of(request.client)
        playing: list[dict[str, Any]] = []
        for entry in book.games_of(player.id, finished=False, limit=PAGE):
            try:
                live = await server.game(entry["game_id"], client)
            except LifeArenaError:
                continue
            if not (live.over or live.row.cancelled) and \
                    all(item["id"] != live.row.id for item in playing):
                playing.append(game_entry(live, live.seats_of_player(player.id), player.id))
        return {"player": player.to_json(), "ratings": ratings,
                "counts": book.counts(player.id), "playing": playing,
                "games": {g: catalog.CATALOG[g].title for g in catalog.GAMES}}

    @router.get("/api/players/{name}/games")
    async def finished_games(
            name: str,
            game: Annotated[str | None, Query(max_length=40)] = None,
            result: Literal["win", "draw", "loss"] | None = None,
            before: Annotated[float | None, Query(ge=0, le=1e11)] = None,
            limit: Annotated[int, Query(ge=1, le=100)] = PAGE) -> dict[str, Any]:
        player = named(name)
        if game is not None and game not in catalog.GAMES:
            raise BadParameterError(f"game {game[:40]!r}; expected one of "
                                    f"{', '.join(catalog.GAMES)}")
        rows = book.games_of(player.id, finished=True, game=game, result=result,
                             before=before, limit=limit + 1)
        more = len(rows) > limit
        rows = rows[:limit]
        return {"games": [finished_entry(book, row, player.id) for row in rows],
                "next": rows[-1]["created"] if more and rows else None}

    @router.get("/api/players/{name}/history")
    async def history(name: str,
                      game: Annotated[str, Query(max_length=40)]) -> dict[str, Any]:
        player = named(name)
        if game not in catalog.GAMES:
            raise BadParameterError(f"game {game[:40]!r}; expected one of "
                                    f"{', '.join(catalog.GAMES)}")
        return {"game": game, "points": book.history(player.id, game)}

    @router.get("/api/leaderboard")
    async def leaderboard(game: Annotated[str, Query(max_length=40)],
                          limit: Annotated[int, Query(ge=1, le=200)] = 50) -> dict[str, Any]:
        if game not in catalog.GAMES:
            raise BadParameterError(f"game {game[:40]!r}; expected one of "
                                    f"{', '.join(catalog.GAMES)}")
        board = book.leaderboard(game, limit)
        return {"game": game, "title": catalog.CATALOG[game].title,
                "players": [{"rank": rank, **player.to_json(), **row.to_json()}
                            for rank, (player, row) in enumerate(board, start=1)]}

    @router.get("/api/computer")
    async def computer() -> dict[str, Any]:
        ratings = server.ratings
        return {"games": {game: ratings.computer_levels(game, list(catalog.CATALOG[game]
                                                                   .levels))
                          for game in catalog.GAMES if catalog.CATALOG[game].levels}}

    return router


def game_entry(live: Any, mine: list[int], player_id: str) -> dict[str, Any]:
    """A game in progress as a player's lists show it."""
    seat = mine[0] if mine else None
    others = [person for index, person in enumerate(live.people)
              if person is not None and index not in mine]
    entry = catalog.CATALOG.get(live.row.game)
    control = live.row.opponent.get("clock")
    return {"id": live.row.id, "game": live.row.game,
            "title": entry.title if entry else live.row.game,
            "seat": seat, "link": f"/play/{live.row.id}", "rated": live.rated,
            "opponent": others[0]["name"] if others else None,
            "moves": len(live.row.moves), "updated": live.row.updated,
            "clock": control, "correspondence": isinstance(control, dict)
            and control.get("kind") == "correspondence"}


def finished_entry(book: PlayerStore, row: dict[str, Any], player_id: str
                   ) -> dict[str, Any]:
    """A finished game as a player page lists it."""
    seated = book.seated(row["game_id"])
    others = [holder for seat, holder in seated.items() if holder != player_id]
    opponent = book.named(others[:1]).get(others[0]) if others else None
    entry = catalog.CATALOG.get(row["game"])
    return {"id": row["game_id"], "game": row["game"],
            "title": entry.title if entry else row["game"], "seat": row["seat"],
            "result": row["result"], "rated": row["rated"],
            "rating_change": None if row["rating_change"] is None
            else round(row["rating_change"]),
            "opponent": None if opponent is None else opponent.shown,
            "opponent_page": f"/@/{opponent.name}" if opponent and opponent.name else None,
            "created": row["created"], "finished": row["finished"],
            "link": f"/play/{row['game_id']}", "replay": f"/lab/replay#game={row['game_id']}"}
