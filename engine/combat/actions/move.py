"""Move (004 "Move"; RULINGS 7, 11): one step along a line of movement, after the other
teams' Intercept window; each Intercept in turn, then where the mover ends.

Speed (004 "Abilities": Speed) is a Move with a second area (``Move.then``): the first step's
window opens as for any Move, then the mover rolls (RULINGS 20: reactions are declared before
the acting character's dice). On a success the first step's Intercepts are resolved, the mover
arrives, and a second step from there to ``then`` opens its own window; on a failure the
Intercepts are resolved all the same ("still treated as a move attempt for Intercept") and the
mover stays where it was. Both steps are one action: whoever reacted to the first step cannot
react to the second (004 "Actions": at most once per action).

Stealth is lost as the Move starts and comes back when the whole Move action ends in an area
without enemies (``engine.combat.stealth``)."""

from __future__ import annotations

from engine.catalog import Action, Rules
from engine.character import can_move, status
from engine.combat.abilities.hooks import moves_twice
from engine.combat.action_kinds import ActionKind
from engine.combat.actions.intercept import after_intercept, next_intercept
from engine.combat.actions.window import asked, open_window
from engine.combat.commands import Move, StopArea
from engine.combat.context import Context
from engine.combat.fighters import acting_fighter, can_act, lose_action, put, spend_action
from engine.combat.hidden_npcs import STATUS_WORDS
from engine.combat.model import Combat, EventKind, Fighter, Phase, Prompt, PromptKind
from engine.combat.phase_guard import require_phase
from engine.combat.prompts import answering, prompt
from engine.combat.roll_spec import make_roll, roll_spec
from engine.combat.rolls import wants_reroll
from engine.combat.step_values import MoveAction
from engine.combat.steps import pop, push, replace_top
from engine.errors import RuleError
from engine.maps import GameMap, Kind, UnknownAreaError
from engine.names import name_key
from engine.phrases import Said, phrase

__all__ = ["advance", "legal_moves", "legal_second_moves", "move", "prompts", "stop_area"]


def _way_problem(m: GameMap, name: str, frm: str, to: str) -> Said | None:
    """Why nobody can step from ``frm`` to ``to`` (canonical areas) on this map, or None."""
    if to == frm:
        if name:
            return phrase("{name} is already in {area}.", name=name, area=to)
        return phrase("{area} is where that step starts.", area=to)
    if m.can_move(frm, to):
        return None
    conn = m.connection(frm, to)
    if conn is not None and conn.kind is Kind.DOOR:
        return phrase("The door between {here} and {there} is closed: open it first (an "
                      "action).", here=frm, there=to)
    if conn is not None and conn.kind is Kind.ARROW:
        return phrase("The way between {here} and {there} goes one way only: from {start}.",
                      here=frm, there=to, start=conn.a)
    if conn is not None and conn.kind is Kind.SIGHT:
        return phrase("{here} and {there} are joined by sight only; nobody can move between "
                      "them.", here=frm, there=to)
    steps: Said = ", ".join(m.moves_from(frm)) or phrase("nowhere")
    if name:
        return phrase("{area} is not one step from {start}; from there {name} can move to: "
                      "{steps}.", area=to, start=frm, name=name, steps=steps)
    return phrase("{area} is not one step from {start}; from there one can move to: {steps}.",
                  area=to, start=frm, steps=steps)


def _move_problem(c: Combat, f: Fighter, to: str, rules: Rules) -> Said | None:
    """Why ``f`` cannot Move to ``to`` (a canonical area) now, or None."""
    ch = f.character
    problem = _way_problem(c.game_map(), f.name, f.area, to)
    if problem:
        return problem
    if not can_move(ch, rules=rules):
        legs = rules.body.legs
        full = [loc for loc in legs if len(ch.marks(loc.id)) >= loc.boxes]
        if not full:  # not the legs: unconscious, surrendered or dead
            return phrase("{name} is {status} and cannot move.", name=f.name,
                          status=STATUS_WORDS[status(ch, rules=rules)])
        if len(full) == len(legs):
            return phrase("Both of {name}'s legs are full: they cannot move.", name=f.name)
        return phrase("{name}'s {part} is full: moving needs both hands usable and empty.",
                      name=f.name, part=full[0].said_lower)
    return None


