"""The hook points: where the engine asks what a fighter's abilities say, each folded one way.

| hook | fold | asked by |
|---|---|---|
| ``roll_modifiers`` | union of the data's modifier rows | every roll's spec (``roll_spec``) |
| ``roll_limits`` | union | every roll's spec (All-Out Defend: a Defend not good, not critical) |
| ``marks_to_block`` | max, default 2 | line of sight of an Attack |
| ``counterable`` | all | the Counterattack offer |
| ``extra_weapons`` | union | the weapons a fighter has, per action |
| ``may_defend`` | a veto wins, else any | who may Defend another character who is attacked |
| ``free_defend`` | any | whether a Defend spends an action |
| ``act_problem`` | the first reason | every action a fighter takes (act or react) |
| ``board_words`` | all | the fighter's line on the board |
| ``critical_options`` | the book's two, then the union | a critical success of an attack roll |
| ``critical_extras`` | union | a critical success of an attack roll, once its choice is made |
| ``sure_success`` | any | declaring First Aid |
| ``moves_twice`` | any | a Move with a second step (Speed) |
| ``hides`` | any | who can be hidden (Stealth) |
| ``stops_mover`` | any | a successful Intercept that fills no leg (Unarmed) |
| ``rolls_initiative_for_higher`` | any | who may roll a team's initiative |
| ``rallies`` | any | Rally |
| ``directs`` | any | Direct |
| ``initiative_direct_actions`` | sum | a successful initiative roll |
| ``action_cost`` | min, default 1; every rule is asked | every action |
| ``pay_instead`` | the first that pays; every rule is asked | an action ``action_cost`` made free |
| ``aoe_variety`` | the one rule of the item's ability | an AoE attack (the item names it) |

The lifecycle hooks (``on_action_start``, ``on_action_end``, ``on_turn_end``, ``on_round_end``:
``engine.combat.lifecycle``) are folded in order over every rule here and every lasting effect
by ``engine.combat.effects``, which the machine runs.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.catalog import Action, Hand, RollModifier, Rules
from engine.character import Character
from engine.combat.abilities import REGISTRY, AbilityRule
from engine.combat.abilities.rule import RollLimit
from engine.combat.model import Combat, Fighter
from engine.combat.step_values import Weapon
from engine.errors import RuleError
from engine.phrases import Said

if TYPE_CHECKING:
    from engine.combat.context import Context

__all__ = [
    "CRITICAL_OPTIONS", "act_problem", "action_cost", "aoe_variety", "board_words", "counterable",
    "critical_extras", "critical_options", "directs", "extra_weapons", "free_defend",
    "hides", "initiative_direct_actions", "marks_to_block", "may_defend",
    "moves_twice", "pay_instead", "rallies", "roll_limits", "roll_modifiers",
    "rolls_initiative_for_higher", "stops_mover", "sure_success",
]

MARKS_TO_BLOCK = 2  # RULINGS 9
#: A critical success's options in the book (004 "Critical rolls"; RULINGS 5).
CRITICAL_OPTIONS: tuple[str, ...] = ("extra_action", "adjust")


def _rules(c: Character) -> list[AbilityRule]:
    return [REGISTRY[a] for a in c.abilities if a in REGISTRY]


def roll_modifiers(
    c: Character, rules: Rules, action: Action, item: str | None
) -> frozenset[RollModifier]:
    """What the character's abilities give a roll for ``action`` with an item of kind ``item``
    (the good / precise / powerful rows of ``data/abilities.toml``)."""
    found: set[RollModifier] = set()
    for ability_id in c.abilities:
        try:
            ability = rules.abilities.ability(ability_id)
        except RuleError:
            continue
        if ability.modifier is not None and action in ability.actions and ability.item == item:
            found.add(ability.modifier)
    return frozenset(found)


def roll_limits(f: Fighter, action: Action) -> frozenset[RollLimit]:
    """What ``f``'s roll for ``action`` may not be, whatever the modifier rows give it."""
    found: set[RollLimit] = set()
    for r in _rules(f.character):
        found |= r.roll_limits(f, action)
    return frozenset(found)


def marks_to_block(c: Character, weapon: Weapon) -> int:
    """Cover marks that block line of sight for ``c``'s Attack with ``weapon``."""
    return max(
        [MARKS_TO_BLOCK, *(m for r in _rules(c) if (m := r.marks_to_block(weapon)) is not None)]
    )


def counterable(c: Character, weapon: Weapon) -> bool:
    """Whether ``c``'s Attack with ``weapon`` may be counterattacked."""
    return all(r.counterable(weapon) for r in _rules(c))


