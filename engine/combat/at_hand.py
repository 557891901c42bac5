"""Which of a decider's abilities apply to the roll at hand (the board and the prompt say it,
as `/sheet` lists them): for a prompt about a roll — a reaction, a
re-roll, a critical success, a modifier, the damage die, a Defend against a blast — the
good / precise / powerful the decider's abilities give that roll, as a short line.

The rolls a prompt is about come from the step it waits on; what applies to each is its
``roll_spec`` (``engine.combat.roll_spec``), the same spec the roll is made from: the modifier
rows, less what the situation takes away (RULINGS 22: no shield against a blast) and what the
rules forbid (All-Out Defend: not good)."""

from __future__ import annotations

from engine.catalog import Action, Rules
from engine.combat.model import Combat, Prompt, PromptKind
from engine.combat.roll_spec import RollSpec, hit_spec, roll_spec, spec_of
from engine.combat.rolls import rolls_deciding, wants_reroll
from engine.combat.step_values import AidAction, AttackAction, Hit, MoveAction
from engine.combat.weapons import UNARMED
from engine.phrases import Phrase, phrase

__all__ = ["abilities_at_hand", "rolls_at_hand"]


def _hit_at_hand(a: AttackAction, key: str, kind: PromptKind) -> Hit | None:
    """The hit whose damage die or modifier ``key`` decides now."""
    for hit in a.hits:
        if hit.done:
            continue
        if kind is PromptKind.CHOOSE_DICE and hit.chooser == key and hit.damage_die is None:
            return hit
        if kind is PromptKind.MODIFIER and hit.attacker == key and not hit.modifier_decided:
            return hit
    return None


def _spent(c: Combat, p: Prompt) -> bool:
    """Whether the roll a damage prompt is about has had its one modifier (a good re-roll,
    004 "Rolling Dice": only one of good, precise or powerful per roll)."""
    step = c.step
    if p.kind not in (PromptKind.MODIFIER, PromptKind.CHOOSE_DICE) or not isinstance(
        step, AttackAction
    ) or p.fighter is None:
        return False
    hit = _hit_at_hand(step, p.fighter, p.kind)
    if hit is None:
        return False
    state = next((s for s in step.rolls
                  if s.fighter == hit.attacker and s.purpose == hit.purpose), None)
    return state is not None and state.roll.modifier is not None


def rolls_at_hand(c: Combat, p: Prompt, rules: Rules) -> tuple[RollSpec, ...]:
    """The specs of the rolls prompt ``p`` decides about for its fighter: a reaction window's
    possible reactions, a Blast's Defend, or the roll whose re-roll, critical success, modifier
    or damage die waits."""
    if p.fighter is None:
        return ()
    f = c.fighter(p.fighter)
    step = c.step
    found: list[RollSpec] = []
    if p.kind is PromptKind.REACT and isinstance(step, AttackAction | MoveAction):
        for r in step.reactors:
            if r.fighter != f.key:
                continue
            for option in r.options:
                if option == "defend":
                    found.append(roll_spec(f, rules, Action.DEFEND))
                elif option in ("counterattack", "intercept"):
                    weapon = r.weapon or r.less_lethal_weapon
                    kind = weapon.kind if weapon else UNARMED
                    found.append(roll_spec(f, rules, Action(option), kind))
    elif p.kind is PromptKind.AOE_DEFEND:
        found.append(roll_spec(f, rules, Action.DEFEND, against_aoe=True))
    elif p.kind in (PromptKind.REROLL, PromptKind.CRITICAL, PromptKind.AID_SURE):
        for s in rolls_deciding(c):
            if s.fighter != f.key:
                continue
            if p.kind is PromptKind.REROLL and not wants_reroll(s):
                continue
            if p.kind is PromptKind.CRITICAL and not s.roll.awaits_critical_choice:
                continue
            found.append(spec_of(c, s, rules))
        if p.kind is PromptKind.AID_SURE and isinstance(step, AidAction):
            found.append(roll_spec(f, rules, Action.FIRST_AID, "first_aid"))
    elif p.kind in (PromptKind.MODIFIER, PromptKind.CHOOSE_DICE) and isinstance(
        step, AttackAction
    ):
        hit = _hit_at_hand(step, f.key, p.kind)
        if hit is not None:
            found.append(hit_spec(c, step, hit, rules))
    return tuple(dict.fromkeys(found))


def abilities_at_hand(c: Combat, p: Prompt, rules: Rules) -> Phrase | None:
    """What the decider's abilities give the rolls ``p`` is about, e.g. "good, precise
    (1H melee attack)"; None when they give nothing."""
    if p.fighter is None or _spent(c, p):
        return None
    rolled = p.kind in (PromptKind.MODIFIER, PromptKind.CHOOSE_DICE)  # a re-roll is past
    said = [words for spec in rolls_at_hand(c, p, rules)
            if (words := spec.applies(rules, rolled=rolled)) is not None]
    if not said:
        return None
    joined = said[-1]
    for words in reversed(said[:-1]):
        joined = phrase("{first}; {more}", first=words, more=joined)
    return joined
