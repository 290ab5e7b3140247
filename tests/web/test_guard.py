"""The guard in front of the web server (:mod:`lifearena.web.guard`), on a tiny app of its own:
the Host check against DNS rebinding, the cross-site checks, bodies bounded while they
stream, JSON refused before the app parses it, and the security headers of every response."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest
from fastapi import FastAPI, Request, WebSocket
from fastapi.responses import JSONResponse, Response
from fastapi.testclient import TestClient
from hypothesis import given, settings
from hypothesis import strategies as st
from starlette.types import Message, Receive, Scope, Send
from starlette.websockets import WebSocketDisconnect

from lifearena.web.guard import CSP, Guard, default_hosts, same_origin, split_host
from lifearena.web.json_limits import MAX_DEPTH, MAX_NUMBER_DIGITS

BOUND = 4_096
"""The body bound of every path but /big."""
BIG = 65_536
"""The body bound of /big."""
JSON = {"Content-Type": "application/json"}
HEADERS = {"content-security-policy": CSP, "x-content-type-options": "nosniff",
           "referrer-policy": "no-referrer", "x-frame-options": "DENY",
           "cross-origin-resource-policy": "same-origin"}


def _bound_of(path: str) -> int:
    return BIG if path.startswith("/big") else BOUND


def _inner() -> FastAPI:
    app = FastAPI()

    @app.get("/hello")
    async def hello() -> dict[str, Any]:
        return {"hello": "world"}

    @app.get("/own-csp")
    async def own_csp() -> Response:
        return JSONResponse({}, headers={"Content-Security-Policy": "default-src *"})

    @app.api_route("/echo", methods=["POST", "PUT", "PATCH", "DELETE"])
    @app.post("/big")
    async def echo(request: Request) -> Response:
        return Response(await request.body(), media_type="application/octet-stream")

    @app.websocket("/ws")
    async def socket(websocket: WebSocket) -> None:
        await websocket.accept()
        await websocket.send_json({"hello": "socket"})
        await websocket.close()

    return app


def _guarded(hosts: frozenset[str] | None = None) -> Guard:
    return Guard(_inner(), allowed_hosts=hosts or default_hosts("127.0.0.1", ["testserver"]),
                 bound_of=_bound_of)


@pytest.fixture(scope="module")
def client() -> TestClient:
    return TestClient(_guarded())


def _refused(response: Any, status: int, *fragments: str) -> None:
    """``response`` is the guard's refusal: ``status``, one line of JSON naming each
    fragment, and every security header."""
    assert response.status_code == status, response.text
    assert response.headers["content-type"] == "application/json"
    error = response.json()["error"]
    assert "\n" not in error
    for fragment in fragments:
        assert fragment in error, error
    for name, value in HEADERS.items():
        assert response.headers[name] == value


# -- driving the guard directly, message by message --------------------------------------------


class _Recorder:
    """An ASGI app that records whether it was called and what it received."""

    def __init__(self) -> None:
        self.called = False
        self.received: list[Message] = []

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        self.called = True
        while True:
            message = await receive()
            self.received.append(message)
            if message["type"] != "http.request" or not message.get("more_body", False):
                break
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": b"ok"})


def _drive(headers: list[tuple[bytes, bytes]], chunks: list[bytes], *, method: str = "POST",
           path: str = "/echo") -> tuple[_Recorder, list[Message], int]:
    """Run a guard over a :class:`_Recorder` on one request whose body comes in ``chunks``;
    the recorder, what the guard sent, and how many messages it read."""
    app = _Recorder()
    guard = Guard(app, allowed_hosts=["localhost"], bound_of=_bound_of)
    incoming: list[Message] = [{"type": "http.request", "body": chunk,
                                "more_body": i < len(chunks) - 1}
                               for i, chunk in enumerate(chunks)]
    incoming.append({"type": "http.disconnect"})
    sent: list[Message] = []
    reads = 0

    async def receive() -> Message:
        nonlocal reads
        reads += 1
        return incoming[min(reads, len(incoming)) - 1]

    async def send(message: Message) -> None:
        sent.append(message)

    scope = {"type": "http", "method": method, "path": path, "headers": headers,
             "query_string": b"", "scheme": "http", "http_version": "1.1"}
    asyncio.run(guard(scope, receive, send))
    return app, sent, reads


def _status(sent: list[Message]) -> int:
    return int(sent[0]["status"])


def _error(sent: list[Message]) -> str:
    return str(json.loads(sent[1]["body"])["error"])


# -- Host -------------------------------------------------------------------------------------


def test_a_foreign_host_is_refused_against_dns_rebinding(client: TestClient) -> None:
    response = client.get("/hello", headers={"Host": "evil.example"})
    _refused(response, 400, "host 'evil.example' is not one this server answers to",
             "expected one of 127.0.0.1, ::1, localhost, testserver")


@pytest.mark.parametrize("host", ["localhost:8000", "127.0.0.1:8000", "[::1]:8000", "[::1]",
                                  "LocalHost", "localhost.", "testserver"])
def test_the_loopback_names_and_the_configured_ones_are_answered(client: TestClient,
                                                                 host: str) -> None:
    response = client.get("/hello", headers={"Host": host})
    assert response.status_code == 200 and response.json() == {"hello": "world"}


@pytest.mark.parametrize("host", ["localhost:port", "::1", "[::1", "localhost:8000:1",
                                  "evil.example:8000", "127.0.0.2", ""])
def test_a_malformed_or_unknown_host_is_refused(client: TestClient, host: str) -> None:
    _refused(client.get("/hello", headers={"Host": host}), 400,
             "is not one this server answers to")


def test_a_request_without_a_host_is_refused() -> None:
    app, sent, _ = _drive([], [b""], method="GET", path="/hello")
    assert not app.called and _status(sent) == 400
    assert _error(sent).startswith("0 Host headers; expected one naming this server")


def test_star_answers_to_any_host() -> None:
    with TestClient(_guarded(default_hosts("0.0.0.0", ["*"]))) as anyhost:
        assert anyhost.get("/hello", headers={"Host": "games.example.org"}).status_code == 200


def test_default_hosts_are_loopback_the_bind_address_and_the_operators_names() -> None:
    assert default_hosts("127.0.0.1") == {"localhost", "127.0.0.1", "::1"}
    assert default_hosts("::") == default_hosts("0.0.0.0") == {"localhost", "127.0.0.1", "::1"}
    assert "192.168.1.20" in default_hosts("192.168.1.20")
    assert "games.example.org" in default_hosts("0.0.0.0", ["Games.Example.ORG", " "])
    assert "" not in default_hosts("0.0.0.0", ["", " "])


@given(st.text(max_size=40))
def test_split_host_never_raises(value: str) -> None:
    parts = split_host(value)
    assert parts is None or (parts[0] and (parts[1] is None or 0 <= parts[1] <= 99_999))


# -- cross-site requests ----------------------------------------------------------------------


@pytest.mark.parametrize("method", ["POST", "PUT", "PATCH", "DELETE"])
def test_a_state_change_that_is_not_json_is_refused_as_unsupported(client: TestClient,
                                                                    method: str) -> None:
    # a cross-site form or text/plain fetch needs no CORS preflight: refusing it here is
    # what stops another site's page from creating games
    response = client.request(method, "/echo", content=b'{"game": "war_of_life"}',
                              headers={"Content-Type": "text/plain"})
    _refused(response, 415, "Content-Type 'text/plain'", "expected Content-Type application/json")
    form = client.request(method, "/echo", content=b"game=war_of_life",
                          headers={"Content-Type": "application/x-www-form-urlencoded"})
    _refused(form, 415, "expected Content-Type application/json")


def test_a_state_change_without_a_content_type_is_refused() -> None:
    app, sent, reads = _drive([(b"host", b"localhost")], [b""])
    assert not app.called and reads == 0 and _status(sent) == 415
    assert _error(sent) == "no Content-Type; expected Content-Type application/json"


def test_json_with_a_charset_passes(client: TestClient) -> None:
    response = client.post("/echo", content=b'{"a": 1}',
                           headers={"Content-Type": "application/json; charset=utf-8"})
    assert response.status_code == 200 and response.content == b'{"a": 1}'


def test_a_safe_method_needs_no_json_and_may_come_from_anywhere(client: TestClient) -> None:
    response = client.get("/hello", headers={"Content-Type": "text/plain",
                                             "Origin": "http://evil.example",
                                             "Sec-Fetch-Site": "cross-site"})
    assert response.status_code == 200


@pytest.mark.parametrize("origin", ["http://evil.example", "null", "http://testserver:8001",
                                    "http://testserver.evil.example", "testserver",
                                    "http://user@testserver"])
def test_a_state_change_from_a_foreign_origin_is_forbidden(client: TestClient,
                                                           origin: str) -> None:
    response = client.post("/echo", json={"game": "war_of_life"}, headers={"Origin": origin})
    _refused(response, 403, f"a request from origin {origin!r}",
             "expected this server's own origin")


@pytest.mark.parametrize(("origin", "host"), [
    ("http://testserver", "testserver"), ("https://testserver", "testserver"),
    ("http://localhost:8000", "localhost:8000"), ("http://[::1]:8000", "[::1]:8000"),
    ("HTTP://LOCALHOST:8000", "localhost:8000"), ("http://localhost:80", "localhost")])
def test_a_state_change_from_the_servers_own_origin_passes(client: TestClient, origin: str,
                                                           host: str) -> None:
    response = client.post("/echo", json={"a": 1}, headers={"Origin": origin, "Host": host})
    assert response.status_code == 200, response.text
    assert response.json() == {"a": 1}


@pytest.mark.parametrize("site", ["cross-site", "same-site"])
def test_a_state_change_fetched_from_another_site_is_forbidden(client: TestClient,
                                                               site: str) -> None:
    response = client.post("/echo", json={"a": 1}, headers={"Sec-Fetch-Site": site})
    _refused(response, 403, f"Sec-Fetch-Site {site!r}", "same-origin")


@pytest.mark.parametrize("site", ["same-origin", "none"])
def test_a_state_change_fetched_by_the_servers_own_page_passes(client: TestClient,
                                                               site: str) -> None:
    assert client.post("/echo", json={"a": 1}, headers={"Sec-Fetch-Site": site}
                       ).status_code == 200


def test_scripts_without_origin_or_fetch_metadata_pass(client: TestClient) -> None:
    # curl, scripts, the test client: no Origin, no Sec-Fetch-Site
    assert client.post("/echo", json={"a": 1}).status_code == 200


def test_same_origin_compares_host_and_port_not_scheme() -> None:
    assert same_origin("https://games.example.org", "games.example.org")
    assert same_origin("https://games.example.org", "games.example.org:443")
    assert not same_origin("http://games.example.org:8000", "games.example.org")
    assert not same_origin("http://games.example.org/", "games.example.org")
    assert not same_origin("null", "null")


# -- WebSockets -------------------------------------------------------------------------------


def test_a_websocket_from_the_servers_own_page_or_a_script_is_accepted(
        client: TestClient) -> None:
    for headers in ({}, {"Origin": "http://testserver"}):
        with client.websocket_connect("/ws", headers=headers) as socket:
            assert socket.receive_json() == {"hello": "socket"}


@pytest.mark.parametrize("headers", [{"Origin": "http://evil.example"}, {"Origin": "null"},
                                     {"Host": "evil.example"}])
def test_a_websocket_from_a_foreign_origin_or_host_is_refused_at_its_handshake(
        client: TestClient, headers: dict[str, str]) -> None:
    with pytest.raises(WebSocketDisconnect) as refused, \
            client.websocket_connect("/ws", headers=headers):
        pass  # pragma: no cover: the handshake is refused before this
    assert refused.value.code == 1008


# -- bodies -----------------------------------------------------------------------------------


def test_a_content_length_over_the_bound_is_refused_unread() -> None:
    app, sent, reads = _drive([(b"host", b"localhost"), (b"content-type", b"application/json"),
                               (b"content-length", str(BOUND + 1).encode())], [b"x" * 10])
    assert not app.called and reads == 0
    assert _status(sent) == 413
    assert _error(sent) == f"request body of {BOUND + 1} bytes; expected at most {BOUND}"
    assert (b"connection", b"close") in sent[0]["headers"]


@pytest.mark.parametrize("length", [b"abc", b"-1", b"1e3", b"\xd9\xa3"])
def test_a_content_length_that_is_not_a_number_is_refused(length: bytes) -> None:
    app, sent, reads = _drive([(b"host", b"localhost"), (b"content-type", b"application/json"),
                               (b"content-length", length)], [b"{}"])
    assert not app.called and reads == 0 and _status(sent) == 413
    assert "is not a decimal number" in _error(sent)


def test_a_content_length_over_the_bound_is_refused_by_the_test_client(
        client: TestClient) -> None:
    response = client.post("/echo", content=b"[" + b" " * BOUND + b"]", headers=JSON)
    _refused(response, 413, f"request body of {BOUND + 2} bytes; expected at most {BOUND}")


def test_a_chunked_body_over_the_bound_is_refused_without_reading_the_rest() -> None:
    chunks = [b" " * 1_000] * 100  # 100 kB announced by no Content-Length
    app, sent, reads = _drive([(b"host", b"localhost"), (b"content-type", b"application/json")],
                              chunks)
    assert not app.called
    assert reads == BOUND // 1_000 + 1  # the chunk that passed the bound, and no more
    assert _status(sent) == 413
    assert _error(sent) == f"request body of more than {BOUND} bytes; expected at most {BOUND}"
    assert (b"connection", b"close") in sent[0]["headers"]


def test_a_chunked_body_over_the_bound_is_refused_by_the_test_client(
        client: TestClient) -> None:
    def chunks() -> Any:
        yield b"["
        for _ in range(10):
            yield b" " * 1_000
        yield b"]"

    _refused(client.post("/echo", content=chunks(), headers=JSON), 413,
             f"expected at most {BOUND}")


def test_a_body_at_the_bound_reaches_the_app_whole(client: TestClient) -> None:
    body = b"[" + b" " * (BOUND - 2) + b"]"
    response = client.post("/echo", content=iter([body[:100], body[100:]]), headers=JSON)
    assert response.status_code == 200 and response.content == body


def test_the_bound_is_the_paths_own(client: TestClient) -> None:
    body = b"[" + b" " * (BIG - 2) + b"]"
    assert client.post("/big", content=body, headers=JSON).content == body
    assert client.post("/big", content=body + b" ", headers=JSON).status_code == 413


def test_a_chunked_body_is_replayed_to_the_app_in_one_message_then_the_disconnect() -> None:
    app, sent, _ = _drive([(b"host", b"localhost"), (b"content-type", b"application/json")],
                          [b'{"a"', b": ", b"[1, 2]}"])
    assert app.called and _status(sent) == 200
    assert app.received == [{"type": "http.request", "body": b'{"a": [1, 2]}',
                             "more_body": False}]


def test_a_client_gone_while_sending_ends_the_request_quietly() -> None:
    app, sent, _ = _drive([(b"host", b"localhost"), (b"content-type", b"application/json")],
                          [])
    assert not app.called and sent == []


# -- JSON -------------------------------------------------------------------------------------


@pytest.mark.parametrize(("body", "fragment"), [
    (b"[" + b"7" * 5_000 + b"]", "a number of 5000 digits; expected at most 40"),
    (b'{"seed": -' + b"1" * 41 + b"}", "a number of 41 digits; expected at most 40"),
    (b"[0." + b"1" * 60 + b"]", "a number of 61 digits; expected at most 40"),
    (b"[NaN]", "NaN is not a JSON number"),
    (b'{"a": Infinity}', "Infinity is not a JSON number"),
    (b"[-Infinity]", "-Infinity is not a JSON number"),
    (b"[1e400]", "the number '1e400' is out of range"),
    (b"{not json", "request body is not JSON: Expecting property name enclosed in double quotes"
                   " at line 1 column 2"),
    (b'{"a": 1} {"b": 2}', "Extra data"),
    (b'["\xff\xfe\xfa"]', "is not utf-8 text"),
    (b"[" * 33 + b"]" * 33, f"nested deeper than {MAX_DEPTH} levels"),
    (b'{"a":' * 33 + b"1" + b"}" * 33, f"nested deeper than {MAX_DEPTH} levels"),
    (b"[" * 10_000 + b"]" * 10_000, f"nested deeper than {MAX_DEPTH} levels"),
])
def test_json_that_would_hurt_the_parser_or_the_app_is_refused(client: TestClient, body: bytes,
                                                               fragment: str) -> None:
    response = client.post("/big", content=body, headers=JSON)
    _refused(response, 400, "request body is not JSON", fragment)


@pytest.mark.parametrize("body", [
    b"[" + b"9" * MAX_NUMBER_DIGITS + b"]", b"[-1.5e-300]", b"[" * MAX_DEPTH + b"]" * MAX_DEPTH,
    b'  {"b": 1.50, "a": "\\u00e9"}\n', b'"just a string"', b"null"])
def test_json_within_the_limits_reaches_the_app_byte_for_byte(client: TestClient,
                                                              body: bytes) -> None:
    response = client.post("/big", content=body, headers=JSON)
    assert response.status_code == 200 and response.content == body


def test_an_empty_json_body_is_left_to_the_app(client: TestClient) -> None:
    response = client.request("DELETE", "/echo", content=b"", headers=JSON)
    assert response.status_code == 200 and response.content == b""


def test_a_body_not_declared_json_is_not_parsed() -> None:
    # a safe method with another Content-Type: the app decides what its body means
    app, sent, _ = _drive([(b"host", b"localhost"), (b"content-type", b"text/plain")],
                          [b"[NaN]"], method="GET")
    assert app.called and _status(sent) == 200
    assert app.received[0]["body"] == b"[NaN]"


@settings(max_examples=300)
@given(body=st.one_of(st.binary(max_size=300),
                      st.recursive(st.none() | st.booleans() | st.integers() | st.floats()
                                   | st.text(max_size=8),
                                   lambda inner: st.lists(inner, max_size=4)
                                   | st.dictionaries(st.text(max_size=4), inner, max_size=4),
                                   max_leaves=30).map(lambda v: json.dumps(v).encode())))
def test_no_body_makes_the_guard_fail(client: TestClient, body: bytes) -> None:
    response = client.post("/echo", content=body, headers=JSON)
    assert response.status_code in (200, 400, 413), response.text
    if response.status_code == 200:
        assert response.content == body
    else:
        _refused(response, response.status_code)


# -- response headers -------------------------------------------------------------------------


@pytest.mark.parametrize(("method", "path", "headers"), [
    ("GET", "/hello", {}),
    ("GET", "/no-such-page", {}),
    ("GET", "/own-csp", {}),
    ("GET", "/hello", {"Host": "evil.example"}),
    ("POST", "/echo", {"Content-Type": "text/plain"}),
    ("POST", "/echo", {**JSON, "Origin": "http://evil.example"}),
])
def test_every_response_carries_the_security_headers(client: TestClient, method: str,
                                                      path: str, headers: dict[str, str]
                                                      ) -> None:
    response = client.request(method, path, content=b"{}", headers=headers)
    for name, value in HEADERS.items():
        assert response.headers.get_list(name) == [value], (name, response.status_code)
