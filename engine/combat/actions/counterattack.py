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
from engine.combat.model import Combat, EventKind, Fighter
from engine.combat.step_values import AttackAction, Hit, RollState, Weapon
from engine.combat.weapons import UNARMED, first_each_way, in_range, weapons, with_ammo
from engine.phrases import phrase

__all__ = ["counter_choices", "counter_hits", "counter_weapons"]


def _reaching(c: Combat, f: Fighter, t: Fighter, weapon: Weapon, rules: Rules) -> list[Weapon]:
    """What ``t`` could counterattack ``f``'s attack with, ammo aside: same area, an attack
    that may be counterattacked, a weapon effective at range 0."""
    if c.game_map().range(f.area, t.area) != 0 or not counterable(f.character, weapon):
        return []
    return [w for w in weapons(t, rules, Action.COUNTERATTACK) if in_range(w, 0, rules)]


def counter_weapons(
    c: Combat, f: Fighter, t: Fighter, weapon: Weapon, rules: Rules, lethal: bool = True
) -> list[Weapon]:
    """What ``t`` could counterattack ``f``'s attack with, with ammo of the sort the damage
    needs (``lethal`` or not)."""
    return with_ammo(t, _reaching(c, f, t, weapon, rules), rules, lethal)


def counter_choices(
    c: Combat, f: Fighter, t: Fighter, weapon: Weapon, rules: Rules
) -> tuple[Weapon | None, Weapon | None]:
    """The weapon of ``t``'s lethal Counterattack and of a less-lethal one, if any."""
    return first_each_way(t, _reaching(c, f, t, weapon, rules), rules)


def counter_hits(c: Combat, a: AttackAction, counter: RollState, ctx: Context) -> list[Hit]:
    """The counterattack's own hit, when its roll succeeds (lethal or not as the reactor
    chose: ``new_hit`` reads it from the reactor)."""
    cr = counter.roll.result
    r = c.fighter(counter.fighter)
    reactor = next(x for x in a.reactors if x.fighter == r.key)
    weapon = reactor.weapon or Weapon(name=UNARMED, kind=UNARMED)
    if cr.success:
        return [new_hit(c, a, r.key, a.attacker, cr, weapon, "counterattack", ctx)]
    ctx.emit(EventKind.MISS, phrase("{name}'s counterattack misses.", name=r.name), r.key)
    return []
