"""1H Melee (004 "Abilities": 1H Melee): "On a critical success, instead of gaining another
action, you can force your target to lose their next action." Offered to the roller, as a third
answer to the critical success, on every attack roll made with a 1H melee weapon (Attack,
Counterattack, Intercept), and only when it applies."""

from __future__ import annotations

import pytest

from engine.catalog import Action
from engine.character import Character, Item
from engine.combat import (
    Attack,
    Combat,
    CriticalChoice,
    Move,
    PromptKind,
    React,
)
from engine.combat.abilities.hooks import critical_options
from engine.combat.prompts import SPECS, option_label
from engine.combat.step_values import Weapon
from engine.phrases import english
from tests.engine.combat.helpers import P1, P2, begin, go, kinds, knife, pistol, refused, run, setup

LOSE = "melee_1h.critical_lose_action"
BOOK = ("extra_action", "adjust")
WITH_LOSE = (*BOOK, "target_loses_action")


def _fight(ana: Character, goon: Character) -> Combat:
    """Ana (Alice) and Goon (an NPC) in the entrance, Cy (Bob) in the alley to keep the PCs'
    turn going; the PCs act first."""
    c = setup((ana, "Entrance", 100), (knife("Cy"), "Alley", 200), (goon, "Entrance", None))
    return begin(c, [3, 2, 6, 1], "PCs")


def _critical(ana: Character, goon: Character) -> Combat:
    """Ana attacks Goon, who passes; Ana rolls 22 against 50: doubles, a critical success."""
    c = go(_fight(ana, goon), Attack(fighter="Ana", target="Goon"), actor=P1)
    return go(c, React(fighter="Goon", reaction="pass"), [2, 2])


def test_the_book_the_target_loses_its_next_action_instead_of_the_extra_action() -> None:
    c = _critical(knife("Ana", abilities=(LOSE,)), knife("Goon", npc=True))
    assert kinds(c) == [(PromptKind.CRITICAL, "ana")]
    asked = c.waiting_for()[0]
    assert asked.options == WITH_LOSE and asked.user_id == 100
    assert option_label(c, asked, "target_loses_action") == "Goon loses next action"
    assert SPECS[PromptKind.CRITICAL].label("target_loses_action") == "Target loses next action"
    choice = CriticalChoice(fighter="Ana", choice="target_loses_action")
    assert SPECS[PromptKind.CRITICAL].command("target_loses_action", "ana") == CriticalChoice(
        fighter="ana", choice="target_loses_action")
    refused(c, choice, "Only their player or a GM", actor=P2)
    c, events = run(c, choice, actor=P1)
    texts = [english(e.text) for e in events]
    assert "Ana's critical success: Goon loses the next action." in texts
    assert c.fighter("goon").actions == 0  # this round's action, lost
    assert c.fighter("ana").actions == 0  # instead of the extra action: none gained
    # the dice stand as shown: 2 damage at location 2 (both dice show 2)
    assert "Goon takes 2 damage to the right leg: level 50 → 48." in " ".join(texts)


def test_a_target_with_no_action_left_loses_next_rounds() -> None:
    c = _critical(knife("Ana", abilities=(LOSE,)), knife("Goon", npc=True))
    c = go(c, CriticalChoice(fighter="Ana", choice="extra_action"), actor=P1)
    assert c.fighter("ana").actions == 1 and c.fighter("goon").actions == 1
    # Ana's extra action: another critical, and this time Goon loses an action
    c = go(c, Attack(fighter="Ana", target="Goon"), actor=P1)
    c = go(c, React(fighter="Goon", reaction="defend"), [1, 1, 6, 1])  # 11; Goon's 61 fails
    c, events = run(c, CriticalChoice(fighter="Ana", choice="target_loses_action"), actor=P1)
    assert ("Ana's critical success: Goon loses the next action (next round: none is left "
            "this round).") in [english(e.text) for e in events]
    goon = c.fighter("goon")
    assert goon.actions == 0 and goon.lose_next == 1


