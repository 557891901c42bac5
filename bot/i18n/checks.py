"""What the tests ask of the catalogues and of what the bot sends: each translation keeps its
source's placeholders, and no English reaches Discord in the pseudo-locale.

>>> untranslated("⟦Ţĥé ƀóáŕđ~~⟧ <@12> Round 2 `/attack` Ana", allowed={"Ana"})
['Round']
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Collection
from string import Formatter

from babel.messages.catalog import Catalog

__all__ = ["placeholder_mismatches", "placeholders", "untranslated"]


def placeholders(text: str) -> Counter[str]:
    """The ``{fields}`` of a message (with their conversion and format), each counted.

    >>> sorted(placeholders("{a} hits {b} for {n:+d}; {a}").items())
    [('a!:', 2), ('b!:', 1), ('n!:+d', 1)]
    """
    return Counter(f"{field}!{conversion or ''}:{spec or ''}"
                   for _, field, spec, conversion in Formatter().parse(text)
                   if field is not None)


def placeholder_mismatches(catalog: Catalog) -> list[str]:
    """Each translated entry of ``catalog`` whose placeholders differ from its source's, in a
    line: the source and the translation."""
    found = []
    for message in catalog:
        if not message.id or not message.string:
            continue
        sources = message.id if isinstance(message.id, tuple | list) else (message.id,)
        strings = (message.string if isinstance(message.string, tuple | list)
                   else (message.string,))
        wanted = placeholders(sources[-1])
        for string in strings:
            if string and placeholders(string) != wanted:
                found.append(f"{sources[0]!r} → {string!r}")
    return found


#: Discord's markup (mentions, timestamps, custom emoji, command mentions) and links: never
#: translated text.
_MARKUP = re.compile(r"<(?:[@#][!&]?\d+|t:-?\d+(?::[tTdDfFR])?|a?:\w+:\d+|/[^>:]+:\d+)>"
                     r"|https?://\S+")
_CODE = re.compile(r"`[^`]*`")
_WORD = re.compile(r"[^\W\d_]+")
_ENGLISH_LETTER = re.compile("[A-Za-z]")


def untranslated(text: str, allowed: Collection[str] = ()) -> list[str]:
    """The English words in ``text`` sent in the pseudo-locale: letters a catalogue never
    accented, outside `code`, Discord's markup and the ``allowed`` names (fighters, areas)."""
    allowed_words = {word for name in allowed for word in _WORD.findall(name)}
    bare = _CODE.sub(" ", _MARKUP.sub(" ", text))
    return [word for word in _WORD.findall(bare)
            if _ENGLISH_LETTER.search(word) and word not in allowed_words]
