"""The lifecycle's registry and its folds (``engine.combat.lifecycle``): the lasting effects
that are no fighter's ability (``EFFECTS``), and the one place the hooks of every ability rule
(``engine.combat.abilities.REGISTRY``) and every effect are run, in that order.

The machine runs ``start_actions`` after a command's handler and after each step it advances,
``action_over`` after each step it advances; ``engine.combat.rounds`` runs ``start_turn``,
``end_turn`` and ``end_round``. A new lasting effect is one ``Lifecycle`` class added to
``EFFECTS``.
"""

from __future__ import annotations

from engine.combat.abilities import REGISTRY
from engine.combat.action_kinds import STEPLESS, ActionEnd, ActionKind
from engine.combat.actions.aoe_effects import ContinuousDamage, EffectsExpire
from engine.combat.actions.direct import DirectionsLapse
from engine.combat.context import Context
from engine.combat.lifecycle import Lifecycle
from engine.combat.model import Combat
from engine.combat.pace import TurnClock
from engine.combat.stealth import DemolishEndsStealth, StealthLost, StealthRegained
from engine.combat.step_values import (
    AidAction,
    AnyStep,
    AoEAction,
    AttackAction,
    ContinuousBurn,
    MoveAction,
    RallyAction,
)

__all__ = ["EFFECTS", "action_over", "end_round", "end_turn", "start_actions", "start_turn"]

#: Lasting effects that are no fighter's ability, in the order their hooks run.
EFFECTS: list[Lifecycle] = [
    StealthLost(), ContinuousDamage(), StealthRegained(), DemolishEndsStealth(),
    DirectionsLapse(), EffectsExpire(), TurnClock(),
]


#: For each hook, everyone it was last worked out for and those of them that override it.
_HOOKED: dict[str, tuple[tuple[Lifecycle, ...], tuple[Lifecycle, ...]]] = {}


def _everyone(hook: str) -> tuple[Lifecycle, ...]:
    """The ability rules, then the effects, that override ``hook``: the others give the fight
    back as it was (worked out again whenever the rules or effects in play are others)."""
    everyone = (*REGISTRY.values(), *EFFECTS)
    kept = _HOOKED.get(hook)
    if kept is None or kept[0] != everyone:
        neutral = getattr(Lifecycle, hook)
        kept = (everyone, tuple(rule for rule in everyone
                                if getattr(type(rule), hook) is not neutral))
        _HOOKED[hook] = kept
    return kept[1]


def start_actions(c: Combat, ctx: Context) -> Combat:
    """Run ``on_action_start`` for every action started since the last run (in the order they
    were spent); an action with no step ends there and then."""
    while ctx.starts:
        start = ctx.starts[0]
        for rule in _everyone("on_action_start"):
            c = rule.on_action_start(c, start, ctx)
        ctx.starts.pop(0)
        if start.kind in STEPLESS:
            c = end_action(c, ActionEnd(fighter=start.fighter, kind=start.kind), ctx)
    return c


def end_action(c: Combat, end: ActionEnd, ctx: Context) -> Combat:
    """Run ``on_action_end`` for ``end``."""
    for rule in _everyone("on_action_end"):
        c = rule.on_action_end(c, end, ctx)
    return c


def _whose(step: AnyStep) -> tuple[str, ActionKind] | None:
    """Whose action ``step`` is, and of what kind (None: a step that is no action)."""
    if isinstance(step, AttackAction):
        return step.attacker, ActionKind.ATTACK
    if isinstance(step, MoveAction):
        return step.mover, ActionKind.MOVE
    if isinstance(step, AidAction):
        return step.treater, ActionKind.FIRST_AID
    if isinstance(step, RallyAction):
        return step.leader, ActionKind.RALLY
    if isinstance(step, AoEAction):
        return step.attacker, ActionKind.AOE
    assert isinstance(step, ContinuousBurn)
    return None


def _seq(step: AnyStep) -> int | None:
    return None if isinstance(step, ContinuousBurn) else step.seq


def action_over(c: Combat, step: AnyStep, ctx: Context) -> Combat:
    """``step`` was just advanced: when no step of its action is left on the stack (a Move's
    second step, an Intercept or a Counterattack is one of the action it answers), the action
    is over."""
    whose = _whose(step)
    if whose is None or any(_seq(s) == _seq(step) for s in c.steps):
        return c
    fighter, kind = whose
    return end_action(c, ActionEnd(fighter=fighter, kind=kind, step=step), ctx)


def start_turn(c: Combat, team: str, ctx: Context) -> Combat:
    """Run ``on_turn_start`` for ``team``'s turn."""
    for rule in _everyone("on_turn_start"):
        c = rule.on_turn_start(c, team, ctx)
    return c


def end_turn(c: Combat, team: str, ctx: Context) -> Combat:
    """Run ``on_turn_end`` for ``team``'s turn."""
    for rule in _everyone("on_turn_end"):
        c = rule.on_turn_end(c, team, ctx)
    return c


def end_round(c: Combat, ctx: Context) -> Combat:
    """Run ``on_round_end`` for the round that ends."""
    for rule in _everyone("on_round_end"):
        c = rule.on_round_end(c, ctx)
    return c
