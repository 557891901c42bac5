"""What a prompt says once it asks no more, and what a press's step says elsewhere.

A window's question says when it closes, with Discord's timestamps (the date and time, and
"in 26 seconds"); once the question is answered or closed, that countdown would keep counting
in the old message (and in the question an answer quotes), so it says when the question closed
instead. And a step that
ends a team's turn or a round is news for the whole table: it is posted at the bottom of the
channel, not written into the (perhaps far older) prompt that was pressed.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from engine.combat import Event, EventKind

__all__ = ["countdown", "news_at", "settled", "when"]

_COUNTDOWN = re.compile(r" \(closes <t:(\d+):f>, <t:\d+:R>\)")

#: What starts a step's news: a team's turn over, a round over.
_NEWS = frozenset({EventKind.TURN_END, EventKind.ROUND_END})


def countdown(deadline: float) -> str:
    """A question's live countdown to ``deadline`` (epoch seconds), as Discord shows it in
    each reader's own time zone: the date and time, and how long is left."""
    return f" (closes {when(deadline)})"


def when(deadline: float) -> str:
    """A deadline as Discord shows it to each reader: "12 May 2025 14:03, in 2 days"."""
    return f"<t:{int(deadline)}:f>, <t:{int(deadline)}:R>"


def settled(text: str, now: float) -> str:
    """``text`` with each countdown saying when its question closed instead (as a clock time:
    ``now``, or the deadline when that came first)."""
    return _COUNTDOWN.sub(lambda found: f" (closed <t:{min(int(found[1]), int(now))}:t>)", text)


def news_at(events: Sequence[Event]) -> int:
    """Where ``events``' news starts (``len(events)``: no news): the first event of a turn
    handed over or a round ended. A turn that begins as the order is chosen is no handover
    (the step that chose the order is that turn's start, said where it was asked)."""
    for n, event in enumerate(events):
        if event.kind in _NEWS:
            return n
        if event.kind is EventKind.TURN and (n == 0 or events[n - 1].kind is not EventKind.ORDER):
            return n
    return len(events)
