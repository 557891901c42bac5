"""004 "Surrender": before the dice, out of the fight at level 0."""

from __future__ import annotations

from engine.character import Status, status
from engine.combat import (
    Attack,
    Phase,
    React,
    Surrender,
    legal_targets,
)
from engine.phrases import english
from tests.engine.combat.helpers import (
    P1,
    RULES,
    begin,
    duel,
    go,
    knife,
    move_window,
    pistol,
    refused,
    run,
    setup,
)


def test_surrender_during_window() -> None:
    c = setup(
        (pistol("Ana"), "Entrance", 100),
        (pistol("Bob", npc=True), "Entrance", None),
        (pistol("Cid", npc=True), "Bar", None),
    )
    c = begin(c, [3, 2, 6, 1], "PCs")
    c = go(c, Attack(fighter="Ana", target="Bob"), actor=P1)
    assert c.fighter("ana").actions == 0
    c, _events = run(c, Surrender(fighter="Bob"))
    assert c.attack is None and c.phase is Phase.TURN
    assert c.fighter("ana").actions == 1 and c.acting_team == "PCs"
    bob = c.fighter("bob")
    assert bob.character.level == 0 and status(bob.character, rules=RULES) is Status.SURRENDERED
    assert "Bob" not in legal_targets(c, "ana", RULES)
    refused(c, Attack(fighter="Ana", target="Bob"), "surrendered", actor=P1)


def test_surrender_of_the_last_ends_the_fight() -> None:
    c = duel(pistol("Ana"), pistol("Bob", npc=True))
    c = go(c, Attack(fighter="Ana", target="Bob"), actor=P1)
    c, events = run(c, Surrender(fighter="Bob"))
    assert c.phase is Phase.ENDED
    ended = [e for e in events if e.kind == "ended"]
    assert ended and "Bob (NPCs): level 0/50, surrendered" in english(ended[0].text)


def test_no_surrender_after_dice() -> None:
    c = duel(knife("Ana"), knife("Bob", npc=True))
    c = go(c, Attack(fighter="Ana", target="Bob"), actor=P1)
    c = go(c, React(fighter="Bob", reaction="pass"), [4, 6])
    refused(c, Surrender(fighter="Bob"), "already rolled")


def test_a_mover_who_surrenders_before_the_dice_does_not_move() -> None:
    c = go(move_window(), React(fighter="Goon", reaction="intercept"))
    assert c.fighter("goon").actions == 0
    c, events = run(c, Surrender(fighter="Ana"), actor=P1)
    assert "Ana's move does not take effect." in [english(e.text) for e in events]
    assert c.move is None and c.fighter("ana").area == "Dance Floor"
    assert c.fighter("goon").actions == 1  # the Intercept was not spent
    assert status(c.fighter("ana").character, rules=RULES) is Status.SURRENDERED


def test_an_interceptor_who_surrenders_leaves_the_window() -> None:
    c = go(move_window(), React(fighter="Rat", reaction="pass"))
    c = go(c, Surrender(fighter="Goon"))
    assert c.move is None and c.fighter("ana").area == "Bar"
