"""One spec for every roll a fight makes (004 "Rolling Dice"), and the one way to roll it.

A :class:`RollSpec` says who rolls, for which action, with which item kind, against which
level, and what applies to the roll: good / precise / powerful and whether it may be critical.
:func:`roll_spec` is the one fold that makes it, in this order:

1. the abilities' modifier rows (``hooks.roll_modifiers``, the data's good / precise /
   powerful rows for the action and the item kind);
2. the situation: a Defend is made with a shield only when one is in a usable hand, and never
   against an AoE (RULINGS 22: "Neither cover nor shields apply to AoEs"), so the Shield
   ability's good Defend applies to neither;
3. the rules' limits (``hooks.roll_limits``; All-Out Defend: not good, not critical), which
   take away what the rows gave.

:func:`make_roll` turns a spec and the dice into the roll's state; nothing else in
``engine/combat`` rolls a fight's dice or makes a ``RollState`` (a test scans for it). The
board's and the prompt's "applies: ..." (``at_hand``) and the damage's precise / powerful
offers (``damage``) read the spec of the same roll (:func:`spec_of`, :func:`hit_spec`), so
what is shown is what is rolled."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from engine.catalog import Action, RollModifier, Rules
from engine.combat.abilities.hooks import roll_limits, roll_modifiers
from engine.combat.abilities.rule import RollLimit
from engine.combat.model import Combat, Fighter, Phase
from engine.combat.rolls import strike
from engine.combat.step_values import UNARMED, AoEAction, AttackAction, Hit, RollState
from engine.combat.weapons import held_shield
from engine.dice import DiceSource, Roll
from engine.listing import one_by_one
from engine.phrases import Phrase, Said, english, phrase, phrase_in

__all__ = [
    "Purpose", "RollSpec", "aoe_attack_spec", "hit_spec", "make_roll", "rally_spec",
    "roll_spec", "roll_words", "spec_of",
]

Purpose = Literal["attack", "defend", "counterattack", "initiative", "first_aid", "move", "rally"]

#: What a roll for each action is called in its state (an Intercept is its mover's attack).
_PURPOSE: dict[Action, Purpose] = {
    Action.ATTACK: "attack",
    Action.INTERCEPT: "attack",
    Action.COUNTERATTACK: "counterattack",
    Action.DEFEND: "defend",
    Action.FIRST_AID: "first_aid",
    Action.INITIATIVE: "initiative",
    Action.MOVE: "move",
}
#: The action and item kind of the rolls whose purpose alone says them.
_FIXED: dict[str, tuple[Action, str | None]] = {
    "initiative": (Action.INITIATIVE, None),
    "first_aid": (Action.FIRST_AID, "first_aid"),
    "move": (Action.MOVE, None),
}
_ORDER = (RollModifier.GOOD, RollModifier.PRECISE, RollModifier.POWERFUL)
_MODIFIER_WORDS = {RollModifier.GOOD: phrase("good"), RollModifier.PRECISE: phrase("precise"),
                   RollModifier.POWERFUL: phrase("powerful")}
_LIMIT_WORDS = ((RollLimit.NOT_GOOD, phrase("not good")),
                (RollLimit.NOT_CRITICAL, phrase("cannot be critical")))
#: A roll for each action, said alone (a noun: "good (defense)"; "defend" is the verb's).
_ROLL_WORDS = {
    Action.ATTACK: phrase("attack"),
    # Translators: the roll of a Counterattack (a noun), as in "good (counterattack)".
    Action.COUNTERATTACK: phrase_in("a roll", "counterattack"),
    # Translators: the roll of an Intercept (a noun), as in "good (intercept)".
    Action.INTERCEPT: phrase_in("a roll", "intercept"),
    # Translators: the Defend roll without a shield, a noun: "good (defense)".
    Action.DEFEND: phrase("defense"),
    Action.FIRST_AID: phrase("first aid"), Action.INITIATIVE: phrase("initiative"),
    Action.MOVE: phrase("move"),
}


def _with_item(action: Action, item: Said) -> Phrase:
    """A roll for ``action`` with an item of a kind (``item``: its short name), item first."""
    if action is Action.ATTACK:
        return phrase("{item} attack", item=item)
    if action is Action.COUNTERATTACK:
        return phrase("{item} counterattack", item=item)
    if action is Action.INTERCEPT:
        return phrase("{item} intercept", item=item)
    if action is Action.DEFEND:
        return phrase("{item} defend", item=item)
    if action is Action.FIRST_AID:
        return phrase("{item} first aid", item=item)
    if action is Action.INITIATIVE:
        return phrase("{item} initiative", item=item)
    return phrase("{item} move", item=item)


def roll_words(action: Action, item: str | None, rules: Rules) -> Phrase:
    """A roll in few words, item first: "1H ranged attack", "shield defend", "first aid"."""
    if item is None or item == action.value:
        return _ROLL_WORDS[action]
    if item in rules.items.ids:
        return _with_item(action, rules.items.kind(item).said_short)
    return _with_item(action, phrase("unarmed") if item == UNARMED else item)


@dataclass(frozen=True)
class RollSpec:
    """One roll before its dice: who rolls (a fighter's key), for what, against which level,
    and what applies to it. ``action`` is None for a roll no ability row is about (a Rally);
    ``limits`` are the rules' words for what the roll may not be ("not good", "cannot be
    critical"), said with the roll."""

    fighter: str
    purpose: Purpose
    action: Action | None
    item: str | None
    level: int
    max_level: int
    modifiers: frozenset[RollModifier]
    may_be_critical: bool = True
    limits: tuple[Phrase, ...] = ()

    @property
    def good(self) -> bool:
        """The roller may re-roll it once."""
        return RollModifier.GOOD in self.modifiers

    @property
    def precise(self) -> bool:
        """A hit it makes may move its location die by one."""
        return RollModifier.PRECISE in self.modifiers

    @property
    def powerful(self) -> bool:
        """A hit it makes may raise its damage die by one."""
        return RollModifier.POWERFUL in self.modifiers

    def applies(self, rules: Rules, *, rolled: bool = False) -> Phrase | None:
        """What applies to the roll and why, e.g. "good, precise (1H melee attack)"; once
        ``rolled``, a re-roll is past and good is left out. None: nothing applies."""
        shown = [_MODIFIER_WORDS[m] for m in _ORDER if m in self.modifiers
                 and not (rolled and m is RollModifier.GOOD)]
        if not shown or self.action is None:
            return None
        return phrase("{modifiers} ({roll})", modifiers=one_by_one(shown),
                      roll=roll_words(self.action, self.item, rules))

    def said(self, what: Said) -> Said:
        """``what`` the roll is for, with the limits on it: "Bea defends (not good, ...)"."""
        if not self.limits:
            return what
        if isinstance(what, str):  # a caller not yet saying a phrase keeps its plain words
            return f"{what} ({', '.join(english(limit) for limit in self.limits)})"
        return phrase("{what} ({limits})", what=what, limits=one_by_one(self.limits))


def _defend_item(f: Fighter, rules: Rules, against_aoe: bool) -> str | None:
    """A Defend is made with a shield when one is in a usable hand (004 "Shield"), except
    against an AoE, where a shield gives nothing (RULINGS 22)."""
    return "shield" if not against_aoe and held_shield(f.character, rules) else None


def roll_spec(
    f: Fighter, rules: Rules, action: Action, item: str | None = None, *,
    against_aoe: bool = False,
) -> RollSpec:
    """The spec of ``f``'s roll for ``action`` with an item of kind ``item`` (for a Defend the
    spec finds the item: a shield in hand, unless ``against_aoe``): the modifier rows, the
    situation, then the rules' limits."""
    if action is Action.DEFEND:
        item = _defend_item(f, rules, against_aoe)
    modifiers = set(roll_modifiers(f.character, rules, action, item))
    limits = roll_limits(f, action)
    if RollLimit.NOT_GOOD in limits:
        modifiers.discard(RollModifier.GOOD)
    ch = f.character
    return RollSpec(
        fighter=f.key, purpose=_PURPOSE[action], action=action, item=item, level=ch.level,
        max_level=ch.max_level, modifiers=frozenset(modifiers),
        may_be_critical=RollLimit.NOT_CRITICAL not in limits,
        limits=tuple(word for limit, word in _LIMIT_WORDS if limit in limits),
    )


def aoe_attack_spec(f: Fighter, rules: Rules) -> RollSpec:
    """The spec of ``f``'s roll to use an AoE item (an Attack with an item of kind "aoe")."""
    return roll_spec(f, rules, Action.ATTACK, "aoe")


def rally_spec(f: Fighter) -> RollSpec:
    """The spec of a leader's Rally roll: no ability row or rule is about it."""
    ch = f.character
    return RollSpec(fighter=f.key, purpose="rally", action=None, item=None, level=ch.level,
                    max_level=ch.max_level, modifiers=frozenset())


def make_roll(spec: RollSpec, dice: DiceSource) -> RollState:
    """Roll ``spec``'s two dice against its level: the roll's state, good when the spec is,
    and a plain result (never critical) when the spec may not be critical."""
    roll = Roll.first(spec.level, dice, max_level=spec.max_level,
                      can_be_critical=spec.may_be_critical)
    return RollState(fighter=spec.fighter, purpose=spec.purpose, roll=roll, good=spec.good)


def spec_of(c: Combat, s: RollState, rules: Rules) -> RollSpec:
    """The spec of the roll ``s`` the innermost step (or initiative) is deciding, as it was
    made: an attack's by its action and weapon, a Blast's Defend against an AoE."""
    f = c.fighter(s.fighter)
    step = c.step
    if c.phase is Phase.INITIATIVE:
        return roll_spec(f, rules, Action.INITIATIVE)
    if isinstance(step, AttackAction):
        hit = strike(step, s)
        if hit is not None:
            return roll_spec(f, rules, hit.action, hit.weapon.kind)
    if s.purpose == "defend":
        return roll_spec(f, rules, Action.DEFEND, against_aoe=isinstance(step, AoEAction))
    if isinstance(step, AoEAction):
        return aoe_attack_spec(f, rules)
    if s.purpose == "rally":
        return rally_spec(f)
    action, item = _FIXED[s.purpose]
    return roll_spec(f, rules, action, item)


def hit_spec(c: Combat, a: AttackAction, hit: Hit, rules: Rules) -> RollSpec:
    """The spec of the roll that made ``hit`` in ``a`` (its precise / powerful for damage)."""
    action = Action.INTERCEPT if a.intercept and hit.purpose == "attack" else Action(hit.purpose)
    return roll_spec(c.fighter(hit.attacker), rules, action, hit.weapon.kind)
