"""The reaction window (004 "Reactions"): after an Attack or a Move is declared, those who may
react answer (Defend, Counterattack, Intercept, or pass) before any die is rolled. It closes
when everyone has answered, when its time is up, or when a GM resolves it early; silence is a
pass. One window serves both kinds of step: the step on top of the stack is the one answered.
A Counterattack or an Intercept may be declared less-lethal (004 "Less-lethal"): the reactor's
choice is kept on its ``Reactor`` and reaches the hit."""

from __future__ import annotations

from collections.abc import Callable

from engine.catalog import Action, Rules
from engine.combat.abilities.hooks import act_problem, may_defend
from engine.combat.actions.aoe import close_defends, defends_open
from engine.combat.actions.counterattack import counter_weapons
from engine.combat.actions.intercept import intercept_weapons
from engine.combat.commands import CloseWindow, React
from engine.combat.context import Context, require_control, require_gm, require_phase
from engine.combat.fighters import put, spend_reaction
from engine.combat.lifecycle import ActionKind
from engine.combat.model import Combat, EventKind, Fighter, Phase
from engine.combat.stealth import hidden
from engine.combat.step_values import AoEAction, AttackAction, MoveAction, Reactor, Weapon
from engine.combat.steps import replace_top
from engine.combat.weapons import pick_weapon, range_text, weapon_label
from engine.errors import RuleError

__all__ = ["close_window", "react"]


def _window_step(c: Combat) -> AttackAction | MoveAction:
    require_phase(c, Phase.REACTION)
    step = c.step
    assert isinstance(step, AttackAction | MoveAction)
    return step


def react(c: Combat, cmd: React, ctx: Context) -> Combat:
    step = _window_step(c)
    f = c.fighter(cmd.fighter)
    reactor = next((r for r in step.reactors if r.fighter == f.key), None)
    if reactor is None:
        if isinstance(step, MoveAction):
            raise RuleError(f"{f.name} cannot intercept {c.fighter(step.mover).name}'s move.")
        raise RuleError(_no_reaction(c, step, f, cmd, ctx.rules))
    require_control(ctx.actor, f)
    if reactor.answer is not None:
        raise RuleError(f"{f.name} has already answered ({reactor.answer}).")
    if isinstance(step, MoveAction):
        weapon = _intercept_answer(c, step, f, reactor, cmd, ctx)
    else:
        weapon = _attack_answer(c, step, f, reactor, cmd, ctx)
    if cmd.reaction != "pass":
        if f.actions <= 0 and not reactor.free:
            raise RuleError(f"{f.name} has no action left this round.")
        c = put(c, spend_reaction(f, step.seq, ctx, ActionKind(cmd.reaction), free=reactor.free))
    # Only an attack of one's own deals damage, so only it may be less-lethal.
    lethal = cmd.lethal or cmd.reaction not in ("counterattack", "intercept")
    _say_reaction(c, f, step, reactor, cmd.reaction, weapon, lethal, ctx)
    reactors = tuple(
        r.model_copy(update={"answer": cmd.reaction, "weapon": weapon, "lethal": lethal})
        if r.fighter == f.key
        else r
        for r in step.reactors
    )
    if isinstance(step, AttackAction) and cmd.reaction == "defend":
        reactors = _one_defend(c, step, reactors, ctx)
    c = replace_top(c, step.model_copy(update={"reactors": reactors}))
    return c


def _no_reaction(c: Combat, a: AttackAction, f: Fighter, cmd: React, rules: Rules) -> str:
    """Why ``f`` is not among those who may react to the attack ``a``."""
    t = c.fighter(a.target)
    if cmd.reaction != "defend" or f.key in (a.attacker, a.target):
        return f"{f.name} cannot react to this attack."
    attacker = c.fighter(a.attacker)
    if f.team == attacker.team:
        return f"{f.name} cannot react to an attack of their own team ({f.team})."
    problem = act_problem(f)
    if problem:
        return problem
    if f.actions <= 0 or f.reacted_to == a.seq:
        return f"{f.name} has no action left this round."
    if not may_defend(c, f, t, rules):
        return (
            f"{f.name} cannot defend {t.name}: defending another character takes the Shield "
            f"ability (Defend another character), a shield in a usable hand, and being in "
            f"{t.name}'s area."
        )
    return f"{f.name} cannot react to this attack."


