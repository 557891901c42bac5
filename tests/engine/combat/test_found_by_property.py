"""Engine faults the fight property (test_property.py) found, kept as examples until fixed."""

from __future__ import annotations

from engine.character import Character, Item, Status, status
from engine.combat import (
    AidMark,
    Attack,
    CriticalChoice,
    FirstAid,
    PromptKind,
    Surrender,
    legal_targets,
    options,
)
from engine.combat.weapons import attack_problem, weapons
from engine.phrases import english
from tests.engine.combat.helpers import (
    BULLETS,
    GM,
    P1,
    RULES,
    begin,
    go,
    kinds,
    knife,
    pistol,
    refused,
    rifle,
    run,
    setup,
)


def test_yielding_while_choosing_first_aid_sure_or_roll() -> None:
    """Found by the property (seed 196 on main): Ana declares First Aid on herself, and while
    she is asked "sure success or roll?" she surrenders (level 0); answering "roll" then
    rolled against level 0 and Roll.first raised. Now the first aid ends at the surrender."""
    ana = Character(name="Ana", level=40, max_level=60, abilities=("first_aid.sure",),
                    items=(Item(name="Kit", kind="first_aid"),), right_hand=0,
                    wounds={"torso": "\\"})  # a mark to treat (rules notes 57)
    c = setup((ana, "Entrance", 100), (knife("Goon", npc=True), "Bar", None))
    c = begin(c, [3, 2, 6, 1], "PCs")
    c = go(c, FirstAid(fighter="Ana", target="Ana"), actor=P1)
    assert kinds(c) == [(PromptKind.AID_SURE, "ana")]
    c, events = run(c, Surrender(fighter="Ana"), actor=P1)
    assert c.fighter("ana").character.level == 0
    assert "Ana can no longer give first aid: it does not take effect." in [
        english(e.text) for e in events]
    assert c.aid is None and PromptKind.AID_SURE not in [p.kind for p in c.waiting_for()]
    refused(c, AidMark(fighter="Ana", option="roll"), "over", P1)  # her team is gone


def test_no_attack_offered_or_found_legal_on_the_dead() -> None:
    """Found by the options property: Goon shoots his unconscious teammate Rat dead with a
    critical success and takes the extra action; the options rightly left Rat out and the engine
    refused, but attack_problem, the legality query, saw nothing wrong (range, sight and
    ammo are fine). A dead or surrendered fighter is out of the fight, whatever the weapon."""
    c = setup(
        (pistol("Ana"), "Dance Floor", 100),
        (rifle("Goon", 50, True, BULLETS), "Bar", None),
        (knife("Rat", 3, npc=True), "Entrance", None),
    )
    c = begin(c, [3, 2, 6, 1], "NPCs")
    assert status(c.fighter("rat").character, rules=RULES) is Status.UNCONSCIOUS  # level 3
    assert "Rat" in legal_targets(c, "goon", RULES)  # unconscious is still in the fight
    c = go(c, Attack(fighter="Goon", target="Rat", weapon="Rifle"), [4, 4])  # no reaction
    assert kinds(c) == [(PromptKind.CRITICAL, "goon")]
    c = go(c, CriticalChoice(fighter="Goon", choice="extra_action"))
    goon, rat = c.fighter("goon"), c.fighter("rat")
    assert status(rat.character, rules=RULES) is Status.DEAD  # doubles: 4 damage, level -1
    assert goon.actions == 1 and c.acting_team == "NPCs"
    shot = next(w for w in weapons(goon, RULES) if w.name == "Rifle")
    assert english(attack_problem(c, goon, rat, shot, RULES) or "") == (
        "Rat is dead; they are out of the fight.")
    assert english(attack_problem(c, goon, goon, shot, RULES) or "") == (
        "Goon cannot attack themselves.")
    assert attack_problem(c, goon, c.fighter("ana"), shot, RULES) is None
    assert legal_targets(c, "goon", RULES) == ("Ana",)
    attacks = [o.command for o in options(c, "Goon", RULES, GM) if isinstance(o.command, Attack)]
    assert attacks and {a.target for a in attacks} == {"Ana"}
    refused(c, Attack(fighter="Goon", target="Rat", weapon="Rifle"), "Rat is dead")
    refused(c, Attack(fighter="Goon", target="Rat"), "Rat is dead")
