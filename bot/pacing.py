"""Board edits paced by the channel's edit bucket, as Discord's headers tell it.

A channel's message edits share a bucket (about 5 per 5 s, but Discord says to read
``X-RateLimit-*`` rather than hard-code it). Spent at once by a fast exchange, the bucket runs
dry and the next edit waits for its reset (seconds); spread evenly over the time left until
the reset, the board is edited about once a second and, since the newest version wins, shows
the fight as it is then. Every answer to an edit in a channel tells how many edits remain and
when the bucket resets: the next board edit there waits its share of that time.
"""

from __future__ import annotations

import asyncio
import re
import time
from collections.abc import Callable, Mapping

__all__ = ["EditPacing"]

#: An edit of a message in a channel (the route the board is edited by).
EDIT = re.compile(r"/channels/(\d+)/messages/\d+$")


class EditPacing:
    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self._next: dict[int, float] = {}  # channel -> when its next board edit may go

    def heard(self, method: str, path: str, headers: Mapping[str, str]) -> None:
        """Discord answered a request: if it edited a message in a channel, the next board
        edit there waits for its share of the time until the bucket resets."""
        found = EDIT.search(path) if method == "PATCH" else None
        if found is None:
            return
        try:
            remaining = int(headers["X-RateLimit-Remaining"])
            reset_after = float(headers["X-RateLimit-Reset-After"])
        except (KeyError, ValueError):
            return  # (no bucket said: nothing to pace)
        self._next[int(found[1])] = self.clock() + reset_after / (remaining + 1)

    async def wait(self, channel_id: int) -> None:
        """Until the channel's next board edit may go out."""
        delay = self._next.get(channel_id, 0.0) - self.clock()
        if delay > 0:
            await asyncio.sleep(delay)
        self._next.pop(channel_id, None)
