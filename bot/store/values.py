"""What the store hands the cogs, whichever database keeps it: the stored values, the plain
outcomes a change can have (``NameTaken``, ``InFight``, ``AlreadyFighting``), the database being
out of reach (``DatabaseUnavailable``), and the rules both engines keep alike (``next_deadline``,
how names and times are written).

Every engine (:mod:`bot.store.sqlite`, :mod:`bot.store.postgres`) returns exactly these values,
so a cog never knows which one it talks to.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Collection
from dataclasses import dataclass
from typing import NamedTuple

from bot.user_error import UserError
from engine.character import Character
from engine.combat import Combat, Fighter, Phase
from engine.combat.pace import next_between_turns_deadline, next_turn_deadline
from engine.combat.reminders import next_reminder
from engine.phrases import Said, phrase
from engine.quickroll import QuickRoll

__all__ = [
    "AlreadyFighting",
    "CharacterEntry",
    "DatabaseUnavailable",
    "FightsToRestore",
    "InFight",
    "LogEntry",
    "NameTaken",
    "SessionOpen",
    "ShownRecord",
    "StoredCharacter",
    "StoredCombat",
    "StoredMap",
    "StoredRoll",
    "StoredSession",
    "Undone",
    "WriteBack",
    "clean_name",
    "next_deadline",
    "timestamp",
]


# -- outcomes ------------------------------------------------------------------------------


class DatabaseUnavailable(UserError):
    """The database did not answer (its server restarted, stopped or is out of reach); the
    change asked for was not made, and the store reconnects by itself."""

    #: The message says nothing was changed: the error handler says otherwise when this
    #: interaction had already saved a change.
    says_nothing_changed = True

    def __init__(self) -> None:
        super().__init__(phrase("The bot's database is unavailable right now: nothing was "
                                "changed. Try again in a minute."))


class NameTaken(Exception):  # a plain outcome, not a failure of the store
    """The server already has a character of that name; nothing was saved."""

    def __init__(self, name: str) -> None:
        super().__init__(name)
        self.name = name


class InFight(UserError):
    """The character is in an active fight, whose copy is the truth until it ends; nothing was
    changed. The message says where, and how to change it meanwhile."""

    def __init__(self, name: str, channel_id: int) -> None:
        super().__init__(phrase(
            "{name} is in the fight in {channel}: until it ends, a GM changes them there "
            "with `/combat set`, and the sheet gets what happened when the fight ends.",
            name=name, channel=f"<#{channel_id}>"))
        self.channel_id = channel_id


class AlreadyFighting(Exception):  # a plain outcome: nothing was saved
    """A character the fight holds is already in another active fight."""

    def __init__(self, character_id: int, channel_id: int) -> None:
        super().__init__(character_id, channel_id)
        self.character_id, self.channel_id = character_id, channel_id


# -- rules both engines keep ---------------------------------------------------------------


def timestamp() -> str:
    """Now, as ``updated_at`` keeps it (microseconds, so "most recently changed" is defined)."""
    return dt.datetime.now(dt.UTC).strftime("%Y-%m-%d %H:%M:%S.%f")


def clean_name(name: str) -> str:
    """``name`` (a map's, a character's, a goal) as it is kept and shown: trimmed, each run
    of spaces made one space.

    >>> clean_name("  Old   Docks ")
    'Old Docks'
    """
    return " ".join(name.split())


def next_deadline(state: Combat, reminded: Collection[float] = ()) -> float | None:
    """When the clock next has something to do in the fight: its earliest reaction window
    closes, its running turn or its questions between turns reach their deadline
    (``engine.combat.pace``), or the late are
    reminded of a question whose deadline is not in ``reminded`` (``engine.combat.reminders``)."""
    if state.phase is Phase.ENDED:
        return None
    deadlines = [p.deadline for p in state.waiting_for() if p.deadline is not None]
    for later in (next_turn_deadline(state), next_between_turns_deadline(state),
                  next_reminder(state, reminded)):
        if later is not None:
            deadlines.append(later)
    return min(deadlines) if deadlines else None


#: How a fight's end changes a sheet: ``(the sheet as kept now, the fighter) -> new sheet``.
WriteBack = Callable[[Character, Fighter], Character]


# -- values --------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class StoredCharacter:
    """A character as kept: the engine's value and what the bot knows about it."""

    id: int
    guild_id: int
    owner_id: int
    character: Character
    version: int
    created_at: str
    updated_at: str

    @property
    def name(self) -> str:
        return self.character.name

    @property
    def npc(self) -> bool:
        return self.character.npc


