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
from functools import lru_cache

from bot.i18n import render
from engine.combat import Event, EventKind
from engine.phrases import phrase

__all__ = ["countdown", "news_at", "settled", "when"]

#: Where a countdown's ``when`` stands, to find it in what a question said.
_WHEN = "\x00"

#: What starts a step's news: a team's turn over, a round over.
_NEWS = frozenset({EventKind.TURN_END, EventKind.ROUND_END})


def countdown(deadline: float, language: str) -> str:
    """A question's live countdown to ``deadline`` (epoch seconds), as Discord shows it in
    each reader's own time zone: the date and time, and how long is left."""
    return " " + render(phrase("(closes {when})", when=when(deadline)), language)


def when(deadline: float) -> str:
    """A deadline as Discord shows it to each reader: "12 May 2025 14:03, in 2 days"."""
    return f"<t:{int(deadline)}:f>, <t:{int(deadline)}:R>"


@lru_cache(maxsize=16)
def _countdowns(language: str) -> re.Pattern[str]:
    """The countdowns a question in ``language`` says (:func:`countdown`)."""
    said = re.escape(render(phrase("(closes {when})", when=_WHEN), language))
    return re.compile(" " + said.replace(re.escape(_WHEN), r"<t:(\d+):f>, <t:\d+:R>"))


def settled(text: str, now: float, language: str) -> str:
    """``text`` (said in ``language``) with each countdown saying when its question closed
    instead (as a clock time: ``now``, or the deadline when that came first)."""
    def closed(found: re.Match[str]) -> str:
        at = f"<t:{min(int(found[1]), int(now))}:t>"
        return " " + render(phrase("(closed {when})", when=at), language)
    return _countdowns(language).sub(closed, text)


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
