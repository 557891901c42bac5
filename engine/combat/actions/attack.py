"""Attack (004 "Attack"): declare a target and a weapon, open the reaction window (the
target: Defend, or Counterattack in melee; whoever may Defend the target for them: the Shield
ability), roll, and resolve each hit. One Defend per attack; the target's Counterattack and
another's Defend may go together.

Dice order: the attacker's two dice, then each reaction's two, in the window's order (the
target first)."""

from __future__ import annotations

from typing import Literal, cast

from engine.catalog import Action
from engine.character import destroy_item
from engine.combat.action_kinds import ActionKind
from engine.combat.actions.counterattack import counter_hits
from engine.combat.actions.defend import defended_hits
from engine.combat.actions.window import asked, open_window
from engine.combat.choices import critical_choices, destroy_options
from engine.combat.commands import Attack
from engine.combat.context import Context
from engine.combat.damage import advance_hits, hit_prompts, new_hit
from engine.combat.fighters import acting_fighter, lose_action, put, spend_action
from engine.combat.model import Combat, EventKind, Prompt, PromptKind
from engine.combat.prompts import prompt
from engine.combat.roll_spec import make_roll, roll_spec
from engine.combat.rolls import strike, wants_reroll
from engine.combat.step_values import AttackAction, Hit, Reactor, RollState
from engine.combat.steps import pop, push, replace_step, replace_top
from engine.combat.weapons import (
    UNARMED,
    ammo_slot,
    choose_weapon,
    weapon_label,
)
from engine.phrases import Said, phrase

__all__ = ["advance", "attack", "prompts"]


def attack(c: Combat, cmd: Attack, ctx: Context) -> Combat:
    rules = ctx.rules
    f = acting_fighter(c, cmd.fighter, ctx)
    t = c.fighter(cmd.target)
    weapon = choose_weapon(c, f, t, cmd.weapon, rules, cmd.lethal)
    seq = c.action_seq + 1
    c = put(c, spend_action(f, ctx, ActionKind.ATTACK))
    action = AttackAction(
        seq=seq,
        attacker=f.key,
        target=t.key,
        weapon=weapon,
        lethal=cmd.lethal,
        direction=f.directed,  # a waiting direction paid for it, not an action of f's own
    )
    if cmd.lethal:
        text = phrase("{name} attacks {target} with {weapon}.", name=f.name, target=t.name,
                      weapon=weapon_label(weapon))
    else:
        text = phrase("{name} attacks {target} with {weapon} (less-lethal).", name=f.name,
                      target=t.name, weapon=weapon_label(weapon))
    ctx.emit(EventKind.DECLARE, text, f.key)
    c = push(c.model_copy(update={"action_seq": seq}), action)
    return open_window(c, ctx)


def advance(c: Combat, ctx: Context) -> tuple[Combat, bool]:
    """Take every automatic step of the attack on top: ``(combat, waiting for someone)``;
    a finished attack leaves the stack."""
    a = c.attack
    assert a is not None
    if a.window_open:
        return c, True
    if not a.rolled:
        c = _roll(c, a, ctx)
    while True:
        a = c.attack
        assert a is not None
        if a.destroying or any(
            wants_reroll(s) or s.roll.awaits_critical_choice for s in a.rolls
        ):
            return c, True
        if a.outcome_done:
            break
        c = _outcome(c, a, ctx)
    c, waiting = advance_hits(c, ctx)
    return (c, True) if waiting else (pop(c), False)


def _roll(c: Combat, a: AttackAction, ctx: Context) -> Combat:
    f = c.fighter(a.attacker)
    t = c.fighter(a.target)
    action = Action.INTERCEPT if a.intercept else Action.ATTACK
    state = make_roll(roll_spec(f, ctx.rules, action, a.weapon.kind), ctx.dice)
    rolls = [state]
    ctx.say_roll(EventKind.ROLL, phrase("{name} attacks {target} with {weapon}", name=f.name,
                                        target=t.name, weapon=weapon_label(a.weapon)),
                 f, state.roll.result)
    reacting = [r for r in a.reactors if r.answer in ("defend", "counterattack")]
    for reactor in reacting:
        rolls.append(_reaction_roll(c, a, reactor, ctx))
    first = reacting[0] if reacting else None
    return replace_top(
        c,
        a.model_copy(
            update={
                "rolled": True,
                "reaction": cast(Literal["defend", "counterattack"], first.answer)
                if first else None,
                "reactor": first.fighter if first else None,
                "rolls": tuple(rolls),
                "deadline": None,
            }
        ),
    )