def _one_defend(c: Combat, a: AttackAction, reactors: tuple[Reactor, ...],
                ctx: Context) -> tuple[Reactor, ...]:
    """One Defend per attack: once someone defends, nobody else may; whoever had nothing
    else to answer is done (without spending an action), the target may still counterattack."""
    t = c.fighter(a.target)
    found: list[Reactor] = []
    for r in reactors:
        if r.answer is None and "defend" in r.options:
            options = tuple(o for o in r.options if o != "defend")
            if options:
                r = r.model_copy(update={"options": options})
            else:
                r = r.model_copy(update={"options": options, "answer": "pass"})
                name = c.fighter(r.fighter).name
                ctx.emit(EventKind.REACT,
                         f"One Defend per attack: {name} does not defend {t.name}.", r.fighter)
        found.append(r)
    return tuple(found)


def _attack_answer(c: Combat, a: AttackAction, f: Fighter, reactor: Reactor, cmd: React,
                   ctx: Context) -> Weapon | None:
    if cmd.reaction == "intercept":
        raise RuleError(f"{f.name} cannot intercept an attack: Intercept reacts to a Move.")
    t = c.fighter(a.target)
    if cmd.target is not None and c.fighter(cmd.target).key != t.key:
        raise RuleError(
            f"{c.fighter(a.attacker).name} is attacking {t.name}, not "
            f"{c.fighter(cmd.target).name}: {f.name} can only defend {t.name} now."
        )
    if cmd.reaction == "defend":
        other = next((r for r in a.reactors if r.answer == "defend"), None)
        if other is not None:
            raise RuleError(
                f"{c.fighter(other.fighter).name} already defends {t.name} against this "
                "attack: one Defend per attack."
            )
    if cmd.reaction != "pass" and cmd.reaction not in reactor.options:
        raise RuleError(
            f"{f.name} cannot {cmd.reaction} here; the choices are "
            f"{', '.join((*reactor.options, 'pass'))}."
        )
    if cmd.reaction == "defend" and not cmd.lethal:
        raise RuleError(
            "A Defend deals no damage: only a Counterattack or an Intercept can be less-lethal."
        )
    if cmd.reaction != "counterattack":
        return reactor.weapon
    attacker = c.fighter(a.attacker)
    return _reaction_weapon(
        f, "counterattack", reactor, cmd, ctx,
        lambda lethal: counter_weapons(c, attacker, f, a.weapon, ctx.rules, lethal),
        lambda weapon: f"{f.name} cannot counterattack with {weapon_label(weapon)} here.",
    )


def _intercept_answer(c: Combat, mv: MoveAction, f: Fighter, reactor: Reactor, cmd: React,
                      ctx: Context) -> Weapon | None:
    if cmd.reaction not in ("intercept", "pass"):
        raise RuleError(f"{c.fighter(mv.mover).name} is moving: {f.name} may intercept or pass.")
    if cmd.reaction == "pass":
        return reactor.weapon
    return _reaction_weapon(
        f, "intercept", reactor, cmd, ctx,
        lambda lethal: intercept_weapons(
            c, f, mv.frm, mv.to, ctx.rules, lethal,
            hidden_mover=hidden(c, c.fighter(mv.mover), ctx.rules)),
        lambda weapon: (
            f"{f.name} cannot intercept with {weapon_label(weapon)}: "
            f"out of its range ({range_text(weapon, ctx.rules)})."
        ),
    )


