"""Defend (004 "Defend"): in reaction to an Attack, an opposed roll; the attack is stopped when
the defender's roll beats the attacker's (RULINGS 6: the highest success wins, a PC wins a tie
against an NPC, and any other tie stops nothing). The defender is the target, or someone who
defends the target for them (Shield: Defend another character)."""

from __future__ import annotations

from engine.combat.context import Context
from engine.combat.damage import new_hit
from engine.combat.fighters import side
from engine.combat.model import Combat, EventKind
from engine.combat.step_values import AttackAction, Hit, RollState
from engine.dice import opposed
from engine.phrases import phrase

__all__ = ["defended_hits"]


def defended_hits(c: Combat, a: AttackAction, defend: RollState, ctx: Context) -> list[Hit]:
    """The attack's hit, unless the Defend stops it. The sentence says why, tie or not."""
    f = c.fighter(a.attacker)
    att = a.rolls[0].roll.result
    d = defend.roll.result
    r = c.fighter(defend.fighter)
    winner = opposed(att, d, a_side=side(f), b_side=side(r))
    if not att.success:
        ctx.emit(EventKind.MISS, phrase("{name}'s attack misses.", name=f.name), f.key)
        return []
    tie = d.success and d.value == att.value
    if winner == 1:
        if tie:
            text = phrase("{name}'s Defend ({defend}) ties {attack} and a PC wins a tie against "
                          "an NPC: the attack misses.", name=r.name, defend=d.value,
                          attack=att.value)
        else:
            text = phrase("{name}'s Defend ({defend}) beats {attack}: the attack misses.",
                          name=r.name, defend=d.value, attack=att.value)
        ctx.emit(EventKind.DEFENDED, text, r.key)
        return []
    if not d.success:
        ctx.emit(EventKind.DEFEND_FAILED, phrase("{name}'s Defend fails.", name=r.name), r.key)
    elif winner == 0:
        if tie:
            text = phrase("{attack} ties {name}'s Defend ({defend}) and a PC wins a tie against "
                          "an NPC: the attack is not stopped.", name=r.name, defend=d.value,
                          attack=att.value)
        else:
            text = phrase("{attack} beats {name}'s Defend ({defend}): the attack is not "
                          "stopped.", name=r.name, defend=d.value, attack=att.value)
        ctx.emit(EventKind.DEFEND_FAILED, text, r.key)
    else:  # a tie between two PCs or two NPCs: a win for nobody, so nothing is stopped
        ctx.emit(
            EventKind.DEFEND_FAILED,
            phrase("{name}'s Defend ({defend}) only ties {attack}, and a tie stops nothing: "
                   "the attack is not stopped.", name=r.name, defend=d.value, attack=att.value),
            r.key,
        )
    return [new_hit(c, a, f.key, a.target, att, a.weapon, "attack", ctx)]
