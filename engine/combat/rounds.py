"""Rounds, initiative, the order of teams, turns and the end of the fight (004 "Rounds",
"Initiative", "Turns"; RULINGS 14-16).

Dice order: initiative rolls tens then ones per team (the previous holder first; round 1: the
PCs' team first).
"""

from __future__ import annotations

from engine.catalog import Action, RollModifier, Rules
from engine.character import status
from engine.combat.abilities.hooks import has_modifier
from engine.combat.commands import ChooseOrder, Done
from engine.combat.context import Context, require_phase
from engine.combat.fighters import (
    can_act,
    lose_action,
    pc_team,
    put,
    standing_teams,
    team_named,
)
from engine.combat.model import (
    Combat,
    EventKind,
    Fighter,
    InitiativeRoll,
    Phase,
    Prompt,
    PromptKind,
    RollState,
)
from engine.combat.prompts import prompt
from engine.combat.rolls import wants_reroll
from engine.dice import Roll
from engine.errors import RuleError

__all__ = [
    "advance_initiative", "choose_order", "done", "end", "next_turn", "round_prompts",
    "start_round", "team_can_act",
]


def start_round(c: Combat, ctx: Context) -> Combat:
    rules = ctx.rules
    fighters: list[Fighter] = []
    for f in c.fighters:
        base = 1 if can_act(f, rules) else 0
        lost = min(base, f.lose_next)
        fighters.append(
            f.model_copy(
                update={
                    "actions": base - lost,
                    "lose_next": f.lose_next - lost,
                    "spent": 0,
                    "reactions": 0,
                }
            )
        )
        if lost:
            ctx.emit(EventKind.LOST_ACTION, f"{f.name} loses this round's action.", f.key)
    rnd = c.round + 1
    c = c.model_copy(
        update={
            "fighters": tuple(fighters),
            "round": rnd,
            "phase": Phase.INITIATIVE,
            "order": (),
            "turn": None,
            "initiative": (),
            "initiative_done": False,
        }
    )
    ctx.emit(EventKind.ROUND, f"Round {rnd} begins.")
    standing = standing_teams(c, rules)
    first = c.initiative_winner if c.initiative_winner in standing else pc_team(c, standing)
    teams = sorted(standing, key=lambda t: t != first)
    rolls: list[InitiativeRoll] = []
    for team in teams:
        members = [f for f in c.fighters if f.team == team and can_act(f, rules)]
        top = max(f.character.level for f in members)
        roller = next(f for f in members if f.character.level == top)
        ch = roller.character
        r = Roll.first(ch.level, ctx.dice, max_level=ch.max_level)
        good = has_modifier(ch, rules, RollModifier.GOOD, Action.INITIATIVE, None)
        rolls.append(
            InitiativeRoll(
                team=team,
                state=RollState(fighter=roller.key, purpose="initiative", roll=r, good=good),
            )
        )
        ctx.say_roll(EventKind.INITIATIVE, f"{ch.name} rolls initiative for {team}", roller.key,
                     r.result)
    c = c.model_copy(update={"initiative": tuple(rolls)})
    return advance_initiative(c, ctx)


def advance_initiative(c: Combat, ctx: Context) -> Combat:
    """Once no good roller is still deciding: criticals, then the winner (RULINGS 14)."""
    if c.initiative_done or any(wants_reroll(r.state) for r in c.initiative):
        return c
    rolls = c.initiative
    # Criticals on initiative: automatic (+1 action, or the next action lost).
    for r in rolls:
        res = r.state.roll.result
        f = c.fighter(r.state.fighter)
        if res.critical_success:
            c = put(c, f.model_copy(update={"actions": f.actions + 1}))
            ctx.emit(EventKind.EXTRA_ACTION, f"{f.name} gains an extra action this round.", f.key)
        elif res.critical_failure:
            c = put(c, lose_action(f))
            ctx.emit(EventKind.LOST_ACTION, f"{f.name} loses the next action.", f.key)
    succeeded = [r for r in rolls if r.state.roll.result.success]
    if succeeded:
        best = max(r.state.roll.result.value for r in succeeded)
        tied = tuple(r.team for r in succeeded if r.state.roll.result.value == best)
    else:
        tied = tuple(r.team for r in rolls)
    if len(tied) == 1:
        winner = tied[0]
        why = ""
    else:
        previous = c.initiative_winner
        winner = previous if previous in tied else (pc_team(c, tied) or tied[0])
        why = " on a tie" + (
            " (they had it last round)" if previous in tied else " (the PCs win the first tie)"
        )
    text = f"{winner} win initiative{why} and choose which team goes first."
    ctx.emit(EventKind.INITIATIVE_WON, text)
    return c.model_copy(update={"initiative_winner": winner, "initiative_done": True})


