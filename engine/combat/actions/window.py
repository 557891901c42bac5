"""The reaction window (004 "Reactions"), one for every step that may be reacted to: an Attack
(the target: Defend, or Counterattack in melee; whoever may Defend the target for them: the
Shield ability), a Move (Intercept) and a Blast (each target chosen: Defend; 004 "Abilities":
AoE). Those who may react answer before the dice they react to are rolled (a Blast's targets
once the user's roll and choices are made).

- ``reactors``: who may react to the step and with what;
- ``open_window``: the window opens (or opens again, with its full time, once Continuous damage
  that interrupted it is placed): the one place its deadline is set, and it is announced;
- ``asked``: what the open window waits for (its prompts, with the deadline);
- ``react``: an answer (a Blast's Defend is one, its button an ``AoEChoice``);
- ``close_window``: time is up, or a GM resolves it now; silence is a pass (no Defend),
  except that when time is up, whoever has a standing order for the situation answers by it
  if that answer is taken then (``engine.combat.actions.orders``; rules note 60).

The window also closes by itself once everyone has answered. A Counterattack or an Intercept
may be declared less-lethal (004 "Less-lethal"): the reactor's choice is kept on its
``Reactor`` and reaches the hit; the announcement says when a less-lethal answer is offered,
as its button does."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import replace

from engine.catalog import Action, Rules
from engine.combat.abilities.hooks import act_problem, free_defend, may_defend
from engine.combat.action_kinds import ActionKind
from engine.combat.actions.aoe_effects import burn_advance
from engine.combat.actions.counterattack import counter_choices, counter_weapons
from engine.combat.actions.intercept import intercept_reactor, intercept_weapons
from engine.combat.actions.orders import (
    REACTION_WORDS,
    order_answer,
    skipped_text,
)
from engine.combat.actions.reaction_said import ammo_refusal, answer_said, not_defending
from engine.combat.actions.weapon_words import range_said, weapon_said
from engine.combat.commands import CloseWindow, React
from engine.combat.context import Context, require_control, require_gm
from engine.combat.crowd import group_names
from engine.combat.fighters import can_act, put, spend_reaction
from engine.combat.model import Combat, EventKind, Fighter, Phase, Prompt, PromptKind
from engine.combat.order_values import Situation
from engine.combat.pace import duration_phrase
from engine.combat.phase_guard import require_phase
from engine.combat.prompts import LESS_LETHAL, prompt, react_options, window_prompts
from engine.combat.stealth import hidden
from engine.combat.step_values import AoEAction, AttackAction, MoveAction, Reactor, Weapon
from engine.combat.steps import replace_top
from engine.combat.weapons import pick_weapon
from engine.errors import RuleError
from engine.listing import any_of, names_listed, one_by_one
from engine.phrases import Phrase, Said, phrase, plural_phrase

__all__ = [
    "WindowStep", "after_burn", "asked", "close_window", "open_window", "react",
    "reaction_words", "reactors", "window_step",
]

#: A step that has a reaction window.
WindowStep = AttackAction | MoveAction | AoEAction


# -- who may react ----------------------------------------------------------------------------


def reactors(c: Combat, step: WindowStep, rules: Rules) -> tuple[Reactor, ...]:
    """Who may react to ``step`` and with what, in the window's order: for an Attack the
    target first, then (Shield: Defend another character) everyone not of the attacker's team
    who may Defend the target for them, in the fight's order; for a Move every fighter of
    another team with a weapon that reaches and sees; for a Blast each chosen target other
    than its user. Each must be able to act and not have reacted to this action yet; a
    reaction spends an action unless All-Out Defend makes the Defend free (and then it is the
    only answer)."""
    if isinstance(step, AttackAction):
        return _attack_reactors(c, step, rules)
    if isinstance(step, MoveAction):
        # A mover loses Stealth on starting the Move (``engine.combat.stealth``, at the
        # action's start), so interceptors see the mover as not hidden.
        mover = c.fighter(step.mover)
        return tuple(
            r for g in c.fighters
            if g.team != mover.team and _may_react(g, step.seq, rules)
            and (r := intercept_reactor(c, g, step.frm, step.to, rules)) is not None
        )
    return tuple(
        Reactor(fighter=g.key, options=("defend",), free=free_defend(g, g))
        for t in step.targets
        if (g := c.fighter(t.fighter)).key != step.attacker
        and _may_react(g, step.seq, rules, free=free_defend(g, g))
    )


def _may_react(g: Fighter, seq: int, rules: Rules, *, free: bool = False) -> bool:
    """Whether ``g`` may react to the action ``seq`` at all: able to act, not reacted to it
    yet (004 "Actions": at most once per action), and an action to spend unless ``free``."""
    return (can_act(g, rules) and g.reacted_to != seq
            and (free or (g.actions > 0 and act_problem(g) is None)))


def _attack_reactors(c: Combat, a: AttackAction, rules: Rules) -> tuple[Reactor, ...]:
    f = c.fighter(a.attacker)
    t = c.fighter(a.target)
    found = [r for r in (_target_reactor(c, f, t, a, rules),) if r is not None]
    for g in c.fighters:
        if (
            g.key not in (f.key, t.key)
            and g.team != f.team
            and _may_react(g, a.seq, rules)
            and may_defend(c, g, t, rules)
        ):
            found.append(Reactor(fighter=g.key, options=("defend",)))
    return tuple(found)


def _target_reactor(
    c: Combat, f: Fighter, t: Fighter, a: AttackAction, rules: Rules
) -> Reactor | None:
    free = free_defend(t, t)
    if not _may_react(t, a.seq, rules, free=free):
        return None
    if free:  # All-Out Defend: a Defend that spends no action, and nothing else
        return Reactor(fighter=t.key, options=("defend",), free=True)
    options = ["defend"]
    counter, gentle = counter_choices(c, f, t, a.weapon, rules)
    if counter is not None or gentle is not None:
        options.append("counterattack")
    return Reactor(fighter=t.key, options=tuple(options), weapon=counter,
                   less_lethal_weapon=gentle)


# -- opening ----------------------------------------------------------------------------------


def open_window(c: Combat, ctx: Context, *, again: bool = False) -> Combat:
    """Open the window of the step on top: work out who may react, give it
    ``reaction_seconds`` when anyone is asked, and announce it (a Blast's targets who cannot
    Defend pass, and are told so, in the targets' order). ``again``: the window was
    interrupted by Continuous damage, now placed: whoever has not answered yet is asked again,
    with the full time."""
    step = c.step
    assert isinstance(step, AttackAction | MoveAction | AoEAction)
    if again:
        _announce(c, step, _unanswered(step), ctx)
    else:
        step = _with_reactors(c, step, ctx)
    deadline = ctx.now + c.reaction_seconds if _unanswered(step) else None
    return replace_top(c, step.model_copy(update={"deadline": deadline}))


def _with_reactors(c: Combat, step: WindowStep, ctx: Context) -> WindowStep:
    """``step`` with those who may react to it, each announced as found."""
    found = reactors(c, step, ctx.rules)
    if not isinstance(step, AoEAction):
        step = step.model_copy(update={"reactors": found})
        _announce(c, step, (r.fighter for r in found), ctx)
        return step
    able = {r.fighter for r in found}
    targets = []
    for t in step.targets:
        if t.fighter not in able:
            ctx.emit(EventKind.AOE, phrase("{name} cannot Defend.", name=c.fighter(t.fighter).name),
                     t.fighter)
            t = t.model_copy(update={"answer": "pass"})
        targets.append(t)
    _announce(c, step, (t.fighter for t in step.targets if t.fighter in able), ctx)
    return step.model_copy(update={"targets": tuple(targets)})


def _unanswered(step: WindowStep) -> tuple[str, ...]:
    """The keys of those asked who have not answered yet, in the window's order."""
    slots = step.targets if isinstance(step, AoEAction) else step.reactors
    return tuple(s.fighter for s in slots if s.answer is None)


def reaction_words(r: Reactor) -> tuple[Phrase, ...]:
    """A reactor's answers in words: "defend", "counterattack (lethal or less-lethal)",
    "intercept (less-lethal only)", "pass"."""
    words: dict[str, Phrase] = {}
    for option in react_options(r):
        reaction = option.removesuffix(LESS_LETHAL)
        word = REACTION_WORDS[reaction]
        if reaction == option:
            words[reaction] = word
        elif reaction in words:
            words[reaction] = phrase("{reaction} (lethal or less-lethal)", reaction=word)
        else:
            words[reaction] = phrase("{reaction} (less-lethal only)", reaction=word)
    return tuple(words.values())


def _announce(c: Combat, step: WindowStep, keys: Iterable[str], ctx: Context) -> None:
    """Tell the table who may answer, how, and within how long: those who may answer alike
    share a line (numbered copies as one entry, "Goon 1-10"), and the time is said once."""
    alike: dict[Phrase, list[Fighter]] = {}
    for key in keys:
        f = c.fighter(key)
        if isinstance(step, AoEAction):
            what = (phrase("Defend against the blast (without spending an action) or take the "
                           "damage") if free_defend(f, f)
                    else phrase("Defend against the blast (spending an action) or take the "
                                "damage"))
        else:
            r = next(r for r in step.reactors if r.fighter == key)
            what = any_of(reaction_words(r))
        alike.setdefault(what, []).append(f)
    duration = duration_phrase(c.reaction_seconds)
    for what, fighters in alike.items():
        names = names_listed(group_names([f.name for f in fighters]))
        who = fighters[0].key if len(fighters) == 1 else None
        if len(alike) == 1:
            ctx.emit(EventKind.WINDOW, plural_phrase(
                "{names} may {what} ({within}).", "{names} may {what} ({within}).", "count",
                count=len(fighters), names=names, what=what,
                within=phrase("within {duration}", duration=duration)), who)
        else:
            ctx.emit(EventKind.WINDOW, plural_phrase(
                "{names} may {what}.", "{names} may {what}.", "count",
                count=len(fighters), names=names, what=what), who)
    if len(alike) > 1:
        ctx.emit(EventKind.WINDOW, phrase("They may answer within {duration}.",
                                          duration=duration))


def asked(c: Combat, step: WindowStep) -> tuple[Prompt, ...]:
    """What the open window waits for: each one asked who has not answered yet, with the
    window's deadline (a Blast's targets: Defend or take the damage)."""
    if not isinstance(step, AoEAction):
        return window_prompts(c, step.reactors, step.deadline)
    return tuple(prompt(c, PromptKind.AOE_DEFEND, key, ("defend", "pass"), step.deadline)
                 for key in _unanswered(step))


def after_burn(c: Combat, ctx: Context) -> tuple[Combat, bool]:
    """Continuous damage on top (``aoe_effects.burn_advance``); once it is placed and gone, a
    window below that it interrupted opens again with its full time, so the others may still
    react."""
    c, waiting = burn_advance(c, ctx)
    below = c.step
    if not waiting and isinstance(below, AttackAction | MoveAction | AoEAction) and (
            below.deadline is not None):
        c = open_window(c, ctx, again=True)
    return c, waiting


# -- answering --------------------------------------------------------------------------------


def _blast_asking(a: AoEAction) -> bool:
    """Whether a Blast's targets are being asked to Defend now."""
    return a.targets_done and not a.rolled and any(t.answer is None for t in a.targets)


def window_step(c: Combat) -> WindowStep | None:
    """The step whose reaction window is open now, if any."""
    step = c.step
    if isinstance(step, AoEAction):
        return step if _blast_asking(step) else None
    if isinstance(step, AttackAction | MoveAction) and step.window_open:
        return step
    return None


def _open_step(c: Combat) -> WindowStep:
    step = window_step(c)
    if isinstance(step, AoEAction):
        return step  # a Blast's Defends are asked during its resolution
    require_phase(c, Phase.REACTION)
    assert step is not None
    return step


def _slots(c: Combat, step: WindowStep) -> tuple[Reactor, ...]:
    """Those asked, as reactors (a Blast's targets: Defend, free under All-Out Defend)."""
    if not isinstance(step, AoEAction):
        return step.reactors
    return tuple(
        Reactor(fighter=t.fighter, options=("defend",), answer=t.answer,
                free=free_defend(g, g))
        for t in step.targets if (g := c.fighter(t.fighter)).key != step.attacker
    )


def react(c: Combat, cmd: React, ctx: Context) -> Combat:
    """One answer in the open window: a Defend, a Counterattack, an Intercept, or a pass."""
    step = _open_step(c)
    f = c.fighter(cmd.fighter)
    reactor = next((r for r in _slots(c, step) if r.fighter == f.key), None)
    if reactor is None:
        raise RuleError(_no_reaction(c, step, f, cmd, ctx.rules))
    require_control(ctx.actor, f)
    if reactor.answer is not None:
        raise RuleError(phrase("{name} has already answered ({answer}).", name=f.name,
                               answer=REACTION_WORDS[reactor.answer]))
    weapon = _answer_weapon(c, step, f, reactor, cmd, ctx)
    if cmd.reaction != "pass":
        if f.actions <= 0 and not reactor.free:
            raise RuleError(phrase("{name} has no action left this round.", name=f.name))
        c = put(c, spend_reaction(f, step.seq, ctx, ActionKind(cmd.reaction), free=reactor.free))
    # Only an attack of one's own deals damage, so only it may be less-lethal.
    lethal = cmd.lethal or cmd.reaction not in ("counterattack", "intercept")
    _say_reaction(c, f, step, reactor, cmd.reaction, weapon, lethal, ctx)
    c = replace_top(c, _answered(c, step, reactor, cmd.reaction, weapon, lethal, ctx))
    return c


def _answered(c: Combat, step: WindowStep, reactor: Reactor, reaction: str,
              weapon: Weapon | None, lethal: bool, ctx: Context) -> WindowStep:
    """``step`` with ``reactor``'s answer kept."""
    key = reactor.fighter
    if isinstance(step, AoEAction):
        targets = tuple(
            t.model_copy(update={"answer": reaction, "free": reactor.free})
            if t.fighter == key else t
            for t in step.targets
        )
        return step.model_copy(update={"targets": targets})
    reactors = tuple(
        r.model_copy(update={"answer": reaction, "weapon": weapon, "lethal": lethal})
        if r.fighter == key else r
        for r in step.reactors
    )
    if isinstance(step, AttackAction) and reaction == "defend":
        reactors = _one_defend(c, step, reactors, ctx)
    return step.model_copy(update={"reactors": reactors})


def _no_reaction(c: Combat, step: WindowStep, f: Fighter, cmd: React, rules: Rules) -> Said:
    """Why ``f`` is not among those who may react to ``step``."""
    if isinstance(step, MoveAction):
        return phrase("{name} cannot intercept {mover}'s move.", name=f.name,
                      mover=c.fighter(step.mover).name)
    if isinstance(step, AoEAction):
        return phrase("{name} is not asked to Defend against the blast.", name=f.name)
    t = c.fighter(step.target)
    if cmd.reaction != "defend" or f.key in (step.attacker, step.target):
        return phrase("{name} cannot react to this attack.", name=f.name)
    attacker = c.fighter(step.attacker)
    if f.team == attacker.team:
        return phrase("{name} cannot react to an attack of their own team ({team}).",
                      name=f.name, team=f.team)
    problem = act_problem(f)
    if problem:
        return problem
    if f.actions <= 0 or f.reacted_to == step.seq:
        return phrase("{name} has no action left this round.", name=f.name)
    if not may_defend(c, f, t, rules):
        return phrase(
            "{name} cannot defend {target}: defending another character takes the Shield "
            "ability (Defend another character), a shield in a usable hand, and being in "
            "{target}'s area.", name=f.name, target=t.name)
    return phrase("{name} cannot react to this attack.", name=f.name)


def _answer_weapon(c: Combat, step: WindowStep, f: Fighter, reactor: Reactor, cmd: React,
                   ctx: Context) -> Weapon | None:
    """Check the answer against what ``reactor`` may do; the weapon it is made with."""
    if isinstance(step, MoveAction):
        return _intercept_answer(c, step, f, reactor, cmd, ctx)
    if isinstance(step, AttackAction):
        return _attack_answer(c, step, f, reactor, cmd, ctx)
    if cmd.reaction not in ("defend", "pass"):
        raise RuleError(phrase("AoEs cannot be Counterattacked or Intercepted: {name} may "
                               "Defend against the blast or take the damage.", name=f.name))
    if cmd.target is not None and c.fighter(cmd.target).key != f.key:
        raise RuleError(phrase("Against a blast, {name} can only defend themselves.",
                               name=f.name))
    return None


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
                ctx.emit(EventKind.REACT, phrase(
                    "One Defend per attack: {name} does not defend {target}.", name=name,
                    target=t.name), r.fighter)
        found.append(r)
    return tuple(found)


def _attack_answer(c: Combat, a: AttackAction, f: Fighter, reactor: Reactor, cmd: React,
                   ctx: Context) -> Weapon | None:
    if cmd.reaction == "intercept":
        raise RuleError(phrase("{name} cannot intercept an attack: Intercept reacts to a Move.",
                               name=f.name))
    t = c.fighter(a.target)
    if cmd.target is not None and c.fighter(cmd.target).key != t.key:
        raise RuleError(phrase(
            "{attacker} is attacking {target}, not {other}: {name} can only defend {target} now.",
            attacker=c.fighter(a.attacker).name, target=t.name,
            other=c.fighter(cmd.target).name, name=f.name))
    if cmd.reaction == "defend":
        other = next((r for r in a.reactors if r.answer == "defend"), None)
        if other is not None:
            raise RuleError(phrase(
                "{name} already defends {target} against this attack: one Defend per attack.",
                name=c.fighter(other.fighter).name, target=t.name))
    if cmd.reaction != "pass" and cmd.reaction not in reactor.options:
        choices = [REACTION_WORDS[o] for o in (*reactor.options, "pass")]
        raise RuleError(phrase(
            "{name} cannot {reaction} here; the choices are {choices}.", name=f.name,
            reaction=REACTION_WORDS[cmd.reaction], choices=one_by_one(choices)))
    if cmd.reaction == "defend" and not cmd.lethal:
        raise RuleError(phrase(
            "A Defend deals no damage: only a Counterattack or an Intercept can be less-lethal."
        ))
    if cmd.reaction != "counterattack":
        return reactor.weapon
    attacker = c.fighter(a.attacker)
    return _reaction_weapon(
        f, "counterattack", reactor, cmd, ctx,
        lambda lethal: counter_weapons(c, attacker, f, a.weapon, ctx.rules, lethal),
        lambda weapon: phrase("{name} cannot counterattack with {weapon} here.", name=f.name,
                              weapon=weapon_said(weapon)),
    )


def _intercept_answer(c: Combat, mv: MoveAction, f: Fighter, reactor: Reactor, cmd: React,
                      ctx: Context) -> Weapon | None:
    if cmd.reaction not in ("intercept", "pass"):
        raise RuleError(phrase("{mover} is moving: {name} may intercept or pass.",
                               mover=c.fighter(mv.mover).name, name=f.name))
    if cmd.reaction == "pass":
        return reactor.weapon
    return _reaction_weapon(
        f, "intercept", reactor, cmd, ctx,
        lambda lethal: intercept_weapons(
            c, f, mv.frm, mv.to, ctx.rules, lethal,
            hidden_mover=hidden(c, c.fighter(mv.mover), ctx.rules)),
        lambda weapon: phrase(
            "{name} cannot intercept with {weapon}: out of its range ({range}).", name=f.name,
            weapon=weapon_said(weapon), range=range_said(weapon, ctx.rules)),
    )


def _reaction_weapon(
    f: Fighter,
    verb: str,
    reactor: Reactor,
    cmd: React,
    ctx: Context,
    fits: Callable[[bool], list[Weapon]],
    unfit: Callable[[Weapon], Said],
) -> Weapon:
    """The weapon of a Counterattack or an Intercept: the one named (it must fit, with ammo of
    the sort the damage needs), else the first that fits (the window worked it out)."""
    if cmd.weapon is not None:
        weapon = pick_weapon(f, cmd.weapon, ctx.rules, Action(verb))
        assert weapon is not None
        if weapon in fits(cmd.lethal):
            return weapon
        if weapon in fits(not cmd.lethal):
            raise RuleError(ammo_refusal(f, verb, weapon, cmd.lethal))
        raise RuleError(unfit(weapon))
    chosen = reactor.weapon if cmd.lethal else reactor.less_lethal_weapon
    if chosen is None:
        other = reactor.less_lethal_weapon if cmd.lethal else reactor.weapon
        assert other is not None  # the window offers a reaction only when one is possible
        raise RuleError(ammo_refusal(f, verb, other, cmd.lethal))
    return chosen


def _say_reaction(c: Combat, f: Fighter, step: WindowStep, reactor: Reactor,
                  reaction: str, weapon: Weapon | None, lethal: bool, ctx: Context) -> None:
    """``f``'s answer, told as the table reads it ("(by the GM)" when a GM answered for a
    player's fighter, "(standing order)" when it is ``f``'s standing order)."""
    said = answer_said(c, f, step, reactor, reaction, weapon, lethal)
    ctx.emit(EventKind.REACT, ctx.decided_sentence(f, said), f.key)


# -- closing ----------------------------------------------------------------------------------


def close_window(c: Combat, cmd: CloseWindow, ctx: Context) -> Combat:
    """Time is up (or a GM resolves it now): when time is up, those asked who have a standing
    order answer by it; whoever has not answered then passes; a Blast's target who has not
    answered does not Defend, and takes the damage."""
    step = _open_step(c)
    if cmd.by_timeout:
        if step.deadline is not None and ctx.now < step.deadline:
            left = int(f"{step.deadline - ctx.now:.0f}")
            raise RuleError(plural_phrase(
                "The reaction window is still open for {seconds} more seconds.",
                "The reaction window is still open for {seconds} more seconds.", "seconds",
                seconds=left))
    else:
        require_gm(ctx.actor, phrase("close the reaction window early"))
    why = phrase("time is up") if cmd.by_timeout else phrase("the GM resolves it now")
    if isinstance(step, AoEAction):
        ctx.emit(EventKind.WINDOW_CLOSED,
                 phrase("The chance to Defend against the blast closes: {why}.", why=why))
    else:
        ctx.emit(EventKind.WINDOW_CLOSED, phrase("The reaction window closes: {why}.", why=why))
    if cmd.by_timeout:
        c = _follow_orders(c, step, ctx)
        top = c.step  # the same step, with the orders' answers
        assert isinstance(top, AttackAction | MoveAction | AoEAction)
        step = top
    if isinstance(step, AoEAction):
        for key in _unanswered(step):
            ctx.emit(EventKind.REACT, phrase("{clause}.", clause=not_defending(c.fighter(key))),
                     key)
        targets = tuple(t if t.answer is not None else t.model_copy(update={"answer": "pass"})
                        for t in step.targets)
        return replace_top(c, step.model_copy(update={"targets": targets}))
    reactors = tuple(r if r.answer is not None else r.model_copy(update={"answer": "pass"})
                     for r in step.reactors)
    return replace_top(c, step.model_copy(update={"reactors": reactors}))


def _situation(step: WindowStep) -> Situation:
    if isinstance(step, AttackAction):
        return Situation.ATTACKED
    return Situation.MOVED_PAST if isinstance(step, MoveAction) else Situation.BLAST


def _follow_orders(c: Combat, step: WindowStep, ctx: Context) -> Combat:
    """Each one asked who has not answered and has a standing order for the situation answers
    by it, as any answer is given (``react`` is the one check: an order not taken now is
    skipped, and the table is told why). An attack's order is its target's: one asked to
    Defend another (Shield) is not attacked."""
    situation = _situation(step)
    for key in _unanswered(step):
        if isinstance(step, AttackAction) and key != step.target:
            continue
        f = c.fighter(key)
        found = order_answer(c, f, situation, ctx.rules)
        if found is None:
            continue
        order, answer = found
        if not isinstance(answer, React):
            ctx.emit(EventKind.REACT, skipped_text(f, order, answer), key)
            continue
        try:
            c = react(c, answer, replace(ctx, standing_order=True))
        except RuleError as refusal:
            ctx.emit(EventKind.REACT, skipped_text(f, order, refusal.said), key)
    return c
