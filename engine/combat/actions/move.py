"""Move (004 "Move"; RULINGS 7, 11): one step along a line of movement, after the other
teams' Intercept window; each Intercept in turn, then where the mover ends."""

from __future__ import annotations

from engine.catalog import Rules
from engine.character import can_move
from engine.combat.abilities.hooks import act_problem
from engine.combat.actions.attack import announce_window
from engine.combat.actions.intercept import after_intercept, intercept_reactor, next_intercept
from engine.combat.commands import Move, StopArea
from engine.combat.context import Context, require_phase
from engine.combat.fighters import acting_fighter, can_act, put, spend_action
from engine.combat.model import (
    Combat,
    EventKind,
    Fighter,
    MoveAction,
    Phase,
    Prompt,
    PromptKind,
)
from engine.combat.prompts import answering, prompt, window_prompts
from engine.combat.steps import pop, push, replace_top
from engine.errors import RuleError
from engine.maps import Kind, UnknownAreaError
from engine.names import name_key

__all__ = ["advance", "legal_moves", "move", "prompts", "stop_area"]


def _move_problem(c: Combat, f: Fighter, to: str, rules: Rules) -> str | None:
    """Why ``f`` cannot Move to ``to`` (a canonical area) now, or None."""
    ch = f.character
    m = c.game_map()
    if to == f.area:
        return f"{f.name} is already in {to}."
    if not m.can_move(f.area, to):
        conn = m.connection(f.area, to)
        if conn is not None and conn.kind is Kind.DOOR:
            return f"The door between {f.area} and {to} is closed: open it first (an action)."
        if conn is not None and conn.kind is Kind.ARROW:
            return f"The way between {f.area} and {to} goes one way only: from {conn.a}."
        if conn is not None and conn.kind is Kind.SIGHT:
            return f"{f.area} and {to} are joined by sight only; nobody can move between them."
        steps = ", ".join(m.moves_from(f.area)) or "nowhere"
        return f"{to} is not one step from {f.area}; from there {f.name} can move to: {steps}."
    if not can_move(ch, rules=rules):
        legs = rules.body.legs
        full = [loc for loc in legs if len(ch.marks(loc.id)) >= loc.boxes]
        if len(full) == len(legs):
            return f"Both of {f.name}'s legs are full: they cannot move."
        return (
            f"{f.name}'s {full[0].name.lower()} is full: moving needs both hands usable and empty."
        )
    return None


def legal_moves(combat: Combat, fighter_key: str, rules: Rules) -> tuple[str, ...]:
    """The areas this fighter could Move to now (one step, arrows and doors respected)."""
    f = combat.fighter(fighter_key)
    return tuple(
        a
        for a in combat.game_map().moves_from(f.area)
        if _move_problem(combat, f, a, rules) is None
    )


def move(c: Combat, cmd: Move, ctx: Context) -> Combat:
    rules = ctx.rules
    f = acting_fighter(c, cmd.fighter, ctx)
    try:
        to = c.game_map().area(cmd.to)
    except UnknownAreaError:
        raise RuleError(f"There is no area called {cmd.to.strip()!r} on this map.") from None
    problem = _move_problem(c, f, to, rules)
    if problem:
        raise RuleError(problem)
    seq = c.action_seq + 1
    c = put(c, spend_action(f, ctx))
    ctx.emit(EventKind.DECLARE, f"{f.name} moves from {f.area} to {to}.", f.key)
    reactors = tuple(
        r
        for g in c.fighters
        if g.team != f.team
        and can_act(g, rules)
        and g.actions > 0
        and g.reacted_to != seq
        and act_problem(g) is None
        and (r := intercept_reactor(c, g, f.area, to, rules)) is not None
    )
    mv = MoveAction(
        seq=seq,
        mover=f.key,
        frm=f.area,
        to=to,
        reactors=reactors,
        deadline=ctx.now + c.reaction_seconds if reactors else None,
    )
    c = push(c.model_copy(update={"action_seq": seq}), mv)
    announce_window(c, reactors, ctx)
    return c


def advance(c: Combat, ctx: Context) -> tuple[Combat, bool]:
    """The move on top: its window, each Intercept (pushed above it), the stop, the end."""
    mv = c.step
    assert isinstance(mv, MoveAction)
    if mv.window_open:
        return c, True
    mv = mv.model_copy(update={"window_closed": True, "deadline": None})
    if mv.intercepting is not None:
        mv = after_intercept(c, mv, ctx)
    if mv.stop_chooser is not None:
        return replace_top(c, mv), True
    c, pushed = next_intercept(c, mv, ctx)
    if pushed:
        return c, False
    return _finish(c, mv.stop_area or mv.to, ctx), False


def _finish(c: Combat, area: str, ctx: Context) -> Combat:
    mv = c.step
    assert isinstance(mv, MoveAction)
    mover = c.fighter(mv.mover)
    c = put(c, mover.model_copy(update={"area": area}))
    if mv.stop_area is None:
        ctx.emit(EventKind.MOVED, f"{mover.name} is now in {area}.", mover.key)
    return pop(c)


def stop_area(c: Combat, cmd: StopArea, ctx: Context) -> Combat:
    require_phase(c, Phase.RESOLUTION)
    f, asked = answering(c, PromptKind.STOP_AREA, cmd.fighter, ctx.actor)
    key = name_key(cmd.area)
    area = next((o for o in asked.options if o.casefold() == key), None)
    if area is None:
        raise RuleError(f"Choose one of: {', '.join(asked.options)}.")
    mv = c.step
    assert isinstance(mv, MoveAction)
    mover = c.fighter(mv.mover)
    ctx.emit(EventKind.STOP_AREA, f"{f.name} puts {mover.name} in {area}.", mover.key)
    c = put(c, mover.model_copy(update={"area": area}))
    return replace_top(c, mv.model_copy(update={"stop_area": area, "stop_chooser": None}))


def prompts(c: Combat, mv: MoveAction) -> tuple[Prompt, ...]:
    if mv.window_open:
        return window_prompts(c, mv.reactors, mv.deadline)
    if mv.stop_chooser is not None:
        return (prompt(c, PromptKind.STOP_AREA, mv.stop_chooser, (mv.frm, mv.to)),)
    return ()
