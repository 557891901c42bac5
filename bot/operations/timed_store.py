"""The store as the bot uses it, with each operation timed and each failure counted.

Every store operation is one transaction, so an operation's time is its transaction's time.
The outcomes a store returns as exceptions on purpose (a name taken, a character already
fighting) are answers, not errors; anything else is counted by its type.
"""

from __future__ import annotations

import functools
import inspect
import time
from collections.abc import Awaitable, Callable
from typing import Any, cast

from bot.operations.metrics import Metrics
from bot.store.interfaces import Store
from bot.store.values import AlreadyFighting, InFight, NameTaken

#: The aggregates of :class:`~bot.store.interfaces.Store` whose operations are timed.
AGGREGATES = ("rolls", "guilds", "characters", "maps", "combats", "sessions", "meta")
ANSWERS = (NameTaken, InFight, AlreadyFighting)


class _TimedAggregate:
    def __init__(self, name: str, inner: Any, metrics: Metrics) -> None:
        self._name, self._inner, self._metrics = name, inner, metrics

    def __getattr__(self, attribute: str) -> Any:
        found = getattr(self._inner, attribute)
        if not inspect.iscoroutinefunction(found):  # (memory's answer: no transaction)
            if callable(found):
                setattr(self, attribute, found)  # (found directly the next time)
            return found
        timed = _timed(found, f"{self._name}.{attribute}", self._metrics)
        setattr(self, attribute, timed)  # made once: the next access finds it directly
        return timed


def _timed(operation: Callable[..., Awaitable[Any]], label: str,
           metrics: Metrics) -> Callable[..., Awaitable[Any]]:
    seconds = metrics.database_time.labels(label)  # (looked up once, not on every call)

    @functools.wraps(operation)
    async def timed(*args: Any, **kwargs: Any) -> Any:
        started = time.perf_counter()
        try:
            return await operation(*args, **kwargs)
        except ANSWERS:
            raise
        except Exception as error:
            metrics.database_errors.labels(label, type(error).__name__).inc()
            raise
        finally:
            seconds.observe(time.perf_counter() - started)
    return timed


class TimedStore:
    """``store``'s aggregates, timed; everything else passes through."""

    def __init__(self, store: Store, metrics: Metrics) -> None:
        self.inner = store
        for name in AGGREGATES:
            setattr(self, name, _TimedAggregate(name, getattr(store, name), metrics))

    def __getattr__(self, attribute: str) -> Any:
        return getattr(self.inner, attribute)


def timed_store(store: Store, metrics: Metrics) -> Store:
    return cast(Store, TimedStore(store, metrics))
