"""Initiative (004 "Initiative"; the roller a leader may be, 004 "Leader"; RULINGS 6, 19): who
rolls for each team, the rolls, the winner, and the winner's choice of the order of the teams.

Initiative goes in this order:

1. Each team's highest-level fighter rolls. Where several share a team's highest level, that
   team chooses which of them rolls (CHOOSE_ROLLER), before any die of the round is rolled;
   teams with such a tie are asked one after another, in the dice order below. Copies alike in
   every way but their names ("Thug 1-30") are one choice: the first of them stands for all,
   and when they are the only choice the first rolls without asking. A leader
   below that level may roll instead (004 "Leader": "If someone else on your team has higher
   level, they can choose to let you roll"): the one highest-level fighter is asked
   (LEADER_ROLLS), or with a tie the team, the leaders among its options.
2. Dice order: tens then ones per team (the previous holder first; round 1: the PCs' team
   first), whoever was chosen to roll.
3. Good rollers re-roll or keep; then criticals, a leader's action to direct on a successful
   roll (004 "Leader"), and the winner.
4. The winner chooses the order of all teams, one team a choice: the first (CHOOSE_ORDER), then
   the next (CHOOSE_NEXT) while two or more teams are left; the last team left goes last.
"""

from __future__ import annotations

from engine.catalog import Action, Rules
from engine.combat.abilities.hooks import (
    initiative_direct_actions,
    rolls_initiative_for_higher,
)
from engine.combat.commands import ChooseOrder, ChooseRoller
from engine.combat.context import Context, controls
from engine.combat.crowd import copy_number, group_names
from engine.combat.fighters import (
    can_act,
    gain_action,
    has_players,
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
    RollerChoice,
    Tally,
)
from engine.combat.phase_guard import require_phase
from engine.combat.prompts import prompt, team_prompt
from engine.combat.roll_spec import make_roll, roll_spec
from engine.combat.rolls import wants_reroll
from engine.errors import RuleError
from engine.phrases import Said, phrase
from engine.words import listed_phrase

__all__ = [
    "advance_initiative", "begin_initiative", "choose_roller", "initiative_prompts",
    "place_teams",
]


def begin_initiative(c: Combat, ctx: Context) -> Combat:
    """A new round's initiative: says which teams choose who rolls (a tie at a team's highest
    level, or a leader below it who may roll instead), then rolls once no team is choosing."""
    rules = ctx.rules
    for team in _dice_order(c, rules):
        tied = _tied(c, team, rules)
        leaders = _distinct(_leaders(c, team, rules))
        if len(tied) > 1 and len(_distinct(tied)) == 1 and not leaders:
            # Copies alike in all but their names: which of them rolls changes nothing.
            first = tied[0]
            ctx.emit(
                EventKind.ROLLER,
                phrase("{names} share the highest level of {team} ({level}) and are alike: "
                       "{first} rolls, as any of them would.", names=_names(tied), team=team,
                       level=first.character.level, first=first.name),
                first.key, of=tied,
                public=phrase("{names} share the highest level of {team} and are alike: "
                              "{first} rolls, as any of them would.", names=_names(tied),
                              team=team, first=first.name),
            )
        elif len(tied) > 1:
            choose = (phrase("{team} choose who rolls initiative (or let {leaders} roll "
                             "instead).", team=team, leaders=_names(leaders)) if leaders
                      else phrase("{team} choose who rolls initiative.", team=team))
            ctx.emit(
                EventKind.ROLLER_TIE,
                phrase("{names} share the highest level of {team} ({level}): {choose}",
                       names=_names(tied), team=team, level=tied[0].character.level,
                       choose=choose),
                public=phrase("{names} share the highest level of {team}: {choose}",
                              names=_names(tied), team=team, choose=choose), of=tied,
            )
        elif leaders:
            top = tied[0]
            ctx.emit(
                EventKind.ROLLER_LEADER,
                phrase("{name} has the highest level of {team} ({level}) and may let a leader "
                       "roll initiative instead: {leaders}.", name=top.name, team=team,
                       level=top.character.level, leaders=_names(leaders, either=True)),
                top.key, of=top,
                public=phrase("{name} has the highest level of {team} and may let a leader "
                              "roll initiative instead: {leaders}.", name=top.name, team=team,
                              leaders=_names(leaders, either=True)),
            )
    return advance_initiative(c, ctx)


def _names(fighters: tuple[Fighter, ...], *, either: bool = False) -> Said:
    """The fighters' names, numbered copies folded ("Thug 1-30 and Boss"; ``either``: "Thug
    1-30 or Boss")."""
    names = group_names([f.name for f in fighters])
    if not either:
        return listed_phrase(names)
    said: Said = names[-1]
    if len(names) > 1:
        said = phrase("{first} or {last}", first=names[-2], last=said)
    for name in reversed(names[:-2]):
        said = phrase("{first}, {rest}", first=name, rest=said)
    return said


