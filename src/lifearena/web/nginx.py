"""The nginx configuration in front of ``lifearena serve``: one replica or several.

:func:`site_config` writes the ``server`` block an operator puts in Debian's
``/etc/nginx/sites-enabled/`` (``lifearena deploy nginx`` prints it); :func:`standalone_config`
wraps it in a whole ``nginx.conf`` for an nginx run by an unprivileged user from a folder of
its own, as the test suite and the benchmarks run it on loopback. What it does, and why:

* **Every replica in one upstream**, the least busy first (``least_conn``): any page may
  reach any replica, which forwards what another owns (docs/deploy.md). A replica that
  refuses connections is skipped for ``fail_timeout`` seconds; a request that could not be
  *sent* is tried on the next replica, but never one that reached a replica and may have
  acted (nginx does not retry a POST that was sent: ``proxy_next_upstream`` without
  ``non_idempotent``), so a move is never sent twice.
* **Lanes** (:mod:`lifearena.web.lanes`), with two replicas or more: a request naming a
  game whose id begins with lane ``K``'s letter (its page, socket or API) goes to the
  ``K``-th replica, the others behind it as ``backup`` servers (the next one first), so a
  game's moves are played where they arrive rather than forwarded. Start the ``K``-th
  replica of the list with ``serve --lane K``. Any other request goes to the upstream of
  every replica.
* **Sockets**: HTTP/1.1 with the ``Upgrade`` and ``Connection`` headers passed on, and an
  hour's read timeout (a page's socket is idle between moves; the server pings it).
* **The client's address**: ``X-Forwarded-For`` is *set* to the address nginx saw, not
  appended to, so a client cannot forge it; ``lifearena serve --forwarded-allow-ips`` names
  nginx's address so that the per-address bounds count clients, not the proxy.
* **Bodies** up to the server's largest (:data:`BODY_BYTES`, a record or a lab request);
  the server bounds each route tighter.

>>> print(site_config(["127.0.0.1:8001", "127.0.0.1:8002"], listen="8080"))  # doctest: +ELLIPSIS
map $http_upgrade $connection_upgrade {
...
upstream lifearena {
    least_conn;
    server 127.0.0.1:8001 max_fails=1 fail_timeout=5s;
    server 127.0.0.1:8002 max_fails=1 fail_timeout=5s;
}
<BLANKLINE>
map $uri $lifearena_upstream {
    default lifearena;
    "~^/ws/lobby$" lifearena;
    "~^/(?:api/bot/game/stream|api/bot/game|api/games|analysis|play|game|ws)/A" lifearena_lane0;
    "~^/(?:api/bot/game/stream|api/bot/game|api/games|analysis|play|game|ws)/B" lifearena_lane1;
}
<BLANKLINE>
upstream lifearena_lane0 {
    server 127.0.0.1:8001 max_fails=1 fail_timeout=5s;
    server 127.0.0.1:8002 max_fails=1 fail_timeout=5s weight=20 backup;
}
...
"""

from __future__ import annotations

import ipaddress
import re
from collections.abc import Sequence
from pathlib import Path

from lifearena.errors import BadParameterError
from lifearena.web.lanes import GAME_PATHS, LANE_LETTERS, MAX_LANES, NOT_GAMES

BODY_BYTES = 262_144
"""The largest request body the server takes (``lifearena.web.app.MAX_LAB_BODY``; a test
holds them equal)."""
MAX_REPLICAS = MAX_LANES

_HOST = re.compile(r"^[A-Za-z0-9.-]{1,253}$")


def check_replica(text: str) -> str:
    """``HOST:PORT`` of a replica, checked; :class:`BadParameterError` otherwise.

    >>> check_replica("10.0.0.7:8000")
    '10.0.0.7:8000'
    >>> check_replica("web1")
    Traceback (most recent call last):
    ...
    lifearena.errors.BadParameterError: replica 'web1'; expected HOST:PORT, e.g. 127.0.0.1:8001
    """
    host, _, port = str(text).strip().rpartition(":")
    host = host.strip("[]")
    good_host = bool(_HOST.match(host))
    if not good_host:
        try:
            ipaddress.ip_address(host)
            good_host = True
        except ValueError:
            good_host = False
    if not (good_host and port.isdigit() and 1 <= int(port) <= 65535):
        raise BadParameterError(f"replica {text!r:.60}; expected HOST:PORT, e.g. "
                                f"127.0.0.1:8001")
    return f"[{host}]:{port}" if ":" in host else f"{host}:{port}"


