"""`/combat undo`, the same on every engine: inside one transaction, the last step not yet
undone is found, the fight goes back to the state that step started from (its patch applied,
one version on), the step is marked undone, and the fight holds the characters it held then.
The engines (:mod:`bot.store.sqlite.combats`, :mod:`bot.store.postgres.combats`) only give
the SQL, as :class:`UndoStatements`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from bot.store.steps import character_ids, replaced, state_before, told_events
from bot.store.values import StoredCombat, Undone, next_deadline

__all__ = ["LoggedStep", "UndoStatements", "undo_last_step"]


@dataclass(frozen=True)
class LoggedStep:
    """What undoing a log entry's step needs of it: its id, its command, its patch back (or,
    for entries from before patches, the ``whole`` state it started from), and what it said
    (its events' texts, as JSON)."""

    id: int
    command: str
    patch: bytes | None
    whole: str | None
    events: str


class UndoStatements(Protocol):
    """One engine's statements for an undo, all on the undo's one transaction."""

    async def last_step(self, combat_id: int) -> LoggedStep | None:
        """The fight's last log entry not yet undone, if any."""
        ...

    async def restore(self, stored: StoredCombat, state: str, deadline: float | None) -> bool:
        """The fight's state set to ``state`` (JSON), one version on; False (nothing
        changed) when the fight changed since ``stored`` was read."""
        ...

    async def mark_undone(self, entry_id: int) -> None: ...

    async def hold(self, combat_id: int, wanted: set[int]) -> None:
        """The characters the fight holds made exactly ``wanted``."""
        ...


async def undo_last_step(statements: UndoStatements,
                         stored: StoredCombat) -> Undone | None:
    """Step back over the last command not yet undone; None when there is none, or when the
    fight changed since ``stored`` was read."""
    step = await statements.last_step(stored.id)
    if step is None:
        return None
    doc, restored = state_before(stored.state, step.patch, step.whole)
    deadline = next_deadline(restored, stored.reminded)
    if not await statements.restore(stored, doc, deadline):
        return None
    await statements.mark_undone(step.id)
    await statements.hold(stored.id, character_ids(restored))
    said, _ = told_events(step.events)
    return Undone(replaced(stored, restored, deadline), step.command, said)
