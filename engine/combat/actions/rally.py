"""Rally (004 "Leader"): "You can use an action to attempt to rally your team. Make a roll. On
a success anyone on your team including you can increase their level to match the roll, but
can't exceed their max level. You can attempt this only once per combat, whether you succeed
or fail."

The roll is the leader's level roll. A critical success takes an extra action or adjusts the
roll (RULINGS 5: up to the level, or the max level when the roll was exactly the level), as on
any roll; a critical failure loses the next action (the default). On a success every teammate
below the roll who is neither dead nor surrendered rises to it, capped at their max level: a
higher level is never worse, so nobody is asked (unconscious ones included: a level of 10 or
more wakes them, unless a head or the torso is full).
"""

from __future__ import annotations

from engine.catalog import Rules
from engine.character import Status, status
from engine.combat.abilities.hooks import rallies
from engine.combat.action_kinds import ActionKind
from engine.combat.commands import Rally
from engine.combat.context import Context
from engine.combat.fighters import (
    acting_fighter,
    can_act,
    lose_action,
    out_of_fight,
    put,
    settle_status,
    spend_action,
)
from engine.combat.model import Combat, EventKind, Fighter, Phase, Prompt, PromptKind
from engine.combat.prompts import answering, prompt
from engine.combat.roll_spec import make_roll, rally_spec
from engine.combat.step_values import RallyAction
from engine.combat.steps import pop, push
from engine.errors import RuleError
from engine.phrases import Said, phrase

__all__ = ["advance", "end_prompts", "end_rallies", "prompts", "rally", "rally_problem"]


def rally_problem(c: Combat, key: str) -> Said | None:
    """Why the fighter ``key`` cannot rally at all (leaving out whose turn it is), or None."""
    f = c.fighter(key)
    if not rallies(f.character):
        return phrase("{name} cannot rally: that takes the Leader ability Rally.", name=f.name)
    if f.rallied:
        return phrase("{name} has already attempted a rally this fight (once per combat).",
                      name=f.name)
    return None


def end_rallies(c: Combat, rules: Rules) -> tuple[Fighter, ...]:
    """The leaders who may still rally at the end of combat: conscious, of a team still
    standing, who have not attempted a rally."""
    return tuple(
        f for f in c.fighters if can_act(f, rules) and rallies(f.character) and not f.rallied
    )


def end_prompts(c: Combat, rules: Rules) -> tuple[Prompt, ...]:
    return tuple(
        prompt(c, PromptKind.END_RALLY, f.key, ("rally", "skip")) for f in end_rallies(c, rules)
    )


def rally(c: Combat, cmd: Rally, ctx: Context) -> Combat:
    if c.phase is Phase.ENDING:
        f, _ = answering(c, PromptKind.END_RALLY, cmd.fighter, ctx.actor)
        f = f.model_copy(update={"rallied": True})
        if cmd.skip:
            ctx.emit(EventKind.RALLY, phrase("{name} does not rally.", name=f.name), f.key)
            return put(c, f)
        ctx.start(f.key, ActionKind.RALLY)  # no action is spent once the fight is ending
    else:
        if cmd.skip:
            raise RuleError(phrase("Only at the end of combat can a leader let it end without "
                                   "rallying."))
        f = acting_fighter(c, cmd.fighter, ctx)
        problem = rally_problem(c, f.key)
        if problem is not None:
            raise RuleError(problem)
        f = spend_action(f, ctx, ActionKind.RALLY).model_copy(update={"rallied": True})
    c = put(c, f)
    state = make_roll(rally_spec(f), ctx.dice)
    ctx.say_roll(EventKind.RALLY, phrase("{name} rallies {team}", name=f.name, team=f.team), f,
                 state.roll.result)
    seq = c.action_seq + 1
    step = RallyAction(seq=seq, leader=f.key, roll=state)
    return push(c.model_copy(update={"action_seq": seq}), step)


def advance(c: Combat, ctx: Context) -> tuple[Combat, bool]:
    """The rally on top: once its critical choice (if any) is made, the levels rise."""
    step = c.step
    assert isinstance(step, RallyAction)
    if step.roll.roll.awaits_critical_choice:
        return c, True
    res = step.roll.roll.result
    leader = c.fighter(step.leader)
    if res.critical_failure:
        c = put(c, lose_action(leader))
        ctx.emit(EventKind.LOST_ACTION,
                 phrase("{name} rolled a critical failure and loses the next action.",
                        name=leader.name), leader.key)
    if not res.success:
        ctx.emit(EventKind.RALLY, phrase("The rally fails; {name} cannot rally again this "
                                         "fight.", name=leader.name), leader.key)
        return pop(c), False
    return pop(raise_levels(c, leader.team, res.value, ctx)), False


def raise_levels(c: Combat, team: str, value: int, ctx: Context) -> Combat:
    """Every fighter of ``team`` below ``value`` (not dead, not surrendered) rises to it,
    capped at their max level."""
    rules = ctx.rules
    risen = False
    for f in c.fighters:
        ch = f.character
        if f.team != team or out_of_fight(f, rules):
            continue
        level = min(value, ch.max_level)
        if level <= ch.level:
            continue
        new = ch.model_copy(update={"level": level})
        c = put(c, settle_status(f.model_copy(update={"character": new}), rules))
        woke = (status(ch, rules=rules) is Status.UNCONSCIOUS
                and status(new, rules=rules) is Status.FINE)
        if woke:
            said = phrase("{name}'s level rises {before} → {after} (conscious again).",
                          name=f.name, before=ch.level, after=level)
            public = phrase("{name}'s level rises (conscious again).", name=f.name)
        else:
            said = phrase("{name}'s level rises {before} → {after}.", name=f.name,
                          before=ch.level, after=level)
            public = phrase("{name}'s level rises.", name=f.name)
        ctx.emit(EventKind.RALLY_LEVEL, said, f.key, public=public, of=f)
        risen = True
    if not risen:
        ctx.emit(EventKind.RALLY_LEVEL, phrase("Nobody on {team} is below {level}: no level "
                                               "rises.", team=team, level=value))
    return c


def prompts(c: Combat, step: RallyAction) -> tuple[Prompt, ...]:
    if step.roll.roll.awaits_critical_choice:
        return (prompt(c, PromptKind.CRITICAL, step.leader, ("extra_action", "adjust")),)
    return ()
