"""What a character still lacks of the book's start: "one non-combat ability and one combat
ability", items "up to the free slots", and the items in hand when a fight starts ("the top
slot(s) on the sheet for the items you typically want in your hands at the start of combat").

A character is usable at every step; this only says what is left to choose. An NPC is not
reminded of a non-combat ability: its sheet is the GM's to make as the scene needs.

>>> ana = Character.new("Ana")
>>> still_to_choose(ana)
('1 non-combat ability', '1 combat ability', 'items for 5 free slots')
>>> from engine.character.model import Item, validated_copy
>>> armed = validated_copy(ana, good_at=("lockpicking",), abilities=("melee_1h.good_attack",),
...                        items=(Item(name="Knife", kind="melee_1h"),))
>>> still_to_choose(armed)
('items for 4 free slots', 'what to hold when a fight starts')
>>> still_to_choose(validated_copy(armed, max_level=70, level=70, items=armed.items * 6))
('2 more abilities (either kind)', 'an item for 1 free slot', 'what to hold when a fight starts')
>>> still_to_choose(Character.new("Goon", npc=True))
('1 combat ability', 'items for 5 free slots')
"""

from __future__ import annotations

from engine.character.advancement import ability_limit, slots
from engine.character.model import Character

__all__ = ["still_to_choose"]


def still_to_choose(c: Character) -> tuple[str, ...]:
    """What is left to choose, most important first; empty when the sheet is complete."""
    left: list[str] = []
    if not c.good_at and not c.npc:
        left.append("1 non-combat ability")
    if not c.abilities:
        left.append("1 combat ability")
    taken = max(len(c.good_at), 1) + max(len(c.abilities), 1)
    more = ability_limit(c) - taken
    if more > 0:
        left.append(f"{more} more abilit{'y' if more == 1 else 'ies'} (either kind)")
    free = slots(c) - len(c.items)
    if free > 0:
        left.append("an item for 1 free slot" if free == 1 else f"items for {free} free slots")
    if c.items and c.right_hand is None and c.left_hand is None:
        left.append("what to hold when a fight starts")
    return tuple(left)
