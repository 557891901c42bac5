"""004 "Critical rolls" and "Good rolls": the roller's choices on a roll."""

from __future__ import annotations

from engine.combat import (
    Attack,
    ChooseDice,
    CriticalChoice,
    Done,
    PromptKind,
    React,
    Reroll,
)
from engine.phrases import english
from tests.engine.combat.helpers import (
    P1,
    P2,
    duel,
    go,
    kinds,
    pistol,
    refused,
    run,
)


def test_critical_success_extra_action() -> None:
    c = duel(pistol("Ana"), pistol("Goon", npc=True))
    c = go(c, Attack(fighter="Ana", target="Goon"), actor=P1)
    c = go(c, React(fighter="Goon", reaction="pass"), [3, 3])
    assert kinds(c) == [(PromptKind.CRITICAL, "ana")]
    refused(c, CriticalChoice(fighter="Ana", choice="adjust"), "Say which value", actor=P1)
    c = go(c, CriticalChoice(fighter="Ana", choice="extra_action"), actor=P1)  # doubles: 3 at 3
    assert c.fighter("goon").character.level == 47
    assert c.fighter("ana").actions == 1 and c.acting_team == "PCs"


def test_critical_adjust() -> None:
    c = duel(pistol("Ana"), pistol("Goon", npc=True))
    c = go(c, Attack(fighter="Ana", target="Goon"), actor=P1)
    c = go(c, React(fighter="Goon", reaction="pass"), [5, 0])  # exactly the level
    refused(c, CriticalChoice(fighter="Ana", choice="adjust", value=51), "1-50", actor=P1)
    c = go(c, CriticalChoice(fighter="Ana", choice="adjust", value=49), actor=P1)
    c = go(c, ChooseDice(fighter="Ana", damage="ones"), actor=P1)  # 9 at 4
    assert c.fighter("goon").character.level == 41


def test_critical_failure_loses_next_action_next_round() -> None:
    c = duel(pistol("Ana"), pistol("Goon", npc=True))
    c = go(c, Attack(fighter="Ana", target="Goon"), actor=P1)
    c, _events = run(c, React(fighter="Goon", reaction="pass"), [7, 7])
    ana = c.fighter("ana")
    assert ana.actions == 0 and ana.lose_next == 1
    assert c.acting_team == "NPCs"
    c = go(c, Done(), [3, 2, 6, 1])  # round 2
    assert c.round == 2 and c.fighter("ana").actions == 0 and c.fighter("ana").lose_next == 0
    assert c.fighter("goon").actions == 1


def test_good_reroll() -> None:
    good = pistol("Ana", max_level=60, abilities=("ranged_1h.good_attack",))
    c = duel(good, pistol("Goon", npc=True))
    c = go(c, Attack(fighter="Ana", target="Goon"), actor=P1)
    c = go(c, React(fighter="Goon", reaction="pass"), [7, 2])
    assert kinds(c) == [(PromptKind.REROLL, "ana")]
    refused(c, Reroll(fighter="Ana", which="tens"), "Only their player", actor=P2)
    c, events = run(c, Reroll(fighter="Ana", which="tens"), [1], actor=P1)
    assert "Ana re-rolls tens: 12 (1·2) vs 50 — SUCCESS." in [english(e.text) for e in events]
    assert kinds(c) == [(PromptKind.CHOOSE_DICE, "ana")]
