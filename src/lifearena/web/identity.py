"""Who a request comes from: a browser's session cookie or a bot's API token, and the
sign-up, login, logout and deletion that change it.

* A browser's player is known by the cookie :data:`COOKIE` (HttpOnly, ``SameSite=Lax``,
  ``Secure`` when the request came over HTTPS), which holds a session secret; the store keeps
  only its SHA-256. A browser with no cookie is nobody until it does something that needs a
  player (makes a game, takes a seat, chooses a name): :meth:`Identity.ensure` then makes it
  an anonymous player and sets the cookie.
* A program is known by ``Authorization: Bearer <token>`` (a personal API token with scopes,
  :meth:`Identity.bearer`). Tokens are never read from a URL. A browser page of another site
  cannot send that header here: the server grants no CORS, and the guard refuses cross-site
  writes (:mod:`lifearena.web.guard`).
* Sign-up keeps an anonymous player's id, so its games stay its own. Login and sign-up
  always start a new session (the old cookie's session ends): a session fixed before login
  is worth nothing after it. Passwords are hashed off the event loop
  (:mod:`lifearena.web.passwords`) and logins are bounded per address and per account
  (:mod:`lifearena.web.attempts`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from starlette.requests import HTTPConnection
from starlette.responses import Response

from lifearena.errors import LifeArenaError
from lifearena.web.attempts import LoginAttempts
from lifearena.web.heavy import client_of
from lifearena.web.limits import CreationRate, TooMany, address_key
from lifearena.web.passwords import Hasher, check_password
from lifearena.web.player_names import check_name, name_key
from lifearena.web.players import ANONYMOUS, NameTaken, Player, PlayerStore

COOKIE = "lifearena_session"
"""The session cookie's name."""
COOKIE_DAYS = 365
"""How long a browser keeps its session cookie."""
MAX_SECRET = 128
"""Longest cookie or token a request may send (longer ones are nobody's)."""
ANONYMOUS_PER_MINUTE = 30
"""New anonymous players one address may make in a minute."""


class NotLoggedIn(LifeArenaError):
    """The request needs an account (401)."""


class WrongPassword(LifeArenaError):
    """A login's name and password do not match an account (401)."""


class MissingScope(LifeArenaError):
    """The API token lacks the scope the request needs (403)."""


