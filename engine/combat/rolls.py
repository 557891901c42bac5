"""Rolls in a fight (004 "Rolling Dice"): what an attack roll strikes, a roll as the table
reads it, and the rolls the innermost step (or initiative) is deciding. What applies to a
roll (good, precise, powerful, may be critical) and the making of it: ``roll_spec``."""

from __future__ import annotations

from dataclasses import dataclass

from engine.catalog import Action
from engine.combat.model import Combat, Phase
from engine.combat.step_values import (
    UNARMED,
    AidAction,
    AoEAction,
    AttackAction,
    MoveAction,
    RallyAction,
    RollState,
    Weapon,
)
from engine.combat.steps import replace_top
from engine.dice import Check
from engine.phrases import Phrase, phrase

__all__ = [
    "Strike", "outcome_phrase", "replace_roll", "roll_phrase", "roll_text", "rolls_deciding",
    "strike", "target_of", "wants_reroll",
]


@dataclass(frozen=True)
class Strike:
    """What an attack roll is: its action, the weapon, the target (a key), the damage's sort."""

    action: Action
    weapon: Weapon
    target: str
    lethal: bool


def strike(a: AttackAction, s: RollState) -> Strike | None:
    """The Attack, Intercept or Counterattack ``s`` rolls for in ``a`` (None: a Defend)."""
    if s.purpose == "attack":
        action = Action.INTERCEPT if a.intercept else Action.ATTACK
        return Strike(action, a.weapon, a.target, a.lethal)
    if s.purpose == "counterattack":
        reactor = next((r for r in a.reactors if r.fighter == s.fighter), None)
        weapon = reactor.weapon if reactor is not None else None
        return Strike(
            Action.COUNTERATTACK,
            weapon or Weapon(name=UNARMED, kind=UNARMED),
            a.attacker,
            reactor.lethal if reactor is not None else True,
        )
    return None


def target_of(a: AttackAction, key: str) -> str | None:
    """Whom ``key`` strikes in ``a``: an attacker its target, a counterattacker the attacker."""
    for s in a.rolls:
        hit = strike(a, s)
        if s.fighter == key and hit is not None:
            return hit.target
    return None


def roll_text(r: Check, *, level: bool = True) -> str:
    """"34 (3·4) vs 50 — SUCCESS"; without ``level``, "34 (3·4) — SUCCESS"."""
    against = f" vs {r.level}" if level else ""
    return f"{r.value} ({r.tens}·{r.ones}){against} — {r.outcome}"


def outcome_phrase(r: Check) -> Phrase:
    """What ``r`` came to, shouted as the table reads it: "SUCCESS", "CRITICAL FAILURE"."""
    if r.critical:
        return phrase("CRITICAL SUCCESS") if r.success else phrase("CRITICAL FAILURE")
    return phrase("SUCCESS") if r.success else phrase("FAILURE")


def roll_phrase(r: Check, *, level: bool = True) -> Phrase:
    """:func:`roll_text` as a phrase: "34 (3·4) vs 50 — SUCCESS"; without ``level``, "34
    (3·4) — SUCCESS"."""
    if level:
        return phrase("{value} ({tens}·{ones}) vs {level} — {outcome}", value=r.value,
                      tens=r.tens, ones=r.ones, level=r.level, outcome=outcome_phrase(r))
    return phrase("{value} ({tens}·{ones}) — {outcome}", value=r.value, tens=r.tens,
                  ones=r.ones, outcome=outcome_phrase(r))


def wants_reroll(s: RollState) -> bool:
    """A good roller has not yet said whether to re-roll a roll that may be re-rolled."""
    return s.good and not s.reroll_decided and s.roll.can_reroll


def rolls_deciding(c: Combat) -> tuple[RollState, ...]:
    """The rolls whose re-roll or critical choice the fight may be waiting for."""
    if c.phase is Phase.INITIATIVE:
        return tuple(r.state for r in c.initiative)
    step = c.step
    if isinstance(step, AidAction):
        return () if step.roll is None else (step.roll,)
    if isinstance(step, RallyAction):
        return (step.roll,)
    if isinstance(step, AoEAction):
        return (step.roll, *(t.roll for t in step.targets if t.roll is not None))
    if isinstance(step, AttackAction):
        return step.rolls
    if isinstance(step, MoveAction) and step.roll is not None and not step.roll_done:
        return (step.roll,)
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
    if isinstance(step, AidAction | MoveAction | RallyAction):
        return replace_top(c, step.model_copy(update={"roll": new}))
    if isinstance(step, AoEAction):
        if new.purpose == "attack":
            return replace_top(c, step.model_copy(update={"roll": new}))
        targets = tuple(
            t.model_copy(update={"roll": new}) if t.fighter == new.fighter else t
            for t in step.targets
        )
        return replace_top(c, step.model_copy(update={"targets": targets}))
    assert isinstance(step, AttackAction)
    states = tuple(
        new if (s.fighter, s.purpose) == (new.fighter, new.purpose) else s for s in step.rolls
    )
    return replace_top(c, step.model_copy(update={"rolls": states}))
