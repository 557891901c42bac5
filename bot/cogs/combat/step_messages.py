"""Where the table read each step's outcome, so that `/combat undo` can strike it there.

A step's outcome is shown once: in the prompt its press answered (the question quoted, then
what happened), or in the answer to its command, or in the "time is up" post of a window that
closed by itself. Each fight's newest steps are kept here in the order they were committed,
with that message once it is out; an undo takes back the newest step not yet taken back, as
the store's log does (:mod:`bot.store.undo`), and its message is edited once: the outcome
struck, and a line saying it was taken back.

Only the steps this process committed are known (a restart, or a fight another process
changed, starts afresh), and only the last :data:`KEPT_STEPS` of a fight: an older step's
message is left as it is. An undo that comes before its step's message is out marks that
message as soon as it is.
"""

from __future__ import annotations

import re
from collections import OrderedDict
from dataclasses import dataclass

from bot.i18n import N_, render
from bot.text import MESSAGE_LIMIT, clip

__all__ = ["KEPT_STEPS", "TAKEN_BACK_NOTE", "StepMessage", "StepMessages", "struck",
           "taken_back_text"]

#: How many of a fight's newest steps keep their message (a GM takes back a few at most).
KEPT_STEPS = 8

#: How many fights keep their steps' messages (as many as the session keeps in memory).
KEPT_FIGHTS = 256

#: The line a message gets once its step was taken back (in the message's language).
TAKEN_BACK_NOTE = N_("-# ↩️ Taken back with `/combat undo`.")

#: A line's Markdown lead, kept in front of its strike ("-# ", "> ", a list's "- ").
_LEAD = re.compile(r"^(?:-# |> |#{1,3} |[-*] )?")


@dataclass(frozen=True, slots=True)
class StepMessage:
    """The message showing a step's ``outcome``, after ``before`` (the question a press
    answered, kept as it reads; "" when the message is the outcome alone), said in
    ``language`` (its taken-back note is too)."""

    channel_id: int
    message_id: int
    before: str
    outcome: str
    language: str


def taken_back_text(shown: StepMessage) -> str:
    """``shown``'s message once its step was taken back: what it answered as it was, the
    outcome struck line by line, then :data:`TAKEN_BACK_NOTE`; within Discord's 2,000
    characters, cutting what it answered first, then the outcome's last lines."""
    note = render(TAKEN_BACK_NOTE, shown.language)
    outcome = "\n".join([struck(shown.outcome, MESSAGE_LIMIT - len(note) - 1), note])
    before = shown.before
    if before:
        left = MESSAGE_LIMIT - len(outcome) - 1
        before = before if len(before) <= left else before[:max(0, left - 1)] + "…"
    return clip(f"{before}\n{outcome}" if before.strip() else outcome)


def struck(text: str, room: int) -> str:
    """``text`` struck line by line (each line's Markdown lead kept), within ``room``
    characters: its last lines give way to "…"."""
    lines = [_strike(line) for line in text.splitlines()]
    while len(lines) > 1 and len("\n".join(lines)) > room:
        lines[-2:] = ["…"]
    return "\n".join(lines)


def _strike(line: str) -> str:
    lead = _LEAD.match(line)
    cut = lead.end() if lead else 0
    rest = line[cut:]
    return f"{line[:cut]}~~{rest}~~" if rest.strip() else line


class StepMessages:
    """Each fight's newest steps (by the version each made), with their messages once out."""

    def __init__(self) -> None:
        # fight -> [(the version a step made, its message: None until out)], oldest first
        self._steps: OrderedDict[int, list[tuple[int, StepMessage | None]]] = OrderedDict()
        # fight -> the versions taken back before their message was out
        self._early: dict[int, set[int]] = {}

    def committed(self, combat_id: int, version: int) -> None:
        """A step of the fight made ``version`` (its message is not out yet)."""
        steps = self._steps.setdefault(combat_id, [])
        self._steps.move_to_end(combat_id)
        steps.append((version, None))
        del steps[:-KEPT_STEPS]
        while len(self._steps) > KEPT_FIGHTS:
            self.forget(next(iter(self._steps)))

    def shown(self, combat_id: int, version: int, message: StepMessage) -> bool:
        """``message`` shows the step that made ``version``; whether that step was taken back
        already (the message is then to be marked at once)."""
        early = self._early.get(combat_id)
        if early is not None and version in early:
            early.discard(version)
            return True
        steps = self._steps.get(combat_id, [])
        for n, (made, _) in enumerate(steps):
            if made == version:
                steps[n] = (made, message)
        return False

    def taken_back(self, combat_id: int) -> StepMessage | None:
        """An undo took back the fight's newest step: its message, when known and out."""
        steps = self._steps.get(combat_id)
        if not steps:
            return None
        version, message = steps.pop()
        if message is None:
            early = self._early.setdefault(combat_id, set())
            early.add(version)
            if len(early) > KEPT_STEPS:  # (a message that never came out)
                early.discard(min(early))
        return message

    def forget(self, combat_id: int) -> None:
        """The fight changed elsewhere, or ended: nothing of its steps is known here now."""
        self._steps.pop(combat_id, None)
        self._early.pop(combat_id, None)
