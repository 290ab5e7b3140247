"""The gate every request and socket of ``lifearena serve`` passes first: one pure ASGI
middleware, :class:`Guard`, mounted outermost, so nothing reaches the app that it refuses.

It stops, before the app reads a byte:

* **DNS rebinding**: a ``Host`` header that is not one of the names this server answers to
  (a page of ``evil.example`` whose name now resolves to 127.0.0.1 sends ``Host:
  evil.example``);
* **cross-site requests**: a state-changing method (POST, PUT, PATCH, DELETE) must send
  ``Content-Type: application/json`` (a cross-site form or ``text/plain`` fetch cannot without
  a CORS preflight, which this server never grants) or an ``Authorization`` header (which no
  cross-site page can send either: a program's API token), and an ``Origin`` or ``Sec-Fetch-Site``
  it sends must say the request comes from this server's own pages; a WebSocket from a
  foreign ``Origin`` is refused at its handshake;
* **large bodies**: a ``Content-Length`` over the path's bound is refused unread, and a body
  sent in chunks is counted while it streams and refused the moment it passes the bound,
  never buffered whole;
* **JSON that would hurt the parser or the app** (:mod:`lifearena.web.json_limits`): numbers
  of too many digits, ``NaN`` and ``Infinity``, nesting too deep; the app is handed the
  original bytes and parses them again.

Every HTTP response, the app's and the guard's own, carries the security headers of
:data:`SECURITY_HEADERS` (a Content-Security-Policy allowing only this host: the pages work
offline). Every refusal is JSON ``{"error": "<one line>"}`` naming what was wrong and what
was expected.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Collection, Sequence

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from lifearena.web.json_limits import Refused, check_json

CSP = ("default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; "
       "connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; "
       "form-action 'self'; frame-ancestors 'none'")
"""The Content-Security-Policy of every response: only this host's own files."""
SECURITY_HEADERS: tuple[tuple[bytes, bytes], ...] = (
    (b"content-security-policy", CSP.encode()),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"x-frame-options", b"DENY"),
    (b"cross-origin-resource-policy", b"same-origin"),
)
"""The headers set on every HTTP response (replacing any the app set of the same name)."""
LOOPBACK = frozenset({"localhost", "127.0.0.1", "::1"})
"""The names a server on this machine always answers to."""
ANY_HOST = "*"
"""The name in ``allowed_hosts`` that allows any ``Host``."""
STATE_CHANGING = frozenset({"POST", "PUT", "PATCH", "DELETE"})
"""The methods that must come from this server's own pages, as JSON."""
WEBSOCKET_POLICY_VIOLATION = 1008
SECRET_PARAMETERS = frozenset({"token", "access_token", "api_token", "api_key", "bearer",
                               "password", "session"})
"""Query parameters that would carry a secret in a URL: refused on every request."""
"""The close code of a refused WebSocket handshake (the server answers it with 403)."""

_PORT = re.compile(r"[0-9]{1,5}")
_DEFAULT_PORTS = {"http": 80, "https": 443, "ws": 80, "wss": 443}
_SHOWN = 80
"""Most characters of a header's value quoted in an error message."""


def default_hosts(bind_host: str, extra: Sequence[str] = ()) -> frozenset[str]:
    """The names a server bound to ``bind_host`` answers to: the loopback names, the bind
    address itself unless it is every interface (``0.0.0.0``, ``::``), and ``extra`` (the
    operator's ``--allowed-host`` names, ``*`` for any), lowercased.

    >>> sorted(default_hosts("127.0.0.1"))
    ['127.0.0.1', '::1', 'localhost']
    >>> sorted(default_hosts("0.0.0.0", ["Games.Example.org", "[fd00::7]"]))
    ['127.0.0.1', '::1', 'fd00::7', 'games.example.org', 'localhost']
    """
    names = set(LOOPBACK)
    bind = _normal_name(bind_host)
    if bind not in ("", "0.0.0.0", "::"):
        names.add(bind)
    names.update(_normal_name(name) for name in extra if name.strip())
    return frozenset(names)


def split_host(value: str) -> tuple[str, int | None] | None:
    """The name (lowercased, IPv6 without brackets) and port of a ``Host`` header or of an
    origin's host part; ``None`` when it is neither ``name``, ``name:port``, ``[v6]`` nor
    ``[v6]:port``.

    >>> split_host("LocalHost:8000")
    ('localhost', 8000)
    >>> split_host("[::1]:8000")
    ('::1', 8000)
    >>> split_host("example.org")
    ('example.org', None)
    >>> split_host("::1") is None  # an IPv6 address must be in brackets
    True
    """
    value = value.strip().lower()
    if value.startswith("["):
        end = value.find("]")
        if end < 0:
            return None
        name, rest = value[1:end], value[end + 1:]
    else:
        name, colon, port = value.partition(":")
        rest = colon + port
    if rest and not (rest[0] == ":" and _PORT.fullmatch(rest[1:])):
        return None
    name = name.removesuffix(".")  # "localhost." is the same name, fully qualified
    if not name:
        return None
    return name, int(rest[1:]) if rest else None