def legal_moves(combat: Combat, fighter_key: str, rules: Rules) -> tuple[str, ...]:
    """The areas this fighter could Move to now (one step, arrows and doors respected)."""
    f = combat.fighter(fighter_key)
    return tuple(
        a
        for a in combat.game_map().moves_from(f.area)
        if _move_problem(combat, f, a, rules) is None
    )


def legal_second_moves(
    combat: Combat, fighter_key: str, rules: Rules, to: str
) -> tuple[str, ...]:
    """The areas a Speed move's second step could go to after a first step to ``to``: none
    without Speed, or when that first step is not a legal Move."""
    f = combat.fighter(fighter_key)
    m = combat.game_map()
    if not moves_twice(f.character) or to not in m:
        return ()
    first = m.area(to)
    if _move_problem(combat, f, first, rules) is not None:
        return ()
    return m.moves_from(first)


def _area(m: GameMap, name: str) -> str:
    try:
        return m.area(name)
    except UnknownAreaError:
        raise RuleError(phrase("There is no area called {area} on this map.",
                               area=repr(name.strip()))) from None


def move(c: Combat, cmd: Move, ctx: Context) -> Combat:
    rules = ctx.rules
    f = acting_fighter(c, cmd.fighter, ctx)
    m = c.game_map()
    to = _area(m, cmd.to)
    problem = _move_problem(c, f, to, rules)
    if problem:
        raise RuleError(problem)
    then = None
    if cmd.then is not None:
        if not moves_twice(f.character):
            raise RuleError(phrase("Moving twice in one action needs the Speed ability, which "
                                   "{name} does not have.", name=f.name))
        then = _area(m, cmd.then)
        problem = _way_problem(m, "", to, then)
        if problem:
            raise RuleError(phrase("The second step: {problem}", problem=problem))
    seq = c.action_seq + 1
    c = put(c, spend_action(f, ctx, ActionKind.MOVE))
    if then is None:
        ctx.emit(EventKind.DECLARE, phrase("{name} moves from {here} to {there}.", name=f.name,
                                           here=f.area, there=to), f.key)
    else:
        ctx.emit(
            EventKind.DECLARE,
            phrase("{name} moves from {here} to {there}, then on to {then} (Speed: a roll after "
                   "the Intercept window; on a failure they stay).", name=f.name, here=f.area,
                   there=to, then=then),
            f.key,
        )
    mv = MoveAction(seq=seq, mover=f.key, frm=f.area, to=to, then=then,
                    direction=f.directed)  # a waiting direction paid for it
    c = push(c.model_copy(update={"action_seq": seq}), mv)
    return open_window(c, ctx)  # the Intercept window


def advance(c: Combat, ctx: Context) -> tuple[Combat, bool]:
    """The move on top: its window, the Speed roll, each Intercept (pushed above it), the
    stop, the end (and a Speed move's second step)."""
    mv = c.step
    assert isinstance(mv, MoveAction)
    if mv.window_open:
        return c, True
    mv = mv.model_copy(update={"window_closed": True, "deadline": None})
    if mv.then is not None and not mv.roll_done:
        c, mv = _speed_roll(c, mv, ctx)
        if not mv.roll_done:
            return replace_top(c, mv), True
    if mv.intercepting is not None:
        mv = after_intercept(c, mv, ctx)
    if mv.stop_chooser is not None:
        return replace_top(c, mv), True
    c, pushed = next_intercept(c, mv, ctx)
    if pushed:
        return c, False
    return _finish(c, ctx), False


def _speed_roll(c: Combat, mv: MoveAction, ctx: Context) -> tuple[Combat, MoveAction]:
    """Roll for Speed (once), wait for a good re-roll or a critical choice, then say what
    the roll means: ``mv.roll_done`` once it is final."""
    mover = c.fighter(mv.mover)
    if mv.roll is None:
        rolled = make_roll(roll_spec(mover, ctx.rules, Action.MOVE), ctx.dice)
        mv = mv.model_copy(update={"roll": rolled})
        ctx.say_roll(EventKind.ROLL, phrase("{name} rolls for Speed", name=mover.name), mover,
                     rolled.roll.result)
    state = mv.roll
    assert state is not None
    if wants_reroll(state) or state.roll.awaits_critical_choice:
        return c, mv
    result = state.roll.result
    if result.critical_failure:
        c = put(c, lose_action(mover))
        ctx.emit(EventKind.LOST_ACTION,
                 phrase("{name} rolled a critical failure and loses the next action.",
                        name=mover.name), mover.key)
    if result.success:
        ctx.emit(EventKind.SPEED, phrase("{name} moves twice: to {there}, then {then}.",
                                         name=mover.name, there=mv.to, then=mv.then or ""),
                 mover.key)
    else:
        ctx.emit(EventKind.SPEED,
                 phrase("{name}'s Speed roll fails: {name} stays in {area} (still a move "
                        "attempt for Intercept).", name=mover.name, area=mv.frm), mover.key)
    return c, mv.model_copy(update={"roll_done": True})


