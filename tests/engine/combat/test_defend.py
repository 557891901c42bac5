"""004 "Defend" (and "Opposed rolls"): the defender's roll against the attacker's."""

from __future__ import annotations

import pytest

from engine.combat import (
    Attack,
    PromptKind,
    React,
)
from engine.phrases import english
from tests.engine.combat.helpers import (
    P1,
    P2,
    duel,
    go,
    kinds,
    knife,
    refused,
    run,
)


def test_defend_wins() -> None:
    c = duel(knife("Ana"), knife("Goon", npc=True))
    c = go(c, Attack(fighter="Ana", target="Goon"), actor=P1)
    assert c.waiting_for()[0].options == (
        "defend", "counterattack", "counterattack_less_lethal", "pass")
    c, events = run(c, React(fighter="Goon", reaction="defend"), [3, 4, 4, 1, 6, 1, 3, 2])
    assert c.attack is None and c.round == 2  # nobody has an action left: round 2
    assert c.fighter("goon").character.level == 50
    assert c.fighter("goon").reacted_to == 1 and c.fighter("goon").actions == 1  # new round
    assert any(e.kind == "defended" for e in events)


def test_defend_tie_pc_beats_npc() -> None:
    c = duel(knife("Goon", npc=True), knife("Ana"), "NPCs")
    c = go(c, Attack(fighter="Goon", target="Ana"))
    c, events = run(c, React(fighter="Ana", reaction="defend"), [3, 4, 3, 4, 6, 1, 3, 2],
                    actor=P2)
    assert c.attack is None and c.fighter("ana").character.level == 50
    assert ("Ana's Defend (34) ties 34 and a PC wins a tie against an NPC: the attack misses."
            in [english(e.text) for e in events])


def test_defend_tie_npc_vs_npc_does_not_stop_the_attack() -> None:
    c = duel(knife("Red", npc=True), knife("Blue", npc=True))
    c = go(c, Attack(fighter="Red", target="Blue"))
    c, events = run(c, React(fighter="Blue", reaction="defend"), [3, 4, 3, 4])
    assert ("Blue's Defend (34) only ties 34, and a tie stops nothing: the attack is not "
            "stopped." in [english(e.text) for e in events])
    assert kinds(c) == [(PromptKind.CHOOSE_DICE, "red")]


@pytest.mark.parametrize(
    ("attacker_npc", "faces", "sentence"),
    [
        # RULINGS 6: the highest success wins; on a tie a PC beats an NPC; otherwise nobody.
        (False, [3, 4, 2, 1], "34 beats Goon's Defend (21): the attack is not stopped."),
        (False, [3, 4, 3, 4],
         "34 ties Goon's Defend (34) and a PC wins a tie against an NPC: the attack is not "
         "stopped."),
        (False, [3, 4, 4, 1, 6, 1, 3, 2], "Goon's Defend (41) beats 34: the attack misses."),
        (False, [3, 4, 8, 1], "Goon's Defend fails."),
        (True, [3, 4, 3, 4, 6, 1, 3, 2],
         "Goon's Defend (34) ties 34 and a PC wins a tie against an NPC: the attack misses."),
        (True, [3, 4, 2, 1], "34 beats Goon's Defend (21): the attack is not stopped."),
    ],
)
def test_every_defend_sentence_says_what_happened(attacker_npc: bool, faces: list[int],
                                                  sentence: str) -> None:
    # Ana attacks, Goon defends (a stopped attack ends the round: the rest is initiative); one
    # of them is a PC, the other an NPC.
    ana, goon = knife("Ana", npc=attacker_npc), knife("Goon", npc=not attacker_npc)
    c = duel(ana, goon, "NPCs" if attacker_npc else "PCs")
    c = go(c, Attack(fighter="Ana", target="Goon"))
    c, events = run(c, React(fighter="Goon", reaction="defend"), faces)
    texts = [english(e.text) for e in events]
    assert sentence in texts, texts


def test_a_defend_cannot_be_less_lethal() -> None:
    c = duel(knife("Ana"), knife("Goon", npc=True))
    c = go(c, Attack(fighter="Ana", target="Goon"), actor=P1)
    refused(c, React(fighter="Goon", reaction="defend", lethal=False), "Defend deals no damage")
