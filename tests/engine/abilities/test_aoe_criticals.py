"""AoE rolls and criticals (004 "Abilities": AoE; RULINGS 5-6): a critical success on the AoE
roll gives the user the usual choice (an extra action, or adjusting the dice, which then give
the AoE's degrees); a critical success on a target's Defend against a Blast gives the target
the same choice, and an adjusted Defend that beats the roll stops the damage ("If a target
spends an action on a successful Defend that beats your roll they take no damage")."""

from __future__ import annotations

from engine.combat import AoE, AoEChoice, Combat, CriticalChoice, Event, PromptKind
from tests.engine.abilities.test_aoe import blast_fight
from tests.engine.combat.helpers import P1, go, kinds, run, texts


def test_a_critical_aoe_roll_may_take_an_extra_action() -> None:
    c, events = run(blast_fight(), AoE(fighter="You", area="Dance Floor"), [3, 3], actor=P1)
    assert texts(events)[-1] == "You's Blast on Dance Floor: 33 (3·3) vs 50 — CRITICAL SUCCESS."
    assert kinds(c) == [(PromptKind.CRITICAL, "you")]
    assert c.waiting_for()[0].options == ("extra_action", "adjust")
    c, events = run(c, CriticalChoice(fighter="You", choice="extra_action"), actor=P1)
    assert texts(events)[:2] == ["You takes an extra action this round.",
                                 "You chooses 3 damage and 3 additional targets."]
    assert c.fighter("you").actions == 1
    assert [k for k, _ in kinds(c)] == [PromptKind.AOE_DEFEND] * 4  # the 3 enemies, then Cy


def test_a_critical_aoe_roll_may_adjust_the_dice_it_chooses_from() -> None:
    c = go(blast_fight(), AoE(fighter="You", area="Dance Floor"), [3, 3], actor=P1)
    c, events = run(c, CriticalChoice(fighter="You", choice="adjust", value=50), actor=P1)
    assert texts(events) == ["You adjusts the roll to 50."]
    assert kinds(c) == [(PromptKind.AOE_DICE, "you")]
    c, events = run(c, AoEChoice(fighter="You", option="tens"), actor=P1)
    assert "You chooses 5 damage and 0 additional targets." in texts(events)


def _defending() -> tuple[Combat, tuple[Event, ...]]:
    c = go(blast_fight(), AoE(fighter="You", area="Dance Floor"), [4, 2], actor=P1)
    c = go(c, AoEChoice(fighter="You", option="tens"), actor=P1)  # 4 damage, Goon, Rat, Moe
    c = go(c, AoEChoice(fighter="Goon", option="defend"))
    c = go(c, AoEChoice(fighter="Rat", option="pass"))
    return run(c, AoEChoice(fighter="Moe", option="pass"), [1, 1])


def test_a_critical_defend_adjusted_above_the_roll_stops_the_blast() -> None:
    c, events = _defending()
    assert ("Goon defends against the blast: 11 (1·1) vs 60 — CRITICAL SUCCESS."
            in texts(events))
    assert kinds(c) == [(PromptKind.CRITICAL, "goon")]
    c, events = run(c, CriticalChoice(fighter="Goon", choice="adjust", value=55))
    assert "Goon's Defend (55) beats 42: no damage." in texts(events)
    assert kinds(c) == [(PromptKind.AOE_PLACE, "rat"), (PromptKind.AOE_PLACE, "moe")]


def test_a_critical_defend_taken_as_an_action_still_loses_to_a_higher_roll() -> None:
    c, events = _defending()
    c, events = run(c, CriticalChoice(fighter="Goon", choice="extra_action"))
    assert "Goon takes an extra action this round." in texts(events)
    assert "Goon's Defend (11) does not beat 42." in texts(events)  # RULINGS 6
    assert c.fighter("goon").actions == 1
    assert (PromptKind.AOE_PLACE, "goon") in kinds(c)