def _then(teams: list[str]) -> Said:
    """Teams in their order: "PCs, then NPCs, then Beasts"."""
    said: Said = teams[-1]
    for team in reversed(teams[:-1]):
        said = phrase("{first}, then {rest}", first=team, rest=said)
    return said


def _alike(f: Fighter, g: Fighter) -> bool:
    """Whether ``f`` and ``g`` are numbered copies of one character that differ in nothing
    but their names and the fight's bookkeeping: which of them rolls initiative (and takes
    its critical's extra or lost action) changes nothing."""
    f_copy, g_copy = copy_number(f.name), copy_number(g.name)
    if f_copy is None or g_copy is None or f_copy[0] != g_copy[0]:
        return False
    return _unnamed(f) == _unnamed(g)


def _unnamed(f: Fighter) -> Fighter:
    """``f`` without what tells copies apart and does not touch the game: names, ids and the
    counts kept for the recap."""
    return f.model_copy(update={
        "key": "", "name": "", "character_id": None, "tally": Tally(), "reacted_to": None,
        "character": f.character.model_copy(update={"name": ""}),
    })


def _distinct(fighters: tuple[Fighter, ...]) -> tuple[Fighter, ...]:
    """``fighters`` with only the first of each set of alike copies."""
    kept: list[Fighter] = []
    for f in fighters:
        if not any(_alike(f, k) for k in kept):
            kept.append(f)
    return tuple(kept)


def _dice_order(c: Combat, rules: Rules) -> tuple[str, ...]:
    """The standing teams in the order they roll: the previous holder first, else the PCs."""
    standing = standing_teams(c, rules)
    first = c.initiative_winner if c.initiative_winner in standing else pc_team(c, standing)
    return tuple(sorted(standing, key=lambda t: t != first))


def _tied(c: Combat, team: str, rules: Rules) -> tuple[Fighter, ...]:
    """The team's fighters who may roll its initiative: all who share its highest level."""
    members = [f for f in c.fighters if f.team == team and can_act(f, rules)]
    if not members:
        return ()
    top = max(f.character.level for f in members)
    return tuple(f for f in members if f.character.level == top)


def _leaders(c: Combat, team: str, rules: Rules) -> tuple[Fighter, ...]:
    """The team's fighters below its highest level whom a higher teammate may let roll its
    initiative (004 "Leader")."""
    members = [f for f in c.fighters if f.team == team and can_act(f, rules)]
    if not members:
        return ()
    top = max(f.character.level for f in members)
    return tuple(
        f for f in members
        if f.character.level < top and rolls_initiative_for_higher(f.character)
    )


def _candidates(c: Combat, team: str, rules: Rules) -> tuple[Fighter, ...]:
    """Who may roll the team's initiative: those sharing its highest level, then its leaders
    below it; of copies alike, the first stands for them all."""
    return _distinct((*_tied(c, team, rules), *_leaders(c, team, rules)))


def _roller(c: Combat, team: str, rules: Rules) -> Fighter | None:
    """Who rolls for ``team``: its one highest-level fighter when nobody else may, or the one
    chosen (None: not chosen yet)."""
    candidates = _candidates(c, team, rules)
    if len(candidates) == 1:
        return candidates[0]
    chosen = next((r.fighter for r in c.rollers if r.team == team), None)
    return next((f for f in candidates if f.key == chosen), None)


def _roll(c: Combat, ctx: Context) -> Combat:
    """Every team's initiative roll, once each team has its roller (else ``c`` unchanged)."""
    rules = ctx.rules
    teams = _dice_order(c, rules)
    rollers = [_roller(c, team, rules) for team in teams]
    if len(teams) < 2 or any(f is None for f in rollers):
        return c
    rolls: list[InitiativeRoll] = []
    for team, roller in zip(teams, rollers, strict=True):
        assert roller is not None
        state = make_roll(roll_spec(roller, rules, Action.INITIATIVE), ctx.dice)
        rolls.append(InitiativeRoll(team=team, state=state))
        ctx.say_roll(EventKind.INITIATIVE,
                     phrase("{name} rolls initiative for {team}", name=roller.character.name,
                            team=team), roller, state.roll.result)
    return c.model_copy(update={"initiative": tuple(rolls)})


