"""AoE (004 "Abilities": Area of Effect, and its "Blast"): an Attack on an area at range 0 or 1
with an AoE item, which the attempt destroys, made for the AoE ability the item is for (Blast,
Continuous, Cover, Demolish).

"They all use an Attack action, not Counterattack or Intercept, against an area at a range of
0 or 1. Failed AoE rolls have no effect. On a critical failure you take the *sum* of the dice in
damage" (100 reads as 20, RULINGS 3). "AoEs cannot be Counterattacked. Neither cover nor shields
apply to AoEs. Damage caused by AoEs can be spread among locations of the damaged character's
choice, and can be prevented by armor as normal."

The step (``AoEAction``): the roll, and a critical success's choice; on a success the user's
choice of dice (``AOE_DICE``: which die is damage, or rounds), then for a Blast the targets
(``AOE_TARGET``, asked only when there is a choice) and each target's Defend (``AOE_DEFEND``,
asked once it is chosen: the book's example has the target Defend after the roll), then each
damaged character places the damage (``engine.combat.actions.aoe_damage``). Continuous, Cover
and Demolish leave a lasting effect (``engine.combat.actions.aoe_effects``, which also deals
Continuous damage).

Dice order: the user's two dice, then each defending target's two, in the order chosen.
"""

from __future__ import annotations

from typing import Literal, cast

from engine.catalog import Action, Rules
from engine.character import destroy_item
from engine.combat.abilities.hooks import aoe_variety
from engine.combat.action_kinds import ActionKind
from engine.combat.actions.aoe_damage import wound_answer, wound_prompts
from engine.combat.actions.aoe_effects import (
    add_effect,
    demolish,
)
from engine.combat.actions.window import asked, open_window, react
from engine.combat.commands import AoE, AoEChoice, React
from engine.combat.context import Context
from engine.combat.fighters import (
    acting_fighter,
    lose_action,
    opponents_then_team,
    out_of_fight,
    put,
    side,
    spend_action,
)
from engine.combat.model import Combat, EventKind, Fighter, Phase, Prompt, PromptKind
from engine.combat.phase_guard import require_phase
from engine.combat.prompts import answering, prompt
from engine.combat.roll_spec import aoe_attack_spec, make_roll, roll_spec
from engine.combat.step_values import AoEAction, AoETarget, AoEWound, ContinuousBurn
from engine.combat.steps import pop, push, replace_top
from engine.copies import group_names
from engine.dice import opposed
from engine.errors import RuleError
from engine.phrases import Phrase, phrase, plural_phrase
from engine.words import listed_phrase

__all__ = [
    "advance",
    "aoe",
    "aoe_choice",
    "prompts",
]

_PROMPTS = (
    PromptKind.AOE_DICE, PromptKind.AOE_TARGET, PromptKind.AOE_DEFEND, PromptKind.AOE_PLACE,
    PromptKind.AOE_ARMOR,
)


def _aoe_item(f: Fighter, name: str | None, rules: Rules) -> int:
    """The AoE item in ``f``'s hands to use (the named one, or the only one held)."""
    ch = f.character
    held = [i for i in dict.fromkeys((ch.right_hand, ch.left_hand)) if i is not None]
    aoe = [i for i in held if rules.items.kind(ch.items[i].kind).attack == "aoe"]
    if name is not None:
        key = name.strip().casefold()
        named = [i for i, it in enumerate(ch.items) if it.name.casefold() == key
                 and not it.destroyed]
        if not named:
            raise RuleError(phrase("{fighter} has no item called {name}.", fighter=f.name,
                                   name=repr(name.strip())))
        if not any(i in held for i in named):
            raise RuleError(phrase("{item} is not in {fighter}'s hands.",
                                   item=ch.items[named[0]].name, fighter=f.name))
        aoe = [i for i in named if i in aoe]
        if not aoe:
            raise RuleError(phrase("{item} is not an AoE weapon.", item=ch.items[named[0]].name))
    if not aoe:
        raise RuleError(phrase("{fighter} holds no AoE weapon (it takes both hands).",
                               fighter=f.name))
    index = aoe[0]
    item = ch.items[index]
    if ch.right_hand != index or ch.left_hand != index:
        raise RuleError(phrase("{item} needs both hands.", item=item.name))
    return index


