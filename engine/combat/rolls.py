"""Rolls in a fight (004 "Rolling Dice"): which ability makes a roll good, precise or powerful,
a roll as the table reads it, and the rolls the innermost step (or initiative) is deciding."""

from __future__ import annotations

from engine.combat.model import AidAction, AttackAction, Combat, Phase, RallyAction, RollState
from engine.combat.steps import replace_top
from engine.dice import Check

__all__ = ["replace_roll", "roll_text", "rolls_deciding", "wants_reroll"]


def roll_text(r: Check) -> str:
    return f"{r.value} ({r.tens}·{r.ones}) vs {r.level} — {r.outcome}"


def wants_reroll(s: RollState) -> bool:
    """A good roller has not yet said whether to re-roll a roll that may be re-rolled."""
    return s.good and not s.reroll_decided and s.roll.can_reroll


def rolls_deciding(c: Combat) -> tuple[RollState, ...]:
    """The rolls whose re-roll or critical choice the fight may be waiting for."""
    if c.phase is Phase.INITIATIVE:
        return tuple(r.state for r in c.initiative)
    step = c.step
    if isinstance(step, AidAction | RallyAction):
        return (step.roll,)
    if isinstance(step, AttackAction):
        return step.rolls
    return ()


def replace_roll(c: Combat, new: RollState) -> Combat:
    """``c`` with ``new`` in place of the deciding roll of the same fighter and purpose."""
    if c.phase is Phase.INITIATIVE:
        rolls = tuple(
            r.model_copy(update={"state": new}) if r.state.fighter == new.fighter else r
            for r in c.initiative
        )
        return c.model_copy(update={"initiative": rolls})
    step = c.step
    if isinstance(step, AidAction | RallyAction):
        return replace_top(c, step.model_copy(update={"roll": new}))
    assert isinstance(step, AttackAction)
    states = tuple(
        new if (s.fighter, s.purpose) == (new.fighter, new.purpose) else s for s in step.rolls
    )
    return replace_top(c, step.model_copy(update={"rolls": states}))