def _reaction_roll(c: Combat, a: AttackAction, reactor: Reactor, ctx: Context) -> RollState:
    """A Defend's roll (its spec: good with a shield in hand, unless a rule limits it) or a
    Counterattack's."""
    f = c.fighter(a.attacker)
    t = c.fighter(a.target)
    r_f = c.fighter(reactor.fighter)
    if reactor.answer == "defend":
        spec = roll_spec(r_f, ctx.rules, Action.DEFEND)
        what: Said = (phrase("{name} defends", name=r_f.name) if r_f.key == t.key
                      else phrase("{name} defends {target}", name=r_f.name, target=t.name))
        if spec.limits:  # "Bea defends (not good, cannot be critical)"
            what = phrase("{what} ({limits})", what=what, limits=", ".join(spec.limits))
    else:
        kind = reactor.weapon.kind if reactor.weapon else UNARMED
        spec = roll_spec(r_f, ctx.rules, Action.COUNTERATTACK, kind)
        label = weapon_label(reactor.weapon) if reactor.weapon else phrase("bare hands")
        what = phrase("{name} counterattacks {target} with {weapon}", name=r_f.name,
                      target=f.name, weapon=label)
    state = make_roll(spec, ctx.dice)
    ctx.say_roll(EventKind.ROLL, what, r_f, state.roll.result)
    return state


def _outcome(c: Combat, a: AttackAction, ctx: Context) -> Combat:
    """Once the rolls are final: critical failures, then the hits (004 "Attack")."""
    for s in a.rolls:
        if s.roll.result.critical_failure:
            c = put(c, lose_action(c.fighter(s.fighter)))
            name = c.fighter(s.fighter).name
            ctx.emit(
                EventKind.LOST_ACTION,
                phrase("{name} rolled a critical failure and loses the next action.", name=name),
                s.fighter,
            )
            c = _spend_ammo_on_fumble(c, a, s, ctx)
    hits: list[Hit]
    defend = next((s for s in a.rolls if s.purpose == "defend"), None)
    counter = next((s for s in a.rolls if s.purpose == "counterattack"), None)
    if defend is not None:
        hits = defended_hits(c, a, defend, ctx)
    else:
        att = a.rolls[0].roll.result
        f = c.fighter(a.attacker)
        if att.success:
            hits = [new_hit(c, a, f.key, a.target, att, a.weapon, "attack", ctx)]
            mv = c.move
            if a.intercept and mv is not None:
                c = replace_step(c, mv, mv.model_copy(update={"landed": (*mv.landed, f.key)}))
        else:
            ctx.emit(EventKind.MISS, phrase("{name}'s attack misses.", name=f.name), f.key)
            hits = []
    if counter is not None:
        hits += counter_hits(c, a, counter, ctx)
    top = c.attack
    assert top is not None
    return replace_top(c, top.model_copy(update={"outcome_done": True, "hits": tuple(hits)}))


def _spend_ammo_on_fumble(c: Combat, a: AttackAction, s: RollState, ctx: Context) -> Combat:
    """A critical failure on a ranged attack also destroys one slot of ammo (of the sort used)."""
    rules = ctx.rules
    hit = strike(a, s)
    if hit is None:
        return c
    weapon, lethal = hit.weapon, hit.lethal
    if weapon.kind == UNARMED or not rules.items.kind(weapon.kind).needs_ammo:
        return c
    f = c.fighter(s.fighter)
    index = ammo_slot(f.character, rules, less_lethal=not lethal)
    if index is None:
        index = ammo_slot(f.character, rules, less_lethal=lethal)
    if index is None:
        return c
    ch, report = destroy_item(f.character, index, rules=rules)
    ctx.emit(EventKind.AMMO, phrase("{name}'s {item} is destroyed (a ranged critical failure).",
                                    name=f.character.name, item=report.item.name), f.key)
    return put(c, f.model_copy(update={"character": ch}))


def prompts(c: Combat, a: AttackAction) -> tuple[Prompt, ...]:
    if a.window_open:
        return asked(c, a)
    rerolls = tuple(
        prompt(c, PromptKind.REROLL, s.fighter, ("tens", "ones", "both", "keep"))
        for s in a.rolls
        if wants_reroll(s)
    )
    if rerolls:
        return rerolls
    crits = tuple(
        prompt(c, PromptKind.CRITICAL, s.fighter, critical_choices(c, a, s))
        for s in a.rolls
        if s.roll.awaits_critical_choice
    )
    if crits:
        return crits
    destroys = tuple(
        prompt(c, PromptKind.DESTROY, key, (*destroy_options(c, a, key), "none"))
        for key in a.destroying
    )
    return destroys or hit_prompts(c, a)
