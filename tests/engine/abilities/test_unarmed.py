"""Unarmed Combat (004 "Abilities": Unarmed; the full list in 000): "When you successfully
Intercept with two empty hands, in addition to damage you can stop the target's movement. You
decide which of the two areas they end up in."

On the nightclub: Ana (a knife) moves from the dance floor to the bar; Goon (Unarmed, nothing
in hand) stands on the dance floor; Cy keeps the PCs' turn going."""

from __future__ import annotations

from engine.character import Character, Item
from engine.combat import (
    ChooseDice,
    Combat,
    Move,
    PromptKind,
    React,
    StopArea,
)
from engine.combat.prompts import SPECS
from engine.phrases import english
from tests.engine.combat.helpers import P1, begin, go, kinds, knife, refused, run, setup

STOP = ("unarmed.fight", "unarmed.stop_movement")


def _brawler(abilities: tuple[str, ...] = STOP, holding: bool = False) -> Character:
    items = (Item(name="Knife", kind="melee_1h"),) if holding else ()
    return Character(name="Goon", npc=True, level=50, max_level=60, abilities=abilities,
                     items=items, right_hand=0 if holding else None)


def _intercepted(goon: Character, roll: list[int], weapon: str | None = None) -> Combat:
    c = setup((knife("Ana"), "Dance Floor", 100), (knife("Cy"), "Alley", 200),
              (goon, "Dance Floor", None))
    c = begin(c, [3, 2, 6, 1], "PCs")
    c = go(c, Move(fighter="Ana", to="Bar"), actor=P1)
    return go(c, React(fighter="Goon", reaction="intercept", weapon=weapon), roll)


def test_book_a_successful_intercept_with_two_empty_hands_stops_the_mover() -> None:
    c = _intercepted(_brawler(), [2, 3])
    c, events = run(c, ChooseDice(fighter="Goon", damage="ones"))  # 3 damage, right leg
    assert ("Goon grabs Ana with two empty hands and may stop the move: Goon chooses where "
            "Ana ends, Dance Floor or Bar.") in [english(e.text) for e in events]
    assert kinds(c) == [(PromptKind.STOP_AREA, "goon")]
    assert c.waiting_for()[0].options == ("Dance Floor", "Bar")
    refused(c, StopArea(fighter="Goon", area="Kitchen"), "Choose one of: Dance Floor, Bar.")
    c, events = run(c, StopArea(fighter="Goon", area="dance floor"))
    assert english(events[0].text) == "Goon puts Ana in Dance Floor."
    ana = c.fighter("ana")
    assert ana.area == "Dance Floor" and ana.character.level == 47 and c.steps == ()


def test_a_missed_intercept_stops_nothing() -> None:
    c = _intercepted(_brawler(), [7, 2])
    assert c.fighter("ana").area == "Bar" and c.steps == ()


def test_an_item_in_hand_means_no_stop_even_unarmed() -> None:
    c = _intercepted(_brawler(holding=True), [2, 3], weapon="unarmed")
    c = go(c, ChooseDice(fighter="Goon", damage="ones"))
    assert c.fighter("ana").area == "Bar" and c.steps == ()


def test_without_the_ability_an_unarmed_intercept_only_hurts() -> None:
    c = _intercepted(_brawler(abilities=("unarmed.fight",)), [2, 3])
    c = go(c, ChooseDice(fighter="Goon", damage="ones"))
    assert c.fighter("ana").area == "Bar" and c.steps == ()


def _speedy_move(roll: list[int]) -> Combat:
    """Ana (Speed) moves from the alley to the kitchen and on to the bar; Goon grabs at her in
    the kitchen."""
    ana = knife("Ana", abilities=("speed.move_twice",))
    c = setup((ana, "Alley", 100), (knife("Cy"), "Entrance", 200), (_brawler(), "Kitchen", None))
    c = begin(c, [3, 2, 6, 1], "PCs")
    c = go(c, Move(fighter="Ana", to="Kitchen", then="Bar"), actor=P1)
    c = go(c, React(fighter="Goon", reaction="intercept"), roll)
    return go(c, ChooseDice(fighter="Goon", damage="ones"))


def test_a_speed_mover_may_be_stopped_or_let_go_on() -> None:
    c = _speedy_move([3, 4, 2, 3])  # Speed succeeds, Goon hits
    options = c.waiting_for()[0].options
    assert options == ("Alley", "Kitchen", StopArea.GO_ON)
    labels = [english(SPECS[PromptKind.STOP_AREA].label(o)) for o in options]
    assert labels == ["Stop in Alley", "Stop in Kitchen", "Let them go on"]
    stopped = go(c, StopArea(fighter="Goon", area="Kitchen"))
    assert stopped.fighter("ana").area == "Kitchen" and stopped.steps == ()
    c, events = run(c, StopArea(fighter="Goon", area=StopArea.GO_ON))
    assert [english(e.text) for e in events][:2] == ["Goon lets Ana go on.",
                                                     "Ana is now in Kitchen."]
    assert c.fighter("ana").area == "Bar" and c.steps == ()


def test_a_speed_mover_who_failed_the_roll_stays_without_asking() -> None:
    c = _speedy_move([8, 1, 2, 3])
    assert c.fighter("ana").area == "Alley" and c.steps == ()
