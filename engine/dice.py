"""Percentile dice as Unhex reads them (RULINGS 1-6).

A roll is two ten-sided dice, tens and ones, each 0-9. The value is ``10 * tens + ones``
except that 0 and 0 is 100. The dice source is injected, so every rule can be tested with
scripted dice:

>>> dice = ScriptedDice([3, 4])
>>> r = roll(40, dice)
>>> r.value, r.success, r.critical, r.degrees
(34, True, False, (3, 4))
>>> check(40, 4, 0).critical        # exactly the level: a critical success
True
>>> check(40, 0, 0).value, check(40, 0, 0).critical_failure
(100, True)
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Iterator
from enum import StrEnum
from typing import Protocol

from engine.errors import RuleError
from engine.frozen import FrozenModel
from engine.phrases import Phrase, phrase

__all__ = [
    "MAX_LEVEL",
    "MIN_LEVEL",
    "Check",
    "CriticalChoice",
    "DiceSource",
    "Modifier",
    "RandomDice",
    "Reroll",
    "Roll",
    "ScriptedDice",
    "Side",
    "check",
    "die_as_number",
    "opposed",
    "powerful",
    "precise",
    "roll",
    "value_of",
]

MIN_LEVEL = 1
MAX_LEVEL = 99


def value_of(tens: int, ones: int) -> int:
    """The value two dice show: ``10 * tens + ones``, with 0 and 0 read as 100.

    >>> value_of(0, 7), value_of(0, 0), value_of(9, 9)
    (7, 100, 99)
    """
    if not (type(tens) is int and type(ones) is int and 0 <= tens <= 9 and 0 <= ones <= 9):
        _check_die(tens, "tens")  # (the one check of each die, kept for the rare int subclass)
        _check_die(ones, "ones")
    value = 10 * tens + ones
    return 100 if value == 0 else value


def _check_die(face: int, name: str) -> None:
    if not isinstance(face, int) or isinstance(face, bool) or not 0 <= face <= 9:
        raise ValueError(f"The {name} die shows 0-9, not {face!r}.")


def _check_level(level: int, name: str = "level") -> None:
    if not isinstance(level, int) or isinstance(level, bool) or not MIN_LEVEL <= level <= MAX_LEVEL:
        raise ValueError(f"A {name} is between {MIN_LEVEL} and {MAX_LEVEL}, not {level!r}.")


class Check(FrozenModel):
    """Two dice read against a level: the result of one roll.

    ``adjusted`` is true when a critical success moved the dice (RULINGS 5); such a roll is
    a success whatever its value, and it is no longer critical. ``can_be_critical`` is false
    for a roll a rule says "cannot be critical" (an All-Out Defend): doubles and exactly the
    level are then a plain success or failure.
    """

    level: int
    tens: int
    ones: int
    adjusted: bool = False
    can_be_critical: bool = True

    @property
    def value(self) -> int:
        return value_of(self.tens, self.ones)

    @property
    def success(self) -> bool:
        return self.adjusted or self.value <= self.level

    @property
    def critical(self) -> bool:
        """Doubles (100 included) or exactly the level (RULINGS 2)."""
        if self.adjusted or not self.can_be_critical:
            return False
        return self.tens == self.ones or self.value == self.level

    @property
    def critical_success(self) -> bool:
        return self.critical and self.success

    @property
    def critical_failure(self) -> bool:
        return self.critical and not self.success

    @property
    def degrees(self) -> tuple[int, int]:
        """The two dice as shown, 0-9 each (RULINGS 3)."""
        return (self.tens, self.ones)

    @property
    def outcome(self) -> str:
        """``CRITICAL SUCCESS``, ``SUCCESS``, ``FAILURE`` or ``CRITICAL FAILURE`` (in English:
        :attr:`said_outcome` says it in the reader's language)."""
        word = "SUCCESS" if self.success else "FAILURE"
        return f"CRITICAL {word}" if self.critical else word

    @property
    def said_outcome(self) -> Phrase:
        """:attr:`outcome` as a phrase, to say in the reader's language."""
        if self.critical:
            return (phrase("CRITICAL SUCCESS") if self.success
                    else phrase("CRITICAL FAILURE"))
        return phrase("SUCCESS") if self.success else phrase("FAILURE")

    def describe(self) -> str:
        """One line for a chat message.

        >>> check(40, 3, 4).describe()
        '34 (3·4) vs 40 — SUCCESS · degrees 3 and 4'
        >>> check(40, 7, 7).describe()
        '77 (7·7) vs 40 — CRITICAL FAILURE'
        """
        text = f"{self.value} ({self.tens}·{self.ones}) vs {self.level} — {self.outcome}"
        if self.success:
            text += f" · degrees {self.tens} and {self.ones}"
        return text


def check(level: int, tens: int, ones: int, *, can_be_critical: bool = True) -> Check:
    """Read ``tens`` and ``ones`` against ``level`` (1-99); ``ValueError`` on bad input.

    >>> check(50, 5, 0).critical_success
    True
    >>> plain = [check(50, 5, 0, can_be_critical=False), check(40, 7, 7, can_be_critical=False)]
    >>> [r.outcome for r in plain]
    ['SUCCESS', 'FAILURE']
    >>> check(0, 1, 1)
    Traceback (most recent call last):
    ...
    ValueError: A level is between 1 and 99, not 0.
    """
    _check_level(level)
    _check_die(tens, "tens")
    _check_die(ones, "ones")
    if can_be_critical:
        return Check(level=level, tens=tens, ones=ones)
    return Check(level=level, tens=tens, ones=ones, can_be_critical=False)


class DiceSource(Protocol):
    """Where die faces come from: ``die()`` returns 0-9."""

    def die(self) -> int: ...


class RandomDice:
    """Fair dice for play; a seed makes a session reproducible."""

    def __init__(self, seed: int | None = None) -> None:
        self._random = random.Random(seed)

    def die(self) -> int:
        return self._random.randrange(10)


class ScriptedDice:
    """Dice that show the faces given, in order, for tests and worked examples.

    >>> d = ScriptedDice([6, 2])
    >>> d.die(), d.die()
    (6, 2)
    >>> d.die()
    Traceback (most recent call last):
    ...
    IndexError: The scripted dice have run out (2 faces were given).
    """

    def __init__(self, faces: Iterable[int]) -> None:
        self._faces = list(faces)
        for face in self._faces:
            _check_die(face, "scripted")
        self._next: Iterator[int] = iter(self._faces)
        self.used = 0

    def die(self) -> int:
        try:
            face = next(self._next)
        except StopIteration:
            raise IndexError(
                f"The scripted dice have run out ({len(self._faces)} faces were given)."
            ) from None
        self.used += 1
        return face

    @property
    def remaining(self) -> int:
        return len(self._faces) - self.used


def roll(level: int, dice: DiceSource) -> Check:
    """Roll tens then ones against ``level``."""
    tens = dice.die()
    ones = dice.die()
    return check(level, tens, ones)


class Reroll(StrEnum):
    """Which dice a **good** re-roll names before rolling (RULINGS 4)."""

    TENS = "tens"
    ONES = "ones"
    BOTH = "both"


class Modifier(StrEnum):
    """The three modifiers; only one applies to one roll (RULINGS 4)."""

    GOOD = "good"
    PRECISE = "precise"
    POWERFUL = "powerful"


#: Each modifier as a word in a sentence.
_MODIFIER_WORDS = {Modifier.GOOD: phrase("good"), Modifier.PRECISE: phrase("precise"),
                   Modifier.POWERFUL: phrase("powerful")}
#: "… applies only to a successful roll", each modifier its own sentence (it leads it).
_ONLY_ON_SUCCESS = {
    Modifier.GOOD: phrase("Good applies only to a successful roll."),
    Modifier.PRECISE: phrase("Precise applies only to a successful roll."),
    Modifier.POWERFUL: phrase("Powerful applies only to a successful roll."),
}


def _one_modifier(used: Modifier) -> RuleError:
    return RuleError(phrase("This roll already used {modifier}; only one modifier applies.",
                            modifier=_MODIFIER_WORDS[used]))


class CriticalChoice(StrEnum):
    """What a critical success gives (RULINGS 5): one of the two, not both. An ability may
    offer something in place of the extra action (1H Melee: the target loses its next
    action); the dice are kept as shown then too."""

    EXTRA_ACTION = "extra_action"
    ADJUST = "adjust"
    TARGET_LOSES_ACTION = "target_loses_action"


class Roll(FrozenModel):
    """One roll and everything decided about it, in order.

    The roll's current result is :attr:`result`. Each decision returns a new ``Roll``
    and refuses (``RuleError``) what the rules do not allow at that point.

    >>> r = Roll.first(40, ScriptedDice([7, 2]))
    >>> r.result.value
    72
    >>> r = r.reroll(Reroll.TENS, ScriptedDice([1]))
    >>> r.result.value, r.first_check.value
    (12, 72)
    >>> r.reroll(Reroll.ONES, ScriptedDice([0]))
    Traceback (most recent call last):
    ...
    engine.errors.RuleError: A roll can be re-rolled only once.
    """

    level: int
    max_level: int
    first_check: Check
    rerolled: Reroll | None = None
    second_check: Check | None = None
    modifier: Modifier | None = None
    critical_choice: CriticalChoice | None = None
    adjusted_check: Check | None = None

    @classmethod
    def first(
        cls, level: int, dice: DiceSource, *, max_level: int | None = None,
        can_be_critical: bool = True,
    ) -> Roll:
        """Roll once against ``level``; ``max_level`` (default: the level) bounds adjusting;
        ``can_be_critical`` False: a roll a rule says cannot be critical."""
        _check_level(level)
        top = level if max_level is None else max_level
        _check_level(top, "max level")
        if top < level:
            raise ValueError(f"The max level ({top}) cannot be below the level ({level}).")
        first = roll(level, dice)
        if not can_be_critical:
            first = check(level, first.tens, first.ones, can_be_critical=False)
        return cls(level=level, max_level=top, first_check=first)

    @property
    def rolled(self) -> Check:
        """The dice as rolled, after any re-roll but before any adjustment."""
        return self.second_check or self.first_check

    @property
    def result(self) -> Check:
        """What the roll counts as now."""
        return self.adjusted_check or self.rolled

    @property
    def can_reroll(self) -> bool:
        """A good re-roll is still open: not yet used, no other modifier, no decision made,
        and never after a critical failure."""
        return (
            self.second_check is None
            and self.modifier is None
            and self.critical_choice is None
            and not self.first_check.critical_failure
        )

    @property
    def awaits_critical_choice(self) -> bool:
        return self.rolled.critical_success and self.critical_choice is None

    @property
    def adjust_limit(self) -> int:
        """The highest value a critical success may be adjusted to (RULINGS 5)."""
        rolled = self.rolled
        return self.max_level if rolled.value == rolled.level else rolled.level

    def reroll(self, which: Reroll, dice: DiceSource) -> Roll:
        """Use **good**: re-roll the named dice once; the new result stands."""
        if self.second_check is not None:
            raise RuleError(phrase("A roll can be re-rolled only once."))
        if self.modifier is not None:
            raise _one_modifier(self.modifier)
        if self.first_check.critical_failure:
            raise RuleError(phrase("A critical failure cannot be re-rolled."))
        if self.critical_choice is not None:
            raise RuleError(phrase(
                "The critical success was already used; the roll cannot be re-rolled now."))
        tens, ones = self.first_check.tens, self.first_check.ones
        if which in (Reroll.TENS, Reroll.BOTH):
            tens = dice.die()
        if which in (Reroll.ONES, Reroll.BOTH):
            ones = dice.die()
        return self.model_copy(
            update={
                "rerolled": which,
                "second_check": check(
                    self.level, tens, ones, can_be_critical=self.first_check.can_be_critical),
                "modifier": Modifier.GOOD,
            }
        )

    def use_modifier(self, modifier: Modifier) -> Roll:
        """Record that precise or powerful was used on this roll (only one per roll)."""
        if modifier is Modifier.GOOD:
            raise RuleError(phrase("Good is used by re-rolling."))
        if self.modifier is not None:
            raise _one_modifier(self.modifier)
        if not self.result.success:
            raise RuleError(_ONLY_ON_SUCCESS[modifier])
        return self.model_copy(update={"modifier": modifier})

    def take_extra_action(self) -> Roll:
        """Critical success, option 1: keep the dice and gain another action."""
        return self.keep_for(CriticalChoice.EXTRA_ACTION)

    def keep_for(self, choice: CriticalChoice) -> Roll:
        """Critical success: keep the dice as shown and take ``choice`` (the extra action, or
        what an ability gives in its place).

        >>> r = Roll.first(40, ScriptedDice([3, 3]))
        >>> r.keep_for(CriticalChoice.TARGET_LOSES_ACTION).result.value
        33
        >>> r.keep_for(CriticalChoice.ADJUST)
        Traceback (most recent call last):
        ...
        engine.errors.RuleError: Adjusting a critical success needs the value to adjust to.
        """
        if choice is CriticalChoice.ADJUST:
            raise RuleError(phrase("Adjusting a critical success needs the value to adjust to."))
        self._require_critical_choice()
        return self.model_copy(update={"critical_choice": choice})

    def adjust(self, value: int) -> Roll:
        """Critical success, option 2: set the dice to any value up to :attr:`adjust_limit`.

        >>> r = Roll.first(40, ScriptedDice([4, 0]), max_level=55)
        >>> r.adjust(55).result.degrees
        (5, 5)
        >>> r.adjust(56)
        Traceback (most recent call last):
        ...
        engine.errors.RuleError: A critical success can be adjusted to 1-55, not 56.
        """
        self._require_critical_choice()
        limit = self.adjust_limit
        if not isinstance(value, int) or not 1 <= value <= limit:
            raise RuleError(phrase("A critical success can be adjusted to 1-{limit}, not {value}.",
                                   limit=limit, value=value))
        adjusted = Check(level=self.level, tens=value // 10, ones=value % 10, adjusted=True)
        return self.model_copy(
            update={"critical_choice": CriticalChoice.ADJUST, "adjusted_check": adjusted}
        )

    def _require_critical_choice(self) -> None:
        if not self.rolled.critical_success:
            raise RuleError(phrase(
                "Only a critical success gives an extra action or an adjustment."))
        if self.critical_choice is not None:
            raise RuleError(phrase("The critical success was already used."))


class Side(StrEnum):
    """The sides of an opposed roll as the rules tell them apart on a tie."""

    PC = "pc"
    NPC = "npc"


def opposed(a: Check, b: Check, *, a_side: Side, b_side: Side) -> int | None:
    """Who wins an opposed roll (RULINGS 6): ``0`` for ``a``, ``1`` for ``b``, ``None`` for nobody.

    The highest successful value wins; a critical does not beat a higher value. A PC beats an
    NPC on a tie; any other tie, or both failing, is a win for nobody.

    >>> opposed(check(40, 3, 4), check(25, 6, 2), a_side=Side.PC, b_side=Side.NPC)
    0
    >>> opposed(check(50, 3, 0), check(50, 3, 0), a_side=Side.PC, b_side=Side.PC) is None
    True
    """
    a_value = a.value if a.success else None
    b_value = b.value if b.success else None
    if a_value is None and b_value is None:
        return None
    if b_value is None:
        return 0
    if a_value is None:
        return 1
    if a_value != b_value:
        return 0 if a_value > b_value else 1
    if a_side is not b_side:
        return 0 if a_side is Side.PC else 1
    return None


def precise(die: int, change: int) -> int:
    """**Precise**: move a hit-location die up or down by 1, staying within 0-9.

    >>> precise(9, +1)
    Traceback (most recent call last):
    ...
    engine.errors.RuleError: Precise cannot move a die above 9 or below 0.
    """
    _check_die(die, "location")
    if change not in (-1, 1):
        raise RuleError(phrase("Precise moves the location die by exactly 1, up or down."))
    if not 0 <= die + change <= 9:
        raise RuleError(phrase("Precise cannot move a die above 9 or below 0."))
    return die + change


def powerful(die: int) -> int:
    """**Powerful**: raise a damage die by 1, never above 9."""
    _check_die(die, "damage")
    if die == 9:
        raise RuleError(phrase("Powerful cannot raise a damage die above 9."))
    return die + 1


def die_as_number(die: int, roll_value: int) -> int:
    """A die read as a count (RULINGS 3): a 0 on a roll of 100 reads as 10.

    >>> die_as_number(0, 100), die_as_number(6, 66), die_as_number(0, 40)
    (10, 6, 0)
    """
    _check_die(die, "counted")
    return 10 if roll_value == 100 else die
