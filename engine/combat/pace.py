"""A fight's pace: how long a reaction window waits and a team's turn lasts, said in words,
and the running turn's clock (``TurnClock``: its deadline set as a team's turn starts, gone as
it ends); which deadline is due (``due_command``) and the next one to watch
(``next_turn_deadline``). What a passed turn deadline does is ``engine.combat.turn_deadline``.

>>> duration_words(45), duration_words(5400), duration_words(172800), duration_words(90061)
('45 seconds', '1 hour 30 minutes', '2 days', '1 day 1 hour 1 minute 1 second')
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.combat.commands import CloseWindow, Command, TurnDeadline
from engine.combat.lifecycle import Lifecycle
from engine.combat.model import Combat, Phase, TurnEnd
from engine.errors import RuleError
from engine.words import counted

if TYPE_CHECKING:
    from engine.combat.context import Context

__all__ = [
    "LONGEST", "TurnClock", "check_duration", "due_command", "duration_words",
    "next_turn_deadline", "with_pace",
]

#: The longest a reaction window may wait or a turn last: two weeks, when a by-post table
#: drops a character anyway.
LONGEST = 14 * 24 * 3600

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


def check_duration(seconds: int, what: str) -> None:
    """Refuse a window's or a turn's length out of 1 second to 14 days."""
    if not 1 <= seconds <= LONGEST:
        raise RuleError(f"{what} lasts 1 second to 14 days.")


def with_pace(c: Combat, *, reaction_seconds: int, turn_seconds: int | None,
              turn_end: TurnEnd, now: float) -> Combat:
    """``c`` with this pace. A turn running as its length changes is given the new length
    from ``now`` (none: no deadline); a window open keeps the time it was given."""
    check_duration(reaction_seconds, "A reaction window")
    if turn_seconds is not None:
        check_duration(turn_seconds, "A turn")
    update: dict[str, object] = {"reaction_seconds": reaction_seconds,
                                 "turn_seconds": turn_seconds, "turn_end": turn_end}
    if turn_seconds != c.turn_seconds and c.acting_team is not None and c.phase not in (
            Phase.ENDING, Phase.ENDED):
        update["turn_deadline"] = None if turn_seconds is None else now + turn_seconds
        update["turn_deadline_told"] = False
    return c.model_copy(update=update)


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


def next_turn_deadline(c: Combat) -> float | None:
    """When the running turn's deadline has something to do: while the team's turn waits for
    it (an action being resolved finishes first) and the GM was not told yet."""
    if c.phase is not Phase.TURN or c.turn_deadline_told:
        return None
    return c.turn_deadline


def due_command(c: Combat, now: float) -> Command | None:
    """What the clock does to ``c`` at ``now``: close a window whose time is up, else tell
    that the turn reached its deadline; None when nothing is due."""
    if c.phase is Phase.ENDED:
        return None
    if any(p.deadline is not None and p.deadline <= now for p in c.waiting_for()):
        return CloseWindow(by_timeout=True)
    deadline = next_turn_deadline(c)
    if deadline is not None and deadline <= now:
        return TurnDeadline()
    return None
