"""A fight's pace: how long a reaction window waits and a team's turn lasts, said in words,
and the running turn's clock (``TurnClock``: its deadline set as a team's turn starts, gone as
it ends); the clock of the questions between turns (``between_turns_clock``: initiative, the
order, the rallies at the end share one deadline, a turn's length from when the first was
asked); each question's deadline (``question_deadline``); which deadline is due
(``due_command``) and the next ones to watch (``next_turn_deadline``,
``next_between_turns_deadline``). What a passed turn deadline does is
``engine.combat.turn_deadline``; a passed deadline between turns,
``engine.combat.between_turns``.

>>> duration_words(45), duration_words(5400), duration_words(172800), duration_words(90061)
('45 seconds', '1 hour 30 minutes', '2 days', '1 day 1 hour 1 minute 1 second')
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.combat.commands import BetweenTurnsDeadline, CloseWindow, Command, TurnDeadline
from engine.combat.lifecycle import Lifecycle
from engine.combat.model import Combat, Phase, Prompt, PromptKind, TurnEnd
from engine.errors import RuleError
from engine.phrases import Said, phrase, plural_phrase
from engine.words import counted

if TYPE_CHECKING:
    from engine.combat.context import Context

__all__ = [
    "BETWEEN_TURNS", "LONGEST", "TurnClock", "between_turns_clock", "check_duration",
    "due_command", "duration_phrase", "duration_words", "next_between_turns_deadline",
    "next_turn_deadline", "question_deadline", "with_pace",
]

#: The longest a reaction window may wait or a turn last: two weeks, when a by-post table
#: drops a character anyway.
LONGEST = 14 * 24 * 3600

#: Where the fight asks between turns: a round's initiative and order, the rallies at the end.
BETWEEN_TURNS = frozenset({Phase.INITIATIVE, Phase.ENDING})
#: Where a team's turn runs: its questions close with the turn.
_IN_TURN = frozenset({Phase.TURN, Phase.REACTION, Phase.RESOLUTION})
#: A reaction window's questions: they close at the window's own deadline.
_WINDOWS = frozenset({PromptKind.REACT, PromptKind.AOE_DEFEND})

_UNITS = (("day", 86400), ("hour", 3600), ("minute", 60), ("second", 1))


def duration_words(seconds: int) -> str:
    """``seconds`` as the table says it: "45 seconds", "1 hour 30 minutes", "2 days"."""
    parts = []
    left = seconds
    for unit, size in _UNITS:
        count, left = divmod(left, size)
        if count:
            parts.append(counted(count, unit))
    return " ".join(parts) or "0 seconds"


_UNIT_PHRASES = {
    "day": lambda n: plural_phrase("{count} day", "{count} days", "count", count=n),
    "hour": lambda n: plural_phrase("{count} hour", "{count} hours", "count", count=n),
    "minute": lambda n: plural_phrase("{count} minute", "{count} minutes", "count", count=n),
    "second": lambda n: plural_phrase("{count} second", "{count} seconds", "count", count=n),
}


def duration_phrase(seconds: int) -> Said:
    """:func:`duration_words` in the reader's language: "1 hour 30 minutes"."""
    parts: list[Said] = []
    left = seconds
    for unit, size in _UNITS:
        count, left = divmod(left, size)
        if count:
            parts.append(_UNIT_PHRASES[unit](count))
    if not parts:
        return _UNIT_PHRASES["second"](0)
    said = parts[-1]
    for part in reversed(parts[:-1]):
        said = phrase("{larger} {smaller}", larger=part, smaller=said)
    return said


def check_duration(seconds: int, what: Said) -> None:
    """Refuse a window's or a turn's length out of 1 second to 14 days (``what``: "A turn";
    older callers' plain English is put in as it is)."""
    if 1 <= seconds <= LONGEST:
        return
    if isinstance(what, str):
        raise RuleError(f"{what} lasts 1 second to 14 days.")
    raise RuleError(phrase("{what} lasts 1 second to 14 days.", what=what))


