"""Stopping a server's background loops: :func:`cancel_and_wait`.

``task.cancel()`` then ``await task`` inside ``suppress(CancelledError)`` has two faults: a
library that turns the cancellation into an error of its own (a Redis client whose read was
cancelled may report a lost connection) lets a ``while True`` loop catch it and go on, so
the ``await`` waits until something else cancels the waiter; and the ``suppress`` swallows
the waiter's own cancellation too. :func:`cancel_and_wait` asks again until each task is
done, and lets the caller's cancellation through.

>>> import asyncio
>>> async def stubborn() -> None:
...     while True:
...         try:
...             await asyncio.sleep(3600)
...         except asyncio.CancelledError:
...             pass  # as a library that swallows the first cancellation would
...         await asyncio.sleep(3600)
>>> async def demo() -> bool:
...     task = asyncio.get_running_loop().create_task(stubborn())
...     await asyncio.sleep(0)
...     await cancel_and_wait([task], again_after=0.01)
...     return task.cancelled()
>>> asyncio.run(demo())
True
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterable

AGAIN_AFTER_S = 0.5
"""Seconds a cancelled task is given before it is cancelled again."""


async def cancel_and_wait(tasks: Iterable[asyncio.Task[object] | asyncio.Task[None]], *,
                          again_after: float = AGAIN_AFTER_S) -> None:
    """Cancel ``tasks`` and return once every one is done, cancelling again every
    ``again_after`` seconds those that go on; their results and errors are dropped."""
    tasks = list(tasks)
    pending = {task for task in tasks if not task.done()}
    while pending:
        for task in pending:
            task.cancel()
        _, pending = await asyncio.wait(pending, timeout=again_after)
    for task in tasks:
        if not task.cancelled():
            task.exception()  # retrieved: no "never retrieved" warning


__all__ = ["AGAIN_AFTER_S", "cancel_and_wait"]
