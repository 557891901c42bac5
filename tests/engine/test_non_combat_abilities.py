"""Non-combat abilities in a chat roll: rulebook 004, "Non-combat abilities" and "Rolling dice".

"Choose a non-combat related activity for which you're good at die rolls." "If you are good at
the action you're rolling for, usually due to an ability, you may re-roll one or both dice after
seeing the initial result." "When you are unconscious ... none of your abilities have an
effect."
"""

from __future__ import annotations

import pytest

from data import load_rules
from engine.character import Character, add_good_at, good_roll, take_damage
from engine.dice import Reroll, ScriptedDice
from engine.errors import RuleError
from engine.quickroll import Decision, QuickRoll

RULES = load_rules()


def detective() -> Character:
    c, _ = add_good_at(Character.new("Ana"), "good at being a detective", rules=RULES)
    return c


def test_the_ability_makes_the_roll_good() -> None:
    activity = good_roll(detective(), "Being a Detective", rules=RULES)
    assert activity == "being a detective"
    q = QuickRoll.start(50, ScriptedDice([7, 2]), character="Ana", ability=activity)
    assert q.good and q.waiting_for is Decision.REROLL
    q = q.reroll(Reroll.TENS, ScriptedDice([3]))
    assert q.roll.result.value == 32 and q.roll.result.success and q.settled


def test_a_critical_failure_is_not_rerolled_even_with_the_ability() -> None:
    q = QuickRoll.start(50, ScriptedDice([6, 6]), character="Ana", ability="being a detective")
    assert q.good and q.settled


def test_a_stored_roll_without_the_new_fields_still_loads() -> None:
    old = QuickRoll.start(40, ScriptedDice([1, 2]), good=True).model_dump(
        exclude={"character", "ability"})
    assert QuickRoll.model_validate(old).ability is None


def test_another_activity_is_refused() -> None:
    with pytest.raises(RuleError, match="Ana is not good at forensics; Ana is good at being a "
                                        "detective"):
        good_roll(detective(), "forensics", rules=RULES)
    with pytest.raises(RuleError, match="Bea has no non-combat ability"):
        good_roll(Character.new("Bea"), "forensics", rules=RULES)


def test_unconscious_abilities_have_no_effect() -> None:
    ana, _ = take_damage(detective(), 9, 9, rules=RULES)  # the head is full
    with pytest.raises(RuleError, match="Ana is unconscious: none of their abilities"):
        good_roll(ana, "being a detective", rules=RULES)
