"""AoE Continuous (004 "Abilities": Area of Effect, Continuous; RULINGS 18):

"Make a single attack roll. On success, choose one die for damage, and the other die for the
number of rounds the effect lasts. While in effect, anyone in that area who starts an action
other than Move takes that amount of damage immediately. If there are multiple continuous
effects on an area simultaneously, use only the most damaging one."

On the nightclub (as in test_aoe): You throw a Continuous grenade at the Dance Floor, where
the ally Cy and the enemies Goon, Rat and Moe stand; a 42 makes 4 damage for 2 more rounds.
"""

from __future__ import annotations

from engine.combat import (
    AoE,
    AoEChoice,
    Attack,
    CloseWindow,
    Combat,
    EventKind,
    ManageItems,
    Move,
    PromptKind,
    React,
    Surrender,
)
from engine.combat.model import AreaEffect
from engine.phrases import english
from tests.engine.abilities.test_aoe import blast_fight, grenadier
from tests.engine.combat.helpers import P1, P2, go, kinds, refused, run, texts


def _burning() -> Combat:
    c = go(blast_fight(grenadier(ability="aoe.continuous")), AoE(fighter="You", area="Dance Floor"),
           [4, 2], actor=P1)
    c, events = run(c, AoEChoice(fighter="You", option="tens"), actor=P1)
    assert texts(events) == [
        "You chooses 4 damage for 2 more rounds.",
        "Continuous 4 damage in Dance Floor until the end of round 3 (You).",
    ]
    return c


def _burns(events: object) -> list[str]:
    return [english(e.text) for e in events if e.kind is EventKind.CONTINUOUS]  # type: ignore[attr-defined]


def test_starting_an_attack_in_the_area_deals_the_damage_at_once() -> None:
    c, events = run(_burning(), Attack(fighter="Cy", target="Goon"), actor=P2)
    assert _burns(events) == ["Cy starts an action inside the Continuous effect in Dance Floor "
                              "(You) and takes 4 damage."]
    # Cy's player places it like any AoE damage, before the attack goes on
    assert kinds(c) == [(PromptKind.AOE_PLACE, "cy")]
    for _ in range(3):
        c = go(c, AoEChoice(fighter="Cy", option="torso"), actor=P2)
    c, events = run(c, AoEChoice(fighter="Cy", option="torso"), actor=P2, now=30)
    assert c.fighter("cy").character.level == 46
    # then the attack's reaction window is open again, with its full time, and says so
    assert kinds(c) == [(PromptKind.REACT, "goon")]
    assert c.step is not None and c.step.kind == "attack"
    assert c.waiting_for()[0].deadline == 30 + c.reaction_seconds
    assert texts(events)[-1] == ("Goon may defend or counterattack (lethal or less-lethal) or "
                                 "pass (within 45 seconds).")


def test_a_reaction_is_an_action_started_too() -> None:
    c = go(_burning(), Attack(fighter="Cy", target="Goon"), actor=P2)
    for _ in range(4):
        c = go(c, AoEChoice(fighter="Cy", option="torso"), actor=P2)
    c, events = run(c, React(fighter="Goon", reaction="defend"))
    assert _burns(events) == ["Goon starts an action inside the Continuous effect in Dance "
                              "Floor (You) and takes 4 damage."]
    assert kinds(c) == [(PromptKind.AOE_PLACE, "goon")]


def test_a_pass_is_no_action() -> None:
    c = go(_burning(), Attack(fighter="Cy", target="Goon"), actor=P2)
    for _ in range(4):
        c = go(c, AoEChoice(fighter="Cy", option="torso"), actor=P2)
    c, events = run(c, React(fighter="Goon", reaction="pass"), [3, 0])
    assert _burns(events) == []


def test_a_move_does_not_burn() -> None:
    c, events = run(_burning(), Move(fighter="Cy", to="Entrance"), actor=P2)
    assert _burns(events) == []
    assert c.fighter("cy").character.level == 50


def test_other_actions_burn_and_are_done_before_the_damage_is_placed() -> None:
    c, events = run(_burning(), ManageItems(fighter="Cy", op="stow", hand="right"), actor=P2)
    assert c.fighter("cy").character.right_hand is None  # the action itself is done
    assert _burns(events) and kinds(c) == [(PromptKind.AOE_PLACE, "cy")]


def test_outside_the_area_nothing_happens() -> None:
    c = _burning()
    moved = tuple(e.model_copy(update={"area": "Bar"}) for e in c.effects)
    c, events = run(c.model_copy(update={"effects": moved}), Attack(fighter="Cy", target="Goon"),
                    actor=P2)
    assert _burns(events) == []


def test_only_the_most_damaging_effect_counts() -> None:
    c = _burning()
    weak = AreaEffect(area="Dance Floor", kind="continuous", value=2, until=5, by="Moe")
    strong = AreaEffect(area="Dance Floor", kind="continuous", value=7, until=2, by="Rat")
    c = c.model_copy(update={"effects": (*c.effects, weak, strong)})
    c, events = run(c, Attack(fighter="Cy", target="Goon"), actor=P2)
    assert _burns(events) == ["Cy starts an action inside the Continuous effect in Dance Floor "
                              "(Rat) and takes 7 damage."]


