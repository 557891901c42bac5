"""When the questions between turns reach their deadline (``engine.combat.pace``): a round's
initiative (who rolls, re-rolls, the order) or the rallies before the fight ends. As at a
turn's deadline, the GM is told once who has not answered (a GM may answer for them, as
always); with ``TurnEnd.AUTO`` each question is answered the way a GM would by default
instead, so the fight never waits for nobody: the team's highest-level fighter rolls, a good
roller keeps the roll, the team that chooses goes first (then the others in dice order), and
no leader rallies. The log says what the deadline did."""

from __future__ import annotations

from collections.abc import Callable

from engine.combat.commands import BetweenTurnsDeadline, Command
from engine.combat.context import Context, require_gm
from engine.combat.model import Combat, EventKind, Phase, Prompt, PromptKind, TurnEnd
from engine.combat.pace import BETWEEN_TURNS, duration_phrase, next_between_turns_deadline
from engine.combat.prompts import SPECS
from engine.errors import RuleError
from engine.phrases import Phrase, Said, phrase
from engine.words import listed_phrase

__all__ = ["between_turns_deadline", "default_answer"]

#: How a question between turns is answered when nobody did: the option a GM would pick.
_DEFAULTS: dict[PromptKind, Callable[[Prompt], str]] = {
    # The options start with the team's highest level (a leader below comes after).
    PromptKind.CHOOSE_ROLLER: lambda p: p.options[0],
    PromptKind.LEADER_ROLLS: lambda p: p.options[0],
    PromptKind.REROLL: lambda p: "keep",
    # The winner's own team first; else the next in the order the teams rolled.
    PromptKind.CHOOSE_ORDER: lambda p: p.team if p.team in p.options else p.options[0],
    PromptKind.CHOOSE_NEXT: lambda p: p.options[0],
    PromptKind.END_RALLY: lambda p: "skip",
}

#: How many questions one deadline may answer (each answer asks fewer, or moves on).
_MOST_ANSWERS = 1000

#: Answer one question of the fight and go on as the machine does after any command.
Answer = Callable[[Combat, Command, Context], Combat]


def default_answer(c: Combat) -> Command | None:
    """The answer a GM would give by default to the first question ``c`` waits for between
    turns (None: nothing is asked between turns)."""
    if c.phase not in BETWEEN_TURNS:
        return None
    for p in c.prompts:
        choose = _DEFAULTS.get(p.kind)
        if choose is not None:
            return SPECS[p.kind].command(choose(p), p.fighter or "")
    return None


def _moment(c: Combat) -> Phrase:
    if c.phase is Phase.ENDING:
        return phrase("the rallies before the fight ends")
    return phrase("round {round}'s initiative", round=c.round)


def _late(c: Combat) -> Said | None:
    """Who has not answered, and what: "Ana (re-roll?) and PCs (choose who rolls)"."""
    named: list[Said] = [
        phrase("{who} ({waiting})", who=c.fighter(p.fighter).name if p.fighter else p.team or "GM",
               waiting=SPECS[p.kind].waiting)
        for p in c.prompts if not SPECS[p.kind].offer]
    return listed_phrase(named) if named else None


def between_turns_deadline(c: Combat, cmd: BetweenTurnsDeadline, ctx: Context,
                           answer: Answer) -> Combat:
    """The clock says the questions between turns have reached their deadline: tell the GM,
    or (``TurnEnd.AUTO``) answer each by default with ``answer`` until none is left."""
    require_gm(ctx.actor, phrase("say that the time to answer is up"))
    deadline = next_between_turns_deadline(c)
    if deadline is None:
        raise RuleError(phrase("Nothing between turns has a deadline waiting."))
    if ctx.now < deadline:
        raise RuleError(phrase("The answers have {time} left.",
                               time=duration_phrase(int(deadline - ctx.now))))
    late = _late(c)
    if c.turn_end is not TurnEnd.AUTO:
        ctx.emit(EventKind.TURN_DEADLINE, phrase(
            "Time is up for {moment}. Not answered yet: {names}. A GM may answer for them.",
            moment=_moment(c), names=late) if late is not None else phrase(
            "Time is up for {moment}. A GM may answer for them.", moment=_moment(c)))
        return c.model_copy(update={"between_turns_told": True})
    ctx.emit(EventKind.TURN_DEADLINE, phrase(
        "Time is up for {moment}: Not answered yet: {names}. Each is answered the default way.",
        moment=_moment(c), names=late) if late is not None else phrase(
        "Time is up for {moment}: Each is answered the default way.", moment=_moment(c)))
    for _ in range(_MOST_ANSWERS):
        command = default_answer(c)
        if command is None:
            break
        c = answer(c, command, ctx)
    return c