def advance_initiative(c: Combat, ctx: Context) -> Combat:
    """The dice once every team has its roller; once no good roller is still deciding:
    criticals, then the winner (RULINGS 6, 19)."""
    if c.initiative_done:
        return c
    if not c.initiative:
        c = _roll(c, ctx)
        if not c.initiative:  # a team is still choosing who rolls
            return c
    if any(wants_reroll(r.state) for r in c.initiative):
        return c
    rolls = c.initiative
    # Criticals on initiative: automatic (+1 action, or the next action lost).
    for r in rolls:
        res = r.state.roll.result
        f = c.fighter(r.state.fighter)
        if res.critical_success:
            c = put(c, gain_action(f))
            ctx.emit(EventKind.EXTRA_ACTION,
                     phrase("{name} gains an extra action this round.", name=f.name), f.key)
        elif res.critical_failure:
            c = put(c, lose_action(f))
            ctx.emit(EventKind.LOST_ACTION, phrase("{name} loses the next action.", name=f.name),
                     f.key)
        f = c.fighter(r.state.fighter)
        extra = initiative_direct_actions(f.character)
        if res.success and extra:
            # 004 "Leader": "even if you didn't win".
            c = put(c, f.model_copy(update={"direct_actions": f.direct_actions + extra}))
            ctx.emit(
                EventKind.DIRECT_ACTION,
                phrase("{name} succeeded at initiative: an extra action this round that can "
                       "only direct others.", name=f.name),
                f.key,
            )
    succeeded = [r for r in rolls if r.state.roll.result.success]
    if succeeded:
        best = max(r.state.roll.result.value for r in succeeded)
        tied = tuple(r.team for r in succeeded if r.state.roll.result.value == best)
    else:
        tied = tuple(r.team for r in rolls)
    what = (phrase("which team goes first") if len(rolls) < 3
            else phrase("the order all teams act in"))
    if len(tied) == 1:
        winner = tied[0]
        won = phrase("{winner} win initiative and choose {what}.", winner=winner, what=what)
    elif c.initiative_winner in tied:
        winner = c.initiative_winner
        won = phrase("{winner} win initiative on a tie (they had it last round) and choose "
                     "{what}.", winner=winner, what=what)
    else:
        winner = pc_team(c, tied) or tied[0]
        won = phrase("{winner} win initiative on a tie (the PCs win the first tie) and choose "
                     "{what}.", winner=winner, what=what)
    ctx.emit(EventKind.INITIATIVE_WON, won)
    return c.model_copy(update={"initiative_winner": winner, "initiative_done": True})


_ROLLER_PROMPTS = (PromptKind.CHOOSE_ROLLER, PromptKind.LEADER_ROLLS)


def choose_roller(c: Combat, cmd: ChooseRoller, ctx: Context) -> Combat:
    """Who rolls initiative: a team whose highest level is shared names one of them (or one of
    its leaders below); a team's one highest-level fighter rolls or lets a leader roll."""
    require_phase(c, Phase.INITIATIVE)
    f = c.fighter(cmd.fighter)
    team = f.team
    asked = next((p for p in c.prompts if p.kind in _ROLLER_PROMPTS and p.team == team), None)
    if asked is None:
        raise RuleError(phrase("Nothing is waiting for {team} to choose who rolls initiative "
                               "now.", team=team))
    if asked.kind is PromptKind.LEADER_ROLLS:
        assert asked.fighter is not None
        top = c.fighter(asked.fighter)
        if not controls(ctx.actor, top):
            raise RuleError(
                phrase("{name} has the highest level of {team}: only a GM chooses whether a "
                       "leader rolls initiative instead.", name=top.name, team=team)
                if top.owner_id is None else
                phrase("{name} has the highest level of {team}: only {name}'s player (or a GM) "
                       "chooses whether a leader rolls initiative instead.", name=top.name,
                       team=team))
        if f.name not in asked.options:
            raise RuleError(phrase("{name} cannot roll initiative for {team}: choose among "
                                   "{options}.", name=f.name, team=team,
                                   options=", ".join(asked.options)))
        clause = (phrase("{name} rolls initiative for {team}", name=top.name, team=team)
                  if f.key == top.key else
                  phrase("{name} lets {other} roll initiative for {team}", name=top.name,
                         other=f.name, team=team))
        ctx.emit(EventKind.ROLLER, ctx.by_gm_sentence(top, clause), f.key)
    else:
        if not (ctx.actor.gm or any(g.team == team and g.owner_id == ctx.actor.user_id
                                    for g in c.fighters)):
            raise RuleError(
                phrase("{team} choose who rolls initiative for them: only their players (or a "
                       "GM) can.", team=team) if has_players(c, team) else
                phrase("{team} choose who rolls initiative for them: only a GM can.", team=team))
        if f.name not in asked.options:
            raise RuleError(phrase("{name} does not share the highest level of {team}: choose "
                                   "among {options}.", name=f.name, team=team,
                                   options=", ".join(asked.options)))
        said = ctx.team_sentence((g for g in c.fighters if g.team == team),
                                 phrase("{team} choose {name} to roll initiative", team=team,
                                        name=f.name))
        ctx.emit(EventKind.ROLLER, said, f.key)
    rollers = (*(r for r in c.rollers if r.team != team), RollerChoice(team=team, fighter=f.key))
    return c.model_copy(update={"rollers": rollers})


