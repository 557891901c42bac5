"""Rounds, turns and the end of the fight (004 "Rounds", "Turns"; RULINGS 14-16, 18): a
round's start (actions, then initiative: ``engine.combat.initiative``), each team's turn in the
chosen order, a team's Done, the round's end, and the fight's end.
"""

from __future__ import annotations

from engine.catalog import Rules
from engine.character import status
from engine.combat.abilities.hooks import act_problem
from engine.combat.actions.all_out import declare_problem
from engine.combat.actions.direct import may_direct_someone
from engine.combat.commands import ChooseOrder, Done
from engine.combat.context import Context
from engine.combat.effects import end_round, end_turn, start_turn
from engine.combat.fighters import can_act, has_players, team_named
from engine.combat.hidden_npcs import STATUS_WORDS, looks_phrase
from engine.combat.initiative import (
    advance_initiative,
    begin_initiative,
    choose_roller,
    initiative_prompts,
    place_teams,
)
from engine.combat.model import Combat, EventKind, Fighter, Phase, Prompt, PromptKind
from engine.combat.phase_guard import require_phase
from engine.combat.prompts import prompt
from engine.copies import group_alike
from engine.errors import RuleError
from engine.phrases import Phrase, Said, phrase
from engine.words import lines_phrase, series_phrase, team_turn_phrase

__all__ = [
    "advance_initiative", "choose_order", "choose_roller", "done", "end", "may_act",
    "next_turn", "round_prompts", "start_round", "team_can_act",
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
                    "direct_actions": 0,
                    "gained": 0,
                    "directed": None,
                    "directed_by": None,
                }
            )
        )
        if lost:
            ctx.emit(EventKind.LOST_ACTION,
                     phrase("{name} loses this round's action.", name=f.name), f.key)
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
            "rollers": (),
        }
    )
    ctx.emit(EventKind.ROUND, phrase("Round {round} begins.", round=rnd))
    return begin_initiative(c, ctx)


def choose_order(c: Combat, cmd: ChooseOrder, ctx: Context) -> Combat:
    """The initiative winner places the teams (``place_teams``); once the order is set, the
    first team's turn begins."""
    c = place_teams(c, cmd, ctx)
    return _start_turn(c, ctx) if c.phase is Phase.TURN else c


def _start_turn(c: Combat, ctx: Context) -> Combat:
    """The acting team's turn starts (its hooks: the turn's deadline), and is announced when
    the team has anything to do (else the turn ends at once)."""
    team = c.acting_team
    if team is None:
        return c
    c = start_turn(c, team, ctx)
    if team_can_act(c, team, ctx.rules):
        ctx.emit(EventKind.TURN, phrase("Turn: {team}.", team=team))
    return c


def may_act(c: Combat, f: Fighter, rules: Rules) -> bool:
    """Whether ``f`` has something to act with now: an action, a direction waiting on them,
    or an action that can only direct with someone to direct (and no ability keeps them from
    acting: All-Out Defend)."""
    if not can_act(f, rules) or act_problem(f) is not None:
        return False
    return f.actions > 0 or f.directed is not None or may_direct_someone(c, f, rules)


def team_can_act(c: Combat, team: str, rules: Rules) -> bool:
    return any(f.team == team and may_act(c, f, rules) for f in c.fighters)


def next_turn(c: Combat, ctx: Context) -> Combat:
    if c.acting_team is not None:
        c = end_turn(c, c.acting_team, ctx)
    turn = (c.turn if c.turn is not None else -1) + 1
    if turn < len(c.order):
        return _start_turn(c.model_copy(update={"turn": turn}), ctx)
    ctx.emit(EventKind.ROUND_END, phrase("Round {round} ends.", round=c.round))
    _tell_extra_actions_lost(c, ctx)
    c = end_round(c, ctx)  # declarations and AoE effects that last the round (RULINGS 18)
    return start_round(c, ctx)


