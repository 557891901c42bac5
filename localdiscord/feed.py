"""What changes on the local Discord, as a feed a viewer (a page in the browser) follows:
messages posted, edited and deleted, pins, threads. Every event is kept (``events``), so a
subscriber that starts late reads from the beginning, or from an index it already reached.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from typing import Any

KINDS = ("message_create", "message_update", "message_delete", "pins_update",
         "thread_create", "thread_update", "channel_update")


@dataclass(frozen=True)
class Change:
    """One change: ``kind`` (one of :data:`KINDS`), where, and the message as it is now
    (Discord's JSON; for a deletion, only its id)."""

    index: int
    kind: str
    channel_id: int
    data: dict[str, Any]
    #: An ephemeral message's change: only this user may see it (None: everyone).
    visible_to: int | None = None

    def seen_by(self, viewer: int | None) -> bool:
        """Whether ``viewer`` sees this change (None: a viewer who sees everything)."""
        return viewer is None or self.visible_to in (None, viewer)

    def payload(self) -> dict[str, Any]:
        return {"index": self.index, "kind": self.kind, "channel_id": str(self.channel_id),
                "data": self.data}


@dataclass
class Feed:
    events: list[Change] = field(default_factory=list)
    #: Called with each change as it is published (the state file's keeper).
    listeners: list[Callable[[Change], None]] = field(default_factory=list)
    _wakeup: asyncio.Condition | None = None

    def publish(self, kind: str, channel_id: int, data: dict[str, Any],
                visible_to: int | None = None) -> Change:
        assert kind in KINDS, kind
        change = Change(len(self.events), kind, channel_id, data, visible_to)
        self.events.append(change)
        for listener in self.listeners:
            listener(change)
        if self._wakeup is not None:
            asyncio.get_running_loop().create_task(self._notify())
        return change

    async def _notify(self) -> None:
        assert self._wakeup is not None
        async with self._wakeup:
            self._wakeup.notify_all()

    async def follow(self, start: int = 0) -> AsyncIterator[Change]:
        """Every change from index ``start`` on, waiting for new ones (until cancelled)."""
        if self._wakeup is None:
            self._wakeup = asyncio.Condition()
        index = start
        while True:
            while index < len(self.events):
                yield self.events[index]
                index += 1
            async with self._wakeup:
                await self._wakeup.wait_for(self._beyond(index))

    def _beyond(self, index: int) -> Callable[[], bool]:
        """Whether a change at ``index`` has come."""
        return lambda: index < len(self.events)

    def of(self, kind: str, channel_id: int | None = None) -> list[Change]:
        return [c for c in self.events
                if c.kind == kind and channel_id in (None, c.channel_id)]