def aoe(c: Combat, cmd: AoE, ctx: Context) -> Combat:
    """Declare an AoE attack on an area: range 0 or 1 and line of sight (004 "Line of Sight":
    "To make an attack, you must have line of sight to your target"); the item is destroyed
    and the roll made at once (no reaction comes before it: an AoE cannot be Counterattacked,
    and a Blast's targets are chosen after the roll)."""
    rules = ctx.rules
    f = acting_fighter(c, cmd.fighter, ctx)
    index = _aoe_item(f, cmd.item, rules)
    ch = f.character
    item = ch.items[index]
    if item.ability is None or item.ability not in ch.abilities:
        which = (rules.abilities.ability(item.ability).said_title if item.ability
                 else phrase("an AoE ability"))
        raise RuleError(phrase("{fighter} needs {ability} to use {item}.", fighter=f.name,
                               ability=which, item=item.name))
    variety = aoe_variety(ch, item.ability)
    if variety is None:
        raise RuleError(phrase("{ability} is not played by the bot yet; the GM resolves it.",
                               ability=rules.abilities.ability(item.ability).said_title))
    m = c.game_map()
    area = m.area(cmd.area)
    kind = rules.items.kind(item.kind)
    distance = m.range(f.area, area)
    if distance is None or not kind.in_range(distance):
        far = (phrase("no path leads there") if distance is None
               else phrase("range {distance}", distance=distance))
        raise RuleError(phrase("{area} is out of range for {item}: {far} (reaches range 0-1).",
                               area=area, item=item.name, far=far))
    if not m.line_of_sight(f.area, area):
        raise RuleError(phrase("{fighter} has no line of sight from {start} to {area}.",
                               fighter=f.name, start=f.area, area=area))
    seq = c.action_seq + 1
    ch, _ = destroy_item(ch, index, rules=rules)
    f = spend_action(f, ctx, ActionKind.AOE).model_copy(update={"character": ch})
    c = put(c.model_copy(update={"action_seq": seq}), f)
    title = rules.abilities.ability(item.ability).said_name
    ctx.emit(EventKind.AOE, phrase("{fighter} uses {item} ({ability}) on {area}; {item} is "
                                   "destroyed.", fighter=f.name, item=item.name, ability=title,
                                   area=area), f.key)
    state = make_roll(aoe_attack_spec(f, rules), ctx.dice)
    ctx.say_roll(EventKind.ROLL, phrase("{fighter}'s {ability} on {area}", fighter=f.name,
                                        ability=title, area=area), f, state.roll.result)
    step = AoEAction(
        seq=seq, attacker=f.key, area=area, item=item.name, ability=item.ability,
        variety=cast(Literal["blast", "continuous", "cover", "demolish"], variety),
        roll=state,
    )
    return push(c, step)


# -- the step ---------------------------------------------------------------------------------


def _top(c: Combat) -> AoEAction:
    step = c.step
    assert isinstance(step, AoEAction)
    return step


def _in_area(c: Combat, a: AoEAction, rules: Rules) -> list[Fighter]:
    return [g for g in c.fighters if g.area == a.area and not out_of_fight(g, rules)]


def _candidates(c: Combat, a: AoEAction, rules: Rules) -> tuple[str, ...]:
    """Whom the user may still take as a Blast's target: enemies first; allies (the user
    included) only when no enemy in the area is left to take."""
    taken = {t.fighter for t in a.targets}
    free = {g.key for g in _in_area(c, a, rules) if g.key not in taken}
    enemies, allies = ([g.key for g in side if g.key in free]
                       for side in opponents_then_team(c, c.fighter(a.attacker)))
    return tuple(enemies or allies)


def _wanted(a: AoEAction) -> int:
    """A Blast's number of targets: one, and the *additional* ones of the chosen die."""
    return 1 + (a.second or 0)


def advance(c: Combat, ctx: Context) -> tuple[Combat, bool]:
    rules = ctx.rules
    a = _top(c)
    if a.roll.roll.awaits_critical_choice:
        return c, True
    res = a.roll.roll.result
    user = c.fighter(a.attacker)
    if not a.outcome_done and not res.success:
        c = _failed(c, a, ctx)
        a = _top(c)
    if not a.outcome_done:
        dice = (res.tens, res.ones)
        if a.first is None:
            if a.variety == "demolish":
                return pop(demolish(c, a, ctx)), False
            if dice[0] != dice[1]:
                return c, True  # the user chooses which die is which
            c = _dice_chosen(c, a, res.tens, res.ones, ctx)
            a = _top(c)
        if a.variety == "cover":
            return pop(add_effect(c, a, "cover", 0, a.first or 0, ctx)), False
        if a.variety == "continuous":
            return pop(add_effect(c, a, "continuous", a.first or 0, a.second or 0, ctx)), False
        if not a.targets_done:
            candidates = _candidates(c, a, rules)
            left = _wanted(a) - len(a.targets)
            if left > 0 and candidates and len(candidates) > left:
                if a.offered != candidates:
                    c = replace_top(c, a.model_copy(update={"offered": candidates}))
                return c, True  # the user chooses among them
            if left > 0 and candidates:
                c = _take(c, a, candidates, ctx)
                a = _top(c)
                if _wanted(a) > len(a.targets) and _candidates(c, a, rules):
                    return advance(c, ctx)
            c = replace_top(c, a.model_copy(update={"targets_done": True}))
            a = _top(c)
            if not a.targets:
                ctx.emit(EventKind.AOE, phrase("Nobody is in {area}: the blast hits no one.",
                                               area=a.area), user.key)
            c = open_window(c, ctx)  # each target that may Defend is asked
            a = _top(c)
        if any(t.answer is None for t in a.targets):
            return c, True
        if not a.rolled:
            c = _roll_defends(c, a, ctx)
            a = _top(c)
        if any(t.roll is not None and t.roll.roll.awaits_critical_choice for t in a.targets):
            return c, True
        c = _blast_outcome(c, a, ctx)
        a = _top(c)
    if any(not w.done for w in a.wounds):
        return c, True
    return pop(c), False