def _reaction_weapon(
    f: Fighter,
    verb: str,
    reactor: Reactor,
    cmd: React,
    ctx: Context,
    fits: Callable[[bool], list[Weapon]],
    unfit: Callable[[Weapon], str],
) -> Weapon:
    """The weapon of a Counterattack or an Intercept: the one named (it must fit, with ammo of
    the sort the damage needs), else the first that fits (the window worked it out)."""
    if cmd.weapon is not None:
        weapon = pick_weapon(f, cmd.weapon, ctx.rules, Action(verb))
        assert weapon is not None
        if weapon in fits(cmd.lethal):
            return weapon
        if weapon in fits(not cmd.lethal):
            raise RuleError(_ammo_refusal(f, verb, weapon, cmd.lethal))
        raise RuleError(unfit(weapon))
    chosen = reactor.weapon if cmd.lethal else reactor.less_lethal_weapon
    if chosen is None:
        other = reactor.less_lethal_weapon if cmd.lethal else reactor.weapon
        assert other is not None  # the window offers a reaction only when one is possible
        raise RuleError(_ammo_refusal(f, verb, other, cmd.lethal))
    return chosen


def _ammo_refusal(f: Fighter, verb: str, weapon: Weapon, lethal: bool) -> str:
    """Why a ranged reaction cannot deal the sort of damage asked for: its ammo is of the other
    sort (004 "Less-lethal": "a separate ammo slot dedicated to that effect")."""
    label = weapon_label(weapon)
    if lethal:
        return (
            f"{f.name} has only less-lethal ammo left for {label}: "
            f"the {verb} can only be less-lethal."
        )
    return (
        f"{f.name} has no less-lethal ammo: a less-lethal {verb} with {label} needs a "
        "less-lethal ammo slot (a melee weapon needs none)."
    )


def _say_reaction(c: Combat, f: Fighter, step: AttackAction | MoveAction, reactor: Reactor,
                  reaction: str, weapon: Weapon | None, lethal: bool, ctx: Context) -> None:
    less = "" if lethal else " (less-lethal)"
    if isinstance(step, MoveAction):
        if reaction == "pass":
            ctx.emit(EventKind.REACT, f"{f.name} does not intercept.", f.key)
        else:
            label = "bare hands" if weapon is None else weapon_label(weapon)
            ctx.emit(EventKind.REACT, f"{f.name} intercepts with {label}{less}.", f.key)
        return
    if reaction == "pass":
        ctx.emit(EventKind.REACT, f"{f.name} does not react.", f.key)
        return
    if reaction == "defend":
        whom = "" if f.key == step.target else f" {c.fighter(step.target).name}"
        free = " (no action spent)" if reactor.free else ""
        ctx.emit(EventKind.REACT, f"{f.name} defends{whom}{free}.", f.key)
        return
    with_ = "" if weapon is None else f" with {weapon_label(weapon)}"
    ctx.emit(EventKind.REACT, f"{f.name} counterattacks{with_}{less}.", f.key)


def close_window(c: Combat, cmd: CloseWindow, ctx: Context) -> Combat:
    """Time is up (or a GM resolves it now): whoever has not answered passes. A Blast's
    targets asked to Defend are such a window too: silence is no Defend."""
    blast = defends_open(c)
    step = c.step if blast else _window_step(c)
    assert isinstance(step, AttackAction | MoveAction | AoEAction)
    if cmd.by_timeout:
        if step.deadline is not None and ctx.now < step.deadline:
            left = step.deadline - ctx.now
            raise RuleError(f"The reaction window is still open for {left:.0f} more seconds.")
    else:
        require_gm(ctx.actor, "close the reaction window early")
    why = "time is up" if cmd.by_timeout else "the GM resolves it now"
    if isinstance(step, AoEAction):
        ctx.emit(EventKind.WINDOW_CLOSED, f"The chance to Defend against the blast closes: {why}.")
        return close_defends(c, ctx)
    ctx.emit(EventKind.WINDOW_CLOSED, f"The reaction window closes: {why}.")
    reactors = tuple(
        r if r.answer is not None else r.model_copy(update={"answer": "pass"})
        for r in step.reactors
    )
    return replace_top(c, step.model_copy(update={"reactors": reactors}))
