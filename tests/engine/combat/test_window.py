"""The one reaction window (``engine.combat.actions.window``): who may react to an Attack, a
Move and a Blast (``reactors``), the one place its deadline is set (``open_window``), the
answers (``react``: a Blast's Defend is one) and the closing (``close_window``), the same for
the three kinds of step."""

from __future__ import annotations

import pytest

from engine.combat import AoE, AoEChoice, Attack, CloseWindow, Combat, PromptKind, React
from engine.combat.actions.window import open_window, reactors, window_step
from engine.combat.context import Context
from engine.combat.step_values import AoEAction, AttackAction, MoveAction, Reactor
from engine.dice import ScriptedDice
from engine.phrases import english
from tests.engine.abilities.test_aoe import grenadier
from tests.engine.combat.helpers import (
    GM,
    P1,
    P2,
    RULES,
    begin,
    duel,
    go,
    kinds,
    knife,
    move_window,
    refused,
    run,
    setup,
    texts,
)


def _attack_window() -> Combat:
    """Ana (P1's) attacks Bo (an NPC) with a knife in the Entrance: Bo may defend or counter."""
    c = go(duel(knife("Ana"), knife("Bo", npc=True)), Attack(fighter="Ana", target="Bo"), actor=P1)
    assert kinds(c) == [(PromptKind.REACT, "bo")]
    return c


def blast_fight() -> Combat:
    """You (P1's, Blast) in the Entrance; Goon, Rat and Moe (NPCs) and Cy (P2's) on the dance
    floor; the PCs act first."""
    return begin(setup(
        (grenadier(), "Entrance", 100),
        (knife("Cy"), "Dance Floor", 200),
        (knife("Goon", level=60, npc=True), "Dance Floor", None),
        (knife("Rat", npc=True), "Dance Floor", None),
        (knife("Moe", npc=True), "Dance Floor", None),
    ), [3, 2, 6, 1], "PCs")


def _blast_window() -> Combat:
    """You's Blast takes Goon, Rat and Moe, each asked to Defend."""
    c = go(blast_fight(), AoE(fighter="You", area="Dance Floor"), [4, 2], actor=P1)
    c = go(c, AoEChoice(fighter="You", option="tens"), actor=P1)
    assert kinds(c) == [(PromptKind.AOE_DEFEND, k) for k in ("goon", "rat", "moe")]
    return c


WINDOWS = {"attack": _attack_window, "move": move_window, "blast": _blast_window}


def _ctx(now: float) -> Context:
    return Context(actor=GM, dice=ScriptedDice([]), rules=RULES, now=now)


def test_reactors_answers_for_an_attack_a_move_and_a_blast() -> None:
    a = _attack_window()
    assert isinstance(a.step, AttackAction)
    assert [(r.fighter, r.options) for r in reactors(a, a.step, RULES)] == [
        ("bo", ("defend", "counterattack"))]
    m = move_window()
    assert isinstance(m.step, MoveAction)
    assert [(r.fighter, r.options) for r in reactors(m, m.step, RULES)] == [
        ("goon", ("intercept",)), ("rat", ("intercept",))]
    b = _blast_window()
    assert isinstance(b.step, AoEAction)
    assert reactors(b, b.step, RULES) == tuple(
        Reactor(fighter=k, options=("defend",)) for k in ("goon", "rat", "moe"))


@pytest.mark.parametrize("kind", sorted(WINDOWS))
def test_every_window_gets_its_deadline_and_closes_at_it_the_same_way(kind: str) -> None:
    c = WINDOWS[kind]()
    assert window_step(c) is c.step
    assert {p.deadline for p in c.waiting_for()} == {45.0}
    refused(c, CloseWindow(by_timeout=True), "still open for 15 more seconds", now=30)
    faces = [4, 2] if kind == "attack" else []  # only the attacker rolls once all pass
    c, events = run(c, CloseWindow(by_timeout=True), faces, now=45)
    assert texts(events)[0] in ("The reaction window closes: time is up.",
                                "The chance to Defend against the blast closes: time is up.")
    assert window_step(c) is None
    assert all(p.deadline is None for p in c.waiting_for())
    assert all(p.kind not in (PromptKind.REACT, PromptKind.AOE_DEFEND) for p in c.waiting_for())


def test_a_window_opened_again_gets_its_full_time_and_asks_only_who_has_not_answered() -> None:
    c = go(_blast_window(), AoEChoice(fighter="Goon", option="pass"))
    ctx = _ctx(now=30)
    again = open_window(c, ctx, again=True)
    assert isinstance(again.step, AoEAction)
    assert again.step.deadline == 75.0
    assert [english(e.text) for e in ctx.events] == [
        "Rat and Moe may Defend against the blast (spending an action) or take the damage "
        "(within 45 seconds)."]


def test_a_typed_reaction_answers_a_blast_as_its_button_does() -> None:
    c = _blast_window()
    by_button, button_events = run(c, AoEChoice(fighter="Goon", option="defend"))
    by_command, command_events = run(c, React(fighter="Goon", reaction="defend"))
    assert by_command == by_button and command_events == button_events
    assert texts(command_events) == ["Goon defends against the blast."]
    refused(c, React(fighter="Goon", reaction="counterattack"),
            "AoEs cannot be Counterattacked")
    refused(c, React(fighter="Cy", reaction="defend"),
            "Cy is not asked to Defend against the blast", actor=P2)
    refused(c, React(fighter="Goon", reaction="defend", target="Rat"),
            "Against a blast, Goon can only defend themselves")


def test_no_window_is_open_while_the_blast_user_chooses_the_dice() -> None:
    c = go(blast_fight(), AoE(fighter="You", area="Dance Floor"), [4, 2], actor=P1)
    assert window_step(c) is None
    refused(c, React(fighter="Goon", reaction="defend"), "being resolved")
