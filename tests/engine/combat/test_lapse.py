"""Rules note 56: what a fighter who can no longer act had waiting for its dice lapses, and no
die is rolled for them. Each path by which a GM correction (``/combat set``) used to reach a
roll at level 0 or below, which raised "A level is between 1 and 99, not 0" from the dice.

The scripted dice of ``run`` must all be used, and none is left over: an empty script where a
lapse is expected proves that nothing was rolled."""

from __future__ import annotations

from engine.character import Character, Item
from engine.combat import (
    AidMark,
    AllOutDefend,
    AoE,
    AoEChoice,
    Attack,
    CloseWindow,
    Combat,
    FirstAid,
    GMSet,
    Move,
    PromptKind,
    Rally,
    React,
)
from engine.combat.model import Phase
from tests.engine.abilities.test_aoe import blast_fight, grenadier
from tests.engine.abilities.test_leader import rally_fight
from tests.engine.abilities.test_shield import ALL_OUT, OTHERS, bearer
from tests.engine.combat.helpers import (
    P1,
    P2,
    begin,
    go,
    kinds,
    knife,
    move_window,
    refused,
    run,
    setup,
    texts,
)


def _shielded_attack() -> Combat:
    """Goon attacks Bob (P2's); Sue (P1's, a shield, Defend another character) declares a
    Defend of Bob, who may still counterattack: the window stays open. Gil, in the bar, keeps
    the NPCs standing."""
    c = setup(
        (knife("Bob"), "Entrance", 200),
        (bearer("Sue", OTHERS), "Entrance", 100),
        (knife("Goon", npc=True), "Entrance", None),
        (knife("Gil", npc=True), "Bar", None),
    )
    c = go(begin(c, [3, 2, 6, 1], "NPCs"), Attack(fighter="Goon", target="Bob"))
    c = go(c, React(fighter="Sue", reaction="defend", target="Bob"), actor=P1)
    assert kinds(c) == [(PromptKind.REACT, "bob")] and c.fighter("sue").actions == 0
    return c


def test_an_attacker_corrected_to_0_in_the_window_lapses_unrolled() -> None:
    c, events = run(_shielded_attack(), GMSet(fighter="Goon", level=0))  # no die scripted
    assert texts(events)[1:] == ["Goon can no longer act: the attack on Bob lapses, unrolled."]
    assert c.attack is None and c.phase is Phase.TURN
    assert c.fighter("sue").actions == 1  # her Defend reacted to an attack that never came
    refused(c, CloseWindow(), "No attack is waiting")


def test_a_defend_corrected_below_0_lapses_and_the_target_may_defend_again() -> None:
    c, events = run(_shielded_attack(), GMSet(fighter="Sue", level=-3))
    assert texts(events)[1:] == ["Sue can no longer act: the Defend lapses, unrolled."]
    assert c.attack is not None and [r.fighter for r in c.attack.reactors] == ["bob"]
    c, events = run(c, React(fighter="Bob", reaction="defend"), [3, 4, 5, 6], actor=P2)
    rolled = [t for t in texts(events) if "vs" in t]
    assert rolled == ["Goon attacks Bob with Knife: 34 (3·4) vs 50 — SUCCESS.",
                      "Bob defends: 56 (5·6) vs 50 — FAILURE."]  # nothing of Sue's


def test_a_target_knocked_out_before_answering_is_no_longer_asked() -> None:
    # Nobody else is left to answer: the window closes, Goon's and Sue's dice are rolled.
    _, events = run(_shielded_attack(), GMSet(fighter="Bob", level=5), [3, 4, 5, 6])
    assert texts(events)[1:4] == ["Bob can no longer act: no reaction.",
                                  "Goon attacks Bob with Knife: 34 (3·4) vs 50 — SUCCESS.",
                                  "Sue defends Bob: 56 (5·6) vs 50 — FAILURE."]


def test_an_all_out_defenders_free_blast_defend_corrected_to_0_lapses() -> None:
    c = setup(
        (grenadier(), "Entrance", 100),
        (bearer("Bea", ALL_OUT, npc=True), "Dance Floor", None),
        (knife("Rat", npc=True), "Dance Floor", None),
    )
    c = go(begin(c, [3, 2, 6, 1], "PCs"), AllOutDefend(fighter="Bea"))
    c = go(c, AoE(fighter="You", area="Dance Floor"), [4, 2], actor=P1)
    c = go(c, AoEChoice(fighter="You", option="tens"), actor=P1)  # 4 damage; Bea and Rat
    c = go(c, AoEChoice(fighter="Bea", option="defend"))
    c, events = run(c, GMSet(fighter="Bea", level=0))
    assert texts(events)[1:] == ["Bea can no longer act: the Defend lapses, unrolled."]
    c = go(c, AoEChoice(fighter="Rat", option="pass"))  # no Defend is rolled
    assert kinds(c) == [(PromptKind.AOE_PLACE, "bea"), (PromptKind.AOE_PLACE, "rat")]


