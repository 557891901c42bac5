"""Direct (004 "Leader"): "You can use an action to direct someone else on your team to take
any action they are able to. If they agree, they can do so without using an action of their
own. If they disagree, you can use your action for something else. Someone cannot benefit from
this ability more than once per round, nor if they used this ability this round."

The leader's action (or the action that can only direct, from a successful initiative roll)
goes into a ``Direction`` on the teammate. The teammate's next action spends the direction
instead of an action of their own (``action_cost``), even with none of their own left; or
they refuse it and the leader gets the action back. A direction nobody took when the team's
turn ends lapses the same way (``DirectionsLapse``, a lifecycle effect). A fighter who gave a
direction this round cannot take one, nor the other way round.
"""

from __future__ import annotations

from engine.catalog import Rules
from engine.combat.abilities.hooks import act_problem, directs
from engine.combat.action_kinds import ActionKind
from engine.combat.commands import Direct, RefuseDirection
from engine.combat.context import Context, require_control
from engine.combat.fighters import can_act, put
from engine.combat.lifecycle import Lifecycle
from engine.combat.model import Combat, EventKind, Fighter, Phase, PromptKind
from engine.combat.phase_guard import require_phase
from engine.combat.prompts import answering
from engine.combat.step_values import Direction
from engine.errors import RuleError
from engine.phrases import Said

__all__ = [
    "DirectionsLapse", "direct", "direct_problem", "directable", "end_directions",
    "may_direct_someone", "out_of_reach", "refuse_direction",
]


def _gave_direction(c: Combat, f: Fighter) -> bool:
    """``f`` used Direct this round: a direction of theirs waits on someone, or was taken."""
    return any(
        g.directed_by == f.key or (g.directed is not None and g.directed.by == f.key)
        for g in c.fighters
    )


def direct_problem(c: Combat, leader: Fighter, target: Fighter, rules: Rules) -> Said | None:
    """Why ``leader`` cannot direct ``target`` now (leaving out whose turn it is), or None."""
    if target.key == leader.key:
        return f"{leader.name} cannot direct themselves: Direct is for someone else on the team."
    if target.team != leader.team:
        return f"{target.name} is not on {leader.name}'s team ({leader.team})."
    if not can_act(target, rules):
        return f"{target.name} cannot act: they cannot be directed."
    if (problem := act_problem(target)) is not None:
        return problem
    if target.directed is not None:
        return f"{target.name} already has a direction waiting: they act on it or refuse it."
    if target.directed_by is not None:
        return f"{target.name} already acted on a direction this round (once per round)."
    if _gave_direction(c, target):
        return f"{target.name} directed someone this round, so they cannot be directed."
    return None


def _leader_problem(c: Combat, leader: Fighter, rules: Rules) -> Said | None:
    """Why ``leader`` cannot give a direction at all now, or None."""
    if not directs(leader.character):
        return f"{leader.name} cannot direct: that takes the Leader ability Direct."
    if not can_act(leader, rules):
        return f"{leader.name} cannot act."
    if (problem := act_problem(leader)) is not None:
        return problem
    if leader.directed is not None:
        return (f"{leader.name} has a direction waiting from someone else: act on it or "
                "refuse it before directing.")
    if leader.directed_by is not None:
        return f"{leader.name} acted on a direction this round, so they cannot direct."
    if leader.actions <= 0 and leader.direct_actions <= 0:
        return f"{leader.name} has no action left this round."
    return None


def directable(c: Combat, leader_key: str, rules: Rules) -> tuple[str, ...]:
    """The teammates ``leader_key`` could direct now (for autocomplete)."""
    leader = c.fighter(leader_key)
    if _leader_problem(c, leader, rules) is not None:
        return ()
    return tuple(
        g.name for g in c.fighters if direct_problem(c, leader, g, rules) is None
    )