def same_origin(origin: str, host: str) -> bool:
    """Whether an ``Origin`` header names the host and port of the ``Host`` header ``host``.

    The scheme may differ (a TLS proxy in front of a plain-HTTP server); a port left out is
    its scheme's default. ``Origin: null`` (a sandboxed frame, a file) is never this server.

    >>> same_origin("http://localhost:8000", "localhost:8000")
    True
    >>> same_origin("https://games.example.org", "games.example.org")
    True
    >>> same_origin("http://evil.example", "localhost:8000")
    False
    >>> same_origin("null", "localhost:8000")
    False
    """
    scheme, separator, rest = origin.strip().lower().partition("://")
    theirs, ours = split_host(rest) if separator else None, split_host(host)
    if theirs is None or ours is None or theirs[0] != ours[0]:
        return False
    default = _DEFAULT_PORTS.get(scheme)
    return (theirs[1] or default) == (ours[1] or default)


class Guard:
    """The ASGI middleware of this module (see its docstring): ``Guard(app,
    allowed_hosts=default_hosts(host, extra), bound_of=...)``.

    ``allowed_hosts`` are the names (lowercase; ``*`` for any) a ``Host`` header may give;
    ``bound_of(path)`` is the most bytes a request body to ``path`` may have.

    >>> guard = Guard(lambda scope, receive, send: None, allowed_hosts=["LocalHost"],
    ...               bound_of=lambda path: 16_384)
    >>> sorted(guard.allowed_hosts)
    ['localhost']
    """

    def __init__(self, app: ASGIApp, *, allowed_hosts: Collection[str],
                 bound_of: Callable[[str], int]) -> None:
        self.app = app
        self.allowed_hosts = frozenset(_normal_name(name) for name in allowed_hosts)
        self.bound_of = bound_of

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            await self._http(scope, receive, _with_security_headers(send))
        elif scope["type"] == "websocket":
            await self._websocket(scope, receive, send)
        else:  # lifespan
            await self.app(scope, receive, send)

    async def _http(self, scope: Scope, receive: Receive, send: Send) -> None:
        refusal = self._host_refusal(scope) or _token_refusal(scope)
        if refusal is None and scope["method"] in STATE_CHANGING:
            refusal = _site_refusal(scope) or (None if _has_authorization(scope)
                                               else _type_refusal(scope))
        bound = self.bound_of(scope["path"])
        if refusal is None:
            refusal = _length_refusal(scope, bound)
        if refusal is not None:  # the body is left unread: the connection closes after this
            await _refuse(send, *refusal, close=True)
            return
        body = bytearray()
        while True:
            message = await receive()
            if message["type"] != "http.request":  # the client went away
                return
            body += message.get("body", b"")
            if len(body) > bound:  # refused now, the rest never read
                await _refuse(send, 413, f"request body of more than {bound} bytes; expected "
                              f"at most {bound}", close=True)
                return
            if not message.get("more_body", False):
                break
        if body and _is_json(scope):
            try:
                check_json(bytes(body))
            except Refused as error:
                await _refuse(send, 400, str(error))
                return
        await self.app(scope, _replay(bytes(body), receive), send)

    async def _websocket(self, scope: Scope, receive: Receive, send: Send) -> None:
        refusal = self._host_refusal(scope)
        origins = _values(scope, b"origin")
        if refusal is None and origins and (len(origins) > 1 or not same_origin(
                origins[0], _values(scope, b"host")[0])):
            refusal = 403, _origin_reason(origins)
        if refusal is None:
            await self.app(scope, receive, send)
            return
        # closing before accepting refuses the handshake (the server answers 403)
        message = await receive()
        if message["type"] == "websocket.connect":
            await send({"type": "websocket.close", "code": WEBSOCKET_POLICY_VIOLATION,
                        "reason": refusal[1][:120]})

    def _host_refusal(self, scope: Scope) -> tuple[int, str] | None:
        hosts = _values(scope, b"host")
        if len(hosts) != 1:
            return 400, (f"{len(hosts)} Host headers; expected one naming this server "
                         f"({self._expected()})")
        if ANY_HOST in self.allowed_hosts:
            return None
        parts = split_host(hosts[0])
        if parts is not None and parts[0] in self.allowed_hosts:
            return None
        shown = _shown(parts[0] if parts is not None else hosts[0])
        return 400, (f"host {shown} is not one this server answers to; expected one of "
                     f"{self._expected()} (a server reached by another name is started "
                     "with --allowed-host NAME)")

    def _expected(self) -> str:
        return ", ".join(sorted(self.allowed_hosts))


def _with_security_headers(send: Send) -> Send:
    """``send``, adding :data:`SECURITY_HEADERS` to the start of every response."""
    names = {name for name, _ in SECURITY_HEADERS}

    async def send_with_headers(message: Message) -> None:
        if message["type"] == "http.response.start":
            headers = [(name, value) for name, value in message.get("headers", ())
                       if name.lower() not in names]
            message = {**message, "headers": [*headers, *SECURITY_HEADERS]}
        await send(message)

    return send_with_headers