def extra_weapons(
    c: Character, rules: Rules, usable: tuple[Hand, ...], action: Action = Action.ATTACK
) -> tuple[Weapon, ...]:
    """Weapons ``c``'s abilities give for ``action`` besides the weapons in hand."""
    return tuple(w for r in _rules(c) for w in r.weapons(c, rules, usable, action))


def may_defend(c: Combat, g: Fighter, t: Fighter, rules: Rules) -> bool:
    """Whether ``g`` may Defend ``t``, another character who is attacked: some rule of
    ``g``'s lets them, and none forbids it."""
    verdicts = [r.may_defend(c, g, t, rules) for r in _rules(g.character)]
    return False not in verdicts and True in verdicts


def free_defend(f: Fighter, t: Fighter) -> bool:
    """Whether ``f``'s Defend of ``t`` spends no action."""
    return any(r.free_defend(f, t) for r in _rules(f.character))


def act_problem(f: Fighter) -> Said | None:
    """Why ``f``'s abilities keep them from taking an action now, if they do."""
    return next((p for r in _rules(f.character) if (p := r.act_problem(f)) is not None), None)


def board_words(f: Fighter) -> tuple[Said, ...]:
    """Words the board shows after ``f`` (declarations in force)."""
    return tuple(w for r in _rules(f.character) if (w := r.board_word(f)) is not None)


def critical_options(c: Character, action: Action, weapon: Weapon) -> tuple[str, ...]:
    """What ``c`` may choose on a critical success of ``action`` with ``weapon``: the book's
    extra action or adjustment, then what the abilities add (in a stable order)."""
    found: set[str] = set()
    for r in _rules(c):
        found |= r.critical_options(action, weapon)
    return (*CRITICAL_OPTIONS, *sorted(found - set(CRITICAL_OPTIONS)))


def critical_extras(c: Character, action: Action, weapon: Weapon) -> frozenset[str]:
    """What a critical success of ``c``'s ``action`` with ``weapon`` gives besides its choice."""
    found: set[str] = set()
    for r in _rules(c):
        found |= r.critical_extras(action, weapon)
    return frozenset(found)


def sure_success(c: Character, action: Action) -> bool:
    """Whether ``c`` may take a sure success instead of rolling for ``action``."""
    return any(r.sure_success(action) for r in _rules(c))


def moves_twice(c: Character) -> bool:
    """Whether ``c`` may roll to Move twice in one action."""
    return any(r.moves_twice() for r in _rules(c))


def hides(c: Character) -> bool:
    """Whether ``c`` can be hidden (one more cover mark at its own area)."""
    return any(r.hides() for r in _rules(c))


def stops_mover(c: Character, weapon: Weapon, rules: Rules) -> bool:
    """Whether ``c``'s successful Intercept with ``weapon`` may stop the mover whatever it
    hit."""
    return any(r.stops_mover(c, weapon, rules) for r in _rules(c))


def rolls_initiative_for_higher(c: Character) -> bool:
    """Whether a teammate of higher level may let ``c`` roll the team's initiative."""
    return any(r.rolls_initiative_for_higher() for r in _rules(c))


def rallies(c: Character) -> bool:
    """Whether ``c`` may use an action to rally the team."""
    return any(r.rallies() for r in _rules(c))


def directs(c: Character) -> bool:
    """Whether ``c`` may use an action to direct a teammate."""
    return any(r.directs() for r in _rules(c))


def initiative_direct_actions(c: Character) -> int:
    """Actions that can only direct, which ``c`` gains on a successful initiative roll."""
    return sum(r.initiative_direct_actions() for r in _rules(c))


def action_cost(f: Fighter) -> int:
    """How many of ``f``'s own actions ``f``'s next action spends (1 unless a rule says less).
    Every registered rule is asked, not only ``f``'s: what makes an action cheaper may be a
    mark another fighter's ability left on ``f`` (a leader's direction)."""
    return min([1, *(m for r in REGISTRY.values() if (m := r.action_cost(f)) is not None)])


def pay_instead(f: Fighter, ctx: Context) -> Fighter:
    """``f`` spending an action that costs none of their own: the first rule that made it free
    takes what paid for it (every registered rule is asked, as for ``action_cost``); when none
    does, one of ``f``'s own actions."""
    paid = (p for r in REGISTRY.values() if (p := r.pay_instead(f, ctx)) is not None)
    return next(paid, f.model_copy(update={"actions": f.actions - 1}))


def aoe_variety(c: Character, ability_id: str) -> str | None:
    """The variety an AoE item made for ``ability_id`` attacks with, when ``c`` has that
    ability and it is in play (None otherwise)."""
    if ability_id not in c.abilities or ability_id not in REGISTRY:
        return None
    return REGISTRY[ability_id].aoe_variety()
