"""Speed (004 "Abilities": Speed): "You can roll for Move. On a success you can move twice,
each subject to Intercept. On a failure you stay in your current area, but it is still treated
as a move attempt for Intercept."

On the nightclub: Ana (Speed, a knife) in the alley moves to the kitchen and on to the bar.
Goon (a knife) stands in the kitchen, Rat (a knife) at the bar; Cy keeps the PCs' turn going.
"""

from __future__ import annotations

from engine.combat import (
    ChooseDice,
    Combat,
    CriticalChoice,
    Move,
    PromptKind,
    React,
    StopArea,
    Surrender,
    legal_second_moves,
)
from engine.phrases import english
from tests.engine.combat.helpers import P1, P2, RULES, begin, go, kinds, knife, refused, run, setup

SPEED = ("speed.move_twice",)


def _fight(**ana: object) -> Combat:
    c = setup(
        (knife("Ana", abilities=SPEED, **ana), "Alley", 100),
        (knife("Cy"), "Entrance", 200),
        (knife("Goon", npc=True), "Kitchen", None),
        (knife("Rat", npc=True), "Bar", None),
    )
    return begin(c, [3, 2, 6, 1], "PCs")


def _declared(**ana: object) -> Combat:
    c, events = run(_fight(**ana), Move(fighter="Ana", to="Kitchen", then="Bar"), actor=P1)
    texts = [english(e.text) for e in events]
    assert texts[0] == ("Ana moves from Alley to Kitchen, then on to Bar (Speed: a roll after "
                        "the Intercept window; on a failure they stay).")
    assert kinds(c) == [(PromptKind.REACT, "goon")]  # Rat's knife does not reach the kitchen
    assert c.move is not None and c.move.roll is None  # no die before the window closes
    return c


def test_book_a_success_moves_twice_each_step_subject_to_intercept() -> None:
    c = _declared()
    c, events = run(c, React(fighter="Goon", reaction="pass"), [3, 4])
    assert [english(e.text) for e in events] == [
        "Goon does not intercept.",
        "Ana rolls for Speed: 34 (3·4) vs 50 — SUCCESS.",
        "Ana moves twice: to Kitchen, then Bar.",
        "Ana is now in Kitchen.",
        "Ana moves on from Kitchen to Bar.",
        "Goon and Rat may intercept (lethal or less-lethal) or pass (within 45 seconds).",
    ]
    assert c.fighter("ana").area == "Kitchen"
    # the second step's own window: Goon passed the first, so may intercept this one
    assert kinds(c) == [(PromptKind.REACT, "goon"), (PromptKind.REACT, "rat")]
    assert c.move is not None and c.move.second and (c.move.frm, c.move.to) == ("Kitchen", "Bar")
    c = go(c, React(fighter="Goon", reaction="intercept"))
    c, events = run(c, React(fighter="Rat", reaction="pass"), [7, 2])  # Goon misses (72)
    assert [english(e.text) for e in events][-1] == "Ana is now in Bar."
    ana = c.fighter("ana")
    assert ana.area == "Bar" and ana.actions == 0 and c.steps == ()


def test_who_intercepted_the_first_step_cannot_intercept_the_second() -> None:
    c = _declared()
    # Goon intercepts the first step: the Speed roll, then Goon's attack (72, a miss)
    c, events = run(c, React(fighter="Goon", reaction="intercept"), [3, 4, 7, 2])
    texts = [english(e.text) for e in events]
    assert texts.index("Ana rolls for Speed: 34 (3·4) vs 50 — SUCCESS.") < texts.index(
        "Goon attacks Ana with Knife: 72 (7·2) vs 50 — FAILURE.")
    assert c.fighter("ana").area == "Kitchen"
    assert kinds(c) == [(PromptKind.REACT, "rat")]  # one reaction per action (RULINGS 20)


def test_book_a_failure_stays_but_is_still_a_move_attempt_for_intercept() -> None:
    c = _declared()
    c, events = run(c, React(fighter="Goon", reaction="intercept"), [8, 1, 2, 3])
    texts = [english(e.text) for e in events]
    assert ("Ana's Speed roll fails: Ana stays in Alley (still a move attempt for Intercept)."
            in texts)
    assert "Goon attacks Ana with Knife: 23 (2·3) vs 50 — SUCCESS." in texts
    assert kinds(c) == [(PromptKind.CHOOSE_DICE, "goon")]  # no cover against an Intercept
    c, events = run(c, ChooseDice(fighter="Goon", damage="ones"))  # 3 damage, right leg
    ana = c.fighter("ana")
    assert ana.area == "Alley" and ana.character.level == 47 and c.steps == ()
    assert not any("is now in" in english(e.text) for e in events)


