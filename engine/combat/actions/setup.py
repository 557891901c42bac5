"""Setting up a fight and ending it: fighters join (a player their own PC, a GM anyone) and
leave, a GM begins it (round 1) and may end it."""

from __future__ import annotations

from engine.character import character_problems
from engine.character.wording import sentences_phrase
from engine.combat.abilities.hooks import hides
from engine.combat.commands import AddFighter, AddFighters, Begin, EndCombat, RemoveFighter
from engine.combat.context import Context, require_control, require_gm
from engine.combat.fighters import standing_teams, team_named
from engine.combat.model import Combat, EventKind, Fighter, Phase
from engine.combat.phase_guard import require_phase
from engine.combat.rounds import end, start_round
from engine.copies import group_names
from engine.errors import RuleError
from engine.listing import names_listed
from engine.maps import UnknownAreaError
from engine.names import name_key
from engine.phrases import Phrase, phrase, plural_phrase

__all__ = ["TEAM_NAME_MAX", "add_fighter", "add_fighters", "begin", "default_team", "end_combat",
           "remove_fighter"]

TEAM_NAME_MAX = 32

#: Each step being resolved as "the ... being resolved" says it.
_STEP_WORDS = {"attack": phrase("attack"), "move": phrase("move"),
               "first_aid": phrase("first aid"), "rally": phrase("rally"), "aoe": phrase("AoE"),
               "burn": phrase("Continuous damage")}


def default_team(npc: bool) -> Phrase:
    """The team a fighter added without one joins. A caller renders it in the table's language
    when the fighter is added (it is a name in the fight's state from then on); a command
    without a team gets it in English."""
    if npc:
        # Translators: the team an NPC joins when none is given (a name, at most 32 letters).
        return phrase("NPCs")
    # Translators: the team a PC joins when none is given (a name, at most 32 letters).
    return phrase("PCs")


def add_fighter(c: Combat, cmd: AddFighter, ctx: Context) -> Combat:
    c, f = _join(c, cmd, ctx)
    ctx.emit(EventKind.ADDED, plural_phrase(
        "{names} joins the fight for {team} in {area}.",
        "{names} join the fight for {team} in {area}.", "count",
        count=1, names=f.name, team=f.team, area=f.area), f.key)
    return c


def add_fighters(c: Combat, cmd: AddFighters, ctx: Context) -> Combat:
    """Every fighter of ``cmd`` joins, each on :func:`add_fighter`'s terms; one refused
    refuses them all. One sentence per team says who joined, in the order given."""
    joined: list[Fighter] = []
    for one in cmd.fighters:
        c, f = _join(c, one, ctx)
        joined.append(f)
    for team in dict.fromkeys(f.team for f in joined):
        group = [f for f in joined if f.team == team]
        for area in dict.fromkeys(f.area for f in group):
            here = [f for f in group if f.area == area]
            names = names_listed(group_names([f.name for f in here]))
            ctx.emit(EventKind.ADDED, plural_phrase(
                "{names} joins the fight for {team} in {area}.",
                "{names} join the fight for {team} in {area}.", "count",
                count=len(here), names=names, team=team, area=area),
                here[0].key if len(here) == 1 else None)
    return c


def _join(c: Combat, cmd: AddFighter, ctx: Context) -> tuple[Combat, Fighter]:
    """The fight with the fighter ``cmd`` adds, and that fighter; RuleError when refused."""
    actor, rules = ctx.actor, ctx.rules
    ch = cmd.character
    if c.phase is not Phase.SETUP:
        require_gm(actor, phrase("add fighters once the fight has begun"))
    elif not actor.gm and (ch.npc or cmd.owner_id != actor.user_id):
        raise RuleError(phrase("Players can add only their own PCs; a GM places everyone "
                               "else."))
    problems = character_problems(ch, rules=rules)
    if problems:
        raise RuleError(sentences_phrase(problems))
    key = name_key(ch.name)
    if any(f.key == key for f in c.fighters):
        raise RuleError(phrase("{name} is already in this combat.", name=ch.name))
    try:
        area = c.game_map().area(cmd.area)
    except UnknownAreaError:
        raise RuleError(phrase(
            "There is no area called {area} on this map; the areas are {areas}.",
            area=repr(cmd.area.strip()), areas=", ".join(c.game_map().areas))) from None
    team = " ".join((cmd.team or default_team(ch.npc).english()).split())
    if not team or len(team) > TEAM_NAME_MAX:
        raise RuleError(phrase("A team name is 1-{most} characters.", most=TEAM_NAME_MAX))
    team = team_named(c, team) or team
    f = Fighter(
        key=key,
        name=ch.name,
        team=team,
        area=area,
        owner_id=cmd.owner_id,
        character_id=cmd.character_id,
        character=ch,
        hidden=hides(ch),  # Stealth holds from the start (it counts while no enemy is near)
    )
    teams = c.teams if team in c.teams else (*c.teams, team)
    return c.model_copy(update={"fighters": (*c.fighters, f), "teams": teams}), f


def remove_fighter(c: Combat, cmd: RemoveFighter, ctx: Context) -> Combat:
    f = c.fighter(cmd.fighter)
    if c.phase is Phase.SETUP:
        require_control(ctx.actor, f)
    else:
        require_gm(ctx.actor, phrase("remove a fighter once the fight has begun"))
        for step in reversed(c.steps):
            if f.key in step.involved:
                raise RuleError(phrase(
                    "{name} is part of the {step} being resolved; remove them after it.",
                    name=f.name, step=_STEP_WORDS[step.kind]))
        if c.phase is Phase.INITIATIVE and any(r.state.fighter == f.key for r in c.initiative):
            raise RuleError(phrase("{name} is rolling initiative; remove them after it.",
                                   name=f.name))
    fighters = tuple(g for g in c.fighters if g.key != f.key)
    teams = tuple(t for t in c.teams if any(g.team == t for g in fighters))
    ctx.emit(EventKind.REMOVED, phrase("{name} leaves the fight.", name=f.name), f.key)
    return c.model_copy(update={"fighters": fighters, "teams": teams})


def begin(c: Combat, cmd: Begin, ctx: Context) -> Combat:
    require_gm(ctx.actor, phrase("begin the fight"))
    require_phase(c, Phase.SETUP)
    if len(standing_teams(c, ctx.rules)) < 2:
        raise RuleError(phrase("A fight needs at least two teams with conscious fighters."))
    ctx.emit(EventKind.BEGIN, phrase("The fight begins."))
    return start_round(c, ctx)


def end_combat(c: Combat, cmd: EndCombat, ctx: Context) -> Combat:
    require_gm(ctx.actor, phrase("end the combat"))
    return end(c.model_copy(update={"ended_by_gm": True}), ctx,
               phrase("The GM ends the combat."))