def choose_order(c: Combat, cmd: ChooseOrder, ctx: Context) -> Combat:
    require_phase(c, Phase.INITIATIVE)
    if not c.initiative_done:
        raise RuleError("Initiative rolls are not final yet.")
    winner = c.initiative_winner
    roller = next(r for r in c.initiative if r.team == winner)
    f = c.fighter(roller.state.fighter)
    if not (
        ctx.actor.gm
        or any(g.team == winner and g.owner_id == ctx.actor.user_id for g in c.fighters)
    ):
        raise RuleError(f"{winner} won initiative: only they (or a GM) choose the order.")
    first = team_named(c, cmd.first_team)
    rolled = [r.team for r in c.initiative]
    if first is None or first not in rolled:
        raise RuleError(f"Choose the team to go first among: {', '.join(rolled)}.")

    def rank(r: InitiativeRoll) -> tuple[bool, int]:
        res = r.state.roll.result
        return (res.success, res.value if res.success else -res.value)

    rest = [r.team for r in sorted(c.initiative, key=rank, reverse=True) if r.team != first]
    order = (first, *rest)
    ctx.emit(EventKind.ORDER, f"{f.team} choose the order: {', then '.join(order)}.", f.key)
    c = c.model_copy(update={"order": order, "turn": 0, "phase": Phase.TURN})
    return _announce_turn(c, ctx)


def _announce_turn(c: Combat, ctx: Context) -> Combat:
    team = c.acting_team
    if team is not None and team_can_act(c, team, ctx.rules):
        ctx.emit(EventKind.TURN, f"Turn: {team}.")
    return c


def team_can_act(c: Combat, team: str, rules: Rules) -> bool:
    return any(f.team == team and f.actions > 0 and can_act(f, rules) for f in c.fighters)


def next_turn(c: Combat, ctx: Context) -> Combat:
    turn = (c.turn if c.turn is not None else -1) + 1
    if turn < len(c.order):
        return _announce_turn(c.model_copy(update={"turn": turn}), ctx)
    ctx.emit(EventKind.ROUND_END, f"Round {c.round} ends.")
    return start_round(c, ctx)


def done(c: Combat, cmd: Done, ctx: Context) -> Combat:
    require_phase(c, Phase.TURN)
    acting = c.acting_team
    if cmd.team is not None:
        team = team_named(c, cmd.team)
        if team != acting:
            raise RuleError(f"It is not {cmd.team.strip()}'s turn; {acting} are acting.")
    if not (
        ctx.actor.gm
        or any(f.team == acting and f.owner_id == ctx.actor.user_id for f in c.fighters)
    ):
        raise RuleError(f"It is {acting}'s turn; only they (or a GM) can end it.")
    ctx.emit(EventKind.TURN_END, f"{acting} are done.")
    return next_turn(c, ctx)


def end(c: Combat, ctx: Context, why: str) -> Combat:
    """The fight is over: who is left, and how each fighter stands."""
    rules = ctx.rules
    lines = [f"{why} Combat over after round {c.round}."]
    for f in c.fighters:
        ch = f.character
        wounds = ", ".join(
            f"{rules.body.location(loc).name.lower()} {marks}" for loc, marks in ch.wounds.items()
        )
        lines.append(
            f"{f.name} ({f.team}): level {ch.level}/{ch.max_level}, "
            f"{status(ch, rules=rules).value}, wounds: {wounds or 'none'}."
        )
    ctx.emit(EventKind.ENDED, "\n".join(lines))
    fighters = tuple(f.model_copy(update={"actions": 0}) for f in c.fighters)
    return c.model_copy(
        update={"phase": Phase.ENDED, "steps": (), "turn": None, "fighters": fighters}
    )


def round_prompts(c: Combat, rules: Rules) -> tuple[Prompt, ...]:
    """What initiative or a team's turn waits for."""
    if c.phase is Phase.INITIATIVE:
        if not c.initiative_done:
            return tuple(
                prompt(c, PromptKind.REROLL, r.state.fighter, ("tens", "ones", "both", "keep"))
                for r in c.initiative
                if wants_reroll(r.state)
            )
        roller = next(r for r in c.initiative if r.team == c.initiative_winner)
        return (
            prompt(
                c,
                PromptKind.CHOOSE_ORDER,
                roller.state.fighter,
                tuple(r.team for r in c.initiative),
            ),
        )
    if c.phase is Phase.TURN:
        return tuple(
            prompt(c, PromptKind.ACT, f.key, ("attack", "done"))
            for f in c.fighters
            if f.team == c.acting_team and f.actions > 0 and can_act(f, rules)
        )
    return ()
