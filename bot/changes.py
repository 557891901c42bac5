"""Whether the task at hand (one interaction's handling) has saved a change.

The store marks the running task at every commit; the error handler asks, so an unexpected
error after a change was saved never tells the user "Nothing was changed". discord.py handles
each interaction in a task of its own.
"""

from __future__ import annotations

import asyncio
from weakref import WeakSet

__all__ = ["committed", "mark_committed"]

_COMMITTED: WeakSet[asyncio.Task[object]] = WeakSet()


def mark_committed() -> None:
    task = asyncio.current_task()
    if task is not None:
        _COMMITTED.add(task)


def committed() -> bool:
    """Whether the running task has committed a change to the database."""
    return asyncio.current_task() in _COMMITTED
