"""A chat roll: one roll, its good re-roll and critical choice, and an optional opposed roll.

This is what `/roll` plays out. It says at every moment what it waits for:

>>> from engine.dice import ScriptedDice, Reroll
>>> q = QuickRoll.start(42, ScriptedDice([7, 2]), good=True)
>>> q.waiting_for
<Decision.REROLL: 'reroll'>
>>> q = q.reroll(Reroll.TENS, ScriptedDice([4]))
>>> q.waiting_for, q.roll.result.value
(<Decision.CRITICAL: 'critical'>, 42)
"""

from __future__ import annotations

from enum import StrEnum

from pydantic import BaseModel, ConfigDict

from engine.dice import Check, DiceSource, Reroll, Roll, Side, opposed, roll
from engine.errors import RuleError
from engine.phrases import phrase

__all__ = ["Decision", "QuickRoll"]


class Decision(StrEnum):
    """What a chat roll waits for from its roller."""

    REROLL = "reroll"  # good: re-roll tens, ones, both, or keep
    CRITICAL = "critical"  # critical success: extra action or adjust


class QuickRoll(BaseModel):
    """A roll made in chat, with what the roller has decided so far."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    roll: Roll
    good: bool = False
    kept: bool = False
    against: Check | None = None
    character: str | None = None  # who rolls, when the roller named a character
    ability: str | None = None  # the non-combat ability ("good at ...") that makes it good

    @classmethod
    def start(
        cls, level: int, dice: DiceSource, *, good: bool = False, against: int | None = None,
        character: str | None = None, ability: str | None = None,
    ) -> QuickRoll:
        """Roll against ``level``; with ``against``, roll the other side at that level too.
        A non-combat ``ability`` makes the roll good ("If you are good at the action you're
        rolling for, usually due to an ability, you may re-roll one or both dice").

        >>> from engine.dice import ScriptedDice
        >>> q = QuickRoll.start(40, ScriptedDice([7, 2]), character="Ana", ability="lockpicking")
        >>> q.good, q.waiting_for
        (True, <Decision.REROLL: 'reroll'>)
        """
        first = Roll.first(level, dice)
        other = roll(against, dice) if against is not None else None
        return cls(roll=first, good=good or ability is not None, against=other,
                   character=character, ability=ability)

    @property
    def waiting_for(self) -> Decision | None:
        if self.good and not self.kept and self.roll.can_reroll:
            return Decision.REROLL
        if self.roll.awaits_critical_choice:
            return Decision.CRITICAL
        return None

    @property
    def settled(self) -> bool:
        return self.waiting_for is None

    def reroll(self, which: Reroll, dice: DiceSource) -> QuickRoll:
        self._expect(Decision.REROLL)
        return self.model_copy(update={"roll": self.roll.reroll(which, dice)})

    def keep(self) -> QuickRoll:
        self._expect(Decision.REROLL)
        return self.model_copy(update={"kept": True})

    def extra_action(self) -> QuickRoll:
        self._expect(Decision.CRITICAL)
        return self.model_copy(update={"roll": self.roll.take_extra_action()})

    def adjust(self, value: int) -> QuickRoll:
        self._expect(Decision.CRITICAL)
        return self.model_copy(update={"roll": self.roll.adjust(value)})

    def _expect(self, decision: Decision) -> None:
        if self.waiting_for is not decision:
            if self.settled:
                raise RuleError(phrase("This roll is already settled."))
            raise RuleError(phrase("That choice is not open for this roll now."))

    def winner(self) -> str | None:
        """For an opposed roll: ``"roller"``, ``"other"``, ``"tie"`` (equal successes: a PC
        beats an NPC, otherwise nobody wins) or ``"nobody"`` (both failed)."""
        if self.against is None:
            return None
        mine, theirs = self.roll.result, self.against
        if not mine.success and not theirs.success:
            return "nobody"
        if mine.success and theirs.success and mine.value == theirs.value:
            return "tie"
        won = opposed(mine, theirs, a_side=Side.PC, b_side=Side.PC)
        return "roller" if won == 0 else "other"


