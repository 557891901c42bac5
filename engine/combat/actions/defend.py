"""Defend (004 "Defend"): in reaction to an Attack, an opposed roll; the attack is stopped when
the defender's roll beats the attacker's (RULINGS 2: a tie goes to the PC against an NPC)."""

from __future__ import annotations

from engine.combat.context import Context
from engine.combat.damage import new_hit
from engine.combat.fighters import side
from engine.combat.model import AttackAction, Combat, EventKind, Hit
from engine.dice import opposed

__all__ = ["defended_hits"]


def defended_hits(c: Combat, a: AttackAction, ctx: Context) -> list[Hit]:
    """The attack's hit, unless the Defend stops it."""
    f = c.fighter(a.attacker)
    att = a.rolls[0].roll.result
    d = a.rolls[1].roll.result
    r = c.fighter(a.rolls[1].fighter)
    winner = opposed(att, d, a_side=side(f), b_side=side(r))
    if not att.success:
        ctx.emit(EventKind.MISS, f"{f.name}'s attack misses.", f.key)
        return []
    if winner == 1:
        ctx.emit(
            EventKind.DEFENDED,
            f"{r.name}'s Defend ({d.value}) beats {att.value}: the attack misses.",
            r.key,
        )
        return []
    if d.success:
        word = "beats" if winner == 0 else "only ties"
        ctx.emit(
            EventKind.DEFEND_FAILED,
            f"{att.value} {word} {r.name}'s Defend ({d.value}): the attack is not stopped.",
            r.key,
        )
    else:
        ctx.emit(EventKind.DEFEND_FAILED, f"{r.name}'s Defend fails.", r.key)
    return [new_hit(c, a, f.key, a.target, att, a.weapon, "attack", ctx)]