@dataclass
class Identity:
    """The players' identities over ``book``; one per server."""

    book: PlayerStore
    hasher: Hasher = field(default_factory=Hasher)
    attempts: LoginAttempts = field(default_factory=LoginAttempts)
    anonymous_rate: CreationRate = field(
        default_factory=lambda: CreationRate(ANONYMOUS_PER_MINUTE))

    # -- reading -----------------------------------------------------------------------------

    def bearer(self, headers: Mapping[str, str]) -> tuple[Player, tuple[str, ...]] | None:
        """The player and scopes of the request's ``Authorization: Bearer`` token, ``None``
        without one; :class:`NotLoggedIn` for a token that is no live token."""
        value = headers.get("authorization")
        if not value:
            return None
        kind, _, secret = value.partition(" ")
        if kind.lower() != "bearer" or not secret or len(secret) > MAX_SECRET:
            raise NotLoggedIn("Authorization must be 'Bearer <API token>'")
        found = self.book.token_player(secret.strip())
        if found is None:
            raise NotLoggedIn("this API token is unknown or was revoked")
        return found

    def player_of(self, connection: HTTPConnection) -> Player | None:
        """The player a request or socket comes from (a token's, else the cookie's), or
        ``None``."""
        found = self.bearer(connection.headers)
        if found is not None:
            return found[0]
        secret = connection.cookies.get(COOKIE)
        if not secret or len(secret) > MAX_SECRET:
            return None
        return self.book.session_player(secret)

    def scoped(self, connection: HTTPConnection, scope: str) -> Player:
        """The player of a request made with an API token holding ``scope`` (the bot API);
        a browser's session is accepted too (its holder may do anything)."""
        found = self.bearer(connection.headers)
        if found is not None:
            player, scopes = found
            if scope not in scopes:
                raise MissingScope(f"this API token lacks the scope {scope!r} (it has "
                                   f"{', '.join(scopes)})")
            return player
        session = self.player_of(connection)
        if session is None:
            raise NotLoggedIn("this needs an API token (Authorization: Bearer ...) or a "
                              "logged-in session")
        return session

    def account(self, connection: HTTPConnection) -> Player:
        """The request's player, which must hold an account (:class:`NotLoggedIn`)."""
        player = self.player_of(connection)
        if player is None or not player.has_account:
            raise NotLoggedIn("this needs an account: sign up or log in first")
        return player

    # -- making ------------------------------------------------------------------------------

    def ensure(self, connection: HTTPConnection, response: Response) -> Player:
        """The request's player, made an anonymous one (its cookie set on ``response``) if
        it has none; a bounded number of new ones per address and minute (429 past it)."""
        player = self.player_of(connection)
        if player is not None:
            return player
        address = self._address(connection)
        self.anonymous_rate.check(address)
        return self._new_anonymous(connection, response, address)

    def maybe(self, connection: HTTPConnection, response: Response) -> Player | None:
        """:meth:`ensure` for an action a player is not needed for (a casual game): past
        the address's bound of new players (a program that keeps no cookie makes one at
        every request) the action goes on with nobody on its seat."""
        try:
            return self.ensure(connection, response)
        except TooMany:
            return None

    def _new_anonymous(self, connection: HTTPConnection, response: Response,
                       address: str) -> Player:
        player = self.book.new_anonymous()
        self.anonymous_rate.count(address)
        self._start_session(connection, response, player)
        return player

    def _start_session(self, connection: HTTPConnection, response: Response,
                       player: Player) -> None:
        old = connection.cookies.get(COOKIE)
        if old and len(old) <= MAX_SECRET:
            self.book.end_session(old)
        secret = self.book.new_session(player.id)
        response.set_cookie(COOKIE, secret, max_age=COOKIE_DAYS * 86_400, path="/",
                            httponly=True, samesite="lax",
                            secure=connection.url.scheme in ("https", "wss"))

    def choose_name(self, connection: HTTPConnection, response: Response, name: str
                    ) -> Player:
        """Give the request's player (made if need be) the display name ``name``."""
        player = self.ensure(connection, response)
        return self.book.set_name(player.id, name)

    async def signup(self, connection: HTTPConnection, response: Response, name: str,
                     password: str) -> Player:
        """A new account named ``name``: the request's anonymous player (keeping its games)
        or, for a browser with no player, a new one; logged in with a new session."""
        name, password = check_name(name), check_password(password)
        address = self._address(connection)
        self.attempts.check(address, None)
        self.attempts.tried(address)
        current = self.player_of(connection)
        taken = self.book.by_name(name)
        if taken is not None and (current is None or taken.id != current.id):
            raise NameTaken(f"the name {name!r} is taken; choose another")
        hashed = await self.hasher.hash(password)
        if current is not None and current.kind == ANONYMOUS:
            player = self.book.make_account(current.id, name, hashed)
        else:
            player = self.book.new_account(name, hashed)
        self._start_session(connection, response, player)
        return player

    async def login(self, connection: HTTPConnection, response: Response, name: str,
                    password: str) -> Player:
        """Log in to the account ``name`` with a new session; :class:`WrongPassword` (one
        message whether the name or the password was wrong)."""
        address, key = self._address(connection), name_key(name)
        self.attempts.check(address, key)
        self.attempts.tried(address)
        found = self.book.password_of(name)
        if not await self.hasher.verify(None if found is None else found[1], password):
            self.attempts.failed(key)
            raise WrongPassword("wrong name or password")
        player, stored = found  # type: ignore[misc]
        if self.hasher.needs_rehash(stored):
            self.book.set_password(player.id, await self.hasher.hash(password))
        self._start_session(connection, response, player)
        return player

    def logout(self, connection: HTTPConnection, response: Response) -> None:
        """End the request's session and clear its cookie."""
        secret = connection.cookies.get(COOKIE)
        if secret and len(secret) <= MAX_SECRET:
            self.book.end_session(secret)
        response.delete_cookie(COOKIE, path="/", httponly=True, samesite="lax")

    async def delete_account(self, connection: HTTPConnection, response: Response,
                             password: str) -> Player:
        """Delete the request's account after checking its password again."""
        player = self.account(connection)
        address = self._address(connection)
        self.attempts.check(address, name_key(player.name or ""))
        self.attempts.tried(address)
        found = self.book.password_of(player.name or "")
        if found is None or not await self.hasher.verify(found[1], password):
            self.attempts.failed(name_key(player.name or ""))
            raise WrongPassword("wrong password")
        deleted = self.book.delete_account(player.id)
        response.delete_cookie(COOKIE, path="/", httponly=True, samesite="lax")
        return deleted

    @staticmethod
    def _address(connection: HTTPConnection) -> str:
        return address_key(client_of(connection.scope.get("client")))
