"""004 "Rounds": a whole fight to its end, and a fight stored mid-way."""

from __future__ import annotations

from engine.character import Status, status
from engine.combat import (
    Attack,
    Begin,
    ChooseDice,
    ChooseOrder,
    Combat,
    Phase,
    PromptKind,
    React,
    command_adapter,
)
from engine.phrases import english
from tests.engine.combat.helpers import (
    P1,
    P2,
    RULES,
    duel,
    go,
    kinds,
    knife,
    pistol,
    run,
    setup,
)


def test_whole_fight_ends_with_one_team_unconscious() -> None:
    c = setup(
        (knife("Ana", 60), "Dance Floor", 100),
        (pistol("Cy", 40), "Entrance", 200),
        (knife("Goon", 20, npc=True), "Dance Floor", None),
    )
    c = go(c, Begin(), [3, 4, 6, 2])  # Ana 34 wins; Goon 62 fails
    c = go(c, ChooseOrder(first_team="NPCs"), actor=P1)
    c = go(c, Attack(fighter="Goon", target="Ana"))
    c = go(c, React(fighter="Ana", reaction="counterattack"), [1, 2, 5, 7], actor=P1)
    c = go(c, ChooseDice(fighter="Goon", damage="tens"))  # Ana: 1 at 2
    c = go(c, ChooseDice(fighter="Ana", damage="ones"), actor=P1)  # Goon: 7 at 5
    assert c.fighter("ana").character.level == 59
    assert c.fighter("goon").character.level == 13
    assert c.acting_team == "PCs"  # the NPCs have no action left: their turn ended
    assert kinds(c) == [(PromptKind.ACT, "cy")]
    c, events = run(c, Attack(fighter="Cy", target="Goon"), [3, 5], actor=P2)  # no window
    assert kinds(c) == [(PromptKind.CHOOSE_DICE, "cy")]
    c, events = run(c, ChooseDice(fighter="Cy", damage="ones"), actor=P2)  # 5 at 3
    assert c.phase is Phase.ENDED
    goon = c.fighter("goon").character
    assert goon.level == 8 and status(goon, rules=RULES) is Status.UNCONSCIOUS
    ended = next(e for e in events if e.kind == "ended")
    assert "Only PCs are left standing." in english(ended.text)
    assert "Goon (NPCs): level 8/50, unconscious" in english(ended.text)


def test_json_round_trip_mid_window() -> None:
    c = duel(knife("Ana"), knife("Goon", npc=True))
    c, _ = run(c, Attack(fighter="Ana", target="Goon"), actor=P1, now=1000.0)
    text = c.model_dump_json()
    again = Combat.model_validate_json(text)
    assert again == c and again.waiting_for()[0].deadline == 1045.0
    cmd = command_adapter.validate_json(
        command_adapter.dump_json(React(fighter="Goon", reaction="defend"))
    )
    c2, _ = run(again, cmd, [3, 4, 4, 1, 6, 1, 3, 2])
    assert c2.attack is None
