"""Who a character is beyond the fight: a concept, a description, non-combat items.

The book starts a character with them ("Decide on a concept, a name, and a description") and
leaves non-combat items "up to you, as long as the GM agrees": free text, taking no slot.

>>> ana, report = describe(Character.new("Ana"), concept="Ex-cop turned bouncer")
>>> ana.concept, report.summary.english()
('Ex-cop turned bouncer', "Ana's concept: Ex-cop turned bouncer.")
>>> ana, _ = add_gear(ana, "Police badge (expired)")
>>> add_gear(ana, "police badge (EXPIRED)")
Traceback (most recent call last):
...
engine.errors.RuleError: Ana already carries police badge (EXPIRED).
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.character.model import (
    CONCEPT_LIMIT,
    DESCRIPTION_LIMIT,
    MAX_GEAR,
    Character,
    validated_copy,
)
from engine.errors import RuleError
from engine.phrases import Phrase, phrase

__all__ = ["StoryReport", "add_gear", "describe", "remove_gear"]


@dataclass(frozen=True)
class StoryReport:
    summary: Phrase


def describe(c: Character, *, concept: str | None = None,
             description: str | None = None) -> tuple[Character, StoryReport]:
    """The character with a new concept and/or description (``""`` clears one)."""
    changes = {k: v for k, v in (("concept", concept), ("description", description))
               if v is not None}
    if not changes:
        raise RuleError(phrase("Say a concept, a description, or both."))
    too_long = (phrase("A concept is at most {limit} characters; this one has {length}.",
                       limit=CONCEPT_LIMIT, length=len(" ".join((concept or "").split()))),
                phrase("A description is at most {limit} characters; this one has {length}.",
                       limit=DESCRIPTION_LIMIT, length=len(" ".join((description or "").split()))))
    for text, limit, refusal in ((concept, CONCEPT_LIMIT, too_long[0]),
                                 (description, DESCRIPTION_LIMIT, too_long[1])):
        if text is not None and len(" ".join(text.split())) > limit:
            raise RuleError(refusal)
    new = validated_copy(c, **changes)
    said = []
    if concept is not None:
        said.append(phrase("{name}'s concept: {concept}.", name=c.name, concept=new.concept)
                    if new.concept else phrase("{name}'s concept is cleared.", name=c.name))
    if description is not None:
        said.append(phrase("The description is updated.") if new.description
                    else phrase("The description is cleared."))
    if len(said) == 2:
        return new, StoryReport(phrase("{first} {second}", first=said[0], second=said[1]))
    return new, StoryReport(said[0])


def add_gear(c: Character, name: str) -> tuple[Character, StoryReport]:
    """The character carrying one more non-combat item (no slot; the GM agrees)."""
    cleaned = " ".join(name.split())
    if cleaned.casefold() in {g.casefold() for g in c.gear}:
        raise RuleError(phrase("{name} already carries {item}.", name=c.name, item=cleaned))
    if len(c.gear) >= MAX_GEAR:
        raise RuleError(phrase("{name} carries {count} non-combat items already: remove one "
                               "first.", name=c.name, count=MAX_GEAR))
    new = validated_copy(c, gear=(*c.gear, cleaned))
    return new, StoryReport(phrase("{name} carries {item} (a non-combat item: no slot).",
                                   name=c.name, item=cleaned))


def remove_gear(c: Character, name: str) -> tuple[Character, StoryReport]:
    """The character without that non-combat item."""
    cleaned = " ".join(name.split()).casefold()
    kept = tuple(g for g in c.gear if g.casefold() != cleaned)
    if len(kept) == len(c.gear):
        raise RuleError(phrase("{name} carries no non-combat item called {item}.", name=c.name,
                               item=name.strip()))
    return validated_copy(c, gear=kept), StoryReport(phrase("{name} no longer carries {item}.",
                                                            name=c.name, item=name.strip()))
