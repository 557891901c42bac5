"""Counterattack (004 "Counterattack"): in reaction to a melee Attack in the same area, an
attack of one's own, rolled with the attack; both may hit.

An Attack made with an item whose ability says it cannot be counterattacked (2H Melee) offers
no Counterattack. A Counterattack may be less-lethal (004 "Less-lethal"): with any melee weapon
(or bare hands), or with a ranged weapon and a less-lethal ammo slot."""

from __future__ import annotations

from engine.catalog import Action, Rules
from engine.combat.abilities.hooks import counterable
from engine.combat.context import Context
from engine.combat.damage import new_hit
from engine.combat.model import (
    AttackAction,
    Combat,
    EventKind,
    Fighter,
    Hit,
    RollState,
    Weapon,
)
from engine.combat.weapons import UNARMED, ammo_problem, in_range, weapons

__all__ = ["counter_hits", "counter_weapon", "counter_weapons"]


def counter_weapons(
    c: Combat, f: Fighter, t: Fighter, weapon: Weapon, rules: Rules, lethal: bool = True
) -> list[Weapon]:
    """What ``t`` could counterattack ``f``'s attack with: same area, weapon effective at 0,
    and ammo of the sort the damage needs (``lethal`` or not)."""
    if c.game_map().range(f.area, t.area) != 0:
        return []
    if not counterable(f.character, weapon):
        return []
    return [
        w
        for w in weapons(t, rules, Action.COUNTERATTACK)
        if in_range(w, 0, rules)
        and (w.kind == UNARMED or ammo_problem(t, rules.items.kind(w.kind), lethal, rules) is None)
    ]


def counter_weapon(
    c: Combat, f: Fighter, t: Fighter, weapon: Weapon, rules: Rules, lethal: bool = True
) -> Weapon | None:
    options = counter_weapons(c, f, t, weapon, rules, lethal)
    return options[0] if options else None


def counter_hits(c: Combat, a: AttackAction, counter: RollState, ctx: Context) -> list[Hit]:
    """The counterattack's own hit, when its roll succeeds (lethal or not as the reactor
    chose: ``new_hit`` reads it from the reactor)."""
    cr = counter.roll.result
    r = c.fighter(counter.fighter)
    reactor = next(x for x in a.reactors if x.fighter == r.key)
    weapon = reactor.weapon or Weapon(name=UNARMED, kind=UNARMED)
    if cr.success:
        return [new_hit(c, a, r.key, a.attacker, cr, weapon, "counterattack", ctx)]
    ctx.emit(EventKind.MISS, f"{r.name}'s counterattack misses.", r.key)
    return []