def _finish(c: Combat, ctx: Context) -> Combat:
    """The step on top is over: the mover ends where it stopped, stays (a failed Speed roll)
    or arrives; then the second step of a Speed move, or the end of the Move action."""
    mv = c.step
    assert isinstance(mv, MoveAction)
    mover = c.fighter(mv.mover)
    if mv.stop_area is not None:
        area = mv.stop_area
    elif mv.stays:
        area = mv.frm
    else:
        area = mv.to
        ctx.emit(EventKind.MOVED, phrase("{name} is now in {area}.", name=mover.name, area=area),
                 mover.key)
    c = pop(put(c, mover.model_copy(update={"area": area})))
    if mv.goes_on and mv.stop_area is None:
        assert mv.then is not None
        mover = c.fighter(mv.mover)
        if can_act(mover, ctx.rules) and can_move(mover.character, rules=ctx.rules) and (
                c.game_map().can_move(area, mv.then)):
            second = MoveAction(seq=mv.seq, mover=mover.key, frm=area, to=mv.then,
                                second=True)
            ctx.emit(EventKind.DECLARE, phrase("{name} moves on from {here} to {there}.",
                                               name=mover.name, here=area, there=mv.then),
                     mover.key)
            return open_window(push(c, second), ctx)
        ctx.emit(EventKind.STOPPED, phrase("{name} cannot take the second step.",
                                           name=mover.name), mover.key)
    return c


def stop_area(c: Combat, cmd: StopArea, ctx: Context) -> Combat:
    require_phase(c, Phase.RESOLUTION)
    f, asked = answering(c, PromptKind.STOP_AREA, cmd.fighter, ctx.actor)
    mv = c.step
    assert isinstance(mv, MoveAction)
    mover = c.fighter(mv.mover)
    if cmd.area == StopArea.GO_ON and StopArea.GO_ON in asked.options:
        ctx.emit(EventKind.STOP_AREA, phrase("{name} lets {mover} go on.", name=f.name,
                                             mover=mover.name), mover.key)
        return replace_top(c, mv.model_copy(update={"stop_chooser": None,
                                                    "stop_optional": False}))
    key = name_key(cmd.area)
    area = next((o for o in asked.options if o and o.casefold() == key), None)
    if area is None:
        areas = [o for o in asked.options if o]
        if StopArea.GO_ON in asked.options:
            raise RuleError(phrase("Choose one of: {areas}, or let them go on.",
                                   areas=", ".join(areas)))
        raise RuleError(phrase("Choose one of: {areas}.", areas=", ".join(areas)))
    ctx.emit(EventKind.STOP_AREA, phrase("{name} puts {mover} in {area}.", name=f.name,
                                         mover=mover.name, area=area), mover.key)
    c = put(c, mover.model_copy(update={"area": area}))
    return replace_top(c, mv.model_copy(update={"stop_area": area, "stop_chooser": None}))


def prompts(c: Combat, mv: MoveAction) -> tuple[Prompt, ...]:
    if mv.window_open:
        return asked(c, mv)
    state = mv.roll
    if state is not None and not mv.roll_done:
        if wants_reroll(state):
            return (prompt(c, PromptKind.REROLL, state.fighter, ("tens", "ones", "both", "keep")),)
        if state.roll.awaits_critical_choice:
            return (prompt(c, PromptKind.CRITICAL, state.fighter, ("extra_action", "adjust")),)
    if mv.stop_chooser is not None:
        go_on = (StopArea.GO_ON,) if mv.stop_optional and mv.goes_on else ()
        return (prompt(c, PromptKind.STOP_AREA, mv.stop_chooser, (mv.frm, mv.to, *go_on)),)
    return ()
