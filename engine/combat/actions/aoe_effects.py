"""AoE effects that last (004 "Abilities": Area of Effect, its "Continuous", "Cover" and
"Demolish"): what stays on an area in ``Combat.effects`` after the AoE's step, how long it
lasts, and the damage a Continuous effect deals.

"Some AoE effects last for a specified number of full rounds: 0 ends at the end of the current
round, 1 at the end of the next round, and so on" (RULINGS 18). Cover: "that area has cover in
all directions". Demolish: "all cover in that area is destroyed" (RULINGS 13).

Continuous damage (``ContinuousDamage``, a lifecycle effect: ``engine.combat.lifecycle``):
"anyone in that area who starts an action other than Move takes that amount of damage
immediately", only the most damaging effect on the area counting. Every action started (Attack,
AoE, Door, First Aid, items, Rally, Direct, and the reactions: Defend, Counterattack, Intercept,
a Blast's Defend) is met by it once the handler has declared it and pushed its own step (if
any): ``burn`` pushes a ``ContinuousBurn`` step on top: its player places the damage with the
same AoE prompts (``AOE_PLACE``, ``AOE_ARMOR``), then the step leaves the stack and the action
below goes on where it stood. An action that has no step of its own (a Door, items) is already
done when the damage is placed. A reaction
window below the burn (a Blast's Defends too) opens again with its full time once the damage is
placed, and says so, so the others may still react (``engine.combat.actions.window``). The
effects whose last round it was end with the round (``EffectsExpire``).
"""

from __future__ import annotations

from typing import Literal

from engine.combat.action_kinds import ActionKind, ActionStart
from engine.combat.actions.aoe_damage import wound_prompts
from engine.combat.context import Context
from engine.combat.lifecycle import Lifecycle
from engine.combat.model import AreaEffect, Combat, EventKind, Prompt
from engine.combat.step_values import AoEAction, AoEWound, ContinuousBurn
from engine.combat.steps import pop, push
from engine.phrases import Phrase, phrase

__all__ = [
    "ContinuousDamage", "EffectsExpire", "add_effect", "burn", "burn_advance", "burn_prompts",
    "demolish", "effect_text", "expire",
]


def add_effect(
    c: Combat, a: AoEAction, kind: Literal["continuous", "cover"], value: int, rounds: int,
    ctx: Context,
) -> Combat:
    """The Continuous or Cover effect ``a`` leaves on its area, lasting ``rounds`` more
    rounds."""
    user = c.fighter(a.attacker)
    if kind == "continuous" and not value:
        ctx.emit(EventKind.AOE_EFFECT, phrase(
            "{fighter}'s Continuous effect does no damage (a damage die of 0): nothing lasts "
            "in {area}.", fighter=user.name, area=a.area), user.key)
        return c
    effect = AreaEffect(area=a.area, kind=kind, value=value, until=c.round + rounds,
                        by=user.name)
    ctx.emit(EventKind.AOE_EFFECT, phrase("{effect}.", effect=effect_text(effect)), user.key)
    return c.model_copy(update={"effects": (*c.effects, effect)})


def demolish(c: Combat, a: AoEAction, ctx: Context) -> Combat:
    """"All cover in that area is destroyed, regardless of whether it was created by terrain
    or ability" (RULINGS 13: every mark at its ends, for the rest of the fight; an AoE Cover
    made later stands again)."""
    user = c.fighter(a.attacker)
    effect = AreaEffect(area=a.area, kind="demolish", by=user.name)
    ctx.emit(EventKind.AOE_EFFECT, phrase("{effect}.", effect=effect_text(effect)), user.key)
    effects = tuple(e for e in c.effects if not (e.kind == "cover" and e.area == a.area))
    return c.model_copy(update={"effects": (*effects, effect)})


def effect_text(e: AreaEffect) -> Phrase:
    """One effect as the board says it: "Cover all around Bar until the end of round 3
    (Ana)"."""
    if e.kind == "demolish":
        return phrase("Demolished: no cover at {area} for the rest of the fight ({by})",
                      area=e.area, by=e.by)
    if e.kind == "continuous":
        return phrase("Continuous {damage} damage in {area} until the end of round {round} "
                      "({by})", damage=e.value, area=e.area, round=e.until or 0, by=e.by)
    return phrase("Cover all around {area} until the end of round {round} ({by})", area=e.area,
                  round=e.until or 0, by=e.by)


def expire(c: Combat, ctx: Context) -> Combat:
    """At a round's end, the effects whose last round it was end (RULINGS 18)."""
    ending = [e for e in c.effects if e.until is not None and e.until <= c.round]
    for e in ending:
        if e.kind == "continuous":
            said = phrase("Continuous damage in {area} ends ({by}).", area=e.area, by=e.by)
        else:
            said = phrase("The cover all around {area} ends ({by}).", area=e.area, by=e.by)
        ctx.emit(EventKind.AOE_EFFECT, said)
    if not ending:
        return c
    return c.model_copy(update={"effects": tuple(e for e in c.effects if e not in ending)})


class EffectsExpire(Lifecycle):
    """A round's end ends the effects whose last round it was."""

    def on_round_end(self, c: Combat, ctx: Context) -> Combat:
        return expire(c, ctx)


# -- Continuous damage -------------------------------------------------------------------------


class ContinuousDamage(Lifecycle):
    """An action other than Move started inside a Continuous effect deals its damage."""

    def on_action_start(self, c: Combat, start: ActionStart, ctx: Context) -> Combat:
        return c if start.kind is ActionKind.MOVE else burn(c, start.fighter, ctx)


def burn(c: Combat, key: str, ctx: Context) -> Combat:
    """``key`` starts an action other than Move: in an area with Continuous effects, the most
    damaging one deals its damage at once, placed by their player before the action goes on
    (a step pushed on top of the action's own)."""
    f = c.fighter(key)
    hot = [e for e in c.effects if e.kind == "continuous" and e.area == f.area and e.value > 0]
    if not hot:
        return c
    worst = max(hot, key=lambda e: e.value)
    ctx.emit(EventKind.CONTINUOUS, phrase(
        "{fighter} starts an action inside the Continuous effect in {area} ({by}) and takes "
        "{damage} damage.", fighter=f.name, area=f.area, by=worst.by, damage=worst.value), f.key)
    step = ContinuousBurn(area=f.area, by=worst.by,
                          wounds=(AoEWound(fighter=f.key, amount=worst.value),))
    return push(c, step)


def burn_advance(c: Combat, ctx: Context) -> tuple[Combat, bool]:
    """Wait until the damage is placed; then the step leaves and the action below goes on (a
    reaction window there opens again: ``engine.combat.actions.window.after_burn``)."""
    step = c.step
    assert isinstance(step, ContinuousBurn)
    if any(not w.done for w in step.wounds):
        return c, True
    return pop(c), False


def burn_prompts(c: Combat, step: ContinuousBurn) -> tuple[Prompt, ...]:
    return wound_prompts(c, step.wounds)
