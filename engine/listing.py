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

from collections.abc import Callable, Sequence
from typing import TypeVar

from engine.phrases import Phrase, Said, phrase

#: What a list holds: phrases, or names and phrases.
S = TypeVar("S", bound=Said)

__all__ = ["any_of", "chained", "names_listed", "one_by_one"]


def names_listed(names: Sequence[str]) -> Said:
    """Names (at least one): "Ana", "Ana and Bo", "Ana, Bo and Cy" (a name is never
    translated: one name is said as it is)."""
    if len(names) == 1:
        return names[0]
    return phrase("{names} and {last}", names=", ".join(names[:-1]), last=names[-1])


def chained(items: Sequence[S], link: Callable[[Said, S | Phrase], Phrase]) -> S | Phrase:
    """``items`` (at least one) joined from the last: each earlier item ``link``-ed to what
    follows it (a phrase whose source the catalogue has, such as "{first}, {rest}")."""
    said: S | Phrase = items[-1]
    for item in reversed(items[:-1]):
        said = link(item, said)
    return said


def any_of(words: Sequence[Phrase]) -> Phrase:
    """One of ``words`` (at least one): "defend or counterattack or pass"."""
    return chained(words, lambda choice, more: phrase("{choice} or {more}", choice=choice,
                                                      more=more))


def one_by_one(words: Sequence[S]) -> S | Phrase:
    """``words`` (at least one) one after the other, by commas: "defend, counterattack,
    pass", "head X, torso \\"."""
    return chained(words, lambda first, rest: phrase("{first}, {rest}", first=first, rest=rest))