def _replay(body: bytes, receive: Receive) -> Receive:
    """A ``receive`` that gives the app the buffered ``body`` in one message, then passes
    on what the server sends later (``http.disconnect``)."""
    pending = True

    async def replayed() -> Message:
        nonlocal pending
        if pending:
            pending = False
            return {"type": "http.request", "body": body, "more_body": False}
        return await receive()

    return replayed


async def _refuse(send: Send, status: int, reason: str, *, close: bool = False) -> None:
    body = json.dumps({"error": reason}).encode()
    headers = [(b"content-type", b"application/json"),
               (b"content-length", str(len(body)).encode())]
    if close:
        headers.append((b"connection", b"close"))
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


def _token_refusal(scope: Scope) -> tuple[int, str] | None:
    """Why a request's secrets travel wrongly, if they do: an API token or seat token in
    the URL (URLs are logged, kept in histories and sent on as referrers), or an API token
    sent by a page of another site (a token is a program's; a browser page elsewhere that
    holds one must not act with it here, whatever its method).

    >>> _token_refusal({"query_string": b"access_token=lat_x", "headers": []})[0]
    400
    >>> _token_refusal({"query_string": b"", "headers": [(b"authorization", b"Bearer x"),
    ...                 (b"sec-fetch-site", b"cross-site")]})[0]
    403
    """
    query = scope.get("query_string", b"").decode("latin-1")
    for part in query.split("&"):
        key = part.partition("=")[0].strip().lower()
        if key in SECRET_PARAMETERS:
            return 400, (f"a secret in the URL ({_shown(key)}=...) is refused: URLs are "
                         "logged; expected it in the Authorization or X-Seat-Token header")
    if _values(scope, b"authorization"):
        sites = [site.strip().lower() for site in _values(scope, b"sec-fetch-site")]
        origins = _values(scope, b"origin")
        hosts = _values(scope, b"host")
        if any(site not in ("same-origin", "none") for site in sites) or (
                origins and not (len(origins) == 1 and hosts
                                 and same_origin(origins[0], hosts[0]))):
            return 403, ("an API token sent by a page of another site is refused; "
                         "expected it from a program (or this server's own pages)")
    return None


def _site_refusal(scope: Scope) -> tuple[int, str] | None:
    """Why a state-changing request does not come from this server's own pages, if not."""
    origins = _values(scope, b"origin")
    if origins:
        if len(origins) == 1 and same_origin(origins[0], _values(scope, b"host")[0]):
            return None
        return 403, _origin_reason(origins)
    sites = _values(scope, b"sec-fetch-site")
    if sites and any(site.strip().lower() not in ("same-origin", "none") for site in sites):
        return 403, (f"a request from another site (Sec-Fetch-Site {_shown(sites[0])}); "
                     "expected one from this server's own pages (same-origin)")
    return None


def _origin_reason(origins: list[str]) -> str:
    if len(origins) > 1:
        return f"{len(origins)} Origin headers; expected at most one, this server's own"
    return (f"a request from origin {_shown(origins[0])}; expected this server's own origin "
            "(the Host it was sent to)")


def _type_refusal(scope: Scope) -> tuple[int, str] | None:
    if _is_json(scope):
        return None
    kinds = _values(scope, b"content-type")
    given = f"Content-Type {_shown(kinds[0])}" if kinds else "no Content-Type"
    return 415, f"{given}; expected Content-Type application/json"


def _length_refusal(scope: Scope, bound: int) -> tuple[int, str] | None:
    for length in _values(scope, b"content-length"):
        if not length.strip().isascii() or not length.strip().isdigit():
            return 413, (f"Content-Length {_shown(length)} is not a decimal number; expected "
                         f"the body's size in bytes, at most {bound}")
        if int(length) > bound:
            return 413, f"request body of {int(length)} bytes; expected at most {bound}"
    return None


def _has_authorization(scope: Scope) -> bool:
    """Whether the request carries an ``Authorization`` header (a program's API token): no
    cross-site page can send one without a CORS preflight, which this server never grants,
    so such a request need not prove it is JSON (a bot's body-less ``POST``, as lichess's
    API takes them)."""
    return bool(_values(scope, b"authorization"))


def _is_json(scope: Scope) -> bool:
    kinds = _values(scope, b"content-type")
    return len(kinds) == 1 and kinds[0].split(";")[0].strip().lower() == "application/json"


def _values(scope: Scope, name: bytes) -> list[str]:
    """Every value of the (lowercase) header ``name`` of the request, as text."""
    return [value.decode("latin-1") for key, value in scope["headers"] if key == name]


def _shown(value: str) -> str:
    """``value`` quoted for an error message: one line, at most :data:`_SHOWN` characters."""
    return repr(value[:_SHOWN] + ("..." if len(value) > _SHOWN else ""))


def _normal_name(name: str) -> str:
    """A host name as :func:`split_host` gives it: lowercase, an IPv6 address unbracketed."""
    name = name.strip().lower()
    if name.startswith("[") and name.endswith("]"):
        name = name[1:-1]
    return name.removesuffix(".") if name != ANY_HOST else name
