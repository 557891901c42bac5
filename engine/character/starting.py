"""What a character still lacks of the book's start: "one non-combat ability and one combat
ability", items "up to the free slots", and the items in hand when a fight starts ("the top
slot(s) on the sheet for the items you typically want in your hands at the start of combat").

A character is usable at every step; this only says what is left to choose. An NPC is not
reminded of a non-combat ability: its sheet is the GM's to make as the scene needs.

>>> ana = Character.new("Ana")
>>> tuple(left.english() for left in still_to_choose(ana))
('1 non-combat ability', '1 combat ability', 'items for 5 free slots')
>>> from engine.character.model import Item, validated_copy
>>> armed = validated_copy(ana, good_at=("lockpicking",), abilities=("melee_1h.good_attack",),
...                        items=(Item(name="Knife", kind="melee_1h"),))
>>> tuple(left.english() for left in still_to_choose(armed))
('items for 4 free slots', 'what to hold when a fight starts')
>>> tuple(left.english() for left in still_to_choose(
...     validated_copy(armed, max_level=70, level=70, items=armed.items * 6)))
('2 more abilities (either kind)', 'an item for 1 free slot', 'what to hold when a fight starts')
>>> tuple(left.english() for left in still_to_choose(Character.new("Goon", npc=True)))
('1 combat ability', 'items for 5 free slots')
"""

from __future__ import annotations

from engine.character.advancement import ability_limit, slots
from engine.character.model import Character
from engine.phrases import Phrase, phrase, plural_phrase

__all__ = ["still_to_choose"]


def still_to_choose(c: Character) -> tuple[Phrase, ...]:
    """What is left to choose, most important first; empty when the sheet is complete."""
    left: list[Phrase] = []
    if not c.good_at and not c.npc:
        left.append(phrase("1 non-combat ability"))
    if not c.abilities:
        left.append(phrase("1 combat ability"))
    taken = max(len(c.good_at), 1) + max(len(c.abilities), 1)
    more = ability_limit(c) - taken
    if more > 0:
        left.append(plural_phrase("{count} more ability (either kind)",
                                  "{count} more abilities (either kind)", "count", count=more))
    free = slots(c) - len(c.items)
    if free > 0:
        left.append(plural_phrase("an item for {count} free slot", "items for {count} free slots",
                                  "count", count=free))
    if c.items and c.right_hand is None and c.left_hand is None:
        left.append(phrase("what to hold when a fight starts"))
    return tuple(left)
