"""004 "Actions": the step stack (an Intercept above its Move), old stored fights, prompts."""

from __future__ import annotations

import json

from engine.combat import ChooseDice, Combat, Phase, PromptKind, React
from engine.combat.prompts import SPECS
from engine.combat.step_values import AttackAction, MoveAction
from engine.phrases import english
from tests.engine.combat.helpers import go, kinds, move_window, run


def _intercepting() -> Combat:
    c = go(move_window(), React(fighter="Goon", reaction="intercept"))
    return go(c, React(fighter="Rat", reaction="pass"), [2, 3])  # Goon hits with 23


def test_an_intercept_stands_above_its_move() -> None:
    c = _intercepting()
    assert [type(s) for s in c.steps] == [MoveAction, AttackAction]
    assert c.attack is not None and c.attack.intercept and c.move is not None
    assert c.move.intercepting == "goon" and c.phase is Phase.RESOLUTION
    assert kinds(c) == [(PromptKind.CHOOSE_DICE, "goon")]
    c, events = run(c, ChooseDice(fighter="Goon", damage="ones"))  # 3 damage to location 2
    assert c.steps == () and c.phase is Phase.TURN
    assert c.fighter("ana").area == "Bar"
    assert english(events[-1].text) == "Ana is now in Bar."


def _old_shape(c: Combat) -> dict[str, object]:
    """``c`` as a fight was stored before the step stack."""
    doc = json.loads(c.model_dump_json())
    steps = doc.pop("steps")
    doc["schema_version"] = 1
    doc["moving"] = doc["pending"] = doc["aid"] = None
    for step in steps:
        kind = step["kind"]
        if kind == "move":
            step.pop("intercepting")
            doc["moving"] = step
        elif kind == "attack":
            doc["pending"] = step
        else:
            doc["aid"] = step
    return doc


def test_a_fight_stored_before_the_step_stack_loads_and_plays_on() -> None:
    c = _intercepting()
    old = _old_shape(c)
    assert "steps" not in old and old["pending"] and old["moving"]
    loaded = Combat.model_validate(old)
    assert loaded == c
    resumed = go(loaded, ChooseDice(fighter="Goon", damage="ones"))
    assert resumed == go(c, ChooseDice(fighter="Goon", damage="ones"))
    window = move_window()
    assert Combat.model_validate(_old_shape(window)) == window
    assert Combat.model_validate(_old_shape(window)).phase is Phase.REACTION


def test_every_prompt_kind_has_a_spec_with_labels_and_a_command() -> None:
    assert set(SPECS) == set(PromptKind)
    for kind, spec in SPECS.items():
        assert spec.verb and spec.waiting and spec.question, kind
    assert english(SPECS[PromptKind.CHOOSE_DICE].label("ones", (2, 3))) == "3 damage · location 2"
    assert english(SPECS[PromptKind.STOP_AREA].label("Bar")) == "Stop in Bar"
    assert SPECS[PromptKind.REACT].command("intercept", "goon") == React(
        fighter="goon", reaction="intercept")


def test_a_move_without_interceptors_never_stays_on_the_stack() -> None:
    c = go(move_window(), React(fighter="Goon", reaction="pass"))
    c = go(c, React(fighter="Rat", reaction="pass"))
    assert c.steps == () and c.fighter("ana").area == "Bar" and c.phase is Phase.TURN
