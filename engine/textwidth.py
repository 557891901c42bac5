"""How wide text is in a code block, measured as a terminal would: a CJK character or an emoji
takes two columns, a combining mark none, a letter one. The board, the map and the sheets
measure, cut, pad and wrap their text here, so that a name in any script keeps the columns
aligned and every line within a phone's width.

>>> width("Ana"), width("山田太郎"), width("🐉 Drake"), width("Zoë")
(3, 8, 8, 3)
>>> clip("山田太郎", 5), pad("山田", 6) + "|"
('山田…', '山田  |')
>>> wrap("Waiting for: Ana (react), Bram (act)", 20)
['Waiting for: Ana', '  (react), Bram', '  (act)']
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from wcwidth import iter_graphemes, wcswidth

__all__ = ["cells", "centre", "clip", "pad", "split", "width", "wrap", "wrap_items"]

ELLIPSIS = "…"


@lru_cache(maxsize=4096)
def _graphemes(text: str) -> tuple[tuple[str, int], ...]:
    """``text`` as (grapheme, columns) pairs; a character a terminal cannot place (a control
    character) counts one column, so that nothing is ever measured narrower than it shows."""
    found: list[tuple[str, int]] = []
    for g in iter_graphemes(text):
        columns = wcswidth(g)
        found.append((g, 1 if columns < 0 else columns))
    return tuple(found)


def width(text: str) -> int:
    """Columns ``text`` takes in a monospace font."""
    if text.isascii():  # the common case, and every ASCII character takes one column here
        return len(text)
    return _columns(text)


@lru_cache(maxsize=4096)
def _columns(text: str) -> int:
    """:func:`width` of a text that is not ASCII (the board's and the map's lines come back
    on every step). Most such texts hold only characters like "·", "…" or a box's lines,
    each one column whatever is beside it: their width is their length, found without
    cutting the text into graphemes. (A CR joins the LF after it: such text is cut.)"""
    if _lone_columns(text):
        return len(text)
    return sum(columns for _, columns in _graphemes(text))


@lru_cache(maxsize=4096)
def _lone_columns(text: str) -> bool:
    """Whether each character of ``text`` is one column and a grapheme of its own (so is
    each of any part of it): its width is its length. (A CR joins the LF after it.)"""
    return "\r" not in text and all(_lone_column(char) for char in set(text))


@lru_cache(maxsize=1024)
def _lone_column(char: str) -> bool:
    """Whether ``char`` takes one column and is a grapheme of its own whatever is beside it:
    neither a mark or joiner that clings to the character before it, nor a character that
    clings to the one after it, nor one that pairs with its like (a flag's letters, Hangul
    jamo). Two characters that pass are never one grapheme (the rules that join two
    characters need one of those kinds)."""
    return (tuple(columns for _, columns in _graphemes(f"a{char}a")) == (1, 1, 1)
            and len(_graphemes(char * 2)) == 2)


def split(text: str, columns: int) -> tuple[str, str]:
    """The longest start of ``text`` within ``columns`` (whole graphemes), and the rest.

    >>> split("山田太郎", 5)
    ('山田', '太郎')
    """
    if text.isascii():
        return text[:columns], text[columns:]
    used = 0
    cut = 0
    for g, w in _graphemes(text):
        if used + w > columns:
            break
        used += w
        cut += len(g)
    return text[:cut], text[cut:]


def clip(text: str, columns: int) -> str:
    """``text`` if it fits ``columns``, else its start and "…" within ``columns``."""
    if width(text) <= columns:
        return text
    return split(text, max(columns - 1, 0))[0] + ELLIPSIS


def pad(text: str, columns: int) -> str:
    """``text`` with spaces after it up to ``columns`` (a wider text is left as it is)."""
    return text + " " * max(columns - width(text), 0)


def centre(text: str, columns: int) -> str:
    """``text`` centred in ``columns``, any odd space on the right."""
    left = max(columns - width(text), 0) // 2
    return pad(" " * left + text, columns)


def cells(text: str) -> list[str]:
    """One entry per column: each grapheme, then an empty string for each further column it
    covers, so that a grid drawn as a list of cells keeps its columns with wide characters.
    A zero-width grapheme joins the cell before it.

    >>> cells("a山b")
    ['a', '山', '', 'b']
    """
    if text.isascii():
        return list(text)
    out: list[str] = []
    pending = ""
    for g, w in _graphemes(text):
        if w == 0:
            if out:
                out[-1] += g
            else:
                pending += g
            continue
        out += [pending + g] + [""] * (w - 1)
        pending = ""
    if pending:
        out.append(pending)
    return out


def wrap(text: str, columns: int, indent: str = "  ") -> list[str]:
    """``text`` in lines of at most ``columns`` columns, broken at spaces; the first line keeps
    ``text``'s leading spaces, the lines after it start with ``indent``. A word wider than a
    line is broken between graphemes: nothing is cut.

    >>> wrap("Anastasia-Longname-Fairweather", 12)
    ['Anastasia-Lo', '  ngname-Fai', '  rweather']
    """
    lead = text[: len(text) - len(text.lstrip(" "))]  # the first line keeps its indent
    whole = lead + " ".join(text.split())
    if len(whole) <= columns and (whole.isascii() or _lone_columns(whole)):
        return [whole]  # most texts fit one line: each word on it, as the loop would put it
    if width(indent) >= columns:
        indent = ""
    lines: list[str] = []
    current = lead
    for word in text.split():
        while word:
            sep = " " if current.strip() else ""
            if width(current) + len(sep) + width(word) <= columns:
                current += sep + word
                break
            if sep and width(indent) + width(word) <= columns:
                lines.append(current)  # the word goes whole to the next line
                current = indent
                continue
            room = columns - width(current) - len(sep)
            head, word = split(word, room) if room > 0 else ("", word)
            if not head and not sep:  # the indent gives way to a grapheme too wide beside it
                current = ""
                head, word = split(word, columns)
                if not head:  # wider than a whole line: it takes one anyway
                    first = _graphemes(word)[0][0]
                    head, word = first, word[len(first):]
            if head:
                current += sep + head
            lines.append(current)
            current = indent
    if current.strip() or not lines:
        lines.append(current)
    return lines


def wrap_items(head: str, items: Sequence[str], columns: int, sep: str = ",") -> list[str]:
    """``head`` then ``items`` joined by ``sep`` and a space, in lines of at most ``columns``
    columns broken between items, so that an item that fits a line stays whole ("Ana (react)",
    "G Guard 2"; a longer one is broken at spaces); the lines after the first start with two
    spaces.

    >>> wrap_items("Bar:", ["G Guard 0", "U Guard 1", "R Guard 2"], 24)
    ['Bar: G Guard 0,', '  U Guard 1, R Guard 2']
    """
    *lines, current = wrap(head, columns)
    for i, item in enumerate(items):
        piece = item + (sep if i < len(items) - 1 else "")
        joined = f"{current} {piece}" if current.strip() else current + piece
        if width(joined) <= columns:
            current = joined
        elif width(f"  {piece}") > columns:  # too long for any line: it starts where it is
            *full, current = wrap(joined, columns)
            lines += full
        else:
            lines.append(current)
            current = f"  {piece}"
    return [*lines, current]
