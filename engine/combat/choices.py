"""The roller's choices on a roll (004 "Rolling Dice"): a good roller re-rolls a die (or both)
or keeps the roll; a critical success takes an extra action or adjusts the roll."""

from __future__ import annotations

from engine.combat.commands import CriticalChoice, Reroll
from engine.combat.context import Context, require_phase
from engine.combat.fighters import put
from engine.combat.model import Combat, EventKind, Phase, PromptKind
from engine.combat.prompts import answering
from engine.combat.rolls import replace_roll, rolls_deciding, wants_reroll
from engine.dice import Reroll as DiceReroll
from engine.errors import RuleError

__all__ = ["critical", "reroll"]


def reroll(c: Combat, cmd: Reroll, ctx: Context) -> Combat:
    require_phase(c, Phase.INITIATIVE, Phase.RESOLUTION)
    f, asked = answering(c, PromptKind.REROLL, cmd.fighter, ctx.actor)
    if cmd.which not in asked.options:
        raise RuleError(f"Choose one of: {', '.join(asked.options)}.")
    state = next(s for s in rolls_deciding(c) if s.fighter == f.key and wants_reroll(s))
    if cmd.which == "keep":
        ctx.emit(EventKind.REROLL, f"{f.name} keeps the roll.", f.key)
        new = state.model_copy(update={"reroll_decided": True})
    else:
        roll = state.roll.reroll(DiceReroll(cmd.which), ctx.dice)
        ctx.say_roll(EventKind.REROLL, f"{f.name} re-rolls {cmd.which}", f.key, roll.result)
        new = state.model_copy(update={"roll": roll, "reroll_decided": True})
    return replace_roll(c, new)


def critical(c: Combat, cmd: CriticalChoice, ctx: Context) -> Combat:
    require_phase(c, Phase.RESOLUTION)
    f, _ = answering(c, PromptKind.CRITICAL, cmd.fighter, ctx.actor)
    state = next(
        s for s in rolls_deciding(c) if s.fighter == f.key and s.roll.awaits_critical_choice
    )
    if cmd.choice == "extra_action":
        roll = state.roll.take_extra_action()
        c = put(c, f.model_copy(update={"actions": f.actions + 1}))
        ctx.emit(EventKind.EXTRA_ACTION, f"{f.name} takes an extra action this round.", f.key)
    else:
        if cmd.value is None:
            limit = state.roll.adjust_limit
            raise RuleError(f"Say which value to adjust the roll to (1-{limit}).")
        roll = state.roll.adjust(cmd.value)
        res = roll.result
        ctx.emit(
            EventKind.ADJUST, f"{f.name} adjusts the roll to {res.value}.", f.key,
            (res.tens, res.ones),
        )
    return replace_roll(c, state.model_copy(update={"roll": roll}))
