"""004 "Attack": declaring an attack, and what is refused."""

from __future__ import annotations

from engine.combat import (
    Attack,
    Begin,
    CloseWindow,
    Done,
    GMSet,
    React,
)
from tests.engine.combat.helpers import (
    P1,
    P2,
    begin,
    go,
    knife,
    pistol,
    refused,
    run,
    setup,
)


def test_illegal_commands_change_nothing() -> None:
    c = setup(
        (pistol("Ana"), "Entrance", 100),
        (knife("Kit"), "Entrance", 200),
        (pistol("Bob", npc=True), "Kitchen", None),
        (knife("Dee", npc=True), "Pool Tables", None),
        (knife("Zed", npc=True, level=5, max_level=50), "Entrance", None),
    )
    refused(c, Attack(fighter="Ana", target="Bob"), "has not begun", actor=P1)
    refused(c, Begin(), "Only a GM", actor=P1)
    c = begin(c, [3, 2, 6, 1], "PCs")
    refused(c, Attack(fighter="Ana", target="Bob"), "out of range", actor=P1)  # range 2
    refused(c, Attack(fighter="Kit", target="Dee"), "out of range", actor=P2)
    refused(c, Attack(fighter="Ana", target="Dee"), "Only their player", actor=P2)
    refused(c, Attack(fighter="Bob", target="Ana"), "not Bob's turn")
    refused(c, Attack(fighter="Zed", target="Ana"), "not Zed's turn")
    refused(c, Attack(fighter="Ana", target="Kit", weapon="Sword"), "no item", actor=P1)
    refused(c, Done(team="NPCs"), "It is not the NPCs' turn; PCs are acting")
    c = go(c, Attack(fighter="Ana", target="Dee"), actor=P1)  # range 1, through a cover mark
    refused(c, Attack(fighter="Kit", target="Zed"), "Wait", actor=P2)
    refused(c, React(fighter="Ana", reaction="defend"), "cannot react")
    refused(c, React(fighter="Dee", reaction="counterattack"), "cannot counterattack")
    refused(c, CloseWindow(by_timeout=True), "still open", now=10)
    refused(c, CloseWindow(), "Only a GM", actor=P1)
    c, _ = run(c, CloseWindow(by_timeout=True), [6, 0], now=45)  # 60: miss
    assert c.attack is None
    refused(c, Attack(fighter="Ana", target="Dee"), "no action left", actor=P1)


def test_unconscious_cannot_act() -> None:
    c = setup(
        (knife("Ana"), "Entrance", 100),
        (knife("Kit", level=50), "Entrance", 100),
        (knife("Bob", npc=True), "Entrance", None),
    )
    c = begin(c, [3, 2, 6, 1], "PCs")
    c = go(c, GMSet(fighter="Kit", level=5))
    assert c.fighter("kit").actions == 0
    refused(c, Attack(fighter="Kit", target="Bob"), "unconscious", actor=P1)