def test_a_blast_target_knocked_out_before_answering_does_not_defend() -> None:
    c = go(blast_fight(), AoE(fighter="You", area="Dance Floor"), [4, 2], actor=P1)
    c = go(c, AoEChoice(fighter="You", option="tens"), actor=P1)  # Goon, Rat, Moe
    c, events = run(c, GMSet(fighter="Moe", level=0))
    assert texts(events)[1:] == ["Moe can no longer act: no Defend."]
    c = go(c, AoEChoice(fighter="Goon", option="pass"))
    c = go(c, AoEChoice(fighter="Rat", option="pass"))
    assert (PromptKind.AOE_PLACE, "moe") in kinds(c)


def test_an_interceptor_corrected_to_0_lapses_and_the_move_goes_on() -> None:
    c = go(move_window(), React(fighter="Goon", reaction="intercept"))
    c, events = run(c, GMSet(fighter="Goon", level=0))
    assert texts(events)[1:] == ["Goon can no longer act: the Intercept lapses, unrolled."]
    c, events = run(c, React(fighter="Rat", reaction="pass"))  # no Intercept is rolled
    assert "Ana is now in Bar." in texts(events)


def test_a_mover_corrected_to_0_in_the_window_stays_and_interceptors_keep_the_action() -> None:
    c = go(move_window(), React(fighter="Goon", reaction="intercept"))
    assert c.fighter("goon").actions == 0
    c, events = run(c, GMSet(fighter="Ana", level=0))
    assert texts(events)[1:] == [
        "Ana can no longer act: the move to Bar lapses (Ana stays in Dance Floor)."]
    assert c.move is None and c.fighter("ana").area == "Dance Floor"
    assert c.fighter("goon").actions == 1


def test_a_speed_mover_corrected_to_0_before_the_roll_is_not_rolled_for() -> None:
    c = setup(
        (knife("Ana", abilities=("speed.move_twice",)), "Alley", 100),
        (knife("Cy"), "Entrance", 200),
        (knife("Goon", npc=True), "Kitchen", None),
    )
    c = go(begin(c, [3, 2, 6, 1], "PCs"), Move(fighter="Ana", to="Kitchen", then="Bar"),
           actor=P1)
    c, events = run(c, GMSet(fighter="Ana", level=0))
    assert texts(events)[1:] == [
        "Ana can no longer act: the move to Kitchen lapses (Ana stays in Alley)."]
    assert c.move is None and c.fighter("ana").area == "Alley"


def test_a_treater_corrected_to_0_before_choosing_gives_no_first_aid() -> None:
    ana = Character(name="Ana", level=40, max_level=60, abilities=("first_aid.sure",),
                    items=(Item(name="Kit", kind="first_aid"),), right_hand=0)
    cy = knife("Cy").model_copy(update={"wounds": {"torso": "\\"}})
    c = setup((ana, "Entrance", 100), (cy, "Entrance", 200),
              (knife("Goon", npc=True), "Bar", None))
    c = go(begin(c, [3, 2, 6, 1], "PCs"), FirstAid(fighter="Ana", target="Cy"), actor=P1)
    assert kinds(c) == [(PromptKind.AID_SURE, "ana")]
    c, events = run(c, GMSet(fighter="Ana", level=0))
    assert texts(events)[1:] == ["Ana can no longer give first aid: it does not take effect."]
    assert c.aid is None
    refused(c, AidMark(fighter="Ana", option="roll"), "No attack is waiting", P1)


def test_a_leader_corrected_to_0_at_the_end_is_not_asked_to_rally() -> None:
    c = go(rally_fight(), GMSet(fighter="Bob", level=5))  # only the PCs stand: Kit may rally
    assert c.phase is Phase.ENDING
    c = go(c, GMSet(fighter="Kit", level=0))  # nothing rolled: the fight ends
    assert c.phase is Phase.ENDED
    refused(c, Rally(fighter="Kit"), "over", P2)


def test_an_attack_whose_continuous_damage_knocks_its_attacker_out_lapses() -> None:
    """Rules note 37 with note 56: Cy (12) attacks inside the fire, takes 4 (level 8,
    unconscious) and places it; the attack then lapses instead of being rolled at 8."""
    c = go(blast_fight(grenadier(ability="aoe.continuous")),
           AoE(fighter="You", area="Dance Floor"), [4, 2], actor=P1)
    c = go(c, AoEChoice(fighter="You", option="tens"), actor=P1)  # 4 damage, 2 more rounds
    c = go(c, GMSet(fighter="Cy", level=12))
    c = go(c, Attack(fighter="Cy", target="Goon"), actor=P2)
    for _ in range(3):
        c = go(c, AoEChoice(fighter="Cy", option="torso"), actor=P2)
    c, events = run(c, AoEChoice(fighter="Cy", option="torso"), actor=P2)
    assert c.fighter("cy").character.level == 8
    assert "Cy can no longer act: the attack on Goon lapses, unrolled." in texts(events)
    assert c.attack is None
