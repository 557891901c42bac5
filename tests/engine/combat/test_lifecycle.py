"""The lifecycle (``engine.combat.lifecycle``, folded by ``engine.combat.effects``): an action's
start and end, a turn's end, a round's end, run by the machine for every registered rule and
lasting effect, not by the action handlers. A new lasting effect is one class; and RULINGS 23:
a Demolish on a hidden fighter's area ends Stealth at once."""

from __future__ import annotations

import pytest

from engine.combat import AoE, Attack, Combat, Direct, Done, Move, React
from engine.combat import effects as effects_module
from engine.combat.action_kinds import ActionEnd, ActionKind, ActionStart
from engine.combat.board import render_board
from engine.combat.context import Context
from engine.combat.lifecycle import Lifecycle
from engine.combat.model import EventKind
from tests.engine.abilities.test_aoe import grenadier
from tests.engine.abilities.test_leader import direct_fight
from tests.engine.combat.helpers import (
    P1,
    P2,
    RULES,
    begin,
    duel,
    go,
    knife,
    pistol,
    run,
    setup,
    texts,
)


class Tripwire(Lifecycle):
    """A lasting effect no handler knows of: it says every start and end it sees, and at a
    round's end it takes the actions of everyone who started one."""

    def __init__(self) -> None:
        self.started: set[str] = set()

    def on_action_start(self, c: Combat, start: ActionStart, ctx: Context) -> Combat:
        self.started.add(start.fighter)
        ctx.emit(EventKind.AOE_EFFECT, f"Tripwire: {start.fighter} starts {start.kind}.")
        return c

    def on_action_end(self, c: Combat, end: ActionEnd, ctx: Context) -> Combat:
        ctx.emit(EventKind.AOE_EFFECT, f"Tripwire: {end.fighter}'s {end.kind} is over.")
        return c

    def on_turn_end(self, c: Combat, team: str, ctx: Context) -> Combat:
        ctx.emit(EventKind.AOE_EFFECT, f"Tripwire: {team}'s turn ends.")
        return c

    def on_round_end(self, c: Combat, ctx: Context) -> Combat:
        lose = {f.key: f.model_copy(update={"lose_next": 1}) for f in c.fighters
                if f.key in self.started}
        return c.model_copy(update={"fighters": tuple(lose.get(f.key, f) for f in c.fighters)})


@pytest.fixture
def tripwire(monkeypatch: pytest.MonkeyPatch) -> Tripwire:
    wire = Tripwire()
    monkeypatch.setattr(effects_module, "EFFECTS", [*effects_module.EFFECTS, wire])
    return wire


def test_a_new_lasting_effect_is_one_class_the_machine_runs_around_every_action(
        tripwire: Tripwire) -> None:
    c = duel(knife("Ana"), knife("Goon", npc=True))
    c, events = run(c, Attack(fighter="Ana", target="Goon"), actor=P1)
    said = texts(events)
    assert said[0] == "Ana attacks Goon with Knife."
    assert said[-1] == "Tripwire: ana starts attack."  # once the handler declared it
    c, events = run(c, React(fighter="Goon", reaction="pass"), [7, 2])  # a miss
    # its step left the stack; then the PCs, with no action left, end their turn
    assert texts(events)[-3:] == ["Tripwire: ana's attack is over.",
                                  "Tripwire: PCs's turn ends.", "Turn: NPCs."]
    c, events = run(c, Done(), [3, 2, 6, 1])  # the round ends: its round-end hook runs
    assert "Tripwire: NPCs's turn ends." in texts(events)
    assert "Ana loses this round's action." in texts(events)
    assert c.fighter("ana").actions == 0 and c.fighter("goon").actions == 1


def test_a_reaction_starts_an_action_and_ends_with_the_one_it_answers(
        tripwire: Tripwire) -> None:
    c = duel(knife("Ana"), knife("Goon", npc=True))
    c = go(c, Attack(fighter="Ana", target="Goon"), actor=P1)
    c, events = run(c, React(fighter="Goon", reaction="defend"),
                    [7, 2, 4, 1, 3, 2, 6, 1])  # then round 2's initiative
    said = texts(events)
    assert said.index("Tripwire: goon starts defend.") < said.index(
        "Tripwire: ana's attack is over.")
    assert "Tripwire: goon's defend is over." not in said


def test_an_action_with_no_step_ends_as_it_starts_and_a_free_one_is_paid_by_its_rule(
        tripwire: Tripwire) -> None:
    c, events = run(direct_fight(), Direct(fighter="Kit", target="Ana"), actor=P2)
    assert texts(events)[1:] == ["Tripwire: kit starts direct.", "Tripwire: kit's direct is over."]
    c, events = run(c, Move(fighter="Ana", to="Bar"), actor=P1)
    assert texts(events)[:2] == ["Ana acts on Kit's direction, keeping their own action.",
                                 "Ana moves from Dance Floor to Bar."]
    assert texts(events)[-1] == "Tripwire: ana starts move."
    ana = c.fighter("ana")
    assert (ana.actions, ana.directed, ana.directed_by) == (1, None, "kit")


def _demolisher() -> Combat:
    """Ana (Stealth) hidden at the bar; Goon, on the dance floor, holds a Demolish charge;
    the NPCs act first."""
    c = setup(
        (pistol("Ana", abilities=("stealth.hide",)), "Bar", 100),
        (pistol("Cy"), "Alley", 200),
        (grenadier("Goon", "aoe.demolish", npc=True), "Dance Floor", None),
        (knife("Rat", npc=True), "Catwalk", None),
    )
    c = begin(c, [6, 1, 3, 2], "NPCs")
    assert c.fighter("ana").hidden and c.acting_team == "NPCs"
    return c


def test_rulings_23_a_demolish_on_a_hidden_fighters_area_ends_stealth_at_once() -> None:
    c, events = run(_demolisher(), AoE(fighter="Goon", area="Bar"), [3, 4])
    assert texts(events)[-2:] == [
        "Demolished: no cover at Bar for the rest of the fight (Goon).",
        "Ana is no longer hidden (Demolish).",
    ]
    assert not c.fighter("ana").hidden
    assert "Ana [PCs] Bar 50/50 a1\n" in render_board(c, rules=RULES)


def test_a_failed_demolish_or_one_on_another_area_leaves_stealth_alone() -> None:
    c, events = run(_demolisher(), AoE(fighter="Goon", area="Bar"), [8, 9])
    assert "Ana is no longer hidden (Demolish)." not in texts(events)
    assert c.fighter("ana").hidden
    c, events = run(_demolisher(), AoE(fighter="Goon", area="Dance Floor"), [3, 4])
    assert "Demolished: no cover at Dance Floor for the rest of the fight (Goon)." in texts(
        events)
    assert c.fighter("ana").hidden


def test_rulings_23_stealth_comes_back_only_after_a_move_into_an_area_without_enemies() -> None:
    c = go(_demolisher(), AoE(fighter="Goon", area="Bar"), [3, 4])
    c = go(c, Done())  # the NPCs are done: the PCs' turn, Ana still not hidden
    assert c.acting_team == "PCs" and not c.fighter("ana").hidden
    c, events = run(c, Move(fighter="Ana", to="Kitchen"), actor=P1)
    assert texts(events)[-1] == "Ana is hidden again (Stealth)."
    assert c.fighter("ana").hidden and c.fighter("ana").area == "Kitchen"


def test_action_kinds_name_every_reaction_a_window_takes() -> None:
    assert {ActionKind(r) for r in ("defend", "counterattack", "intercept")} == {
        ActionKind.DEFEND, ActionKind.COUNTERATTACK, ActionKind.INTERCEPT}
