"""When a team's turn reaches its deadline (``engine.combat.pace``): with ``TurnEnd.AUTO`` the
turn ends as if its team pressed Done; else the GM is told, once, whose fighters have not
acted, and decides: act for them (as a GM may), end the turn (Done), or extend it
(``ExtendTurn``). The log says what the deadline did."""

from __future__ import annotations

from engine.combat.commands import ExtendTurn, TurnDeadline
from engine.combat.context import Context, require_gm
from engine.combat.model import Combat, EventKind, Phase, TurnEnd
from engine.combat.pace import check_duration, duration_phrase, next_turn_deadline
from engine.combat.phase_guard import require_phase
from engine.combat.prompts import SPECS
from engine.combat.rounds import may_act, next_turn
from engine.copies import group_names
from engine.errors import RuleError
from engine.phrases import phrase
from engine.words import listed_phrase, team_turn_phrase

__all__ = ["extend_turn", "turn_deadline"]


def turn_deadline(c: Combat, cmd: TurnDeadline, ctx: Context) -> Combat:
    """The clock says the acting team's turn has reached its deadline."""
    require_gm(ctx.actor, phrase("say that a turn's time is up"))
    require_phase(c, Phase.TURN, Phase.RESOLUTION)
    deadline = next_turn_deadline(c)
    if deadline is None:
        raise RuleError(phrase("This turn has no deadline waiting."))
    if ctx.now < deadline:
        raise RuleError(phrase("This turn has {time} left.",
                               time=duration_phrase(int(deadline - ctx.now))))
    team = c.acting_team
    assert team is not None  # a turn is always some team's
    if c.phase is Phase.RESOLUTION:
        return _mid_action(c, team, ctx)
    late = group_names([f.name for f in c.fighters
                        if f.team == team and may_act(c, f, ctx.rules)])
    whose = team_turn_phrase(team)
    if c.turn_end is TurnEnd.AUTO:
        ctx.emit(EventKind.TURN_DEADLINE, phrase(
            "Time is up for {turn}: it ends. Not acted yet: {names}.", turn=whose,
            names=listed_phrase(late)) if late else
            phrase("Time is up for {turn}: it ends.", turn=whose))
        ctx.emit(EventKind.TURN_END, phrase("{team} are done (time is up).", team=team))
        return next_turn(c, ctx)
    ctx.emit(EventKind.TURN_DEADLINE, phrase(
        "Time is up for {turn}. Not acted yet: {names}. A GM may act for them, extend the "
        "turn, or end it.", turn=whose, names=listed_phrase(late)) if late else phrase(
        "Time is up for {turn}. A GM may act for them, extend the turn, or end it.", turn=whose))
    return c.model_copy(update={"turn_deadline_told": True})


def _mid_action(c: Combat, team: str, ctx: Context) -> Combat:
    """The deadline passes while a question of an action being resolved waits: the turn
    cannot end halfway through an action, so the GM is told (``turn_end`` auto too), once."""
    late = listed_phrase(group_names([
        c.fighter(p.fighter).name if p.fighter else p.team or "GM"
        for p in c.prompts if not SPECS[p.kind].offer]))
    ctx.emit(EventKind.TURN_DEADLINE, phrase(
        "Time is up for {turn}. Not answered yet: {names}. A GM may answer for them, extend "
        "the turn, or end it once the action is resolved.", turn=team_turn_phrase(team),
        names=late))
    return c.model_copy(update={"turn_deadline_told": True})


def extend_turn(c: Combat, cmd: ExtendTurn, ctx: Context) -> Combat:
    """A GM gives the acting team more time: the deadline moves on by ``cmd.seconds`` (or the
    fight's turn length) from when it was, or from now once it has passed."""
    require_gm(ctx.actor, phrase("extend a turn"))
    require_phase(c, Phase.TURN, Phase.RESOLUTION)
    seconds = cmd.seconds if cmd.seconds is not None else c.turn_seconds
    if seconds is None:
        raise RuleError(phrase("This fight's turns have no deadline: say by how long to extend "
                               "it."))
    check_duration(seconds, phrase("An extension"))
    team = c.acting_team
    assert team is not None
    start = max(c.turn_deadline if c.turn_deadline is not None else ctx.now, ctx.now)
    ctx.emit(EventKind.TURN_DEADLINE, phrase("The GM extends {turn} by {time}.",
                                             turn=team_turn_phrase(team),
                                             time=duration_phrase(seconds)))
    return c.model_copy(update={"turn_deadline": start + seconds, "turn_deadline_told": False})
