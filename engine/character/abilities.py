"""A character's abilities: rulebook 004, "Characters" › "Abilities" and "Abilities".

"You start with one non-combat ability and one combat ability." Combat abilities come from the
book's list, some requiring a prior one; a non-combat ability is "good at" something.

>>> from data import load_rules
>>> ana, report = add_ability(Character.new("Ana"), "shield.good_defend", rules=load_rules())
>>> report.summary.english()
'Ana gains Shield: Good Defend.'
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.catalog import Ability, Category, Rules
from engine.character.advancement import ability_limit, next_ability_level
from engine.character.condition import Status, status
from engine.character.model import Character, plain_text, validated_copy
from engine.character.validation import check_character
from engine.errors import RuleError
from engine.phrases import Phrase, Said, phrase, plural_phrase

__all__ = [
    "AbilityReport",
    "abilities_open",
    "add_ability",
    "add_good_at",
    "good_at_matching",
    "good_roll",
    "has_room",
    "remove_ability",
    "remove_good_at",
]


@dataclass(frozen=True, slots=True)
class AbilityReport:
    """An ability gained or lost (an id, or "good at <activity>")."""

    ability: str
    added: bool
    summary: Said


def has_room(c: Character, category: Category) -> bool:
    """Whether the character may take one more ability of that kind now: the limit counts max
    level, and one of each kind is kept for the start ("one non-combat ability and one combat
    ability").

    >>> ana = Character.new("Ana", level=59)
    >>> fuller = validated_copy(ana, abilities=("speed.move_twice",))
    >>> has_room(ana, Category.COMBAT), has_room(fuller, Category.COMBAT)
    (True, False)
    """
    limit = ability_limit(c)
    same = len(c.abilities) if category is Category.COMBAT else len(c.good_at)
    return len(c.abilities) + len(c.good_at) < limit and same < limit - 1


def abilities_open(c: Character, *, rules: Rules) -> tuple[Ability, ...]:
    """The combat abilities the character may take now: room for one more, every prerequisite
    held, not already taken (the book's order).

    >>> from data import load_rules
    >>> [a.id for a in abilities_open(Character.new("Ana"), rules=load_rules())
    ...  if a.group == "Unarmed Combat"]
    ['unarmed.fight']
    """
    if not has_room(c, Category.COMBAT):
        return ()
    return tuple(
        a for a in rules.abilities.combat
        if not a.free_text and a.id not in c.abilities
        and all(r in c.abilities for r in a.requires)
    )


def good_at_matching(c: Character, text: str) -> str | None:
    """The character's non-combat ability named by ``text`` (any case, a leading "good at"
    dropped), as the sheet spells it; None when it has no such ability.

    >>> good_at_matching(validated_copy(Character.new("Ana"), good_at=("Lockpicking",)),
    ...                  "good at lockpicking")
    'Lockpicking'
    """
    wanted = " ".join(text.split()).casefold()
    if wanted.startswith("good at"):
        wanted = wanted[len("good at"):].strip()
    return next((a for a in c.good_at if " ".join(a.split()).casefold() == wanted), None)


def good_roll(c: Character, text: str, *, rules: Rules) -> str:
    """The non-combat ability that makes the character's roll good, as the sheet spells it.
    Refused when the character has no such ability, or is unconscious or dead ("When you are
    unconscious ... none of your abilities have an effect").

    >>> from data import load_rules
    >>> good_roll(validated_copy(Character.new("Ana"), good_at=("lockpicking",)), "forensics",
    ...           rules=load_rules())
    Traceback (most recent call last):
    ...
    engine.errors.RuleError: Ana is not good at forensics; Ana is good at lockpicking.
    """
    found = good_at_matching(c, text)
    if found is None:
        wanted = _activity(text)
        if c.good_at:
            raise RuleError(phrase("{name} is not good at {wanted}; {name} is good at {has}.",
                                   name=c.name, wanted=wanted, has=", ".join(c.good_at)))
        raise RuleError(phrase("{name} is not good at {wanted}; {name} has no non-combat "
                               "ability.", name=c.name, wanted=wanted))
    now = status(c, rules=rules)
    if now is Status.UNCONSCIOUS:
        raise RuleError(phrase("{name} is unconscious: none of their abilities have an effect.",
                               name=c.name))
    if now is Status.DEAD:
        raise RuleError(phrase("{name} is dead: none of their abilities have an effect.",
                               name=c.name))
    return found


def _check_room(c: Character, category: Category) -> None:
    limit = ability_limit(c)
    total = len(c.abilities) + len(c.good_at)
    later = next_ability_level(c)
    if total >= limit:
        raise RuleError(
            phrase("{name} has {total} of {limit} abilities; the next comes at max level "
                   "{later}.", name=c.name, total=total, limit=limit, later=later) if later
            else phrase("{name} has {total} of {limit} abilities; there are no more to come.",
                        name=c.name, total=total, limit=limit))
    same = len(c.abilities) if category is Category.COMBAT else len(c.good_at)
    if same >= limit - 1:
        raise RuleError(
            phrase("{name}'s last free ability is kept for a non-combat ability: everyone "
                   "starts with one combat and one non-combat ability.", name=c.name)
            if category is Category.COMBAT else
            phrase("{name}'s last free ability is kept for a combat ability: everyone starts "
                   "with one combat and one non-combat ability.", name=c.name))


def add_ability(c: Character, ability_id: str, *, rules: Rules) -> tuple[Character, AbilityReport]:
    """The character with one more combat ability (prerequisites and the limit permitting).

    >>> from data import load_rules
    >>> add_ability(Character.new("Ana"), "unarmed.good_attack", rules=load_rules())
    Traceback (most recent call last):
    ...
    engine.errors.RuleError: Unarmed Combat: Good Attack requires Unarmed Combat: Fight unarmed, which Ana does not have.
    """  # noqa: E501
    ability = rules.abilities.ability(ability_id)
    if ability.free_text:
        raise RuleError(phrase(
            "A non-combat ability names its activity, as in 'good at forensics'."))
    if ability.id in c.abilities:
        raise RuleError(phrase("{name} already has {ability}.", name=c.name,
                               ability=ability.said_title))
    missing = [rules.abilities.ability(a) for a in ability.requires if a not in c.abilities]
    if missing:
        raise RuleError(phrase("{ability} requires {missing}, which {name} does not have.",
                               ability=ability.said_title, missing=titles_and(missing),
                               name=c.name))
    _check_room(c, ability.category)
    new = check_character(validated_copy(c, abilities=(*c.abilities, ability.id)), rules=rules)
    return new, AbilityReport(ability.id, True, phrase("{name} gains {ability}.", name=c.name,
                                                         ability=ability.said_title))


def remove_ability(
    c: Character, ability_id: str, *, rules: Rules
) -> tuple[Character, AbilityReport]:
    """The character without that combat ability (refused while something depends on it)."""
    ability = rules.abilities.ability(ability_id)
    if ability.id not in c.abilities:
        raise RuleError(phrase("{name} does not have {ability}.", name=c.name,
                               ability=ability.said_title))
    dependents: list[Ability] = [
        rules.abilities.ability(a)
        for a in c.abilities
        if a in rules.abilities.ids and ability.id in rules.abilities.ability(a).requires
    ]
    if dependents:
        raise RuleError(phrase("{name} cannot lose {ability} while keeping {others}.",
                               name=c.name, ability=ability.said_title,
                               others=titles_and(dependents)))
    bound = [it.name for it in c.items if it.ability == ability.id]
    if bound:
        raise RuleError(plural_phrase(
            "{name} carries {items} for {ability}: remove it first.",
            "{name} carries {items} for {ability}: remove them first.", "count",
            name=c.name, items=", ".join(bound), ability=ability.said_title, count=len(bound)))
    kept = tuple(a for a in c.abilities if a != ability.id)
    new = check_character(validated_copy(c, abilities=kept), rules=rules)
    return new, AbilityReport(ability.id, False, phrase("{name} loses {ability}.", name=c.name,
                                                          ability=ability.said_title))


def titles_and(abilities: list[Ability]) -> Phrase:
    """Abilities' titles joined by "and", as one phrase: "A and B and C"."""
    said = abilities[-1].said_title
    for ability in reversed(abilities[:-1]):
        said = phrase("{first} and {rest}", first=ability.said_title, rest=said)
    return said


def _activity(text: str) -> str:
    cleaned = text.strip()
    if cleaned.casefold().startswith("good at "):
        cleaned = cleaned[len("good at ") :].strip()
    if not 1 <= len(cleaned) <= 60:
        raise RuleError(phrase(
            "A non-combat ability is 1-60 characters, as in 'good at forensics'."))
    try:
        plain_text(cleaned)
    except RuleError as error:
        raise RuleError(phrase("That ability won't do: {problem}.", problem=error.said)) from error
    return cleaned


def add_good_at(c: Character, activity: str, *, rules: Rules) -> tuple[Character, AbilityReport]:
    """The character with a non-combat ability: good at ``activity`` (a leading "good at" is
    dropped).

    >>> from data import load_rules
    >>> ana, report = add_good_at(Character.new("Ana"), "Good at forensic accounting",
    ...                           rules=load_rules())
    >>> ana.good_at, report.summary.english()
    (('forensic accounting',), 'Ana is good at forensic accounting.')
    """
    cleaned = _activity(activity)
    if cleaned.casefold() in {a.casefold() for a in c.good_at}:
        raise RuleError(phrase("{name} is already good at {activity}.", name=c.name,
                               activity=cleaned))
    _check_room(c, Category.NON_COMBAT)
    new = check_character(validated_copy(c, good_at=(*c.good_at, cleaned)), rules=rules)
    return new, AbilityReport(f"good at {cleaned}", True, phrase(
        "{name} is good at {activity}.", name=c.name, activity=cleaned))


def remove_good_at(
    c: Character, activity: str, *, rules: Rules
) -> tuple[Character, AbilityReport]:
    """The character without that non-combat ability."""
    cleaned = _activity(activity)
    kept = tuple(a for a in c.good_at if a.casefold() != cleaned.casefold())
    if len(kept) == len(c.good_at):
        raise RuleError(phrase("{name} has no ability 'good at {activity}'.", name=c.name,
                               activity=cleaned))
    new = check_character(validated_copy(c, good_at=kept), rules=rules)
    return new, AbilityReport(
        f"good at {cleaned}", False, phrase("{name} is no longer good at {activity}.",
                                            name=c.name, activity=cleaned)
    )
