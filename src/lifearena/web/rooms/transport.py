"""How the rooms reach the pages: a :class:`Transport` tells pages a message.

The rooms know no sockets: a page is anything that takes a message without waiting
(:class:`Page`; in this server, a socket's :class:`~lifearena.web.sockets.Outbox`), and a
transport delivers one message to many pages. The in-process transport
(:class:`~lifearena.web.sockets.LocalTransport`) offers each page its text at once; a
transport between replicas would publish the message to the replica that holds the pages.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping, Sequence
from typing import Any, Protocol


class Page(Hashable, Protocol):
    """One open page of a game, as the rooms see it: it takes a message and never makes
    its sender wait (a page too slow to read closes itself)."""

    @property
    def closed(self) -> bool:
        """Whether the page has gone (nothing offered to it arrives)."""

    def offer(self, message: dict[str, Any] | str) -> bool:
        """Queue ``message`` for the page; ``False`` when it could not take it."""


class Transport(Protocol):
    """What the rooms push to pages through."""

    def tell(self, pages: Mapping[Page, Sequence[int]],
             message_of: Callable[[list[int]], dict[str, Any] | str]) -> int:
        """Offer every page of ``pages`` (page to the seats it holds) the message
        ``message_of(seats)``, awaiting nobody; answer how many took it. A message is made
        once per distinct seat list (the spectators share theirs)."""
