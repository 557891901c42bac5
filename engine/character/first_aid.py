r"""Treating wounds: rulebook 004, "Damage" › "First aid".

"On a success, choose one die for the total number of boxes, and the other die for the number of
additional locations beyond one. Erase \ marks [...]. Replace any remaining \ marks with an X."
"On a failure, replace all \ marks with an X." A critical failure first turns X marks into ■.

>>> from data import load_rules
>>> ana = Character(name="Ana", level=50, max_level=50, wounds={"head": "\\"})
>>> ana, report = first_aid_failure(ana, rules=load_rules())
>>> report.summary.english()
'First aid on Ana: \\ became X: 1 on the head.'
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from engine.catalog import Rules
from engine.character.condition import Status, status
from engine.character.model import Character, Mark, frozen_counts, validated_copy
from engine.character.validation import check_character
from engine.character.wording import counts_phrase, sentences_phrase, status_sentence
from engine.errors import RuleError
from engine.phrases import Said, phrase, plural_phrase

__all__ = [
    "FirstAidReport",
    "first_aid_critical_failure",
    "first_aid_failure",
    "first_aid_success",
]


@dataclass(frozen=True, slots=True)
class FirstAidReport:
    """Marks changed by first aid, per location: erased ``\\``, ``\\`` → X, X → ■."""

    erased: Mapping[str, int]
    crossed: Mapping[str, int]
    made_permanent: Mapping[str, int]
    status_before: Status
    status_after: Status
    summary: Said


def _replace_marks(marks: str, old: Mark, new: Mark | None, count: int | None = None) -> str:
    """``marks`` with ``count`` (default: all) ``old`` marks turned into ``new`` (None: erased)."""
    result = []
    left = marks.count(old.value) if count is None else count
    for ch in marks:
        if ch == old.value and left > 0:
            left -= 1
            if new is not None:
                result.append(new.value)
        else:
            result.append(ch)
    return "".join(result)


def _first_aid_result(
    c: Character,
    wounds: dict[str, str],
    *,
    erased: Mapping[str, int],
    made_permanent: Mapping[str, int],
    rules: Rules,
) -> tuple[Character, FirstAidReport]:
    crossed = {loc: marks.count(Mark.SLASH.value) for loc, marks in wounds.items()}
    final = {loc: _replace_marks(marks, Mark.SLASH, Mark.CROSS) for loc, marks in wounds.items()}
    new = check_character(validated_copy(c, wounds=final), rules=rules)
    status_before, status_after = status(c, rules=rules), status(new, rules=rules)
    parts: list[Said] = []
    if any(made_permanent.values()):
        parts.append(phrase("Made permanent (■): {counts}.",
                            counts=counts_phrase(frozen_counts(made_permanent), rules)))
    if any(erased.values()):
        parts.append(phrase("Erased {counts}.", counts=counts_phrase(frozen_counts(erased), rules)))
    if any(crossed.values()):
        parts.append(phrase("\\ became X: {counts}.",
                            counts=counts_phrase(frozen_counts(crossed), rules)))
    if not parts:
        parts.append(phrase("No marks changed."))
    if status_after is not status_before:
        parts.append(status_sentence(c.name, status_after))
    return new, FirstAidReport(
        erased=frozen_counts(erased),
        crossed=frozen_counts(crossed),
        made_permanent=frozen_counts(made_permanent),
        status_before=status_before,
        status_after=status_after,
        summary=phrase("First aid on {name}: {text}", name=c.name, text=sentences_phrase(parts)),
    )


def _plan(plan: Mapping[str, int], rules: Rules) -> dict[str, int]:
    counts: dict[str, int] = {}
    for location_id, count in plan.items():
        rules.body.location(location_id)
        if count < 0:
            raise RuleError(phrase("A number of boxes is 0 or more, not {count}.", count=count))
        if count:
            counts[location_id] = count
    return counts


def first_aid_success(
    c: Character,
    plan: Mapping[str, int],
    *,
    boxes: int,
    extra_locations: int,
    rules: Rules,
) -> tuple[Character, FirstAidReport]:
    """Successful first aid: erase ``\\`` marks as ``plan`` says, then every other ``\\`` → X.

    ``boxes`` and ``extra_locations`` are the two dice as the roller assigned them: the plan,
    chosen by the treated player, erases at most ``boxes`` marks in at most
    ``1 + extra_locations`` locations. The level does not rise. The First Aid ability's sure
    success is ``boxes=1, extra_locations=0``.

    The book's example: 2 ``\\`` on the head and 1 on each arm, a roll of 14, 4 boxes and 1
    additional location:

    >>> from data import load_rules
    >>> rules = load_rules()
    >>> ally = Character(name="Ally", level=50, max_level=50,
    ...                  wounds={"head": "\\\\\\\\", "right_arm": "\\\\", "left_arm": "\\\\"})
    >>> ally, report = first_aid_success(ally, {"head": 2, "right_arm": 1},
    ...                                  boxes=4, extra_locations=1, rules=rules)
    >>> dict(ally.wounds)
    {'left_arm': 'X'}
    """
    if not 0 <= boxes <= 9:
        raise RuleError(phrase("The boxes die shows 0-9, not {die}.", die=boxes))
    if not 0 <= extra_locations <= 9:
        raise RuleError(phrase("The additional locations die shows 0-9, not {die}.",
                               die=extra_locations))
    counts = _plan(plan, rules)
    if sum(counts.values()) > boxes:
        raise RuleError(plural_phrase(
            "The first aid roll erases at most {count} box; the plan erases {planned}.",
            "The first aid roll erases at most {count} boxes; the plan erases {planned}.",
            "count", count=boxes, planned=sum(counts.values())))
    if len(counts) > 1 + extra_locations:
        raise RuleError(plural_phrase(
            "The first aid roll reaches at most {count} location; the plan names {named}.",
            "The first aid roll reaches at most {count} locations; the plan names {named}.",
            "count", count=1 + extra_locations, named=len(counts)))
    wounds = dict(c.wounds)
    for location_id, count in counts.items():
        available = wounds.get(location_id, "").count(Mark.SLASH.value)
        if count > available:
            raise RuleError(plural_phrase(
                "{name}'s {location} has {count} \\ mark to erase, not {asked}.",
                "{name}'s {location} has {count} \\ marks to erase, not {asked}.", "count",
                name=c.name, location=rules.body.location(location_id).said_lower,
                count=available, asked=count))
        wounds[location_id] = _replace_marks(wounds[location_id], Mark.SLASH, None, count)
    return _first_aid_result(c, wounds, erased=counts, made_permanent={}, rules=rules)


def first_aid_failure(c: Character, *, rules: Rules) -> tuple[Character, FirstAidReport]:
    """Failed first aid: every ``\\`` becomes X."""
    return _first_aid_result(c, dict(c.wounds), erased={}, made_permanent={}, rules=rules)


def first_aid_critical_failure(
    c: Character, converted: Mapping[str, int], *, die: int, rules: Rules
) -> tuple[Character, FirstAidReport]:
    """Critically failed first aid: X marks → ■, then every ``\\`` → X.

    ``die`` is the die read as a number, 1-10 (RULINGS 3: 10 on a roll of 100). As many
    pre-existing X become ■ as the die shows, or all of them if there are fewer; the treated
    player says where (``converted``: location → count).

    The book's example: 1 ``\\`` and 1 X on the head, 3 X on the right arm, a roll of 66:

    >>> from data import load_rules
    >>> rules = load_rules()
    >>> ally = Character(name="Ally", level=50, max_level=50,
    ...                  wounds={"head": "X\\\\", "right_arm": "XXX"})
    >>> ally, report = first_aid_critical_failure(ally, {"head": 1, "right_arm": 3},
    ...                                           die=6, rules=rules)
    >>> dict(ally.wounds)
    {'head': '■X', 'right_arm': '■■■'}
    """
    if not 1 <= die <= 10:
        raise RuleError(phrase("A critical failure's die reads 1-10, not {die}.", die=die))
    counts = _plan(converted, rules)
    crosses = sum(marks.count(Mark.CROSS.value) for marks in c.wounds.values())
    due = min(die, crosses)
    if sum(counts.values()) != due:
        reason = (phrase("the die shows {die}", die=die) if die <= crosses
                  else plural_phrase("there are only {count} X mark",
                                     "there are only {count} X marks", "count", count=crosses))
        raise RuleError(plural_phrase(
            "{count} X mark must become ■ ({reason}); the choice makes {chosen}.",
            "{count} X marks must become ■ ({reason}); the choice makes {chosen}.", "count",
            count=due, reason=reason, chosen=sum(counts.values())))
    wounds = dict(c.wounds)
    for location_id, count in counts.items():
        available = wounds.get(location_id, "").count(Mark.CROSS.value)
        if count > available:
            raise RuleError(plural_phrase(
                "{name}'s {location} has {count} X mark, not {asked}.",
                "{name}'s {location} has {count} X marks, not {asked}.", "count", name=c.name,
                location=rules.body.location(location_id).said_lower, count=available,
                asked=count))
        wounds[location_id] = _replace_marks(wounds[location_id], Mark.CROSS, Mark.PERMANENT, count)
    return _first_aid_result(c, wounds, erased={}, made_permanent=counts, rules=rules)
