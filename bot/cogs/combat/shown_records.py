"""What the table sees of each fight (:class:`~bot.store.values.ShownRecord`), written down
without a transaction of its own at every step.

A fight's step is committed before anyone sees it; what was shown of it is only what a
restart needs to know (a fight whose newest version is not recorded as shown is shown again,
its channel swept for a prompt this process posted: see the presenter), so the record may lag.
It waits here: the fight's next step carries it in its own transaction (:meth:`unwritten`,
:meth:`carried`); a fight that goes quiet has it written after :attr:`ShownRecords.delay`
seconds, with every other quiet fight's, by one timer; a clean shutdown writes what is left.
A crash in between only means the restart shows that version again.

A record that names a board the database does not know yet (a board posted afresh) or the
end of a fight is written at once (:meth:`now`): a restart must not post a second board, nor
repeat a recap once Discord has forgotten its nonce.
"""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING

from bot.store.values import DatabaseUnavailable, ShownRecord

if TYPE_CHECKING:
    from bot.host import Host

log = logging.getLogger(__name__)

__all__ = ["RECORD_DELAY", "ShownRecords"]

#: Seconds a quiet fight's record waits for a next step to carry it (at a table, steps come
#: seconds apart, so it is written by the timer; in a burst, the next step carries it).
RECORD_DELAY = 0.5


class ShownRecords:
    def __init__(self, bot: Host) -> None:
        self.bot = bot
        self.delay = RECORD_DELAY
        # fight -> (its newest record not written yet, when it was made: loop time)
        self._unwritten: dict[int, tuple[ShownRecord, float]] = {}
        self._timer: asyncio.TimerHandle | None = None
        self._writing: asyncio.Task[None] | None = None

    def unwritten(self, combat_id: int) -> ShownRecord | None:
        """The fight's newest record not written yet, for its next step to carry."""
        waiting = self._unwritten.get(combat_id)
        return None if waiting is None else waiting[0]

    def carried(self, record: ShownRecord) -> None:
        """A step's commit wrote ``record``: nothing left to write unless a newer came."""
        waiting = self._unwritten.get(record.combat_id)
        if waiting is not None and waiting[0] is record:
            del self._unwritten[record.combat_id]

    def later(self, record: ShownRecord) -> None:
        """Write ``record`` with the fight's next step, or once the fight has been quiet for
        :attr:`delay` seconds."""
        loop = asyncio.get_running_loop()
        self._unwritten[record.combat_id] = (record, loop.time())
        if self._timer is None:
            self._timer = loop.call_at(loop.time() + self.delay, self._due)

    async def now(self, record: ShownRecord) -> None:
        """Write ``record`` at once (any older one of its fight is then worth nothing)."""
        waiting = self._unwritten.get(record.combat_id)
        if waiting is not None and waiting[0].version <= record.version:
            del self._unwritten[record.combat_id]
        await self.bot.store.combats.shown([record])

    async def write_all(self) -> None:
        """Write every record left (a clean shutdown); a failure is logged: the next start
        shows those fights again."""
        self.close()
        if self._writing is not None:
            await asyncio.wait([self._writing])
        await self._write([record for record, _ in self._unwritten.values()])

    def close(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None

    def _due(self) -> None:
        """The timer: write the records of the fights quiet for long enough, in one
        transaction; look again when the next one is due."""
        self._timer = None
        loop = asyncio.get_running_loop()
        if self._writing is not None and not self._writing.done():
            self._timer = loop.call_at(loop.time() + self.delay, self._due)
            return
        quiet_since = loop.time() - self.delay
        due = [record for record, made in self._unwritten.values() if made <= quiet_since]
        if due:
            self._writing = loop.create_task(self._write(due), name="unhex-background:shown")
        if self._unwritten:
            first = min(made for _, made in self._unwritten.values())
            self._timer = loop.call_at(max(first, quiet_since) + self.delay, self._due)

    async def _write(self, records: list[ShownRecord]) -> None:
        """Write ``records``; once written, each is dropped unless a newer replaced it. Kept
        (tried again) while the database is unavailable; after any other error they are
        dropped, and a restart shows those versions again."""
        if not records:
            return
        try:
            await self.bot.store.combats.shown(records)
        except DatabaseUnavailable:
            log.warning("Could not record %d fights as shown: the database is unavailable",
                        len(records))
            return
        except Exception:
            log.exception("Could not record %d fights as shown", len(records))
        for record in records:
            self.carried(record)
