"""The server's bot API as Python calls (httpx): NDJSON streams read line by line, posts
answered as dicts, errors as one-line exceptions.

A 4xx answer is an :class:`APIError` (the server's own one line, and its status); a network
fault, a 5xx answer or a stream that stops is :class:`Unreachable`, which the runner meets
by reconnecting. Streams read with :data:`READ_TIMEOUT`: the server sends an empty line every
7 s, so a longer silence means a dead connection.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any
from urllib.parse import quote, urlsplit

import httpx

from lifearena.errors import BadParameterError, LifeArenaError

READ_TIMEOUT = 20.0
"""Seconds of silence after which a stream counts as cut (the server's keep-alive is 7 s)."""
TIMEOUT = 30.0
"""Seconds a post may take."""


class APIError(LifeArenaError):
    """The server refused a request (4xx); ``status`` is its HTTP status."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status


class Unreachable(LifeArenaError):
    """The server could not be reached, failed (5xx) or a stream was cut."""


def check_url(url: str) -> str:
    """The server's base URL, checked.

    >>> check_url("http://127.0.0.1:8000/")
    'http://127.0.0.1:8000'
    >>> check_url("localhost:8000")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    lifearena.errors.BadParameterError: server URL 'localhost:8000'; expected http://HOST[:PORT] ...
    """
    parts = urlsplit(url.strip())
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise BadParameterError(f"server URL {url[:80]!r}; expected http://HOST[:PORT] or "
                                "https://HOST")
    return url.strip().rstrip("/")


def _refusal(response: httpx.Response) -> LifeArenaError:
    try:
        message = str(response.json().get("error", ""))
    except (ValueError, AttributeError):
        message = response.text[:200]
    message = " ".join(message.split()) or response.reason_phrase
    if response.status_code >= 500:
        return Unreachable(f"the server failed ({response.status_code}): {message}")
    return APIError(response.status_code, message)


class BotAPI:
    """One server and one API token."""

    def __init__(self, url: str, token: str, *, transport: httpx.BaseTransport | None = None
                 ) -> None:
        if not token.strip() or any(c.isspace() for c in token.strip()):
            raise BadParameterError("--token is empty or has spaces; expected the API token "
                                    "made on the account page")
        self.url = check_url(url)
        self.http = httpx.Client(
            base_url=self.url, transport=transport, timeout=TIMEOUT,
            headers={"Authorization": f"Bearer {token.strip()}",
                     "User-Agent": "lifearena-bot"})

    def close(self) -> None:
        """Close the connections (a stream being read in another thread ends)."""
        self.http.close()

    # -- plain calls -------------------------------------------------------------------------

    def _call(self, method: str, path: str, **options: Any) -> dict[str, Any]:
        try:
            response = self.http.request(method, path, **options)
        except httpx.HTTPError as error:
            raise Unreachable(f"{self.url} did not answer: {error or type(error).__name__}"
                              ) from None
        if response.status_code >= 400:
            raise _refusal(response)
        answer = response.json()
        return answer if isinstance(answer, dict) else {"answer": answer}

    def me(self) -> dict[str, Any]:
        """The token's player (``{"player": {...}, "ratings": {...}}``)."""
        return self._call("GET", "/api/me")

    def move(self, game_id: str, move: str, ply: int) -> dict[str, Any]:
        """Play ``move`` (the game's notation) chosen at move number ``ply``."""
        return self._call("POST", f"/api/bot/game/{game_id}/move/{quote(move, safe='')}",
                          params={"ply": ply})

    def resign(self, game_id: str) -> dict[str, Any]:
        return self._call("POST", f"/api/bot/game/{game_id}/resign")

    def draw(self, game_id: str, yes: bool) -> dict[str, Any]:
        return self._call("POST", f"/api/bot/game/{game_id}/draw/{'yes' if yes else 'no'}")

    def challenge(self, name: str, game: str, params: dict[str, Any],
                  clock: dict[str, Any] | None, rated: bool, colour: int | str
                  ) -> dict[str, Any]:
        """Challenge the player ``name``."""
        return self._call("POST", f"/api/challenge/{quote(name, safe='')}",
                          json={"game": game, "params": params, "clock": clock,
                                "rated": rated, "colour": colour})

    def accept(self, challenge_id: str) -> dict[str, Any]:
        return self._call("POST", f"/api/challenge/{challenge_id}/accept")

    def decline(self, challenge_id: str, reason: str = "generic") -> dict[str, Any]:
        return self._call("POST", f"/api/challenge/{challenge_id}/decline",
                          json={"reason": reason})

    def seek(self, game: str, preset: str, rated: bool) -> dict[str, Any]:
        """Wait in the server's bots' pool for ``game`` at the time control ``preset``
        (``3+2``, ``1d``, ...). The one call of the pools' API the client makes: its game
        comes as a ``gameStart`` event."""
        return self._call("POST", f"/api/pools/{game}/{quote(preset, safe='')}/join",
                          json={"kind": "bots", "rated": rated})

    # -- streams -----------------------------------------------------------------------------

    def stream(self, path: str, keep_alive: bool = False) -> Iterator[dict[str, Any]]:
        """The objects of an NDJSON stream (a keep-alive line skipped, or, with
        ``keep_alive``, given as ``{"type": "keepAlive"}``), until it ends;
        :class:`Unreachable` when it is cut."""
        timeout = httpx.Timeout(TIMEOUT, read=READ_TIMEOUT)
        try:
            with self.http.stream("GET", path, timeout=timeout) as response:
                if response.status_code >= 400:
                    response.read()
                    raise _refusal(response)
                for line in response.iter_lines():
                    if not line.strip() and keep_alive:
                        yield {"type": "keepAlive"}
                    elif line.strip():
                        try:
                            message = json.loads(line)
                        except ValueError:
                            raise Unreachable(f"the stream {path} sent a line that is not "
                                              f"JSON: {line[:80]!r}") from None
                        if isinstance(message, dict):
                            yield message
        except (httpx.HTTPError, RuntimeError) as error:  # RuntimeError: closed meanwhile
            raise Unreachable(f"the stream {path} was cut: {error or type(error).__name__}"
                              ) from None

    def events(self) -> Iterator[dict[str, Any]]:
        """The token's event stream (its keep-alive lines too: the runner keeps its seek
        alive on them)."""
        return self.stream("/api/stream/event", keep_alive=True)

    def seeking(self) -> dict[str, Any]:
        """Where this bot waits in the pools (asking keeps its seek alive: the server drops
        a seeker that neither joins nor asks for half a minute)."""
        return self._call("GET", "/api/pools/me")

    def game(self, game_id: str) -> Iterator[dict[str, Any]]:
        """A game's stream: ``gameFull``, then ``gameState`` lines until it ends."""
        return self.stream(f"/api/bot/game/stream/{game_id}")


__all__ = ["APIError", "BotAPI", "Unreachable", "check_url"]
