"""Stealth in play (004 "Abilities": Stealth; RULINGS 9, 12, 23): who is hidden, and when it
is lost and regained.

``Fighter.hidden`` says that Stealth holds: set when a fighter with Stealth joins, cleared as
soon as it starts a Move, an Attack (an AoE is one) or an Intercept (``StealthLost``), or when a
Demolish destroys the cover of its area (``DemolishEndsStealth``, RULINGS 23: "including losing
stealth due to Demolish"), set again after a Move action that ends in an area without enemies
(even one it was in before: ``StealthRegained``), and only then. Its mark counts only while no
enemy is in the fighter's area ("While in an area without enemies"): an enemy walking in
suspends it, and it counts again once they leave. An enemy is a fighter of another team who can
act (an unconscious, surrendered or dead one sees nothing). Unconscious, "none of your abilities
have an effect". The mark counts only from the other end (RULINGS 9): the hidden fighter's
own sight is never cut by it, and it is lost before its own Attack or Intercept anyway.

The three are lifecycle effects (``engine.combat.lifecycle``), registered in
``engine.combat.effects.EFFECTS``: no action handler asks for them. An AoE still reaches a
hidden character's area ("Neither cover nor shields apply to AoEs").
"""

from __future__ import annotations

from engine.catalog import Rules
from engine.combat.abilities.hooks import hides
from engine.combat.action_kinds import ActionEnd, ActionKind, ActionStart
from engine.combat.context import Context
from engine.combat.fighters import can_act, put
from engine.combat.lifecycle import Lifecycle
from engine.combat.model import Combat, EventKind, Fighter
from engine.combat.step_values import AoEAction
from engine.phrases import phrase

__all__ = [
    "DemolishEndsStealth", "StealthLost", "StealthRegained", "enemies_in", "hidden",
    "regain_stealth",
]

#: "You lose this effect as soon as you start a Move, Attack or Intercept action."
_LOSES = frozenset({ActionKind.ATTACK, ActionKind.AOE, ActionKind.MOVE, ActionKind.INTERCEPT})


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


def _lose(c: Combat, f: Fighter, ctx: Context) -> tuple[Combat, bool]:
    """``f`` without Stealth, and whether it counted (then the loss is said)."""
    counted = hidden(c, f, ctx.rules)
    return put(c, f.model_copy(update={"hidden": False})), counted


class StealthLost(Lifecycle):
    """Starting a Move, Attack or Intercept loses Stealth, said with the declaration (when it
    counted)."""

    def on_action_start(self, c: Combat, start: ActionStart, ctx: Context) -> Combat:
        f = c.fighter(start.fighter)
        if start.kind not in _LOSES or not f.hidden:
            return c
        c, counted = _lose(c, f, ctx)
        if counted:
            ctx.say_with_declaration(start, EventKind.STEALTH,
                                     phrase("{name} is no longer hidden.", name=f.name), f.key)
        return c


class StealthRegained(Lifecycle):
    """A Move action over: Stealth comes back when the area has no enemies."""

    def on_action_end(self, c: Combat, end: ActionEnd, ctx: Context) -> Combat:
        return regain_stealth(c, end.fighter, ctx) if end.kind is ActionKind.MOVE else c


class DemolishEndsStealth(Lifecycle):
    """RULINGS 23: a successful Demolish on an area ends the Stealth of everyone hidden there
    at once (it comes back only after a Move, ``StealthRegained``)."""

    def on_action_end(self, c: Combat, end: ActionEnd, ctx: Context) -> Combat:
        a = end.step
        if not (isinstance(a, AoEAction) and a.variety == "demolish"
                and a.roll.roll.result.success):
            return c
        for f in c.fighters:
            if f.hidden and f.area == a.area:
                c, counted = _lose(c, f, ctx)
                if counted:
                    ctx.emit(EventKind.STEALTH, phrase("{name} is no longer hidden (Demolish).",
                                                           name=f.name), f.key)
        return c


def regain_stealth(c: Combat, key: str, ctx: Context) -> Combat:
    """``key``'s Move action is over: Stealth comes back when the area has no enemies."""
    f = c.fighter(key)
    if f.hidden or not hides(f.character) or not can_act(f, ctx.rules):
        return c
    if enemies_in(c, f, f.area, ctx.rules):
        return c
    ctx.emit(EventKind.STEALTH, phrase("{name} is hidden again (Stealth).", name=f.name), f.key)
    return put(c, f.model_copy(update={"hidden": True}))