def test_a_defended_critical_still_costs_the_target_its_action() -> None:
    # 004 "Opposed rolls": "If the loser rolled a critical success, they still benefit from
    # effects they chose (such as an additional action), as long as those effects don't
    # require a degree of success." Losing an action needs none.
    c = go(_fight(knife("Ana", abilities=(LOSE,)), knife("Goon", npc=True)),
           Attack(fighter="Ana", target="Goon"), actor=P1)
    c = go(c, React(fighter="Goon", reaction="defend"), [2, 2, 3, 5])  # 22 against 35
    assert c.waiting_for()[0].options == WITH_LOSE
    c, events = run(c, CriticalChoice(fighter="Ana", choice="target_loses_action"), actor=P1)
    texts = [english(e.text) for e in events]
    assert "Goon's Defend (35) beats 22: the attack misses." in texts
    assert "Ana's critical success: Goon loses the next action (next round: none is left " \
           "this round)." in texts
    assert c.fighter("goon").lose_next == 1


def test_a_counterattack_with_a_knife_makes_the_attacker_lose_an_action() -> None:
    c = go(_fight(knife("Ana"), knife("Goon", npc=True, abilities=(LOSE,))),
           Attack(fighter="Ana", target="Goon"), actor=P1)
    c = go(c, React(fighter="Goon", reaction="counterattack"), [6, 1, 3, 3])  # 61; Goon 33
    assert kinds(c) == [(PromptKind.CRITICAL, "goon")]
    asked = c.waiting_for()[0]
    assert asked.options == WITH_LOSE
    assert option_label(c, asked, "target_loses_action") == "Ana loses next action"
    c = go(c, CriticalChoice(fighter="Goon", choice="target_loses_action"))
    assert c.fighter("ana").lose_next == 1


def test_an_intercept_with_a_knife_makes_the_mover_lose_an_action() -> None:
    c = _fight(knife("Ana"), knife("Goon", npc=True, abilities=(LOSE,)))
    c = go(c, Move(fighter="Ana", to="Dance Floor"), actor=P1)
    c = go(c, React(fighter="Goon", reaction="intercept"), [4, 4])  # 44 against 50
    assert c.waiting_for()[0].options == WITH_LOSE
    asked = c.waiting_for()[0]
    assert option_label(c, asked, "target_loses_action") == "Ana loses next action"
    c = go(c, CriticalChoice(fighter="Goon", choice="target_loses_action"))
    assert c.fighter("ana").lose_next == 1


def test_a_less_lethal_attack_keeps_the_option() -> None:
    # 004 "Less-lethal": abilities that apply to a weapon and action apply to its
    # less-lethal version too.
    c = go(_fight(knife("Ana", abilities=(LOSE,)), knife("Goon", npc=True)),
           Attack(fighter="Ana", target="Goon", lethal=False), actor=P1)
    c = go(c, React(fighter="Goon", reaction="pass"), [2, 2])
    assert c.waiting_for()[0].options == WITH_LOSE


@pytest.mark.parametrize(
    ("ana", "why"),
    [
        (knife("Ana"), "without the ability"),
        (pistol("Ana", abilities=(LOSE,)), "with a 1H ranged weapon"),
        (Character(name="Ana", level=50, max_level=50, abilities=(LOSE,),
                   items=(Item(name="Maul", kind="melee_2h"),), right_hand=0, left_hand=0),
         "with a 2H melee weapon"),
    ],
)
def test_not_offered_where_it_does_not_apply(ana: Character, why: str) -> None:
    c = _critical(ana, knife("Goon", npc=True))
    assert c.waiting_for()[0].options == BOOK, why
    refused(c, CriticalChoice(fighter="Ana", choice="target_loses_action"),
            "Ana's critical success offers: extra_action, adjust; not target_loses_action",
            actor=P1)


def test_not_offered_on_a_defend() -> None:
    c = go(_fight(knife("Ana"), knife("Goon", npc=True, abilities=(LOSE,))),
           Attack(fighter="Ana", target="Goon"), actor=P1)
    c = go(c, React(fighter="Goon", reaction="defend"), [6, 1, 3, 3])  # Goon's 33: critical
    assert kinds(c) == [(PromptKind.CRITICAL, "goon")]
    assert c.waiting_for()[0].options == BOOK


def test_the_hook_offers_it_for_each_attack_roll_with_a_1h_melee_weapon() -> None:
    ana = knife("Ana", abilities=(LOSE,))
    knife_ = Weapon(name="Knife", kind="melee_1h")
    for action in (Action.ATTACK, Action.COUNTERATTACK, Action.INTERCEPT):
        assert critical_options(ana, action, knife_) == WITH_LOSE
    assert critical_options(ana, Action.DEFEND, knife_) == BOOK
    assert critical_options(ana, Action.ATTACK, Weapon(name="Fists", kind="unarmed")) == BOOK
    assert critical_options(knife("Bo"), Action.ATTACK, knife_) == BOOK
