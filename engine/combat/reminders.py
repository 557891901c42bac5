"""Reminders that ping only who is late: each question the fight waits for with a deadline
(a reaction window's; a team's turn's, for any question asked during it; the one the
questions between turns share) is reminded once, to the players it asks who have not
answered, at the point the GM set (``Combat.remind_fraction`` of its time left, else
``Combat.remind_seconds`` before its deadline). A question is known by its deadline: the
deadlines reminded are kept by the caller (the bot keeps them in its database, so a restart
never reminds twice), and a turn extended has a new deadline, reminded anew.

Only questions that wait long enough to forget are reminded: a window or a turn of at least
``SHORTEST_REMINDED`` (a live table's 45-second window never is); and a reminder whose moment
came with less than ``LEAST_LEFT`` to go (the bot was away) is dropped as said.

>>> reminder_words(0.25, None), reminder_words(None, 7200), reminder_words(None, None)
('when 25% of the time is left', '2 hours before the deadline', 'never')
>>> reminder_phrase(None, 5400).english()
'1 hour 30 minutes before the deadline'
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass

from engine.combat.asking import Question, asked
from engine.combat.model import Combat, Phase
from engine.combat.pace import (
    BETWEEN_TURNS,
    LONGEST,
    duration_phrase,
    duration_words,
    question_deadline,
)
from engine.combat.prompts import SPECS, asked_users
from engine.errors import RuleError
from engine.phrases import Phrase, phrase

__all__ = [
    "LEAST_LEFT", "SHORTEST_REMINDED", "Reminder", "next_reminder", "pending_reminders",
    "reminder_phrase", "reminder_words", "with_reminder",
]

#: The shortest window or turn whose questions are reminded: ten minutes.
SHORTEST_REMINDED = 600
#: A reminder with less than this to go is not sent (it would only say "too late").
LEAST_LEFT = 60


@dataclass(frozen=True)
class Reminder:
    """The questions that close at one deadline, and when their late players are reminded."""

    deadline: float  # what marks these questions reminded
    due: float
    users: tuple[int, ...]  # the players asked (who have not answered), each once

    def asking(self, c: Combat, user_id: int) -> tuple[Question, ...]:
        """The questions of ``c`` at this deadline that wait for ``user_id``."""
        return tuple(q for q in asked(c).questions
                     if q.deadline == self.deadline and user_id in q.users)


def reminder_words(fraction: float | None, seconds: int | None) -> str:
    """When the late are reminded, as the table reads it."""
    if fraction is not None:
        return f"when {round(fraction * 100):g}% of the time is left"
    if seconds is not None:
        return f"{duration_words(seconds)} before the deadline"
    return "never"


def _percent(number: int) -> Phrase:
    """A part in percent: "25%" (a "%" before a word would read as a printf directive to the
    catalogue's tools, so the sign stays in a phrase of its own)."""
    return phrase("{number}%", number=number)


def reminder_phrase(fraction: float | None, seconds: int | None) -> Phrase:
    """:func:`reminder_words` in the reader's language."""
    if fraction is not None:
        return phrase("when {percent} of the time is left", percent=_percent(round(fraction * 100)))
    if seconds is not None:
        return phrase("{duration} before the deadline", duration=duration_phrase(seconds))
    return phrase("never")


def with_reminder(c: Combat, *, fraction: float | None, seconds: int | None) -> Combat:
    """``c`` reminding the late at this point (neither given: never)."""
    if fraction is not None and not 0 < fraction < 1:
        raise RuleError(phrase("A reminder comes when {least} to {most} of the time is left.",
                               least=_percent(1), most=_percent(99)))
    if seconds is not None and not 1 <= seconds <= LONGEST:
        raise RuleError(phrase("A reminder comes 1 second to 14 days before the deadline."))
    return c.model_copy(update={"remind_fraction": fraction,
                                "remind_seconds": None if fraction is not None else seconds})


def _before(c: Combat, length: int | None) -> float | None:
    """How long before its deadline a question of ``length`` seconds is reminded."""
    if length is None or length < SHORTEST_REMINDED:
        return None
    if c.remind_fraction is not None:
        return length * c.remind_fraction
    if c.remind_seconds is not None and c.remind_seconds < length:
        return float(c.remind_seconds)
    return None


def pending_reminders(c: Combat, reminded: Collection[float] = ()) -> tuple[Reminder, ...]:
    """Every reminder of ``c`` not sent yet (its deadline not in ``reminded``), soonest first.
    A question without a window's deadline of its own counts while the deadline it shares
    (the turn's, or the one between turns) runs (once the GM was told it passed, the GM
    decides), as long as a turn; a window's length is the fight's window length. (Worked out
    from the prompts alone: it is asked at every step, as the step is saved.)"""
    if c.phase is Phase.ENDED:
        return ()
    told = c.between_turns_told if c.phase in BETWEEN_TURNS else c.turn_deadline_told
    by_deadline: dict[float, tuple[bool, dict[int, None]]] = {}
    for p in c.waiting_for():
        turn = p.deadline is None
        deadline = question_deadline(c, p)
        if (deadline is None or deadline in reminded or SPECS[p.kind].offer
                or (turn and told)):
            continue
        asked_now = asked_users(c, p)
        if asked_now:
            by_deadline.setdefault(deadline, (turn, {}))[1].update(dict.fromkeys(asked_now))
    found = []
    for deadline, (turn, late) in by_deadline.items():
        before = _before(c, c.turn_seconds if turn else c.reaction_seconds)
        if before is not None:
            found.append(Reminder(deadline, deadline - before, tuple(late)))
    return tuple(sorted(found, key=lambda r: r.due))


def next_reminder(c: Combat, reminded: Collection[float] = ()) -> float | None:
    """When the next reminder of ``c`` is due (None: none waits)."""
    pending = pending_reminders(c, reminded)
    return pending[0].due if pending else None