def test_a_blast_defend_inside_the_effect_burns() -> None:
    c = _burning()
    you = c.fighter("you").model_copy(
        update={"character": grenadier("You", ability="aoe.blast"), "actions": 1})
    c = c.model_copy(update={"fighters": tuple(you if f.key == "you" else f
                                               for f in c.fighters)})
    c = go(c, AoE(fighter="You", area="Dance Floor"), [2, 0], actor=P1)
    c = go(c, AoEChoice(fighter="You", option="tens"), actor=P1)  # 2 damage, one target
    c = go(c, AoEChoice(fighter="You", option="Goon"), actor=P1)
    assert kinds(c) == [(PromptKind.AOE_DEFEND, "goon")]
    c, events = run(c, AoEChoice(fighter="Goon", option="defend"))
    assert _burns(events) and kinds(c) == [(PromptKind.AOE_PLACE, "goon")]
    for _ in range(3):
        c = go(c, AoEChoice(fighter="Goon", option="torso"))
    c, events = run(c, AoEChoice(fighter="Goon", option="torso"), [9, 9])
    assert "Goon's Defend (99) does not beat 20." in texts(events)
    assert c.fighter("goon").character.level == 56
    assert kinds(c) == [(PromptKind.AOE_PLACE, "goon")]  # now the blast's own 2


def test_a_blast_defend_window_opens_again_after_the_damage_with_its_full_time() -> None:
    c = _burning()
    you = c.fighter("you").model_copy(
        update={"character": grenadier("You", ability="aoe.blast"), "actions": 1})
    c = c.model_copy(update={"fighters": tuple(you if f.key == "you" else f
                                               for f in c.fighters)})
    c = go(c, AoE(fighter="You", area="Dance Floor"), [2, 1], actor=P1)
    c = go(c, AoEChoice(fighter="You", option="tens"), actor=P1)  # 2 damage, two targets
    c = go(c, AoEChoice(fighter="You", option="Goon"), actor=P1)
    c = go(c, AoEChoice(fighter="You", option="Rat"), actor=P1)
    c = go(c, AoEChoice(fighter="Goon", option="defend"))  # burns: Goon places 4 first
    for _ in range(3):
        c = go(c, AoEChoice(fighter="Goon", option="torso"))
    c, events = run(c, AoEChoice(fighter="Goon", option="torso"), now=30)
    assert texts(events)[-1] == ("Rat may Defend against the blast (spending an action) or "
                                 "take the damage (within 45 seconds).")
    assert kinds(c) == [(PromptKind.AOE_DEFEND, "rat")]
    assert c.waiting_for()[0].deadline == 75
    c, events = run(c, CloseWindow(by_timeout=True), [9, 9], now=75)
    assert "Rat does not defend." in texts(events)


def test_a_surrender_waits_until_the_continuous_damage_is_placed() -> None:
    """Found by the fight property: Cy attacks Goon from inside the effect and surrenders
    (level 0) while placing the 4 damage that starting the attack dealt him. The surrender
    looked for an attack only on top, where the damage stood, so the attack went on: the
    damage took Cy to -4, Goon was asked to Defend, and rolling dead Cy's attack raised ("a
    level is between 1 and 99"). The damage was taken at once, from an AoE whose dice are
    rolled, so it is placed first, by the surrender's rule (note 55); then the surrender
    finds the attack before its dice and cancels it, as on any attack."""
    c = go(_burning(), Attack(fighter="Cy", target="Goon"), actor=P2)
    assert kinds(c) == [(PromptKind.AOE_PLACE, "cy")]
    refused(c, Surrender(fighter="Cy"), "The Continuous damage Cy took is being placed; Cy "
            "can surrender once it is placed", P2)
    refused(c, Surrender(fighter="Goon"), "Goon can surrender once it is placed")  # the target
    for _ in range(4):
        c = go(c, AoEChoice(fighter="Cy", option="torso"), actor=P2)
    assert c.fighter("cy").character.level == 46
    assert kinds(c) == [(PromptKind.REACT, "goon")]  # the window, open again: no dice yet
    c, events = run(c, Surrender(fighter="Cy"), actor=P2)
    assert texts(events)[0] == "Cy's attack does not take effect; Cy keeps the action."
    assert c.step is None and c.fighter("cy").character.level == 0
    refused(c, React(fighter="Goon", reaction="defend"), "No attack is waiting")


def test_the_target_surrenders_once_the_attackers_damage_is_placed() -> None:
    c = go(_burning(), Attack(fighter="Cy", target="Goon"), actor=P2)
    for _ in range(4):
        c = go(c, AoEChoice(fighter="Cy", option="torso"), actor=P2)
    c, events = run(c, Surrender(fighter="Goon"))
    assert texts(events)[0] == "Cy's attack does not take effect; Cy keeps the action."
    assert c.step is None and c.fighter("goon").character.level == 0
    assert c.fighter("cy").character.level == 46  # the damage was taken: it stays