def with_pace(c: Combat, *, reaction_seconds: int, turn_seconds: int | None,
              turn_end: TurnEnd, now: float) -> Combat:
    """``c`` with this pace. A turn running as its length changes is given the new length
    from ``now`` (none: no deadline); a window open keeps the time it was given."""
    check_duration(reaction_seconds, phrase("A reaction window"))
    if turn_seconds is not None:
        check_duration(turn_seconds, phrase("A turn"))
    update: dict[str, object] = {"reaction_seconds": reaction_seconds,
                                 "turn_seconds": turn_seconds, "turn_end": turn_end}
    if turn_seconds != c.turn_seconds and c.acting_team is not None and c.phase not in (
            Phase.ENDING, Phase.ENDED):
        update["turn_deadline"] = None if turn_seconds is None else now + turn_seconds
        update["turn_deadline_told"] = False
    if turn_seconds != c.turn_seconds and c.between_turns_deadline is not None:
        update["between_turns_deadline"] = None if turn_seconds is None else now + turn_seconds
        update["between_turns_told"] = False
    return between_turns_clock(c.model_copy(update=update), now)


class TurnClock(Lifecycle):
    """A team's turn gets the fight's turn length from its start; its deadline goes with it."""

    def on_turn_start(self, c: Combat, team: str, ctx: Context) -> Combat:
        seconds = c.turn_seconds
        return c.model_copy(update={
            "turn_deadline": None if seconds is None else ctx.now + seconds,
            "turn_deadline_told": False})

    def on_turn_end(self, c: Combat, team: str, ctx: Context) -> Combat:
        if c.turn_deadline is None and not c.turn_deadline_told:
            return c
        return c.model_copy(update={"turn_deadline": None, "turn_deadline_told": False})


def question_deadline(c: Combat, p: Prompt) -> float | None:
    """When the question ``p`` of ``c`` closes: a window's at its own deadline; any other
    asked during a team's turn (act, re-roll, which die, armor, ...) with the turn; one asked
    between turns at the deadline those questions share."""
    if p.deadline is not None or p.kind in _WINDOWS:
        return p.deadline
    if c.phase in _IN_TURN:
        return c.turn_deadline
    if c.phase in BETWEEN_TURNS:
        return c.between_turns_deadline
    return None


def between_turns_clock(c: Combat, now: float) -> Combat:
    """``c`` with the deadline of its questions between turns: set, a turn's length from
    ``now``, when the first of them is asked (in a fight whose turns have a length); gone
    once none is asked."""
    asking = c.phase in BETWEEN_TURNS and bool(c.prompts) and c.turn_seconds is not None
    if asking and c.between_turns_deadline is None:
        assert c.turn_seconds is not None
        return c.model_copy(update={"between_turns_deadline": now + c.turn_seconds,
                                    "between_turns_told": False})
    if not asking and (c.between_turns_deadline is not None or c.between_turns_told):
        return c.model_copy(update={"between_turns_deadline": None,
                                    "between_turns_told": False})
    return c


def next_between_turns_deadline(c: Combat) -> float | None:
    """When the questions between turns have something to do: while they wait and the GM
    was not told yet that their time is up."""
    if c.phase not in BETWEEN_TURNS or c.between_turns_told:
        return None
    return c.between_turns_deadline


def next_turn_deadline(c: Combat) -> float | None:
    """When the running turn's deadline has something to do: while the team's turn, or a
    question asked in it as an action is resolved, waits for it (a reaction window closes
    first) and the GM was not told yet."""
    if c.phase not in (Phase.TURN, Phase.RESOLUTION) or c.turn_deadline_told:
        return None
    return c.turn_deadline


def due_command(c: Combat, now: float) -> Command | None:
    """What the clock does to ``c`` at ``now``: close a window whose time is up, else tell
    that the turn, or the questions between turns, reached their deadline; None when nothing
    is due."""
    if c.phase is Phase.ENDED:
        return None
    if any(p.deadline is not None and p.deadline <= now for p in c.waiting_for()):
        return CloseWindow(by_timeout=True)
    deadline = next_turn_deadline(c)
    if deadline is not None and deadline <= now:
        return TurnDeadline()
    deadline = next_between_turns_deadline(c)
    if deadline is not None and deadline <= now:
        return BetweenTurnsDeadline()
    return None
