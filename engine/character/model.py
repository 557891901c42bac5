r"""The character sheet as a value: rulebook 004, "Characters" and "Level".

"Decide on a concept, a name, and a description, then fill in your character sheet." A
`Character` is what the sheet holds: name, level and max level ("tracked separately on your
character sheet"), the marks in the hit-location boxes, the items in their slots and which hand
holds which, and the abilities. It is frozen; every rule builds a new one.

>>> ana = Character.new("Ana")
>>> ana.level, ana.max_level, ana.marks("head"), ana.held("right")
(50, 50, '', None)
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import StrEnum
from types import MappingProxyType
from typing import Annotated, Literal

from pydantic import (
    AfterValidator,
    BeforeValidator,
    Field,
    StringConstraints,
    ValidationError,
    field_serializer,
    field_validator,
    model_validator,
)

from engine.catalog import Hand
from engine.dice import MAX_LEVEL, MIN_LEVEL
from engine.errors import RuleError
from engine.frozen import FrozenModel
from engine.phrases import Phrase, phrase
from engine.validation_said import validation_sentence

__all__ = [
    "CONCEPT_LIMIT",
    "DESCRIPTION_LIMIT",
    "HANDS",
    "MAX_GEAR",
    "MAX_LEVEL",
    "START_LEVEL",
    "Character",
    "Item",
    "Mark",
    "frozen_counts",
    "frozen_wounds",
    "other_hand",
    "plain_text",
    "rename",
    "trusted_copy",
    "validated_copy",
]


START_LEVEL = 50  # "Your current and max level start at 50"
HANDS: tuple[Hand, Hand] = ("right", "left")  # "I'm assuming humanlike physiology"
"""Both hands, right first: the order every list of hands and every report follows."""


class Mark(StrEnum):
    """A mark in a hit-location box. An empty box (□) has no mark."""

    SLASH = "\\"  # treatable by first aid
    CROSS = "X"  # only recovery erases it
    PERMANENT = "■"  # never erased


_SEVERITY = Mark.PERMANENT.value + Mark.CROSS.value + Mark.SLASH.value


def _canonical_marks(marks: str) -> str:
    """Marks sorted most severe first, so equal wounds compare equal."""
    unknown = set(marks) - set(_SEVERITY)
    if unknown:
        raise RuleError(phrase("a box holds \\, X or ■, not {marks}",
                               marks=repr("".join(sorted(unknown)))))
    return "".join(sorted(marks, key=_SEVERITY.index))


#: No wounds, read-only: one mapping every unhurt character shares (most of a fight's are).
_NO_WOUNDS: Mapping[str, str] = MappingProxyType({})


def frozen_wounds(wounds: Mapping[str, str]) -> Mapping[str, str]:
    r"""Wounds as a character keeps them: marks canonical, unhurt locations left out, read-only.

    >>> dict(frozen_wounds({"head": "\\X", "torso": ""}))
    {'head': 'X\\'}
    """
    kept = {loc: _canonical_marks(marks) for loc, marks in wounds.items() if marks}
    return MappingProxyType(kept) if kept else _NO_WOUNDS


def frozen_counts(counts: Mapping[str, int]) -> Mapping[str, int]:
    """Counts per location as a report keeps them: zeros left out, read-only.

    >>> dict(frozen_counts({"head": 2, "torso": 0}))
    {'head': 2}
    """
    return MappingProxyType({k: v for k, v in counts.items() if v})


#: Why a name or a phrase typed for the sheet is refused (a RuleError: a ValueError too, which
#: pydantic reports as the field's problem).
PLAIN_TEXT_ONLY = phrase("use letters, digits and punctuation only, no backticks or line breaks")


def plain_text(text: str) -> str:
    """``text`` itself if it has no backtick and no unprintable character; else ValueError."""
    # Names are shown inside a Discord code block: a backtick or a line break would break it.
    if "`" in text or not text.isprintable():
        raise RuleError(PLAIN_TEXT_ONLY)
    return text


CharacterName = Annotated[
    str,
    StringConstraints(strip_whitespace=True, min_length=1, max_length=32),
    AfterValidator(plain_text),
]

ItemName = Annotated[
    str,
    StringConstraints(strip_whitespace=True, min_length=1, max_length=40),
    AfterValidator(plain_text),
]

Activity = Annotated[
    str,
    StringConstraints(strip_whitespace=True, min_length=1, max_length=60),
    AfterValidator(plain_text),
]


def one_paragraph(text: object) -> object:
    """Text typed in a form, as one paragraph: line breaks and runs of spaces become one
    space (the sheet wraps it to the phone's width)."""
    return " ".join(text.split()) if isinstance(text, str) else text


CONCEPT_LIMIT, DESCRIPTION_LIMIT = 80, 400

#: Who the character is, in a few words ("ex-cop turned bouncer"); may be left empty.
Concept = Annotated[
    str,
    BeforeValidator(one_paragraph),
    StringConstraints(max_length=CONCEPT_LIMIT),
    AfterValidator(plain_text),
]

#: What the character looks like and how they come across; may be left empty.
Description = Annotated[
    str,
    BeforeValidator(one_paragraph),
    StringConstraints(max_length=DESCRIPTION_LIMIT),
    AfterValidator(plain_text),
]

#: At most this many non-combat items (the book: "up to you, as long as the GM agrees").
MAX_GEAR = 12



class Item(FrozenModel):
    """A combat item the player named, of a catalog kind.

    >>> Item(name="Riot shield", kind="shield")
    Item(name='Riot shield', kind='shield', location=None, less_lethal=False, ability=None, destroyed=False)
    """  # noqa: E501

    name: ItemName
    kind: str
    location: str | None = None  # armor: the hit location it covers
    less_lethal: bool = False  # ammo: the less-lethal version
    ability: str | None = None  # AoE weapon: the AoE ability it is for ("aoe.blast")
    destroyed: bool = False


def _no_wounds() -> Mapping[str, str]:
    return _NO_WOUNDS


def _missing_held(hand: Hand, index: int) -> Phrase:
    """Why a hand cannot hold item ``index``: the sheet has no such item."""
    if hand == "right":
        return phrase("the right hand holds item {index}, which does not exist", index=index)
    return phrase("the left hand holds item {index}, which does not exist", index=index)


def _destroyed_held(hand: Hand, item: str) -> Phrase:
    """Why a hand cannot hold ``item``: it is destroyed."""
    if hand == "right":
        return phrase("the right hand holds {item}, destroyed", item=item)
    return phrase("the left hand holds {item}, destroyed", item=item)


class Character(FrozenModel):
    """An Unhex character as the store keeps it (JSON via ``model_dump_json``).

    The model checks what it can alone; `check_character` (engine.character.validation) checks
    it against the rules data.

    >>> ana = Character.new("Ana", level=62)
    >>> ana.max_level, ana.npc
    (62, False)
    >>> Character.model_validate_json(ana.model_dump_json()) == ana
    True
    >>> Character.new("Ana", level=100)
    Traceback (most recent call last):
    ...
    engine.errors.RuleError: A character's level is 1-99, not 100.
    """

    schema_version: Literal[1] = 1
    name: CharacterName
    npc: bool = False
    level: int = Field(le=MAX_LEVEL)  # damage may take it below 0
    max_level: int = Field(ge=MIN_LEVEL, le=MAX_LEVEL)
    wounds: Mapping[str, str] = Field(default_factory=_no_wounds)
    items: tuple[Item, ...] = ()
    right_hand: int | None = None  # index into items; a 2H item is in both hands
    left_hand: int | None = None
    abilities: tuple[str, ...] = ()  # combat ability ids
    good_at: tuple[Activity, ...] = ()  # non-combat abilities: "good at <activity>"
    surrendered: bool = False
    concept: Concept = ""
    description: Description = ""
    gear: tuple[ItemName, ...] = Field(default=(), max_length=MAX_GEAR)  # non-combat items

    @field_validator("wounds")
    @classmethod
    def _freeze_wounds(cls, wounds: Mapping[str, str]) -> Mapping[str, str]:
        return frozen_wounds(wounds)

    @field_serializer("wounds")
    def _dump_wounds(self, wounds: Mapping[str, str]) -> dict[str, str]:
        return dict(wounds)

    @model_validator(mode="after")
    def _check(self) -> Character:
        # (RuleErrors: pydantic reports a ValueError's phrase as the sheet's problem.)
        if self.level > self.max_level:
            raise RuleError(phrase("level {level} is above max level {most}",
                                   level=self.level, most=self.max_level))
        for hand in HANDS:
            index = self.held(hand)
            if index is None:
                continue
            if not 0 <= index < len(self.items):
                raise RuleError(_missing_held(hand, index))
            if self.items[index].destroyed:
                raise RuleError(_destroyed_held(hand, self.items[index].name))
        if len(set(self.abilities)) != len(self.abilities):
            raise RuleError(phrase("an ability is listed twice"))
        if len({a.casefold() for a in self.good_at}) != len(self.good_at):
            raise RuleError(phrase("a non-combat ability is listed twice"))
        return self

    @classmethod
    def new(cls, name: str, *, npc: bool = False, level: int = START_LEVEL) -> Character:
        """A fresh character: level and max level both ``level`` (the book starts PCs at 50)."""
        if not MIN_LEVEL <= level <= MAX_LEVEL:
            raise RuleError(phrase("A character's level is {lowest}-{highest}, not {level}.",
                                   lowest=MIN_LEVEL, highest=MAX_LEVEL, level=level))
        return _build({"name": _valid_name(name), "npc": npc, "level": level, "max_level": level})

    def __hash__(self) -> int:
        # The generated hash would hash the wounds mapping, which is not hashable.
        return hash(self.model_dump_json())

    def marks(self, location_id: str) -> str:
        """The marks at a location, most severe first; ``""`` when unhurt."""
        return self.wounds.get(location_id, "")

    def held(self, hand: Hand) -> int | None:
        """The index of the item in a hand, if any."""
        return self.right_hand if hand == "right" else self.left_hand


def other_hand(hand: Hand) -> Hand:
    """The hand that is not ``hand``.

    >>> other_hand("right"), other_hand("left")
    ('left', 'right')
    """
    return HANDS[1] if hand == HANDS[0] else HANDS[0]


def _build(fields: Mapping[str, object]) -> Character:
    try:
        return Character.model_validate(dict(fields))
    except ValidationError as error:
        raise RuleError(phrase("That character is not valid: {problem}.",
                               problem=validation_sentence(error))) from error


def validated_copy(c: Character, **changes: object) -> Character:
    """``c`` with ``changes``, validated as a new character (RuleError if they break it)."""
    return _build({**dict(c), **changes})


def trusted_copy(c: Character, **changes: object) -> Character:
    """``c`` with ``changes`` the caller has already made valid, copied without validating.

    For a fight's hot path (a hit), where validating the whole character again costs several
    times the copy. Wounds must come through `frozen_wounds`. Like `validated_copy`, the copy has
    every field set; unlike it, it raises nothing: the caller answers for the values.

    >>> ana = Character.new("Ana")
    >>> trusted_copy(ana, level=40) == validated_copy(ana, level=40)
    True
    """
    return Character.model_construct(**{**c.__dict__, **changes})


def _valid_name(name: str) -> str:
    cleaned = name.strip()
    if not 1 <= len(cleaned) <= 32:
        raise RuleError(phrase("A character's name is 1-32 characters; {name} has {count}.",
                               name=repr(cleaned), count=len(cleaned)))
    try:
        plain_text(cleaned)
    except ValueError as error:
        raise RuleError(phrase("The name {name} won't do: use letters, digits and punctuation "
                               "only, no backticks or line breaks.", name=repr(cleaned))) from error
    return cleaned


def rename(c: Character, name: str) -> Character:
    """The character under a new name (1-32 characters)."""
    return validated_copy(c, name=_valid_name(name))