def test_a_stop_on_the_first_step_ends_the_whole_move() -> None:
    c = _declared(wounds={"right_leg": "\\" * 5})
    c = go(c, React(fighter="Goon", reaction="intercept"), [3, 4, 1, 2])  # Goon hits with 12
    c, events = run(c, ChooseDice(fighter="Goon", damage="tens"))  # 1 damage, right leg: full
    assert ("Ana must stop moving; Goon chooses where: Alley or Kitchen."
            in [english(e.text) for e in events])
    assert c.waiting_for()[0].options == ("Alley", "Kitchen")  # no going on: the stop is forced
    c = go(c, StopArea(fighter="Goon", area="Kitchen"))
    assert c.fighter("ana").area == "Kitchen" and c.steps == ()


def test_a_failed_roll_stops_where_it_stands_when_an_intercept_fills_a_leg() -> None:
    c = _declared(wounds={"right_leg": "\\" * 5})
    c = go(c, React(fighter="Goon", reaction="intercept"), [8, 1, 1, 2])
    c, events = run(c, ChooseDice(fighter="Goon", damage="tens"))
    assert "Ana must stop moving, and stays in Alley." in [english(e.text) for e in events]
    assert c.fighter("ana").area == "Alley" and c.steps == ()


def test_a_critical_success_offers_its_choice_before_the_move_goes_on() -> None:
    c = go(_declared(), React(fighter="Goon", reaction="pass"), [4, 4])
    assert kinds(c) == [(PromptKind.CRITICAL, "ana")]
    assert c.fighter("ana").area == "Alley"
    c = go(c, CriticalChoice(fighter="Ana", choice="extra_action"), actor=P1)
    ana = c.fighter("ana")
    assert ana.actions == 1 and ana.area == "Kitchen"
    assert kinds(c) == [(PromptKind.REACT, "goon"), (PromptKind.REACT, "rat")]


def test_a_critical_failure_stays_and_loses_the_next_action() -> None:
    c, events = run(_declared(), React(fighter="Goon", reaction="pass"), [9, 9])
    assert ("Ana rolled a critical failure and loses the next action."
            in [english(e.text) for e in events])
    ana = c.fighter("ana")
    assert ana.area == "Alley" and ana.lose_next == 1 and c.steps == ()


def test_the_mover_who_surrenders_in_the_second_window_keeps_the_first_step() -> None:
    c = go(_declared(), React(fighter="Goon", reaction="pass"), [3, 4])
    c = go(c, React(fighter="Goon", reaction="intercept"))
    c, events = run(c, Surrender(fighter="Ana"), actor=P1)
    assert "Ana's second step does not take effect." in [english(e.text) for e in events]
    assert c.fighter("ana").area == "Kitchen" and c.fighter("ana").actions == 0
    assert c.fighter("goon").actions == 1 and c.steps == ()  # the Intercept is given back


def test_moving_twice_needs_speed_and_a_second_step_that_exists() -> None:
    c = _fight()
    refused(c, Move(fighter="Cy", to="Dance Floor", then="Bar"),
            "Moving twice in one action needs the Speed ability, which Cy does not have.",
            actor=P2)
    refused(c, Move(fighter="Ana", to="Kitchen", then="Entrance"),
            "The second step: Entrance is not one step from Kitchen; from there one can move "
            "to: Bar, Alley.", actor=P1)
    refused(c, Move(fighter="Ana", to="Kitchen", then="Kitchen"),
            "The second step: Kitchen is where that step starts.", actor=P1)
    refused(c, Move(fighter="Ana", to="Kitchen", then="Roof"),
            "There is no area called 'Roof' on this map.", actor=P1)
    assert legal_second_moves(c, "ana", RULES, "kitchen") == ("Bar", "Alley")
    assert legal_second_moves(c, "ana", RULES, "Bar") == ()  # not one step from the alley
    assert legal_second_moves(c, "cy", RULES, "Dance Floor") == ()  # no Speed