def _failed(c: Combat, a: AoEAction, ctx: Context) -> Combat:
    """"Failed AoE rolls have no effect." A critical failure also loses the next action (the
    book's default, which the AoE rule does not replace) and deals the sum of the dice to the
    user (RULINGS 3: 100 reads as 20)."""
    res = a.roll.roll.result
    user = c.fighter(a.attacker)
    wounds: tuple[AoEWound, ...] = ()
    if res.critical_failure:
        c = put(c, lose_action(user))
        tens, ones = (10, 10) if res.value == 100 else (res.tens, res.ones)
        amount = tens + ones
        ctx.emit(EventKind.LOST_ACTION, phrase(
            "{fighter} rolled a critical failure: they lose the next action and take {amount} "
            "damage from their own AoE.", fighter=user.name, amount=amount), user.key)
        if amount:
            wounds = (AoEWound(fighter=user.key, amount=amount),)
    else:
        ctx.emit(EventKind.MISS, phrase("{fighter}'s AoE fails: it has no effect.",
                                        fighter=user.name), user.key)
    return replace_top(c, a.model_copy(update={"outcome_done": True, "targets_done": True,
                                               "wounds": wounds}))


def _dice_chosen(c: Combat, a: AoEAction, first: int, second: int, ctx: Context) -> Combat:
    user = c.fighter(a.attacker)
    text: Phrase
    if a.variety == "blast":
        text = plural_phrase("{fighter} chooses {damage} damage and {count} additional target.",
                             "{fighter} chooses {damage} damage and {count} additional targets.",
                             "count", fighter=user.name, damage=first, count=second)
    elif a.variety == "continuous":
        text = phrase("{fighter} chooses {damage} damage for {rounds}.", fighter=user.name,
                      damage=first, rounds=_rounds(second))
    else:
        text = phrase("{fighter} chooses cover for {rounds}.", fighter=user.name,
                      rounds=_rounds(first))
    ctx.emit(EventKind.AOE, text, user.key, (first, second))
    return replace_top(c, a.model_copy(update={"first": first, "second": second}))


def _rounds(n: int) -> Phrase:
    """RULINGS 18: 0 ends at the end of this round, 1 at the end of the next."""
    if n == 0:
        return phrase("the rest of this round")
    return plural_phrase("{count} more round", "{count} more rounds", "count", count=n)


def _take(c: Combat, a: AoEAction, keys: tuple[str, ...], ctx: Context) -> Combat:
    names = listed_phrase(group_names([c.fighter(k).name for k in keys]))
    ctx.emit(EventKind.AOE, phrase("The blast takes {names}.", names=names), a.attacker)
    targets = (*a.targets, *(AoETarget(fighter=k) for k in keys))
    return replace_top(c, a.model_copy(update={"targets": targets}))


def _roll_defends(c: Combat, a: AoEAction, ctx: Context) -> Combat:
    targets = []
    for t in a.targets:
        if t.answer == "defend":
            g = c.fighter(t.fighter)
            # RULINGS 22: no shield against an AoE; All-Out Defend's limits hold here too.
            spec = roll_spec(g, ctx.rules, Action.DEFEND, against_aoe=True)
            state = make_roll(spec, ctx.dice)
            what = phrase("{fighter} defends against the blast", fighter=g.name)
            ctx.say_roll(EventKind.ROLL, spec.said(what), g, state.roll.result)
            t = t.model_copy(update={"roll": state})
        targets.append(t)
    return replace_top(c, a.model_copy(update={"targets": tuple(targets), "rolled": True,
                                               "deadline": None}))


