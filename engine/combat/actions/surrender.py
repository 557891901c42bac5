"""Surrender (004 "Surrender"): at any moment, even out of turn. Before the dice of an action
that involves the one surrendering are rolled, that action does not take effect and every
action spent on it comes back; once they are rolled, it must be resolved first. So must
Continuous damage being placed: it was taken at once, from an AoE whose dice are rolled, and
it stands above the action that started it, which a surrender then finds as before. An
AoE's roll is made as it is declared, so its user and a Blast's targets surrender once it is
resolved (``surrender_problem``: the one query of what must be resolved first)."""

from __future__ import annotations

from engine.character import surrender as surrender_sheet
from engine.combat.actions.direct import out_of_reach
from engine.combat.commands import Surrender
from engine.combat.context import Context, require_control
from engine.combat.fighters import put, refund
from engine.combat.model import Combat, EventKind, Fighter, Phase
from engine.combat.step_values import (
    AoEAction,
    AttackAction,
    ContinuousBurn,
    MoveAction,
    Reactor,
)
from engine.combat.steps import AnyStep, pop, replace_step
from engine.errors import RuleError
from engine.phrases import Said, phrase

__all__ = ["may_defend_again", "surrender", "surrender_problem"]


def surrender(c: Combat, cmd: Surrender, ctx: Context) -> Combat:
    if c.phase is Phase.SETUP:
        raise RuleError(phrase("The fight has not begun; remove the fighter instead."))
    f = c.fighter(cmd.fighter)
    require_control(ctx.actor, f)
    problem = surrender_problem(c, f)
    if problem:
        raise RuleError(problem)
    mv = c.move
    if mv is not None and f.key in mv.involved:
        c = _leave_move(c, mv, f, ctx)
    a = c.attack
    if a is not None and f.key in a.involved:
        mine = f.key in (a.attacker, a.target)
        c = _cancel_attack(c, a, ctx) if mine else _leave_attack(c, a, f)
    c = out_of_reach(c, f.key, ctx)
    f = c.fighter(f.key)
    new, report = surrender_sheet(f.character, rules=ctx.rules)
    ctx.emit(EventKind.SURRENDER, report.summary, f.key,
             public=phrase("{name} surrenders: out of the fight.", name=f.name), of=f)
    return put(c, f.model_copy(update={"character": new, "actions": 0}))


def surrender_problem(c: Combat, f: Fighter) -> Said | None:
    """Why ``f`` cannot surrender now, or None: what is already rolled must be resolved first
    (a move past its window, an attack, an AoE: its roll is made as it is declared), and so
    must Continuous damage being placed (dealt at once, by an AoE whose dice are rolled)."""
    if isinstance(c.step, ContinuousBurn):
        burnt = ", ".join(c.fighter(w.fighter).name for w in c.step.wounds)
        return phrase("The Continuous damage {burnt} took is being placed; {name} can "
                      "surrender once it is placed.", burnt=burnt, name=f.name)
    rolled = next((s for s in c.steps if f.key in s.involved and _rolled(s)), None)
    if rolled is None:
        return None
    if rolled.kind == "move":
        return phrase("The dice are already rolled for the move involving {name}; they can "
                      "surrender once it is resolved.", name=f.name)
    if rolled.kind == "attack":
        return phrase("The dice are already rolled for the attack involving {name}; they can "
                      "surrender once it is resolved.", name=f.name)
    return phrase("The dice are already rolled for the AoE involving {name}; they can "
                  "surrender once it is resolved.", name=f.name)


def _rolled(step: AnyStep) -> bool:
    """Whether the dice that decide ``step``'s effect on those involved are rolled."""
    if isinstance(step, MoveAction):
        return step.window_closed
    if isinstance(step, AttackAction):
        return step.rolled
    return isinstance(step, AoEAction)


def _cancel_attack(c: Combat, a: AttackAction, ctx: Context) -> Combat:
    """The attack does not take effect: the attacker and every reactor get their action back."""
    att = c.fighter(a.attacker)
    c = refund(c, att.key, reaction=False, direction=a.direction)
    for r in a.reactors:
        if r.answer in ("defend", "counterattack"):
            c = refund(c, r.fighter, reaction=True, free=r.free)
    if a.direction is None:
        said = phrase("{name}'s attack does not take effect; {name} keeps the action.",
                      name=att.name)
    else:
        said = phrase("{name}'s attack does not take effect; {leader}'s direction waits on "
                      "{name} again.", name=att.name,
                      leader=a.direction.leader or phrase("the leader"))
    ctx.emit(EventKind.CANCELLED, said, att.key)
    return pop(c)


def _leave_attack(c: Combat, a: AttackAction, f: Fighter) -> Combat:
    """``f``, who may Defend the target for them (Shield), surrenders before the dice: the
    attack does not affect them, so it goes on without them (their action back if they had
    declared a Defend, and the target may Defend again)."""
    mine = next(r for r in a.reactors if r.fighter == f.key)
    reactors = tuple(r for r in a.reactors if r.fighter != f.key)
    if mine.answer == "defend":
        c = refund(c, f.key, reaction=True, free=mine.free)
        reactors = tuple(may_defend_again(r) for r in reactors)
    return replace_step(c, a, a.model_copy(update={"reactors": reactors}))


def may_defend_again(r: Reactor) -> Reactor:
    """Undo "one Defend per attack" for a reactor still deciding (the target's Defend comes
    back) or closed by it (its only option was Defend)."""
    if r.answer is None and "defend" not in r.options:
        return r.model_copy(update={"options": ("defend", *r.options)})
    if r.answer == "pass" and not r.options:
        return r.model_copy(update={"options": ("defend",), "answer": None})
    return r


def _leave_move(c: Combat, mv: MoveAction, f: Fighter, ctx: Context) -> Combat:
    """``f`` surrenders while a Move's Intercept window is open (no dice rolled yet): a mover's
    move does not happen and every action spent on it comes back; an interceptor leaves the
    window (its action back), and the move goes on without them."""
    if f.key == mv.mover:
        if not mv.second:  # a Speed move's first step was taken: its action stays spent
            c = refund(c, f.key, reaction=False, direction=mv.direction)
        for r in mv.reactors:
            if r.answer == "intercept":
                c = refund(c, r.fighter, reaction=True)
        if mv.second:
            said = phrase("{name}'s second step does not take effect.", name=f.name)
        else:
            said = phrase("{name}'s move does not take effect.", name=f.name)
        ctx.emit(EventKind.CANCELLED, said, f.key)
        return c.model_copy(update={"steps": tuple(s for s in c.steps if s is not mv)})
    mine = next(r for r in mv.reactors if r.fighter == f.key)
    if mine.answer == "intercept":
        c = refund(c, f.key, reaction=True)
    reactors = tuple(r for r in mv.reactors if r.fighter != f.key)
    return replace_step(c, mv, mv.model_copy(update={"reactors": reactors}))