def _tell_extra_actions_lost(c: Combat, ctx: Context) -> None:
    """An extra action a critical success gave and the round ended before it was used is
    lost (004 "Actions": "you must use it during this round"): the table is told, so that a
    critical won on a reaction late in the round does not vanish without a word."""
    for f in c.fighters:
        lost = min(f.gained, f.actions)
        if lost:
            # Two sentences, not one plural: the single one names no number.
            text = (phrase("{name}'s extra action from a critical success is lost: it had to be "
                           "used this round.", name=f.name) if lost == 1 else
                    phrase("{name}'s {count} extra actions from critical successes are lost: "
                           "they had to be used this round.", name=f.name, count=lost))
            ctx.emit(EventKind.EXTRA_ACTION_LOST, text, f.key)


def done(c: Combat, cmd: Done, ctx: Context) -> Combat:
    require_phase(c, Phase.TURN)
    acting = c.acting_team
    assert acting is not None  # a turn is always some team's
    if cmd.team is not None:
        team = team_named(c, cmd.team)
        if team != acting:
            raise RuleError(phrase("It is not {turn}; {team} are acting.",
                                   turn=team_turn_phrase(cmd.team.strip()), team=acting))
    if not (
        ctx.actor.gm
        or any(f.team == acting and f.owner_id == ctx.actor.user_id for f in c.fighters)
    ):
        raise RuleError(
            phrase("It is {turn}; only their players (or a GM) can end it.",
                   turn=team_turn_phrase(acting)) if has_players(c, acting) else
            phrase("It is {turn}; only a GM can end it.", turn=team_turn_phrase(acting)))
    ctx.emit(EventKind.TURN_END, phrase("{team} are done.", team=acting))
    return next_turn(c, ctx)


def end(c: Combat, ctx: Context, why: Said) -> Combat:
    """The fight is over: who is left, and how each fighter stands (numbered copies that
    stand alike in one line: "Goon 1-33 (NPCs): level 25/25, fine, wounds: none.")."""
    rules = ctx.rules
    head = phrase("{why} Combat over after round {round}.", why=why, round=c.round)
    stands: list[tuple[str, Phrase]] = []
    public: list[tuple[str, Phrase]] = []
    for f in c.fighters:
        ch = f.character
        wounds = [phrase("{location} {marks}", location=_location_said(rules, loc), marks=marks)
                  for loc, marks in ch.wounds.items()]
        said = phrase("({team}): level {level}/{max_level}, {status}, wounds: {wounds}.",
                      team=f.team, level=ch.level, max_level=ch.max_level,
                      status=STATUS_WORDS[status(ch, rules=rules)],
                      wounds=series_phrase(wounds) if wounds else phrase("none"))
        stands.append((f.name, said))
        public.append((f.name, phrase("({team}): {looks}.", team=f.team,
                                      looks=looks_phrase(f, rules)) if ctx.hides(f) else said))
    ctx.emit(EventKind.ENDED, lines_phrase([head, *_stand_lines(stands)]),
             public=lines_phrase([head, *_stand_lines(public)]), of=c.fighters)
    fighters = tuple(f.model_copy(update={"actions": 0}) for f in c.fighters)
    return c.model_copy(
        update={"phase": Phase.ENDED, "steps": (), "turn": None, "fighters": fighters,
                "ending": None}
    )


def _stand_lines(stands: list[tuple[str, Phrase]]) -> list[Phrase]:
    return [phrase("{name} {stands}", name=name, stands=said)
            for name, said in group_alike(stands)]


def _location_said(rules: Rules, location: str) -> Phrase:
    """A hit location's name as a sentence says it ("right arm"): a word of the rules' data
    (its catalogue entry comes from the data's words)."""
    return Phrase(rules.body.location(location).name.lower())


def round_prompts(c: Combat, rules: Rules) -> tuple[Prompt, ...]:
    """What initiative or a team's turn waits for."""
    if c.phase is Phase.INITIATIVE:
        return initiative_prompts(c, rules)
    if c.phase is Phase.TURN:
        acts = tuple(
            prompt(c, PromptKind.DIRECTED, f.key, ("refuse",)) if f.directed is not None
            else prompt(c, PromptKind.ACT, f.key, ("attack", "done"))
            for f in c.fighters
            if f.team == c.acting_team and may_act(c, f, rules)
        )
        offers = tuple(
            prompt(c, PromptKind.ALL_OUT_DEFEND, f.key, ("declare",))
            for f in c.fighters
            if declare_problem(c, f, rules) is None
        )
        return acts + offers
    return ()
