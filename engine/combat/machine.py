"""The combat state machine: ``apply(combat, command, ...) -> (new combat, events)``.

Each command kind has one handler (``HANDLERS``, one module per rulebook heading); a handler
checks everything before it rolls a die, so a refused command raises ``RuleError`` and changes
nothing. A handler changes the fight and returns: it never calls on to what comes next. Then
one loop advances the step on top of the stack (``Combat.steps``: an attack, a move, a first
aid; an Intercept is an attack pushed above its move) until it waits for someone or leaves the
stack, and the one below resumes; before each advance, what the step had to roll for a
fighter who can no longer act lapses (``engine.combat.lapse``). The same loop runs the lifecycle
(``engine.combat.effects``): the start of each action the handler spent, the end of each action
whose step left the stack. Last, ``settle`` ends turns and rounds that have nothing
left, ends the fight when one team is left standing, and works out what the fight waits for
next (``Combat.prompts``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

# By their full names: the package's __init__ imports this module, so nothing comes from it.
import engine.combat.between_turns as between_turns
import engine.combat.choices as choices
import engine.combat.damage as damage
import engine.combat.effects as effects
import engine.combat.initiative as initiative
import engine.combat.lapse as lapse
import engine.combat.rounds as rounds
import engine.combat.turn_deadline as turn_deadline
from engine.catalog import Rules
from engine.combat.actions import (
    all_out,
    aoe,
    aoe_effects,
    attack,
    direct,
    door,
    first_aid,
    gm,
    items,
    move,
    orders,
    rally,
    setup,
    surrender,
    window,
)
from engine.combat.alike import fold_copies
from engine.combat.commands import (
    AddFighter,
    AddFighters,
    AidMark,
    AllOutDefend,
    Answers,
    AoE,
    AoEChoice,
    Armor,
    Attack,
    Begin,
    BetweenTurnsDeadline,
    ChooseDice,
    ChooseOrder,
    ChooseRoller,
    CloseWindow,
    Command,
    CriticalChoice,
    DestroyItem,
    Direct,
    Done,
    Door,
    EndCombat,
    ExtendTurn,
    FirstAid,
    GMSet,
    ManageItems,
    Modifier,
    Move,
    Rally,
    React,
    Rearrange,
    RefuseDirection,
    RemoveFighter,
    Reroll,
    SetOrder,
    StopArea,
    Surrender,
    TurnDeadline,
)
from engine.combat.context import Context
from engine.combat.fighters import standing_teams
from engine.combat.model import Actor, Combat, Event, EventKind, Phase, Prompt, TurnEnd
from engine.combat.pace import between_turns_clock, with_pace
from engine.combat.step_values import (
    AidAction,
    AoEAction,
    AttackAction,
    ContinuousBurn,
    MoveAction,
    RallyAction,
)
from engine.combat.tally import count_used_up
from engine.dice import DiceSource
from engine.errors import RuleError
from engine.phrases import Said, phrase

__all__ = ["HANDLERS", "STEPS", "apply", "new_combat"]


def new_combat(map_text: str, *, reaction_seconds: int = 45, hide_npcs: bool = False,
               turn_seconds: int | None = None, turn_end: TurnEnd = TurnEnd.ASK) -> Combat:
    """A combat in SETUP on this map (the map is parsed now, so a bad map is refused now);
    ``hide_npcs``: the players see NPCs' levels and marks only as a band (``hidden_npcs``);
    its pace: a reaction window's and a turn's length (1 second to 14 days; a turn: None, no
    deadline) and what a turn's deadline does (``engine.combat.pace``).

    >>> new_combat("Bar -- Kitchen").phase
    <Phase.SETUP: 'setup'>
    """
    c = Combat(map_text=map_text, hide_npcs=hide_npcs)
    c = with_pace(c, reaction_seconds=reaction_seconds, turn_seconds=turn_seconds,
                  turn_end=turn_end, now=0.0)
    c.game_map()
    return c


def apply(
    combat: Combat, command: Command, *, actor: Actor, dice: DiceSource, rules: Rules, now: float
) -> tuple[Combat, tuple[Event, ...]]:
    """Apply one command; a new Combat and what happened, or RuleError (nothing changed)."""
    if isinstance(command, Answers):
        return _apply_each(combat, command, actor=actor, dice=dice, rules=rules, now=now)
    if combat.phase is Phase.ENDED:
        raise RuleError(phrase("This combat is over."))
    ctx = Context(actor=actor, dice=dice, rules=rules, now=now, hide_npcs=combat.hide_npcs)
    new = HANDLERS[type(command)](combat, command, ctx)
    new = settle(advance(new, ctx), ctx)
    return count_used_up(combat, new), tuple(ctx.events)


def _apply_each(
    combat: Combat, command: Answers, *, actor: Actor, dice: DiceSource, rules: Rules, now: float
) -> tuple[Combat, tuple[Event, ...]]:
    """Each of several answers in turn, as if sent one after another; one refused refuses all
    (the values are frozen: nothing changed). What numbered copies did alike is told once
    ("Goon 1-10 do not defend.")."""
    events: list[Event] = []
    for answer in command.answers:
        if isinstance(answer, Answers):
            raise RuleError(phrase("Answers given together do not nest."))
        combat, said = apply(combat, answer, actor=actor, dice=dice, rules=rules, now=now)
        events.extend(said)
    return combat, fold_copies(events, {f.key: f.name for f in combat.fighters})


HANDLERS: dict[type, Callable[[Combat, Any, Context], Combat]] = {
    AddFighter: setup.add_fighter,
    AddFighters: setup.add_fighters,
    RemoveFighter: setup.remove_fighter,
    Begin: setup.begin,
    EndCombat: setup.end_combat,
    ChooseOrder: rounds.choose_order,
    ChooseRoller: initiative.choose_roller,
    Done: rounds.done,
    Attack: attack.attack,
    AoE: aoe.aoe,
    AoEChoice: aoe.aoe_choice,
    Move: move.move,
    StopArea: move.stop_area,
    React: window.react,
    AllOutDefend: all_out.all_out_defend,
    CloseWindow: window.close_window,
    TurnDeadline: turn_deadline.turn_deadline,
    BetweenTurnsDeadline: lambda c, cmd, ctx: between_turns.between_turns_deadline(
        c, cmd, ctx, _answer_by_default),
    ExtendTurn: turn_deadline.extend_turn,
    Door: door.door,
    FirstAid: first_aid.first_aid,
    AidMark: first_aid.aid_mark,
    ManageItems: items.manage_items,
    Rearrange: items.rearrange,
    Rally: rally.rally,
    Direct: direct.direct,
    RefuseDirection: direct.refuse_direction,
    Reroll: choices.reroll,
    CriticalChoice: choices.critical,
    DestroyItem: choices.destroy,
    ChooseDice: damage.choose_dice,
    Modifier: damage.modifier,
    Armor: damage.armor,
    Surrender: surrender.surrender,
    GMSet: gm.gm_set,
    SetOrder: orders.set_order,
}


@dataclass(frozen=True)
class StepRules:
    """How one kind of step goes on by itself, and what it waits for when it cannot."""

    advance: Callable[[Combat, Context], tuple[Combat, bool]]  # (combat, waiting)
    prompts: Callable[[Combat, Any], tuple[Prompt, ...]]


STEPS: dict[type, StepRules] = {
    AttackAction: StepRules(attack.advance, attack.prompts),
    MoveAction: StepRules(move.advance, move.prompts),
    AidAction: StepRules(first_aid.advance, first_aid.prompts),
    RallyAction: StepRules(rally.advance, rally.prompts),
    AoEAction: StepRules(aoe.advance, aoe.prompts),
    ContinuousBurn: StepRules(window.after_burn, aoe_effects.burn_prompts),
}

_MAX_STEPS = 1000  # a step either waits, or leaves the stack, or pushes one that will


def advance(c: Combat, ctx: Context) -> Combat:
    """Run the lifecycle of the actions started (``engine.combat.effects``), advance the step
    on top until one waits for someone or the stack is empty (an action whose step left is
    over), and say where the fight is: a reaction window open, choices during resolution, or
    the turn."""
    c = effects.start_actions(c, ctx)  # the actions the handler started
    if c.phase is Phase.INITIATIVE:
        return initiative.advance_initiative(c, ctx)
    for _ in range(_MAX_STEPS):
        step = c.step
        if step is None:
            break
        c, waiting = _advance_top(c, ctx)
        c = effects.start_actions(effects.action_over(c, step, ctx), ctx)
        if waiting:
            break
    step = c.step
    if step is not None:
        phase = Phase.REACTION if step.window_open else Phase.RESOLUTION
    elif c.phase in (Phase.REACTION, Phase.RESOLUTION):
        phase = Phase.TURN
    else:
        phase = c.phase
    return c if phase is c.phase else c.model_copy(update={"phase": phase})


def _advance_top(c: Combat, ctx: Context) -> tuple[Combat, bool]:
    """The step on top, once what it had to roll for fighters who can no longer act has
    lapsed (``lapse``: rules note 56), advanced as its kind says; a step that lapsed whole
    has left the stack."""
    depth = len(c.steps)
    c = lapse.lapse_pending(c, ctx)
    step = c.step
    if len(c.steps) < depth or step is None:
        return c, False
    return STEPS[type(step)].advance(c, ctx)


def settle(c: Combat, ctx: Context) -> Combat:
    """End turns and rounds with nothing left, end the fight when one team stands (once its
    leaders had their rally at the end), and say what the fight waits for next."""
    rules = ctx.rules
    for _ in range(_MAX_STEPS):  # every pass either stops or moves the turn on
        if c.phase in (Phase.SETUP, Phase.ENDED) or c.steps:
            break
        standing = standing_teams(c, rules)
        if len(standing) < 2:
            who = c.ending or (
                phrase("Only {team} are left standing.", team=standing[0]) if standing
                else phrase("Nobody is left standing.")
            )
            leaders = rally.end_rallies(c, rules)
            if leaders:  # 004 "Leader": a rally "at the end of combat"
                if c.phase is not Phase.ENDING:
                    ctx.emit(EventKind.ENDING, phrase(
                        "{why} Before the fight ends, {names} may rally (once per fight).",
                        why=who, names=_all_of([f.name for f in leaders])))
                c = c.model_copy(update={"phase": Phase.ENDING, "ending": who})
                break
            c = rounds.end(c, ctx, who)
            break
        if c.phase is Phase.ENDING:  # a correction put a second team back on its feet
            c = c.model_copy(update={"phase": Phase.TURN, "ending": None})
            continue
        if c.phase is Phase.TURN:
            team = c.acting_team
            if team is None or not rounds.team_can_act(c, team, rules):
                c = rounds.next_turn(c, ctx)
                continue
        break
    c = c.model_copy(update={"prompts": _prompts(c, rules)})
    return between_turns_clock(c, ctx.now)


def _answer_by_default(c: Combat, command: Command, ctx: Context) -> Combat:
    """One answer given as a passed deadline's default, the fight then going on as after
    any command (``engine.combat.between_turns``)."""
    return settle(advance(HANDLERS[type(command)](c, command, ctx), ctx), ctx)


def _prompts(c: Combat, rules: Rules) -> tuple[Prompt, ...]:
    step = c.step
    if step is not None and c.phase in (Phase.REACTION, Phase.RESOLUTION):
        return STEPS[type(step)].prompts(c, step)
    if c.phase is Phase.ENDING:
        return rally.end_prompts(c, rules)
    return rounds.round_prompts(c, rules)


def _all_of(names: list[str]) -> Said:
    """Names joined as "Ana and Bo and Cy"."""
    said: Said = names[-1]
    for name in reversed(names[:-1]):
        said = phrase("{first} and {last}", first=name, last=said)
    return said