def may_direct_someone(c: Combat, leader: Fighter, rules: Rules) -> bool:
    """Whether ``leader``'s actions that can only direct have a use now."""
    return leader.direct_actions > 0 and bool(directable(c, leader.key, rules))


def direct(c: Combat, cmd: Direct, ctx: Context) -> Combat:
    rules = ctx.rules
    require_phase(c, Phase.TURN)
    leader = c.fighter(cmd.fighter)
    require_control(ctx.actor, leader)
    if leader.team != c.acting_team:
        raise RuleError(f"It is not {leader.name}'s turn: {c.acting_team} are acting.")
    problem = _leader_problem(c, leader, rules)
    if problem is None:
        target = c.fighter(cmd.target)
        problem = direct_problem(c, leader, target, rules)
    if problem is not None:
        raise RuleError(problem)
    extra = leader.direct_actions > 0  # the action that can do nothing else goes first
    if extra:
        update = {"direct_actions": leader.direct_actions - 1}
    else:
        update = {"actions": leader.actions - 1}
    leader = leader.model_copy(update={**update, "spent": leader.spent + 1})
    ctx.start(leader.key, ActionKind.DIRECT)  # the leader's own way of spending it
    c = put(c, leader)
    direction = Direction(by=leader.key, leader=leader.name, extra=extra)
    c = put(c, target.model_copy(update={"directed": direction}))
    ctx.emit(
        EventKind.DIRECT,
        f"{leader.name} directs {target.name}: {target.name} may take an action without "
        "spending one of their own, or refuse.",
        leader.key,
    )
    return c.model_copy(update={"action_seq": c.action_seq + 1})


def _give_back(c: Combat, f: Fighter) -> tuple[Combat, str]:
    """``f``'s direction ends untaken: the leader gets back the action it used; says whose."""
    direction = f.directed
    assert direction is not None
    c = put(c, f.model_copy(update={"directed": None}))
    leader = next((g for g in c.fighters if g.key == direction.by), None)
    if leader is None:  # the leader left the fight
        return c, direction.leader or "the leader"
    if direction.extra:
        update = {"direct_actions": leader.direct_actions + 1}
    else:
        update = {"actions": leader.actions + 1}
    leader = leader.model_copy(update={**update, "spent": leader.spent - 1})
    return put(c, leader), leader.name


def refuse_direction(c: Combat, cmd: RefuseDirection, ctx: Context) -> Combat:
    require_phase(c, Phase.TURN)
    f, _ = answering(c, PromptKind.DIRECTED, cmd.fighter, ctx.actor)
    c, leader = _give_back(c, f)
    ctx.emit(
        EventKind.DIRECT_ENDED,
        f"{f.name} refuses {leader}'s direction: {leader} keeps the action.",
        f.key,
    )
    return c


def out_of_reach(c: Combat, key: str, ctx: Context) -> Combat:
    """``key`` surrenders with a direction waiting on them: nobody can act on it now, so its
    leader gets the action back at once (in time to use it this turn)."""
    f = c.fighter(key)
    if f.directed is None:
        return c
    c, leader = _give_back(c, f)
    ctx.emit(
        EventKind.DIRECT_ENDED,
        f"{f.name} cannot act on {leader}'s direction: {leader} keeps the action.",
        f.key,
    )
    return c


def end_directions(c: Combat, team: str, ctx: Context) -> Combat:
    """The team's turn ends: every direction nobody took lapses, and its leader gets the
    action back (to react with, say)."""
    for f in c.fighters:
        if f.team == team and f.directed is not None:
            c, leader = _give_back(c, f)
            ctx.emit(
                EventKind.DIRECT_ENDED,
                f"{f.name} did not act on {leader}'s direction: {leader} keeps the action.",
                f.key,
            )
    return c


class DirectionsLapse(Lifecycle):
    """A team's turn ends: the directions nobody took lapse (``end_directions``)."""

    def on_turn_end(self, c: Combat, team: str, ctx: Context) -> Combat:
        return end_directions(c, team, ctx)