@dataclass(frozen=True, slots=True)
class CharacterEntry:
    """A character without its data: enough for lists of names and autocomplete."""

    id: int
    name: str
    owner_id: int
    npc: bool
    updated_at: str


@dataclass(frozen=True, slots=True)
class StoredCombat:
    id: int
    guild_id: int
    channel_id: int
    map_name: str
    state: Combat
    version: int
    board_message_id: int | None
    prompt_message_id: int | None
    shown_version: int = -1
    #: The board is pinned while the fight lasts.
    pin: bool = False
    #: A fight in a thread of its own: the channel its result is posted back to.
    report_channel_id: int | None = None
    #: The turn ("round:turn") whose players were pinged when it was first shown.
    announced_turn: str | None = None
    #: The server map the fight is on, as ``(id, created_at)`` (ids may be reused); None: a
    #: built-in map, or a fight kept before maps' ids were.
    map_identity: tuple[int, str] | None = None
    #: When the clock next has something to do (a reaction window closes, a turn reaches its
    #: deadline; None: nothing), worked out once per step, when it is saved.
    next_deadline: float | None = None
    #: The deadlines of the questions whose late players were reminded
    #: (``engine.combat.reminders``): each question is reminded once.
    reminded: tuple[float, ...] = ()

    @property
    def active(self) -> bool:
        return self.state.phase is not Phase.ENDED


class Undone(NamedTuple):
    """A step taken back: the fight as it was before it, its command, and what the step had
    said (each event's text), so the table can see what was taken back."""

    combat: StoredCombat
    command: str
    said: tuple[Said, ...]


@dataclass(frozen=True, slots=True)
class ShownRecord:
    """What the table sees of a fight: the version shown, its board's and its live prompt's
    message ids, and the turn whose players have been pinged (None: as recorded before)."""

    combat_id: int
    version: int
    board_message_id: int | None
    prompt_message_id: int | None
    announced_turn: str | None = None


class FightsToRestore(NamedTuple):
    """What start-up needs of the fights of the shards it runs, without their states: when
    each active fight's clock next has something to do (``{channel id: deadline}``, only
    those that have one), and the fights whose newest step the table has not seen
    (``(channel id, fight id)``, an ended fight's last step included)."""

    deadlines: dict[int, float]
    unshown: list[tuple[int, int]]


@dataclass(frozen=True, slots=True)
class LogEntry:
    """One step of a fight: ``events`` as everyone may read them, ``gm_events`` the same with
    the figures of the NPCs the GM hides (``Event.gm_text``)."""

    id: int
    user_id: int
    command: str
    events: tuple[Said, ...]
    undone: bool
    created_at: str
    gm_events: tuple[Said, ...] = ()


@dataclass(frozen=True, slots=True)
class StoredMap:
    id: int
    guild_id: int
    name: str
    text: str
    author_id: int
    created_at: str
    updated_at: str


@dataclass(frozen=True, slots=True)
class StoredRoll:
    id: int
    guild_id: int | None
    channel_id: int
    user_id: int
    note: str | None
    state: QuickRoll
    version: int


@dataclass(frozen=True, slots=True)
class StoredSession:
    """A play session of a server: its goal, who opened it and when, the PCs added to it;
    once closed, when and whether the goal was achieved."""

    id: int
    guild_id: int
    goal: str
    opened_by: int
    opened_at: str
    members: tuple[int, ...] = ()
    closed_at: str | None = None
    achieved: bool | None = None


class SessionOpen(Exception):  # a plain outcome, not a failure of the store
    """The server has an open session already; nothing was saved."""

    def __init__(self, session: StoredSession) -> None:
        super().__init__(session.goal)
        self.session = session