def place_teams(c: Combat, cmd: ChooseOrder, ctx: Context) -> Combat:
    """The initiative winner places the teams: the first, then the next, ... (one or more a
    command); when one team is left it goes last and the turns begin (``Phase.TURN``, the
    first team's)."""
    if c.phase in (Phase.TURN, Phase.REACTION, Phase.RESOLUTION):
        raise RuleError(phrase("This round's order is set; the next is chosen after its "
                               "initiative."))
    require_phase(c, Phase.INITIATIVE)
    if not c.initiative_done:
        raise RuleError(phrase("Initiative rolls are not final yet."))
    winner = c.initiative_winner
    assert winner is not None  # final rolls have a winner
    roller = next(r for r in c.initiative if r.team == winner)
    f = c.fighter(roller.state.fighter)
    if not (
        ctx.actor.gm
        or any(g.team == winner and g.owner_id == ctx.actor.user_id for g in c.fighters)
    ):
        if has_players(c, winner):
            raise RuleError(phrase("{team} won initiative: only they (or a GM) choose the "
                                   "order.", team=winner))
        raise RuleError(phrase("{team} won initiative: only a GM chooses the order.",
                               team=winner))
    rolled = [r.team for r in c.initiative]
    chosen = list(c.order)
    if cmd.first_team.strip() and chosen:
        raise RuleError(phrase("{team} already go first; choose the team to go next among: "
                               "{teams}.", team=chosen[0],
                               teams=", ".join(t for t in rolled if t not in chosen)))
    for name in (cmd.first_team,) if cmd.first_team.strip() else cmd.order:
        left = [t for t in rolled if t not in chosen]
        team = team_named(c, name)
        if team is None or team not in left:
            raise RuleError(
                phrase("Choose the team to go next among: {teams}.", teams=", ".join(left))
                if chosen else
                phrase("Choose the team to go first among: {teams}.", teams=", ".join(left)))
        chosen.append(team)
    left = [t for t in rolled if t not in chosen]
    winners = tuple(g for g in c.fighters if g.team == winner)
    if len(left) > 1:
        so_far = (
            phrase("{winner} choose {team} to go first", winner=winner, team=chosen[0])
            if len(chosen) == 1 else
            phrase("{winner} choose the order so far: {order}", winner=winner,
                   order=_then(chosen))
        )
        ctx.emit(EventKind.ORDER, ctx.team_sentence(winners, so_far), f.key)
        return c.model_copy(update={"order": tuple(chosen)})
    order = (*chosen, *left)
    chose = ctx.team_clause(winners, phrase("{winner} choose the order", winner=winner))
    ctx.emit(EventKind.ORDER, phrase("{clause}: {order}.", clause=chose, order=_then(list(order))),
             f.key)
    return c.model_copy(update={"order": order, "turn": 0, "phase": Phase.TURN})


def initiative_prompts(c: Combat, rules: Rules) -> tuple[Prompt, ...]:
    """What initiative waits for: who rolls, the good rollers' re-rolls, then the winner's
    choice of order."""
    if not c.initiative:
        return _roller_prompts(c, rules)
    if not c.initiative_done:
        return tuple(
            prompt(c, PromptKind.REROLL, r.state.fighter, ("tens", "ones", "both", "keep"))
            for r in c.initiative
            if wants_reroll(r.state)
        )
    roller = next(r for r in c.initiative if r.team == c.initiative_winner)
    left = tuple(r.team for r in c.initiative if r.team not in c.order)
    kind = PromptKind.CHOOSE_NEXT if c.order else PromptKind.CHOOSE_ORDER
    return (prompt(c, kind, roller.state.fighter, left),)


def _roller_prompts(c: Combat, rules: Rules) -> tuple[Prompt, ...]:
    """The first team (in dice order) still to choose who of its tied fighters rolls: one
    team at a time, so each button names one team's fighters."""
    for team in _dice_order(c, rules):
        if _roller(c, team, rules) is None:
            tied = _tied(c, team, rules)
            names = tuple(f.name for f in _candidates(c, team, rules))
            if len(tied) > 1:
                return (team_prompt(PromptKind.CHOOSE_ROLLER, team, names),)
            return (prompt(c, PromptKind.LEADER_ROLLS, tied[0].key, names),)
    return ()
