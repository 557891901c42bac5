"""Text that goes to Discord: what users typed, cut to fit, and numbers they typed, read safely.

Discord refuses a message over 2,000 characters, and then the user gets no answer at all; a
refusal that echoes a 6,000-character option must still reach them. Python's ``str.isdigit``
accepts "²" and "①", which ``int`` refuses: typed numbers are ASCII digits only.
"""

from __future__ import annotations

import re

import discord

__all__ = ["FORM_TEXT_LIMIT", "MESSAGE_LIMIT", "SOURCE", "clip", "echo", "parse_number"]

#: Discord's limit for a message's content.
MESSAGE_LIMIT = 2000
#: Discord's most characters for a form's title and its fields' labels (a translation may be
#: longer than its source: a form it would overflow is still opened, its words cut).
FORM_TEXT_LIMIT = 45

#: At most 18 digits: no number typed at the table is longer, and ``int`` refuses over 4,300.
_ASCII_INTEGER = re.compile(r"[+-]?[0-9]{1,18}")


#: The language of a code block holding text to copy rather than read (a map's source, a
#: paste handed back): its lines are the writer's, so they may pass a phone's 40 columns.
#: Discord shows an unknown language as plain text.
SOURCE = "source"


def clip(text: str, limit: int = MESSAGE_LIMIT) -> str:
    """``text`` cut to at most ``limit`` characters, ending in "…" when cut.

    >>> clip("Goblin king", 6)
    'Gobli…'
    >>> clip("Goon", 6)
    'Goon'
    """
    if len(text) <= limit:
        return text
    return text[: max(0, limit - 1)] + "…"


def echo(typed: str, limit: int = 60) -> str:
    """What a user typed, to quote back in a message: markdown-escaped, on one line, and cut
    with "…" so the message stays within Discord's limits.

    >>> echo("*bold*")
    '\\\\*bold\\\\*'
    >>> echo("x" * 100, 5)
    'xxxx…'
    """
    one_line = " ".join(typed.split())
    return discord.utils.escape_markdown(clip(one_line, limit))


def parse_number(typed: str) -> int | None:
    """The whole number a user typed in ASCII digits (an optional sign, at most 18 digits),
    else ``None``.

    >>> parse_number(" 38 ")
    38
    >>> parse_number("²") is None, parse_number("①") is None, parse_number("3.5") is None
    (True, True, True)
    >>> parse_number("9" * 5000) is None
    True
    """
    text = typed.strip()
    if not _ASCII_INTEGER.fullmatch(text):
        return None
    return int(text)
