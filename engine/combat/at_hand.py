"""Which of a decider's abilities apply to the roll at hand (the board and the prompt say it,
as `/sheet` lists them): for a prompt about a roll — a reaction, a
re-roll, a critical success, a modifier, the damage die, a Defend against a blast — the
good / precise / powerful the decider's abilities give that roll, as a short line.

The rolls a prompt is about come from the step it waits on; the modifiers from the hook
``roll_modifiers`` (the data's rows), less what ``roll_limits`` forbids (All-Out Defend: not
good)."""

from __future__ import annotations

from engine.catalog import Action, RollModifier, Rules
from engine.combat.abilities.hooks import roll_limits, roll_modifiers
from engine.combat.abilities.rule import RollLimit
from engine.combat.model import Combat, Fighter, Prompt, PromptKind
from engine.combat.rolls import rolls_deciding, strike, wants_reroll
from engine.combat.step_values import (
    AidAction,
    AoEAction,
    AttackAction,
    Hit,
    MoveAction,
    RollState,
)
from engine.combat.weapons import UNARMED, held_shield

__all__ = ["abilities_at_hand", "roll_words", "rolls_at_hand"]

Roll = tuple[Action, str | None]  # the action rolled for, and the item kind it is made with

_ORDER = (RollModifier.GOOD, RollModifier.PRECISE, RollModifier.POWERFUL)


def roll_words(action: Action, item: str | None, rules: Rules) -> str:
    """A roll in few words, item first: "1H ranged attack", "shield defend", "first aid"."""
    words = action.value.replace("_", " ")
    if item is None or item == action.value:
        return words
    short = rules.items.kind(item).short if item in rules.items.ids else item
    return f"{short} {words}"


def _defend(f: Fighter, rules: Rules) -> Roll:
    """A Defend is made with a shield when one is in a usable hand (004 "Shield")."""
    return Action.DEFEND, "shield" if held_shield(f.character, rules) else None


def _state_roll(c: Combat, f: Fighter, s: RollState, rules: Rules) -> Roll | None:
    step = c.step
    if isinstance(step, AttackAction):
        hit = strike(step, s)
        if hit is not None:
            return hit.action, hit.weapon.kind
    if s.purpose == "defend":
        return _defend(f, rules)
    if isinstance(step, AoEAction) and s.purpose == "attack":
        return Action.ATTACK, "aoe"
    fixed: dict[str, Roll] = {
        "initiative": (Action.INITIATIVE, None),
        "first_aid": (Action.FIRST_AID, "first_aid"),
        "move": (Action.MOVE, None),
    }
    return fixed.get(s.purpose)


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


def rolls_at_hand(c: Combat, p: Prompt, rules: Rules) -> tuple[Roll, ...]:
    """The rolls prompt ``p`` decides about for its fighter: a reaction window's possible
    reactions, or the roll whose re-roll, critical success, modifier or damage die waits."""
    if p.fighter is None:
        return ()
    f = c.fighter(p.fighter)
    step = c.step
    found: list[Roll] = []
    if p.kind is PromptKind.REACT and isinstance(step, AttackAction | MoveAction):
        for r in step.reactors:
            if r.fighter != f.key:
                continue
            for option in r.options:
                if option == "defend":
                    found.append(_defend(f, rules))
                elif option in ("counterattack", "intercept"):
                    weapon = r.weapon or r.less_lethal_weapon
                    found.append((Action(option), weapon.kind if weapon else UNARMED))
    elif p.kind is PromptKind.AOE_DEFEND:
        found.append(_defend(f, rules))
    elif p.kind in (PromptKind.REROLL, PromptKind.CRITICAL, PromptKind.AID_SURE):
        for s in rolls_deciding(c):
            if s.fighter != f.key:
                continue
            if p.kind is PromptKind.REROLL and not wants_reroll(s):
                continue
            if p.kind is PromptKind.CRITICAL and not s.roll.awaits_critical_choice:
                continue
            roll = _state_roll(c, f, s, rules)
            if roll is not None:
                found.append(roll)
        if p.kind is PromptKind.AID_SURE and isinstance(step, AidAction):
            found.append((Action.FIRST_AID, "first_aid"))
    elif p.kind in (PromptKind.MODIFIER, PromptKind.CHOOSE_DICE) and isinstance(
        step, AttackAction
    ):
        hit = _hit_at_hand(step, f.key, p.kind)
        if hit is not None:
            action = (
                Action.INTERCEPT if step.intercept and hit.purpose == "attack"
                else Action(hit.purpose)
            )
            found.append((action, hit.weapon.kind))
    return tuple(dict.fromkeys(found))


def abilities_at_hand(c: Combat, p: Prompt, rules: Rules) -> str | None:
    """What the decider's abilities give the rolls ``p`` is about, e.g. "good, precise
    (1H melee attack)"; None when they give nothing."""
    if p.fighter is None:
        return None
    f = c.fighter(p.fighter)
    if _spent(c, p):
        return None
    after_roll = p.kind in (PromptKind.MODIFIER, PromptKind.CHOOSE_DICE)
    said: list[str] = []
    for action, item in rolls_at_hand(c, p, rules):
        mods = set(roll_modifiers(f.character, rules, action, item))
        if after_roll:  # the roll is made: a re-roll is past
            mods.discard(RollModifier.GOOD)
        if RollLimit.NOT_GOOD in roll_limits(f, action):
            mods.discard(RollModifier.GOOD)
        if mods:
            words = ", ".join(m.value for m in _ORDER if m in mods)
            said.append(f"{words} ({roll_words(action, item, rules)})")
    return "; ".join(said) or None
