"""RULINGS 1-6 with scripted dice and hypothesis."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.dice import (
    Modifier,
    Reroll,
    Roll,
    ScriptedDice,
    Side,
    check,
    die_as_number,
    opposed,
    powerful,
    precise,
    value_of,
)
from engine.errors import RuleError

levels = st.integers(1, 99)
faces = st.integers(0, 9)


@given(levels, faces, faces)
def test_every_level_and_pair_of_dice_classifies_as_rulings_1_and_2(
    level: int, tens: int, ones: int
) -> None:
    c = check(level, tens, ones)
    value = 100 if tens == ones == 0 else 10 * tens + ones
    assert c.value == value
    assert c.success == (value <= level)
    assert c.critical == (tens == ones or value == level)
    assert c.degrees == (tens, ones)
    if value == level:
        assert c.critical_success
    if value == 100:
        assert c.critical_failure


def test_worked_values() -> None:
    assert value_of(0, 0) == 100
    assert check(40, 3, 4).outcome == "SUCCESS"
    assert check(40, 4, 0).outcome == "CRITICAL SUCCESS"  # exactly the level
    assert check(40, 3, 3).outcome == "CRITICAL SUCCESS"  # doubles under the level
    assert check(40, 5, 5).outcome == "CRITICAL FAILURE"
    assert check(99, 0, 0).outcome == "CRITICAL FAILURE"  # 100 always fails


@pytest.mark.parametrize(
    ("level", "tens", "ones", "message"),
    [(0, 1, 1, "level"), (100, 1, 1, "level"), (50, 10, 1, "tens"), (50, 1, -1, "ones")],
)
def test_out_of_range_input_raises_value_error(level: int, tens: int, ones: int,
                                               message: str) -> None:
    with pytest.raises(ValueError, match=message):
        check(level, tens, ones)


@pytest.mark.parametrize(
    ("which", "new_faces", "expected"),
    [(Reroll.TENS, [1], 12), (Reroll.ONES, [5], 75), (Reroll.BOTH, [2, 9], 29)],
)
def test_good_rerolls_the_named_dice_once(which: Reroll, new_faces: list[int],
                                          expected: int) -> None:
    r = Roll.first(40, ScriptedDice([7, 2])).reroll(which, ScriptedDice(new_faces))
    assert r.result.value == expected
    assert r.first_check.value == 72
    assert r.modifier is Modifier.GOOD
    with pytest.raises(RuleError, match="only once"):
        r.reroll(Reroll.TENS, ScriptedDice([0]))


def test_reroll_may_become_critical_and_critical_failure_cannot_be_rerolled() -> None:
    r = Roll.first(40, ScriptedDice([7, 2])).reroll(Reroll.TENS, ScriptedDice([2]))
    assert r.result.critical_success  # 22: doubles
    with pytest.raises(RuleError, match="critical failure cannot be re-rolled"):
        Roll.first(40, ScriptedDice([6, 6])).reroll(Reroll.BOTH, ScriptedDice([1, 1]))
    worse = Roll.first(40, ScriptedDice([3, 4])).reroll(Reroll.BOTH, ScriptedDice([8, 8]))
    assert worse.result.critical_failure  # the new result stands


def test_critical_success_extra_action_or_adjust_not_both() -> None:
    r = Roll.first(40, ScriptedDice([2, 2]))
    extra = r.take_extra_action()
    with pytest.raises(RuleError, match="already used"):
        extra.adjust(40)
    adjusted = r.adjust(40)
    assert adjusted.result.value == 40 and adjusted.result.success
    assert adjusted.result.degrees == (4, 0)
    with pytest.raises(RuleError, match="1-40"):
        r.adjust(41)
    with pytest.raises(RuleError, match="Only a critical success"):
        Roll.first(40, ScriptedDice([3, 4])).take_extra_action()


def test_exactly_the_level_adjusts_up_to_max_level_and_stays_a_success() -> None:
    r = Roll.first(40, ScriptedDice([4, 0]), max_level=60)
    assert r.adjust_limit == 60
    adjusted = r.adjust(59)
    assert adjusted.result.success and adjusted.result.value == 59
    assert adjusted.result.degrees == (5, 9)
    with pytest.raises(RuleError):
        r.adjust(61)


def test_only_one_of_good_precise_powerful_per_roll() -> None:
    r = Roll.first(40, ScriptedDice([3, 4]))
    precise_roll = r.use_modifier(Modifier.PRECISE)
    with pytest.raises(RuleError, match="only one modifier"):
        precise_roll.use_modifier(Modifier.POWERFUL)
    with pytest.raises(RuleError, match="only one modifier"):
        precise_roll.reroll(Reroll.TENS, ScriptedDice([1]))
    rerolled = r.reroll(Reroll.ONES, ScriptedDice([1]))
    with pytest.raises(RuleError, match="only one modifier"):
        rerolled.use_modifier(Modifier.PRECISE)


def test_precise_and_powerful_stay_within_0_to_9() -> None:
    assert precise(4, -1) == 3 and precise(0, +1) == 1
    assert powerful(8) == 9
    with pytest.raises(RuleError):
        precise(0, -1)
    with pytest.raises(RuleError):
        powerful(9)


def test_opposed_rolls_follow_rulings_6() -> None:
    pc, npc = Side.PC, Side.NPC
    # the rulebook's initiative example: PCs at 40 roll 34, NPCs at 25 roll 62
    assert opposed(check(40, 3, 4), check(25, 6, 2), a_side=pc, b_side=npc) == 0
    # highest success wins; a critical does not beat a higher value
    assert opposed(check(50, 2, 2), check(50, 3, 4), a_side=pc, b_side=pc) == 1
    # PC beats NPC on a tie, any other tie is nobody's
    assert opposed(check(50, 3, 0), check(50, 3, 0), a_side=npc, b_side=pc) == 1
    assert opposed(check(50, 3, 0), check(50, 3, 0), a_side=npc, b_side=npc) is None
    # both failing: a failure for both
    assert opposed(check(10, 5, 0), check(10, 6, 0), a_side=pc, b_side=npc) is None


@given(levels, faces, faces, levels, faces, faces)
def test_opposed_is_symmetric(l1: int, t1: int, o1: int, l2: int, t2: int, o2: int) -> None:
    a, b = check(l1, t1, o1), check(l2, t2, o2)
    forward = opposed(a, b, a_side=Side.PC, b_side=Side.NPC)
    backward = opposed(b, a, a_side=Side.NPC, b_side=Side.PC)
    assert forward == (None if backward is None else 1 - backward)


def test_die_read_as_a_number_treats_100_as_ten() -> None:
    assert die_as_number(0, 100) == 10
    assert die_as_number(6, 66) == 6


def test_scripted_dice_say_when_they_run_out() -> None:
    dice = ScriptedDice([1])
    dice.die()
    with pytest.raises(IndexError, match="run out"):
        dice.die()
