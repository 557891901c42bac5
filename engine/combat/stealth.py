"""Stealth in play (004 "Abilities": Stealth; RULINGS 9, 12): who is hidden, and when it is
lost and regained.

``Fighter.hidden`` says that Stealth holds: set when a fighter with Stealth joins, cleared as
soon as it starts a Move, an Attack or an Intercept, set again after a Move action that ends
in an area without enemies (even one it was in before). Its mark counts only while no enemy
is in the fighter's area ("While in an area without enemies"): an enemy walking in suspends
it, and it counts again once they leave. An enemy is a fighter of another team who can act
(an unconscious, surrendered or dead one sees nothing). Unconscious, "none of your abilities
have an effect". The mark counts only from the other end (RULINGS 9): the hidden fighter's
own sight is never cut by it, and it is lost before its own Attack or Intercept anyway.

AoE is not in play yet: an AoE still reaches a hidden character's area, and Demolish would
take the mark away (the GM resolves both, ``/combat set hidden:``).
"""

from __future__ import annotations

from engine.catalog import Rules
from engine.combat.abilities.hooks import hides
from engine.combat.context import Context
from engine.combat.fighters import can_act, put
from engine.combat.model import Combat, EventKind, Fighter

__all__ = ["enemies_in", "hidden", "lose_stealth", "regain_stealth"]


def enemies_in(c: Combat, f: Fighter, area: str, rules: Rules) -> bool:
    """Whether a fighter of another team who can act is in ``area``."""
    return any(g.team != f.team and g.area == area and can_act(g, rules) for g in c.fighters)


def hidden(c: Combat, f: Fighter, rules: Rules) -> bool:
    """Whether ``f``'s Stealth mark counts now: Stealth holds, ``f`` is conscious, and no
    enemy is in its area."""
    return (
        f.hidden
        and hides(f.character)
        and can_act(f, rules)
        and not enemies_in(c, f, f.area, rules)
    )


def lose_stealth(c: Combat, key: str, ctx: Context) -> Combat:
    """``key`` starts a Move, Attack or Intercept: Stealth is lost (said when it counted)."""
    f = c.fighter(key)
    if not f.hidden:
        return c
    if hidden(c, f, ctx.rules):
        ctx.emit(EventKind.STEALTH, f"{f.name} is no longer hidden.", f.key)
    return put(c, f.model_copy(update={"hidden": False}))


def regain_stealth(c: Combat, key: str, ctx: Context) -> Combat:
    """``key``'s Move action is over: Stealth comes back when the area has no enemies."""
    f = c.fighter(key)
    if f.hidden or not hides(f.character) or not can_act(f, ctx.rules):
        return c
    if enemies_in(c, f, f.area, ctx.rules):
        return c
    ctx.emit(EventKind.STEALTH, f"{f.name} is hidden again (Stealth).", f.key)
    return put(c, f.model_copy(update={"hidden": True}))
