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
from engine.combat.pace import BETWEEN_TURNS, duration_words, next_between_turns_deadline
from engine.combat.prompts import SPECS
from engine.errors import RuleError
from engine.phrases import english
from engine.words import listed

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


def _moment(c: Combat) -> str:
    if c.phase is Phase.ENDING:
        return "the rallies before the fight ends"
    return f"round {c.round}'s initiative"


def _late(c: Combat) -> str:
    """Who has not answered, and what: "Ana (re-roll?) and PCs (choose who rolls)"."""
    named = [f"{c.fighter(p.fighter).name if p.fighter else p.team or 'GM'} "
             f"({english(SPECS[p.kind].waiting)})" for p in c.prompts if not SPECS[p.kind].offer]
    return f" Not answered yet: {listed(named)}." if named else ""


def between_turns_deadline(c: Combat, cmd: BetweenTurnsDeadline, ctx: Context,
                           answer: Answer) -> Combat:
    """The clock says the questions between turns have reached their deadline: tell the GM,
    or (``TurnEnd.AUTO``) answer each by default with ``answer`` until none is left."""
    require_gm(ctx.actor, "say that the time to answer is up")
    deadline = next_between_turns_deadline(c)
    if deadline is None:
        raise RuleError("Nothing between turns has a deadline waiting.")
    if ctx.now < deadline:
        raise RuleError(f"The answers have {duration_words(int(deadline - ctx.now))} left.")
    late = _late(c)
    if c.turn_end is not TurnEnd.AUTO:
        ctx.emit(EventKind.TURN_DEADLINE,
                 f"Time is up for {_moment(c)}.{late} A GM may answer for them.")
        return c.model_copy(update={"between_turns_told": True})
    ctx.emit(EventKind.TURN_DEADLINE,
             f"Time is up for {_moment(c)}:{late} Each is answered the default way.")
    for _ in range(_MOST_ANSWERS):
        command = default_answer(c)
        if command is None:
            break
        c = answer(c, command, ctx)
    return c
