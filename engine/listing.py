"""Lists said inside a sentence, as phrases the reader's language can join its own way:
names ("Ana, Bo and Cy"), choices ("defend or pass") and words one after the other
("defend, counterattack, pass").

>>> names_listed(["Ana"])
'Ana'
>>> names_listed(["Ana", "Bo", "Cy"]).english()
'Ana, Bo and Cy'
>>> any_of([phrase("defend"), phrase("counterattack"), phrase("pass")]).english()
'defend or counterattack or pass'
>>> one_by_one([phrase("defend"), phrase("pass")]).english()
'defend, pass'
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.phrases import Phrase, Said, phrase

__all__ = ["any_of", "names_listed", "one_by_one"]


def names_listed(names: Sequence[str]) -> Said:
    """Names (at least one): "Ana", "Ana and Bo", "Ana, Bo and Cy" (a name is never
    translated: one name is said as it is)."""
    if len(names) == 1:
        return names[0]
    return phrase("{names} and {last}", names=", ".join(names[:-1]), last=names[-1])


def any_of(words: Sequence[Phrase]) -> Phrase:
    """One of ``words`` (at least one): "defend or counterattack or pass"."""
    said = words[-1]
    for word in reversed(words[:-1]):
        said = phrase("{choice} or {more}", choice=word, more=said)
    return said


def one_by_one(words: Sequence[Phrase]) -> Phrase:
    """``words`` (at least one) one after the other: "defend, counterattack, pass"."""
    said = words[-1]
    for word in reversed(words[:-1]):
        said = phrase("{first}, {more}", first=word, more=said)
    return said