def _blast_outcome(c: Combat, a: AoEAction, ctx: Context) -> Combat:
    """"If a target spends an action on a successful Defend that beats your roll they take no
    damage. Otherwise each target takes that amount of damage." (RULINGS 6 for "beats")."""
    user = c.fighter(a.attacker)
    att = a.roll.roll.result
    wounds = []
    for t in a.targets:
        g = c.fighter(t.fighter)
        if t.roll is not None:
            d = t.roll.roll.result
            if d.critical_failure:
                c = put(c, lose_action(c.fighter(g.key)))
                ctx.emit(EventKind.LOST_ACTION, phrase(
                    "{fighter} rolled a critical failure and loses the next action.",
                    fighter=g.name), g.key)
            if opposed(att, d, a_side=side(user), b_side=side(g)) == 1:
                ctx.emit(EventKind.DEFENDED, phrase(
                    "{fighter}'s Defend ({defend}) beats {attack}: no damage.", fighter=g.name,
                    defend=d.value, attack=att.value), g.key)
                continue
            ctx.emit(EventKind.DEFEND_FAILED, phrase(
                "{fighter}'s Defend ({defend}) does not beat {attack}.", fighter=g.name,
                defend=d.value, attack=att.value), g.key)
        if not a.first:
            ctx.emit(EventKind.DAMAGE, phrase("{fighter} takes no damage (a damage die of 0).",
                                              fighter=g.name), g.key)
            continue
        wounds.append(AoEWound(fighter=g.key, amount=a.first))
    return replace_top(c, a.model_copy(update={"outcome_done": True, "wounds": tuple(wounds)}))


# -- answers ----------------------------------------------------------------------------------


def _asked(c: Combat, name: str, ctx: Context) -> tuple[Fighter, Prompt]:
    require_phase(c, Phase.RESOLUTION)
    if not isinstance(c.step, AoEAction | ContinuousBurn):
        raise RuleError(phrase("No AoE is waiting for a choice now."))
    key = c.fighter(name).key
    for p in c.prompts:
        if p.fighter == key and p.kind in _PROMPTS:
            return answering(c, p.kind, name, ctx.actor)
    raise RuleError(phrase("Nothing about the AoE is waiting for {fighter} now.",
                           fighter=c.fighter(name).name))


def aoe_choice(c: Combat, cmd: AoEChoice, ctx: Context) -> Combat:
    """One answer to whatever the AoE asks the fighter: the dice, a target, Defend or not, a
    point of damage placed, armor used or not."""
    f, asked = _asked(c, cmd.fighter, ctx)
    option = cmd.option
    if isinstance(c.step, ContinuousBurn):
        if option not in asked.options:
            raise RuleError(phrase("Choose one of: {options}.", options=", ".join(asked.options)))
        return wound_answer(c, c.step, f, asked, option, ctx)
    a = _top(c)
    if asked.kind is PromptKind.AOE_TARGET:
        picked = c.fighter(option)
        if picked.name not in asked.options:
            names = ", ".join(c.fighter(k).name for k in asked.options)
            raise RuleError(phrase("Choose one of: {options}.", options=names))
        return _take(c, a, (picked.key,), ctx)
    if option not in asked.options:
        raise RuleError(phrase("Choose one of: {options}.", options=", ".join(asked.options)))
    if asked.kind is PromptKind.AOE_DICE:
        res = a.roll.roll.result
        first, second = (res.tens, res.ones) if option == "tens" else (res.ones, res.tens)
        return _dice_chosen(c, a, first, second, ctx)
    if asked.kind is PromptKind.AOE_DEFEND:  # an answer in the Blast's reaction window
        return react(c, React(fighter=f.key, reaction="defend" if option == "defend" else "pass"),
                     ctx)
    return wound_answer(c, a, f, asked, option, ctx)


def prompts(c: Combat, a: AoEAction) -> tuple[Prompt, ...]:
    if a.roll.roll.awaits_critical_choice:
        return (prompt(c, PromptKind.CRITICAL, a.attacker, ("extra_action", "adjust")),)
    if not a.outcome_done:
        if a.first is None:
            return (prompt(c, PromptKind.AOE_DICE, a.attacker, ("tens", "ones")),)
        if not a.targets_done:
            return (prompt(c, PromptKind.AOE_TARGET, a.attacker,
                           tuple(c.fighter(k).name for k in a.offered)),)
        defends = asked(c, a)
        if defends:
            return defends
        return tuple(prompt(c, PromptKind.CRITICAL, t.fighter, ("extra_action", "adjust"))
                     for t in a.targets
                     if t.roll is not None and t.roll.roll.awaits_critical_choice)
    return wound_prompts(c, a.wounds)
