"""How a fight's step is written down, the same on every engine: the state as JSON, the log
entry's events, and the patch back to the state before it (compressed), which `/combat undo`
applies.
"""

from __future__ import annotations

import dataclasses
import json
import zlib
from collections.abc import Sequence
from typing import Any

import jsonpatch

from bot.store.compact import compact_state
from bot.store.patches import reverse_patch_of_models
from bot.store.values import LogEntry, StoredCombat
from engine.combat import Combat, Event

__all__ = [
    "character_ids",
    "dumps",
    "log_entry",
    "logged_events",
    "replaced",
    "state_before",
    "undo_patch",
]


def dumps(doc: Any) -> str:
    """``doc`` as compact JSON, as the log keeps it."""
    return json.dumps(doc, separators=(",", ":"), ensure_ascii=False)


def logged_events(events: Sequence[Event]) -> str:
    """A step's events as its log keeps them (JSON): each its text, or, when the GM reads it
    otherwise, both (``{"text": ..., "gm_text": ...}``)."""
    return dumps([e.text if e.gm_text is None else {"text": e.text, "gm_text": e.gm_text}
                  for e in events])


def log_entry(entry_id: int, user_id: int, command: str, events: str, undone: bool,
              created_at: str) -> LogEntry:
    """A log row read back: ``events`` as :func:`logged_events` wrote them."""
    told = json.loads(events)
    public = tuple(e if isinstance(e, str) else e["text"] for e in told)
    exact = tuple(e if isinstance(e, str) else e["gm_text"] for e in told)
    return LogEntry(entry_id, user_id, command, public, undone, created_at, exact)


#: zlib's window and memory level for a patch: a step's patch is a few hundred bytes, and
#: zlib's defaults (a 32 KB window, 256 KB of tables cleared on every call) cost ten times
#: what compressing it does. The stream is a standard one: ``zlib.decompress`` reads it.
PATCH_WINDOW_BITS, PATCH_MEMORY_LEVEL = 12, 4


def undo_patch(state: Combat, before: Combat) -> bytes:
    """The compressed JSON Patch that turns ``state`` back into ``before``."""
    compressor = zlib.compressobj(6, zlib.DEFLATED, PATCH_WINDOW_BITS, PATCH_MEMORY_LEVEL)
    text = dumps(reverse_patch_of_models(state, before)).encode()
    return compressor.compress(text) + compressor.flush()


def state_before(state: Combat, patch: bytes | None, whole: str | None) -> tuple[str, Combat]:
    """The state a log entry's step started from, as JSON and as a value: ``state`` with the
    entry's ``patch`` applied, or, for entries from before patches, the ``whole`` state kept."""
    if patch is not None:
        doc = jsonpatch.apply_patch(state.model_dump(mode="json"),
                                    json.loads(zlib.decompress(patch)))
    else:
        doc = json.loads(whole or "null")
    return dumps(doc), compact_state(Combat.model_validate(doc))


def character_ids(state: Combat) -> set[int]:
    """The kept characters the fight holds."""
    return {f.character_id for f in state.fighters if f.character_id is not None}


def replaced(stored: StoredCombat, state: Combat, deadline: float | None) -> StoredCombat:
    """``stored`` after a step saved ``state``: one version on."""
    return dataclasses.replace(stored, state=state, version=stored.version + 1,
                               next_deadline=deadline)
