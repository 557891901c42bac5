"""What several answers given at once did alike, told once: the GM's "All 10: Torso" places a
point for each of ten goons, and rather than ten lines that differ only by the goon's number
the table reads one, where the first of them stood.

>>> from engine.combat.model import EventKind
>>> said = [Event(kind=EventKind.REACT, text=f"Goon {n} does not defend.", fighter=f"goon {n}")
...         for n in (1, 2, 3)]
>>> names = {f"goon {n}": f"Goon {n}" for n in (1, 2, 3)}
>>> [e.text for e in fold_copies(said, names)]
['Goon 1-3 do not defend.']
>>> placed = [Event(kind=EventKind.AOE_DAMAGE, text=f"Goon {n}: 1 point to the torso.",
...                 fighter=f"goon {n}") for n in (1, 2)]
>>> [e.text for e in fold_copies(placed, names)]
['Goon 1-2 each: 1 point to the torso.']

A phrase is folded by its arguments: the copy's name, wherever it is an argument, becomes the
group's, and a phrase that reads differently of several copies is a plural phrase counting
``copies`` (1 for one copy; the folded event counts them):

>>> from engine.phrases import english, plural_phrase
>>> said = [Event(kind=EventKind.REACT, fighter=f"goon {n}", text=plural_phrase(
...     "{name} does not defend.", "{name} do not defend.", "copies", name=f"Goon {n}",
...     copies=1)) for n in (1, 2, 3)]
>>> [english(e.text) for e in fold_copies(said, names)]
['Goon 1-3 do not defend.']
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from engine.combat.model import Event
from engine.copies import copy_number, numbers_text
from engine.phrases import COPIES, Phrase, Said, english
from engine.words import plural_verb

__all__ = ["COPIES", "fold_copies"]


_MARK = "\x00"  # where the copy's own name stood in a sentence
_SAID_OF = re.compile(f"{_MARK}(?:(?P<verb> [a-z]+\\b)|(?P<colon>:))?")
_SENTENCE_ENDS = (". ", "! ", "? ")


def fold_copies(events: Sequence[Event], names: Mapping[str, str]) -> tuple[Event, ...]:
    """``events`` with those about numbered copies (``names``: a fighter's key → name) that
    read the same but for the copy's name, in the players' wording and in the GM's alike
    (a hidden NPC's), as one event where the first of them stood ("Goon 1-10 …")."""
    kept: list[tuple[Event, str, list[int]]] = []  # an event, its copies' base name, numbers
    at: dict[tuple[object, ...], int] = {}
    for event in events:
        alike = _alike_key(event, names)
        if alike is None:
            kept.append((event, "", []))
            continue
        key, base, number = alike
        if key in at:
            kept[at[key]][2].append(number)
        else:
            at[key] = len(kept)
            kept.append((event, base, [number]))
    return tuple(
        event if len(numbers) < 2
        else _folded(event, names, f"{base} {numbers_text(numbers)}", len(numbers))
        for event, _, numbers in kept
    )


def _alike_key(
    event: Event, names: Mapping[str, str]
) -> tuple[tuple[object, ...], str, int] | None:
    """What an event about a numbered copy says but for the copy's name, that copy's base
    name and number; None for any other event."""
    name = names.get(event.fighter or "")
    numbered = None if name is None else copy_number(name)
    if name is None or numbered is None:
        return None
    if isinstance(event.text, Phrase) and isinstance(event.gm_text, Phrase | None):
        text: Said | None = _phrase_without_name(event.text, name)
        gm_text: Said | None = (None if event.gm_text is None
                                else _phrase_without_name(event.gm_text, name))
    elif isinstance(event.text, str) and isinstance(event.gm_text, str | None):
        text = _without_name(event.text, name)
        text = text if _MARK in text else None
        gm_text = None if event.gm_text is None else _without_name(event.gm_text, name)
    else:
        return None
    if text is None:
        return None
    return (event.kind, numbered[0], text, gm_text, event.dice), *numbered


def _without_name(text: str, name: str) -> str:
    """``text`` with each whole mention of ``name`` marked ("Goon 1", not in "Goon 10")."""
    return re.sub(rf"(?<!\w){re.escape(name)}(?!\w)", _MARK, text)


def _phrase_without_name(said: Phrase, name: str) -> Phrase | None:
    """``said`` with ``name`` marked wherever it is an argument (nested phrases too), and one
    copy counted; None when ``name`` is no argument of it."""
    marked = _with_name(said, name, _MARK, 1)
    return None if marked == _with_name(said, name, name, 1) else marked


def _with_name(said: Phrase, name: str, group: str, copies: int) -> Phrase:
    """``said`` with ``group`` for each argument ``name`` and ``copies`` for each count of
    :data:`COPIES` (nested phrases too)."""
    arguments = tuple(
        (key, group if value == name
         else copies if key == COPIES and said.count_name == COPIES
         else _with_name(value, name, group, copies) if isinstance(value, Phrase)
         else value)
        for key, value in said.arguments)
    return Phrase(said.msgid, arguments, said.msgid_plural, said.count_name)


def _folded(event: Event, names: Mapping[str, str], group: str, copies: int) -> Event:
    name = names[event.fighter or ""]
    return event.model_copy(update={
        "text": _said_of_copies(event.text, name, group, copies),
        "gm_text": None if event.gm_text is None else _said_of_copies(event.gm_text, name,
                                                                      group, copies),
    })


def _said_of_copies(said: Said, name: str, group: str, copies: int) -> Said:
    """``said`` of one copy ``name``, said of the copies ``group``. A phrase whose English
    would not read as the folded English sentence (it has no plural form for ``copies`` where
    its verb needs one) is folded as English, so that English reads as it always did (and the
    pseudo-locale's tests show the phrase to give a plural form)."""
    english_folded = _said_of_several(_without_name(english(said), name), group)
    if isinstance(said, str):
        return english_folded
    folded = _with_name(said, name, group, copies)
    return folded if folded.english() == english_folded else english_folded


def _said_of_several(marked: str, group: str) -> str:
    """``marked`` said of the copies ``group``: a sentence they begin takes its verb in the
    plural ("Goon 1-10 do not defend."), and a line they head says "each" ("Goon 1-10 each:
    1 point to the torso.")."""

    def said(found: re.Match[str]) -> str:
        begins = found.start() == 0 or marked[found.start() - 2:found.start()] in _SENTENCE_ENDS
        if begins and found["verb"]:
            return f"{group} {plural_verb(found['verb'].strip())}"
        if begins and found["colon"]:
            return f"{group} each:"
        return group + found.group(0)[1:]

    return _SAID_OF.sub(said, marked)
