"""Engine faults the fight property (test_property.py) found, kept as examples until fixed."""

from __future__ import annotations

from engine.character import Character, Item
from engine.combat import AidMark, FirstAid, PromptKind, Surrender
from tests.engine.combat.helpers import P1, begin, go, kinds, knife, refused, run, setup


def test_yielding_while_choosing_first_aid_sure_or_roll() -> None:
    """Found by the property (seed 196 on main): Ana declares First Aid on herself, and while
    she is asked "sure success or roll?" she surrenders (level 0); answering "roll" then
    rolled against level 0 and Roll.first raised. Now the first aid ends at the surrender."""
    ana = Character(name="Ana", level=40, max_level=60, abilities=("first_aid.sure",),
                    items=(Item(name="Kit", kind="first_aid"),), right_hand=0)
    c = setup((ana, "Entrance", 100), (knife("Goon", npc=True), "Bar", None))
    c = begin(c, [3, 2, 6, 1], "PCs")
    c = go(c, FirstAid(fighter="Ana", target="Ana"), actor=P1)
    assert kinds(c) == [(PromptKind.AID_SURE, "ana")]
    c, events = run(c, Surrender(fighter="Ana"), actor=P1)
    assert c.fighter("ana").character.level == 0
    assert "Ana can no longer give first aid: it does not take effect." in [
        e.text for e in events]
    assert c.aid is None and PromptKind.AID_SURE not in [p.kind for p in c.waiting_for()]
    refused(c, AidMark(fighter="Ana", option="roll"), "over", P1)  # her team is gone