def check_listen(text: str) -> str:
    """What nginx listens on: ``PORT`` or ``ADDRESS:PORT``.

    >>> check_listen("127.0.0.1:8080"), check_listen("80")
    ('127.0.0.1:8080', '80')
    """
    value = str(text).strip()
    port = value.rpartition(":")[2]
    if not (port.isdigit() and 1 <= int(port) <= 65535) or (
            ":" in value and check_replica(value) != value):
        raise BadParameterError(f"listen {text!r:.60}; expected PORT or ADDRESS:PORT, e.g. "
                                f"80 or 127.0.0.1:8080")
    return value


def site_config(replicas: Sequence[str], listen: str = "80", server_name: str = "_",
                fail_timeout_s: int = 5) -> str:
    """The ``server`` block (with its ``upstream`` and ``map``) in front of ``replicas``
    (``HOST:PORT`` each), listening on ``listen``."""
    if not 1 <= len(replicas) <= MAX_REPLICAS:
        raise BadParameterError(f"{len(replicas)} replicas; expected 1 to {MAX_REPLICAS}")
    if not re.match(r"^[A-Za-z0-9._*-]{1,253}$", server_name):
        raise BadParameterError(f"server name {server_name!r:.60}; expected a host name or _")
    checked = [check_replica(r) for r in replicas]
    servers = "\n".join(f"    server {r} max_fails=1 fail_timeout={int(fail_timeout_s)}s;"
                        for r in checked)
    upstream = "$lifearena_upstream" if len(checked) > 1 else "lifearena"
    return f"""map $http_upgrade $connection_upgrade {{
    default upgrade;
    ''      close;
}}

upstream lifearena {{
    least_conn;
{servers}
}}
{lanes_config(checked, fail_timeout_s) if len(checked) > 1 else ""}
server {{
    listen {check_listen(listen)};
    server_name {server_name};
    client_max_body_size {BODY_BYTES};

    location / {{
        proxy_pass http://{upstream};
        proxy_http_version 1.1;
        proxy_set_header Upgrade $http_upgrade;
        proxy_set_header Connection $connection_upgrade;
        proxy_set_header Host $host;
        proxy_set_header X-Forwarded-For $remote_addr;
        proxy_set_header X-Forwarded-Proto $scheme;
        proxy_connect_timeout 2s;
        proxy_read_timeout 1h;
        proxy_send_timeout 1h;
        proxy_next_upstream error timeout;
        proxy_next_upstream_tries 3;
        proxy_buffering off;
    }}
}}"""


NEXT_BACKUP_WEIGHT = 20
"""The weight of a lane's first backup (the next replica of the list) among its backups:
once the lane's replica is down, nearly all its games' requests go to one replica, which
takes them over (its pages show them) instead of forwarding to whichever took them."""


def lanes_config(replicas: Sequence[str], fail_timeout_s: int = 5) -> str:
    """The ``map`` from a request's path to its game's lane's upstream, and one upstream a
    lane: the lane's replica first, every other one a ``backup``, the next one weighted
    ahead of the rest (:mod:`lifearena.web.lanes`)."""
    paths = "|".join(sorted(GAME_PATHS, key=len, reverse=True))
    routes = "\n".join(f'    "~^/(?:{paths})/{LANE_LETTERS[k]}" lifearena_lane{k};'
                       for k in range(len(replicas)))
    skipped = "\n".join(f'    "~^{path}$" lifearena;' for path in NOT_GAMES)
    count = len(replicas)

    def role(j: int, k: int) -> str:  # lane k's replica, the next one, the others
        return ("" if j == k else f" weight={NEXT_BACKUP_WEIGHT} backup"
                if j == (k + 1) % count else " backup")

    upstreams = "\n\n".join(
        f"upstream lifearena_lane{k} {{\n" + "\n".join(
            f"    server {r} max_fails=1 fail_timeout={int(fail_timeout_s)}s{role(j, k)};"
            for j, r in sorted(enumerate(replicas), key=lambda jr: (jr[0] - k) % count))
        + "\n}" for k in range(count))
    return f"""
map $uri $lifearena_upstream {{
    default lifearena;
{skipped}
{routes}
}}

{upstreams}
"""


def standalone_config(site: str, folder: Path) -> str:
    """A whole ``nginx.conf`` serving ``site`` in the foreground from ``folder`` (its pid
    file, error log and temporary files there): ``nginx -p FOLDER -c FOLDER/nginx.conf``
    runs it as any user on an unprivileged port."""
    root = Path(folder).resolve()
    return f"""daemon off;
worker_processes 1;
pid {root}/nginx.pid;
error_log {root}/error.log warn;

events {{
    worker_connections 1024;
}}

http {{
    access_log off;
    client_body_temp_path {root}/client_body;
    proxy_temp_path {root}/proxy;
    fastcgi_temp_path {root}/fastcgi;
    uwsgi_temp_path {root}/uwsgi;
    scgi_temp_path {root}/scgi;

{_indent(site)}
}}
"""


def _indent(text: str) -> str:
    return "\n".join(("    " + line) if line else line for line in text.splitlines())
