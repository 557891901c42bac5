"""The fighters in play: who stands, which teams are left, and the action economy (004
"Actions": one action a round, spent on acting or reacting, lost or gained by criticals)."""

from __future__ import annotations

from typing import Any

from engine.catalog import Rules
from engine.character import Status, status
from engine.combat.abilities.hooks import act_problem, action_cost, pay_instead
from engine.combat.action_kinds import ActionKind
from engine.combat.context import Context, require_control
from engine.combat.hidden_npcs import STATUS_WORDS
from engine.combat.model import Combat, Fighter, Phase
from engine.combat.phase_guard import require_phase
from engine.combat.step_values import Direction
from engine.dice import Side
from engine.errors import RuleError
from engine.names import name_key
from engine.phrases import phrase

__all__ = [
    "acting_fighter", "can_act", "gain_action", "has_players", "lose_action",
    "opponents_then_team", "out_of_fight", "pc_team", "put", "refund",
    "settle_status", "side", "spend_action", "spend_reaction", "standing_teams", "team_named",
]


def can_act(f: Fighter, rules: Rules) -> bool:
    """Conscious, not surrendered, alive: may act, react and do what a fighter does."""
    return status(f.character, rules=rules) is Status.FINE


def out_of_fight(f: Fighter, rules: Rules) -> bool:
    """Dead or surrendered: the fight is over for them. No one may attack them, a Blast's
    area leaves them out and a rally does not raise them. An unconscious fighter cannot act
    (see :func:`can_act`) but is still in the fight: a target, and raised by a rally."""
    return status(f.character, rules=rules) in (Status.DEAD, Status.SURRENDERED)


def put(c: Combat, f: Fighter) -> Combat:
    """``c`` with ``f`` in place of the fighter of the same key."""
    return c.model_copy(update={"fighters": tuple(f if g.key == f.key else g for g in c.fighters)})


def team_named(c: Combat, name: str) -> str | None:
    key = name_key(name)
    return next((t for t in c.teams if t.casefold() == key), None)


def standing_teams(c: Combat, rules: Rules) -> tuple[str, ...]:
    return tuple(t for t in c.teams if any(f.team == t and can_act(f, rules) for f in c.fighters))


def has_players(c: Combat, team: str | None) -> bool:
    """Whether a player has a fighter in ``team`` (a team of NPCs has none: a GM decides)."""
    return any(f.team == team and f.owner_id is not None for f in c.fighters)


def pc_team(c: Combat, among: tuple[str, ...]) -> str | None:
    return next(
        (t for t in among if any(f.team == t and not f.character.npc for f in c.fighters)), None
    )


def opponents_then_team(c: Combat, f: Fighter) -> tuple[tuple[Fighter, ...], tuple[Fighter, ...]]:
    """Everyone in the fight as ``f`` sees them: the other teams' fighters, then ``f``'s own
    team (``f`` included), each in the fight's order. Wherever targets are offered (an
    attack's, a Blast's) they come in this order: the opposing side first (rules notes 48)."""
    return (tuple(g for g in c.fighters if g.team != f.team),
            tuple(g for g in c.fighters if g.team == f.team))


def side(f: Fighter) -> Side:
    return Side.NPC if f.character.npc else Side.PC


def spend_action(f: Fighter, ctx: Context, kind: ActionKind) -> Fighter:
    """``f`` having used an action to act, which starts it (``Context.start``): one of their
    own, unless the action costs them none (``action_cost``), when the rule that made it free
    takes what paid for it instead (``pay_instead``: a leader's direction, said)."""
    if action_cost(f) > 0:
        ctx.start(f.key, kind)
        return f.model_copy(update={"actions": f.actions - 1, "spent": f.spent + 1})
    paid = pay_instead(f, ctx)
    ctx.start(f.key, kind)
    return paid.model_copy(update={"spent": paid.spent + 1})


def spend_reaction(
    f: Fighter, seq: int, ctx: Context, kind: ActionKind, *, free: bool = False
) -> Fighter:
    """``f`` having used an action to react to action ``seq`` (at most once per action),
    which starts the reaction (``Context.start``);
    ``free``: a reaction that spends no action (All-Out Defend), still one per action, and
    not counted among the reactions that spent one."""
    spent = 0 if free else 1
    ctx.start(f.key, kind)
    return f.model_copy(
        update={
            "actions": f.actions - spent,
            "spent": f.spent + spent,
            "reactions": f.reactions + spent,
            "reacted_to": seq,
        }
    )


def refund(
    c: Combat, key: str, reaction: bool, *, free: bool = False,
    direction: Direction | None = None,
) -> Combat:
    """Give back an action whose use did not take effect (a surrender before the dice);
    ``free``: the reaction spent none, only its place is given back; ``direction``: the
    leader's direction the action was taken on, which waits on the fighter again (their own
    actions were not spent)."""
    g = c.fighter(key)
    if direction is not None:
        return put(c, g.model_copy(
            update={"directed": direction, "directed_by": None, "spent": g.spent - 1}
        ))
    spent = 0 if free else 1
    update: dict[str, Any] = {"actions": g.actions + spent, "spent": g.spent - spent}
    if reaction:
        update.update(reactions=g.reactions - spent, reacted_to=None)
    return put(c, g.model_copy(update=update))


def gain_action(f: Fighter) -> Fighter:
    """A critical success's extra action, to be used this round (004 "Actions"): counted
    apart so that one left at the round's end is told as lost."""
    return f.model_copy(update={"actions": f.actions + 1, "gained": f.gained + 1})


def lose_action(f: Fighter) -> Fighter:
    """A critical failure: this round's next action, or next round's when none is left."""
    if f.actions > 0:
        return f.model_copy(update={"actions": f.actions - 1})
    return f.model_copy(update={"lose_next": f.lose_next + 1})


def settle_status(f: Fighter, rules: Rules) -> Fighter:
    """Unconscious, surrendered and dead fighters have no actions."""
    if f.actions and not can_act(f, rules):
        return f.model_copy(update={"actions": 0})
    return f


def acting_fighter(c: Combat, name: str, ctx: Context) -> Fighter:
    """The fighter who takes an action now: their turn, their player, conscious, an action."""
    require_phase(c, Phase.TURN)
    f = c.fighter(name)
    require_control(ctx.actor, f)
    if f.team != c.acting_team:
        raise RuleError(phrase("It is not {name}'s turn: {team} are acting.", name=f.name,
                               team=c.acting_team or ""))
    if not can_act(f, ctx.rules):
        raise RuleError(phrase("{name} is {status} and cannot act.", name=f.name,
                               status=STATUS_WORDS[status(f.character, rules=ctx.rules)]))
    problem = act_problem(f)
    if problem:
        raise RuleError(problem)
    if f.actions < action_cost(f):
        raise RuleError(phrase("{name} has no action left this round.", name=f.name))
    return f
