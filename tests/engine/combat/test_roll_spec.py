"""The one roll spec (``engine.combat.roll_spec``): the fold that says what applies to a roll
(the modifier rows, the situation, the rules' limits), the one function that rolls it, and a
guard that nothing else in ``engine/combat`` rolls a fight's dice."""

from __future__ import annotations

import ast
from pathlib import Path

from engine.catalog import Action, RollModifier
from engine.character import Character, Item
from engine.combat.model import Fighter
from engine.combat.roll_spec import make_roll, rally_spec, roll_spec
from engine.dice import ScriptedDice
from engine.phrases import english
from tests.engine.combat.helpers import RULES

ENGINE_COMBAT = Path(__file__).resolve().parents[3] / "engine" / "combat"
#: Names whose call makes a roll (or a roll's state) from scratch.
_MAKERS = {"Roll", "RollState"}
#: ``engine.dice`` functions that roll or read dice outside a ``Roll``.
_RAW_DICE = {"roll", "check"}


def _fighter(*abilities: str, shield: bool = True, declared: tuple[str, ...] = ()) -> Fighter:
    items = (Item(name="Riot shield", kind="shield"), Item(name="Axe", kind="melee_2h"))
    ch = Character(name="Bea", level=50, max_level=70, abilities=abilities, items=items,
                   left_hand=0 if shield else None)
    return Fighter(key="bea", name="Bea", team="PCs", area="Entrance", character=ch,
                   declared=declared)


def test_the_modifier_rows_give_good_precise_powerful_with_their_reasons() -> None:
    f = _fighter("melee_2h.good_attack", "melee_2h.precise_attack", "melee_2h.powerful_attack")
    spec = roll_spec(f, RULES, Action.ATTACK, "melee_2h")
    assert spec.good and spec.precise and spec.powerful and spec.may_be_critical
    assert english(spec.applies(RULES) or "") == "good, precise, powerful (2H melee attack)"
    assert english(spec.applies(RULES, rolled=True) or "") == "precise, powerful (2H melee attack)"
    assert (spec.fighter, spec.purpose, spec.level, spec.max_level) == ("bea", "attack", 50, 70)
    other = roll_spec(f, RULES, Action.COUNTERATTACK, "melee_2h")
    assert other.modifiers == frozenset() and other.applies(RULES) is None


def test_a_defend_is_made_with_a_shield_only_in_hand_and_never_against_an_aoe() -> None:
    held = roll_spec(_fighter("shield.good_defend"), RULES, Action.DEFEND)
    assert held.item == "shield" and held.good
    assert english(held.applies(RULES) or "") == "good (shield defend)"
    stowed = roll_spec(_fighter("shield.good_defend", shield=False), RULES, Action.DEFEND)
    assert stowed.item is None and not stowed.good
    blast = roll_spec(_fighter("shield.good_defend"), RULES, Action.DEFEND, against_aoe=True)
    assert blast.item is None and not blast.good and blast.applies(RULES) is None  # RULINGS 22


def test_all_out_defend_takes_good_and_critical_from_every_defend() -> None:
    f = _fighter("shield.good_defend", "shield.all_out_defend",
                 declared=("shield.all_out_defend",))
    for against_aoe in (False, True):
        spec = roll_spec(f, RULES, Action.DEFEND, against_aoe=against_aoe)
        assert not spec.good and not spec.may_be_critical
        assert [english(limit) for limit in spec.limits] == ["not good", "cannot be critical"]
        assert spec.said("Bea defends") == "Bea defends (not good, cannot be critical)"
    attack = roll_spec(f, RULES, Action.ATTACK, "shield")
    assert attack.may_be_critical and attack.limits == ()


def test_make_roll_rolls_the_spec() -> None:
    f = _fighter("shield.good_defend", "shield.all_out_defend",
                 declared=("shield.all_out_defend",))
    plain = make_roll(roll_spec(f, RULES, Action.DEFEND), ScriptedDice([4, 4]))
    assert (plain.fighter, plain.purpose, plain.good) == ("bea", "defend", False)
    assert plain.roll.result.success and not plain.roll.result.critical_success
    good = make_roll(roll_spec(_fighter("shield.good_defend"), RULES, Action.DEFEND),
                     ScriptedDice([4, 4]))
    assert good.good and good.roll.result.critical_success
    assert good.roll.max_level == 70
    rally = make_roll(rally_spec(f), ScriptedDice([9, 9]))
    assert rally.purpose == "rally" and not rally.good and rally.roll.result.critical_failure
    assert RollModifier.GOOD not in rally_spec(f).modifiers


def _roll_makers(tree: ast.AST) -> list[str]:
    """Each place in ``tree`` that rolls or makes a roll's state from scratch."""
    found: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module == "engine.dice":
            found += [f"imports {a.name}" for a in node.names if a.name in _RAW_DICE]
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        if isinstance(func, ast.Name) and func.id in _MAKERS:
            found.append(f"{func.id}(...) at line {node.lineno}")
        if (isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name)
                and func.value.id in _MAKERS):
            found.append(f"{func.value.id}.{func.attr}(...) at line {node.lineno}")
    return found


def test_no_module_but_the_spec_rolls_a_fights_dice() -> None:
    modules = sorted(ENGINE_COMBAT.rglob("*.py"))
    assert len(modules) > 20
    bypasses = {
        str(path.relative_to(ENGINE_COMBAT)): makers
        for path in modules
        if path.name != "roll_spec.py"
        and (makers := _roll_makers(ast.parse(path.read_text(encoding="utf-8"))))
    }
    assert bypasses == {}
    spec = ast.parse((ENGINE_COMBAT / "roll_spec.py").read_text(encoding="utf-8"))
    assert _roll_makers(spec)  # the guard sees the one place that does
