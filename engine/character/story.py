"""Who a character is beyond the fight: a concept, a description, non-combat items.

The book starts a character with them ("Decide on a concept, a name, and a description") and
leaves non-combat items "up to you, as long as the GM agrees": free text, taking no slot.

>>> ana, report = describe(Character.new("Ana"), concept="Ex-cop turned bouncer")
>>> ana.concept, report.summary
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

__all__ = ["StoryReport", "add_gear", "describe", "remove_gear"]


@dataclass(frozen=True)
class StoryReport:
    summary: str


def describe(c: Character, *, concept: str | None = None,
             description: str | None = None) -> tuple[Character, StoryReport]:
    """The character with a new concept and/or description (``""`` clears one)."""
    changes = {k: v for k, v in (("concept", concept), ("description", description))
               if v is not None}
    if not changes:
        raise RuleError("Say a concept, a description, or both.")
    for what, text, limit in (("concept", concept, CONCEPT_LIMIT),
                              ("description", description, DESCRIPTION_LIMIT)):
        if text is not None and len(" ".join(text.split())) > limit:
            raise RuleError(f"A {what} is at most {limit} characters; this one has "
                            f"{len(' '.join(text.split()))}.")
    new = validated_copy(c, **changes)
    said = []
    if concept is not None:
        said.append(f"{c.name}'s concept: {new.concept}." if new.concept
                    else f"{c.name}'s concept is cleared.")
    if description is not None:
        said.append("The description is updated." if new.description
                    else "The description is cleared.")
    return new, StoryReport(" ".join(said))


def add_gear(c: Character, name: str) -> tuple[Character, StoryReport]:
    """The character carrying one more non-combat item (no slot; the GM agrees)."""
    cleaned = " ".join(name.split())
    if cleaned.casefold() in {g.casefold() for g in c.gear}:
        raise RuleError(f"{c.name} already carries {cleaned}.")
    if len(c.gear) >= MAX_GEAR:
        raise RuleError(f"{c.name} carries {MAX_GEAR} non-combat items already: remove one "
                        "first.")
    new = validated_copy(c, gear=(*c.gear, cleaned))
    return new, StoryReport(f"{c.name} carries {cleaned} (a non-combat item: no slot).")


def remove_gear(c: Character, name: str) -> tuple[Character, StoryReport]:
    """The character without that non-combat item."""
    cleaned = " ".join(name.split()).casefold()
    kept = tuple(g for g in c.gear if g.casefold() != cleaned)
    if len(kept) == len(c.gear):
        raise RuleError(f"{c.name} carries no non-combat item called {name.strip()}.")
    return validated_copy(c, gear=kept), StoryReport(f"{c.name} no longer carries {name.strip()}.")
