"""The operator's gate of the lab: only requests carrying the server's admin token start,
stop or resume tournaments.

``lifearena serve --lab-admin`` makes a random token and prints the private link
``/lab/tournaments#admin=TOKEN``; the page keeps the token in the tab's session storage and
sends it as the header :data:`ADMIN_HEADER`. The token is compared in constant time; a
missing or wrong one is answered 403 with :data:`NEEDS_ADMIN`, and a server started without
one (``admin_token=None``) answers every such request so; its page says how to start a
server that can (:data:`NO_ADMIN`).

>>> is_admin("s3cret", "s3cret"), is_admin("s3cre", "s3cret"), is_admin(None, "s3cret")
(True, False, False)
>>> is_admin("anything", None)
False
>>> refusal("s3cret", None) == NO_ADMIN
True
>>> refusal("s3cret", "s3cret") == ""
True
"""

from __future__ import annotations

import hmac
from collections.abc import Awaitable, Callable
from typing import Annotated

from fastapi import Header
from fastapi.exceptions import HTTPException

ADMIN_HEADER = "X-Admin-Token"
"""The request header that carries the operator's token."""
NEEDS_ADMIN = "starting tournaments needs this server's admin link (lifearena serve --lab-admin)"
"""The one line of a refused request (403), and what the page says without the link."""
WRONG_LINK = ("this admin link is not this server's (each start makes a new one): "
              + NEEDS_ADMIN)
"""What the page says when the token it holds is not the server's."""

AdminHeader = Annotated[str | None, Header(
    alias=ADMIN_HEADER, description="the operator's token from the admin link "
                                    "(lifearena serve --lab-admin)")]


def is_admin(sent: str | None, token: str | None) -> bool:
    """Whether ``sent`` is the server's ``token`` (constant time; none never is)."""
    if token is None or sent is None:
        return False
    return hmac.compare_digest(sent.encode("utf-8", "replace"), token.encode("utf-8"))


NO_ADMIN = ("this server was started without an admin link, so nobody can start "
            "tournaments here: restart it as lifearena serve --lab-admin and open the private "
            "link it prints (/lab/tournaments#admin=...); or run lifearena tournament GAME "
            "--db FILE and show it with lifearena serve --results FILE")
"""What the page says on a server started without ``--lab-admin``: how to start one."""


def refusal(sent: str | None, token: str | None) -> str:
    """Why a request sending ``sent`` may not start tournaments ("" when it may), and, on a
    server started without an admin link, how to start one that can.

    >>> refusal(None, None) == NO_ADMIN, refusal(None, "s") == NEEDS_ADMIN, refusal("s", "s")
    (True, True, '')
    """
    if token is None:
        return NO_ADMIN
    if is_admin(sent, token):
        return ""
    return WRONG_LINK if sent and token is not None else NEEDS_ADMIN


def admin_gate(token: str | None) -> Callable[[str | None], Awaitable[None]]:
    """A FastAPI dependency refusing (403, one line) every request without ``token`` in
    its :data:`ADMIN_HEADER`; with ``token=None``, every request."""

    async def require_admin(x_admin_token: AdminHeader = None) -> None:
        if not is_admin(x_admin_token, token):
            raise HTTPException(status_code=403, detail=NEEDS_ADMIN)

    return require_admin


__all__ = ["ADMIN_HEADER", "NEEDS_ADMIN", "NO_ADMIN", "WRONG_LINK", "AdminHeader", "admin_gate",
           "is_admin", "refusal"]
