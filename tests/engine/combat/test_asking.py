"""What the fight asks, as one value (``asking.asked``): each question with who answers, its
words and its answers' labels and tones, the questions alike together, a hidden NPC's marks
kept to the GM; worked out once per state."""

from __future__ import annotations

from engine.character import Character, Item
from engine.combat import (
    AidMark,
    AoE,
    AoEChoice,
    Attack,
    Begin,
    ChooseOrder,
    Combat,
    FirstAid,
    Move,
    PromptKind,
    React,
    render_board,
)
from engine.combat.asking import Alike, asked
from engine.combat.prompts import SPECS, Tone
from engine.phrases import english
from tests.engine.abilities.test_aoe import blast_fight
from tests.engine.combat.helpers import P1, RULES, begin, duel, go, knife, pistol, run, setup


def _intercepted() -> Combat:
    """004 "Hit Location": Ana moves from the dance floor to the bar, Goon may intercept."""
    you = knife("Ana", 40, wounds={"right_leg": "\\" * 3})
    c = setup((you, "Dance Floor", 100), (knife("Cy"), "Alley", 200),
              (knife("Goon", 30, npc=True), "Dance Floor", None))
    c = begin(c, [3, 2, 6, 1], "PCs")
    return go(c, Move(fighter="Ana", to="Bar"), actor=P1)


def test_the_hit_location_examples_damage_die_reads_its_dice() -> None:
    # "An opponent intercepts and hits you with an attack roll of 24. They choose 4 damage
    # to location 2 (right leg)."
    c, _ = run(_intercepted(), React(fighter="Goon", reaction="intercept"), [2, 4])
    (damage,) = asked(c, RULES).questions
    assert (damage.kind, damage.fighter, damage.who, damage.users) == (
        PromptKind.CHOOSE_DICE, "goon", "Goon", ())
    assert english(damage.text) == "chooses which die is damage (the other is hit location)"
    assert damage.dice == (2, 4)
    assert [(c.option, english(c.label), c.tone) for c in damage.choices] == [
        ("tens", "2 damage · 4: torso", Tone.PLAIN),
        ("ones", "4 damage · 2: right leg", Tone.PLAIN)]
    assert not damage.secret and not damage.offer and damage.deadline is None
    assert asked(c, RULES).groups == (Alike((damage,), "Goon"),)


def test_a_reaction_reads_its_chances_taken_and_let_go() -> None:
    c = _intercepted()
    (react,) = asked(c, RULES).questions
    assert react.who == "Goon" and react.users == () and react.deadline is not None
    assert react.text == SPECS[PromptKind.REACT].question
    assert react.slash == "defend, /counterattack or /intercept"
    assert [(english(choice.label), choice.tone) for choice in react.choices] == [
        ("Intercept", Tone.TAKE), ("Intercept (less-lethal)", Tone.TAKE),
        ("Pass", Tone.DECLINE)]


def test_three_caught_in_one_blast_are_asked_once_and_acting_is_left_to_commands() -> None:
    c = go(blast_fight(), AoE(fighter="You", area="dance floor"), [4, 2], actor=P1)
    c = go(c, AoEChoice(fighter="You", option="tens"), actor=P1)  # Goon, Rat, Moe
    asking = asked(c, RULES)
    caught = [q for q in asking.questions if q.kind is PromptKind.AOE_DEFEND]
    assert [q.who for q in caught] == ["Goon", "Rat", "Moe"]
    assert len({q.alike for q in caught}) == 1
    (group,) = [g for g in asking.groups if g.questions[0].kind is PromptKind.AOE_DEFEND]
    assert group == Alike(tuple(caught), "Goon, Rat, Moe")
    assert [(english(choice.label), choice.tone) for choice in caught[0].choices] == [
        ("Defend", Tone.TAKE), ("Take the damage", Tone.DECLINE)]
    assert all(q.kind is not PromptKind.ACT for g in asking.groups for q in g.questions)


def test_a_reaction_says_what_the_deciders_abilities_give_it_with_the_rules() -> None:
    goon = knife("Goon", npc=True, max_level=60, abilities=("melee_1h.good_reactions",))
    c = go(duel(pistol("Ana"), goon), Attack(fighter="Ana", target="Goon"), actor=P1)
    (react,) = asked(c, RULES).questions
    assert english(react.applies or "") == "good (1H melee counterattack)"
    assert [q.applies for q in asked(c).questions] == [None]


def _treated(hide_npcs: bool) -> Combat:
    """Rat (an NPC with a kit) succeeded at first aid on Goon, whose head and torso hold \\
    marks: Goon's marks to erase are asked."""
    rat = Character(name="Rat", npc=True, level=50, max_level=50,
                    items=(Item(name="Kit", kind="first_aid"),), right_hand=0)
    goon = Character(name="Goon", npc=True, level=30, max_level=50,
                     wounds={"head": "\\", "torso": "\\\\"})
    c = setup((knife("Ana", 40), "Alley", 100), (rat, "Bar", None), (goon, "Bar", None))
    c = c.model_copy(update={"hide_npcs": hide_npcs})
    c, _ = run(c, Begin(), [9, 0, 2, 1])
    c = go(c, ChooseOrder(first_team="NPCs"))
    c = go(c, FirstAid(fighter="Rat", target="Goon"), [1, 2])
    return go(c, AidMark(fighter="Rat", option="tens"))


def test_a_hidden_npcs_marks_are_a_secret_answered_on_its_own() -> None:
    (hidden,) = asked(_treated(hide_npcs=True), RULES).questions
    assert hidden.kind is PromptKind.AID_BOXES and hidden.secret and hidden.alike is None
    (shown,) = asked(_treated(hide_npcs=False), RULES).questions
    assert not shown.secret and shown.alike is not None
    assert [choice.label for choice in shown.choices] == [
        choice.label for choice in hidden.choices]


def test_worked_out_once_per_state_with_the_rules_or_without() -> None:
    c = _intercepted()
    with_rules = asked(c, RULES)
    render_board(c, rules=RULES)
    assert asked(c, RULES) is with_rules
    without = asked(c)
    assert without is asked(c) and without is not with_rules
    assert asked(c.model_copy(), RULES) is not with_rules  # another state: worked out anew
