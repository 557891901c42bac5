"""How a fight's step is written down, the same on every engine: the state as JSON, the log
entry's events, and the patch back to the state before it (compressed), which `/combat undo`
applies; whether it is the usual step (one statement); each sheet's write-back at the end.
The engines (:mod:`bot.store.sqlite.combats`, :mod:`bot.store.postgres.combats`) only run
the SQL.
"""

from __future__ import annotations

import dataclasses
import json
import zlib
from collections.abc import Sequence
from functools import lru_cache
from typing import Any

import jsonpatch

from bot.store.compact import compact_read_state
from bot.store.patches import reverse_patch_of_models
from bot.store.values import LogEntry, ShownRecord, StoredCombat, WriteBack, next_deadline
from engine.character import Character
from engine.combat import Combat, Event, Fighter, Phase
from engine.phrases import Said, said_from_json, said_to_json

__all__ = [
    "Step",
    "character_ids",
    "dumps",
    "log_entry",
    "logged_events",
    "replaced",
    "said_json",
    "state_before",
    "told_events",
    "undo_patch",
    "written_back",
]


def dumps(doc: Any) -> str:
    """``doc`` as compact JSON, as the log keeps it."""
    return json.dumps(doc, separators=(",", ":"), ensure_ascii=False)


def logged_events(events: Sequence[Event]) -> str:
    """A step's events as its log keeps them (JSON): each its text (a string, or a phrase's
    object: ``engine.phrases``), or, when the GM reads it otherwise, both (``{"text": ...,
    "gm_text": ...}``)."""
    return "[" + ",".join(
        said_json(e.text) if e.gm_text is None
        else f'{{"text":{said_json(e.text)},"gm_text":{said_json(e.gm_text)}}}'
        for e in events) + "]"


@lru_cache(maxsize=1024)  # (a fight's phrases come back: the same words, names and numbers)
def said_json(said: Said) -> str:
    """``said`` as the log's JSON text (as :func:`dumps` writes it)."""
    return _LOG_JSON(said_to_json(said))


#: :func:`dumps` without making an encoder each time.
_LOG_JSON = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False).encode


def told_events(events: str) -> tuple[tuple[Said, ...], tuple[Said, ...]]:
    """What :func:`logged_events` wrote, read back: as everyone reads it, and as the GM."""
    told = json.loads(events or "[]")
    both = [(e["text"], e["gm_text"]) if isinstance(e, dict) and "gm_text" in e else (e, e)
            for e in told]
    return (tuple(said_from_json(public) for public, _ in both),
            tuple(said_from_json(exact) for _, exact in both))


def log_entry(entry_id: int, user_id: int, command: str, events: str, undone: bool,
              created_at: str) -> LogEntry:
    """A log row read back: ``events`` as :func:`logged_events` wrote them."""
    public, exact = told_events(events)
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
    return dumps(doc), compact_read_state(Combat.model_validate(doc))


def character_ids(state: Combat) -> set[int]:
    """The kept characters the fight holds."""
    return {f.character_id for f in state.fighters if f.character_id is not None}


def replaced(stored: StoredCombat, state: Combat, deadline: float | None) -> StoredCombat:
    """``stored`` after a step saved ``state``: one version on."""
    return dataclasses.replace(stored, state=state, version=stored.version + 1,
                               next_deadline=deadline)


@dataclasses.dataclass(frozen=True)
class Step:
    """A step as every engine saves it: :attr:`row` fills its UPDATE (state, active,
    deadline, user, command, events, undo patch; then the fight's id and the version read,
    which refuses a step on a stale copy); ``holds``: the characters the fight holds after
    it; ``usual``: it takes and lets go no character and the fight goes on, so the UPDATE
    alone (its trigger writes the log entry) is the whole step."""

    row: tuple[Any, ...]
    ended: bool
    deadline: float | None
    holds: set[int]
    usual: bool

    @staticmethod
    def of(stored: StoredCombat, state: Combat, *, user_id: int, command: str,
           events: Sequence[Event]) -> Step:
        ended = state.phase is Phase.ENDED
        deadline = next_deadline(state, stored.reminded)
        holds = set() if ended else character_ids(state)
        row = (state.model_dump_json(), not ended, deadline, user_id, command,
               logged_events(events), undo_patch(state, stored.state), stored.id,
               stored.version)
        return Step(row, ended, deadline, holds,
                    usual=not ended and holds == character_ids(stored.state))

    def arguments(self, shown: ShownRecord | None) -> tuple[Any, ...]:
        """The step's UPDATE arguments: :attr:`row`, then (with ``shown``, which the engines'
        statement then records too) that record's version, board, prompt and turn."""
        if shown is None:
            return self.row
        return (*self.row, shown.version, shown.board_message_id, shown.prompt_message_id,
                shown.announced_turn)


def written_back(kept: str, fighter: Fighter, write_back: WriteBack) -> str:
    """The sheet kept as JSON (``kept``) once the fight's end wrote ``fighter`` back to it.
    The name and PC/NPC stay as kept, so a rename meanwhile is not undone."""
    sheet = Character.model_validate_json(kept)
    after = write_back(sheet, fighter)
    return after.model_copy(update={"name": sheet.name, "npc": sheet.npc}).model_dump_json()
