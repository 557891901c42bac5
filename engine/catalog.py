"""The rules as data: item kinds, abilities and hit locations, parsed from TOML text.

The engine does no I/O: the caller reads the text (``data.read_text``) and hands it here. Every
catalog is validated on parsing and frozen afterwards.

>>> body = parse_body('''
... overflow = "torso"
... [[locations]]
... id = "head"
... name = "Head"
... short = "Head"
... boxes = 3
... dice = [9]
... penalty = "unconscious"
... [[locations]]
... id = "torso"
... name = "Torso"
... short = "Torso"
... boxes = 9
... dice = [0, 1, 2, 3, 4, 5, 6, 7, 8]
... penalty = "unconscious"
... ''')
>>> body.for_die(9).name, body.for_die(4).boxes, body.dice_label("torso")
('Head', 9, '0-8')

A broken file fails loudly, naming the problem:

>>> parse_body('overflow = "torso"\\nlocations = []')
Traceback (most recent call last):
...
pydantic_core._pydantic_core.ValidationError: 1 validation error for BodyPlan
...
"""

from __future__ import annotations

import tomllib
from enum import StrEnum
from typing import TYPE_CHECKING, Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, StringConstraints, model_validator

from engine.errors import RuleError
from engine.listing import one_by_one
from engine.phrases import Phrase, phrase

__all__ = [
    "Ability",
    "AbilityCatalog",
    "Action",
    "BodyPlan",
    "Category",
    "Hand",
    "HitLocation",
    "ItemCatalog",
    "ItemKind",
    "LessLethal",
    "Penalty",
    "RollModifier",
    "Rules",
    "parse_abilities",
    "parse_body",
    "parse_items",
    "parse_rules",
]

Id = Annotated[str, StringConstraints(pattern=r"^[a-z][a-z0-9_]*(\.[a-z][a-z0-9_]*)?$")]
Text = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1)]
Hand = Literal["right", "left"]


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


# ---- Hit locations --------------------------------------------------------------------------


class Penalty(StrEnum):
    """What a location does to its owner once every box in it is marked."""

    UNCONSCIOUS = "unconscious"  # head, torso
    ARM = "arm"  # drop what that hand holds; the hand can't be used
    LEG = "leg"  # stop moving; move only with two empty hands; all legs: cannot move


class _SaidNames:
    """A name and a short name from the data, as phrases (their sources are in the catalogue:
    data/words.py): "Right arm", "right arm", "R arm"; "2H melee weapon", "2h melee weapon",
    "2H melee"."""

    if TYPE_CHECKING:  # (the models' own fields; no annotations here for pydantic to read)
        name: str
        short: str

    @property
    def said_name(self) -> Phrase:
        """The name, capitalised as a label."""
        return Phrase(self.name)

    @property
    def said_lower(self) -> Phrase:
        """The name as a sentence says it."""
        return Phrase(self.name.lower())

    @property
    def said_short(self) -> Phrase:
        """The short name (the sheet's, a menu's)."""
        return Phrase(self.short)


class HitLocation(_SaidNames, _Frozen):
    """One hit location: which faces of the location die select it and how many boxes it has."""

    id: Id
    name: Text
    short: Annotated[str, StringConstraints(min_length=1, max_length=10)]
    boxes: int = Field(ge=1, le=12)
    dice: tuple[int, ...] = Field(min_length=1)
    penalty: Penalty
    hand: Hand | None = None  # arms only: the hand this arm works
    penalty_text: str = ""

    @model_validator(mode="after")
    def _check(self) -> HitLocation:
        if any(not 0 <= face <= 9 for face in self.dice):
            raise ValueError(f"{self.id}: dice faces are 0-9")
        if (self.penalty is Penalty.ARM) != (self.hand is not None):
            raise ValueError(f"{self.id}: an arm names its hand, and only an arm does")
        return self


class BodyPlan(_Frozen):
    """The hit locations, in die order from the head down, and where overflow damage goes."""

    overflow: Id
    locations: tuple[HitLocation, ...] = Field(min_length=1)

    @model_validator(mode="after")
    def _check(self) -> BodyPlan:
        ids = [loc.id for loc in self.locations]
        if len(set(ids)) != len(ids):
            raise ValueError("location ids must be unique")
        faces = sorted(face for loc in self.locations for face in loc.dice)
        if faces != list(range(10)):
            raise ValueError("the location dice must cover 0-9, each face once")
        if self.overflow not in ids:
            raise ValueError(f"overflow location {self.overflow!r} is not a location")
        hands = sorted(loc.hand for loc in self.locations if loc.hand is not None)
        if hands not in ([], ["left", "right"]):
            raise ValueError("there must be one right arm and one left arm, or no arms")
        return self

    @property
    def ids(self) -> tuple[str, ...]:
        """Location ids, head first."""
        return tuple(loc.id for loc in self.locations)

    @property
    def said_ids(self) -> Phrase:
        """The locations as a refusal lists them: each by its name in the reader's language,
        then the id a command option or a pasted character takes ("right arm (`right_arm`)")."""
        # Translators: a hit location's name, then the id a player types for it (kept as is).
        return one_by_one([phrase("{location} (`{id}`)", location=loc.said_lower, id=loc.id)
                           for loc in self.locations])

    @property
    def legs(self) -> tuple[HitLocation, ...]:
        """The locations that carry their owner (full: stop moving; all full: cannot move)."""
        return tuple(loc for loc in self.locations if loc.penalty is Penalty.LEG)

    def location(self, location_id: str) -> HitLocation:
        """The location with this id; a RuleError names the valid ones."""
        for loc in self.locations:
            if loc.id == location_id:
                return loc
        raise RuleError(phrase("There is no hit location called '{location}'; the locations are "
                               "{locations}.", location=location_id, locations=self.said_ids))

    def for_die(self, die: int) -> HitLocation:
        """The location a hit-location die selects."""
        for loc in self.locations:
            if die in loc.dice:
                return loc
        raise RuleError(f"A hit location die shows 0-9, not {die}.")

    def arm_for(self, hand: Hand) -> HitLocation | None:
        """The arm that works this hand."""
        return next((loc for loc in self.locations if loc.hand == hand), None)

    def dice_label(self, location_id: str) -> str:
        """The die faces of a location as the book prints them: ``9`` or ``4-6``."""
        faces = sorted(self.location(location_id).dice)
        if faces == list(range(faces[0], faces[-1] + 1)) and len(faces) > 1:
            return f"{faces[0]}-{faces[-1]}"
        return ",".join(str(face) for face in faces)


# ---- Items ----------------------------------------------------------------------------------


class LessLethal(StrEnum):
    """How an item kind deals less-lethal damage (it lowers level only, marking no wounds)."""

    NO = "no"
    CHOICE = "choice"  # "You can inflict less-lethal damage with any melee weapon."
    AMMO = "ammo"  # ranged: "requires a separate ammo slot dedicated to that effect"
    VARIANT = "variant"  # ammo: an item of this kind may be the less-lethal version


class ItemKind(_SaidNames, _Frozen):
    """A kind of combat item. Players name their items; the kind carries the rules.

    Every item takes one slot: armor is one item per hit location, first aid and AoE one item
    per use.
    """

    id: Id
    name: Text
    short: Annotated[str, StringConstraints(min_length=1, max_length=12)]
    hands: int = Field(ge=0, le=2)  # 0: worn or carried, never held
    weapon: bool = False  # attacks without needing an ability
    attack: Literal["melee", "ranged", "aoe"] | None = None
    attack_requires: Id | None = None  # ability to attack with a non-weapon (shield)
    min_range: int | None = Field(default=None, ge=0)
    max_range: int | None = Field(default=None, ge=0)  # None: no maximum
    wound_mark: Literal["\\", "X"] = "\\"
    needs_ammo: bool = False
    is_ammo: bool = False
    less_lethal: LessLethal = LessLethal.NO
    one_use: bool = False  # "one slot per use": destroyed when used
    per_location: bool = False  # armor: the item names its hit location
    max_per_location: int | None = Field(default=None, ge=1)
    requires_one_of: tuple[Id, ...] = ()  # the item names which one (AoE)
    not_held_with: tuple[Id, ...] = ()
    defender_chooses_dice: bool = False
    destroyed_when: str | None = None
    examples: tuple[Text, ...] = ()
    rule: Text

    @model_validator(mode="after")
    def _check(self) -> ItemKind:
        if self.attack is None and (self.weapon or self.attack_requires):
            raise ValueError(f"{self.id}: a weapon needs an attack type")
        if self.attack is not None and self.min_range is None:
            raise ValueError(f"{self.id}: an item that attacks needs min_range")
        if (
            self.min_range is not None
            and self.max_range is not None
            and self.min_range > self.max_range
        ):
            raise ValueError(f"{self.id}: min_range is above max_range")
        if self.per_location != (self.max_per_location is not None):
            raise ValueError(f"{self.id}: per_location and max_per_location go together")
        if self.attack is not None and self.hands == 0:
            raise ValueError(f"{self.id}: attacking needs the item in hand")
        return self

    @property
    def held(self) -> bool:
        """Whether items of this kind go in hands."""
        return self.hands > 0

    def in_range(self, distance: int) -> bool:
        """Whether an attack with this kind reaches ``distance`` connections.

        Never true for kinds that cannot attack.
        """
        if self.attack is None or self.min_range is None:
            return False
        return self.min_range <= distance and (self.max_range is None or distance <= self.max_range)


class LessLethalRule(_Frozen):
    """The rulebook's less-lethal paragraph (it is a way of dealing damage, not a kind)."""

    examples: tuple[Text, ...] = ()
    rule: Text


class ItemCatalog(_Frozen):
    """Every combat item kind.

    >>> items = parse_items('''
    ... [less_lethal]
    ... rule = "Less-lethal damage only reduces level."
    ... [[kinds]]
    ... id = "melee_1h"
    ... name = "1H melee weapon"
    ... short = "1H melee"
    ... hands = 1
    ... weapon = true
    ... attack = "melee"
    ... min_range = 0
    ... max_range = 0
    ... rule = "A 1H melee weapon requires one hand."
    ... ''')
    >>> items.kind("melee_1h").in_range(0), items.kind("melee_1h").in_range(1)
    (True, False)
    >>> items.kind("bazooka")
    Traceback (most recent call last):
    ...
    engine.errors.RuleError: There is no item kind 'bazooka'; the kinds are melee_1h.
    """

    less_lethal: LessLethalRule
    kinds: tuple[ItemKind, ...] = Field(min_length=1)

    @model_validator(mode="after")
    def _check(self) -> ItemCatalog:
        ids = [kind.id for kind in self.kinds]
        if len(set(ids)) != len(ids):
            raise ValueError("item kind ids must be unique")
        for kind in self.kinds:
            unknown = set(kind.not_held_with) - set(ids)
            if unknown:
                raise ValueError(f"{kind.id}: not_held_with names unknown kinds {sorted(unknown)}")
        return self

    @property
    def ids(self) -> tuple[str, ...]:
        """Kind ids in catalog order."""
        return tuple(kind.id for kind in self.kinds)

    def kind(self, kind_id: str) -> ItemKind:
        """The kind with this id; a RuleError names the valid ones."""
        for kind in self.kinds:
            if kind.id == kind_id:
                return kind
        raise RuleError(f"There is no item kind {kind_id!r}; the kinds are {', '.join(self.ids)}.")


# ---- Abilities ------------------------------------------------------------------------------


class Category(StrEnum):
    """Combat abilities come from the book's list; non-combat ones are "good at" free text."""

    COMBAT = "combat"
    NON_COMBAT = "non_combat"


class RollModifier(StrEnum):
    """The die-roll modifiers an ability grants (only one applies to a roll)."""

    GOOD = "good"  # re-roll one or both dice
    PRECISE = "precise"  # move the hit-location die by 1
    POWERFUL = "powerful"  # raise the damage die by 1


class Action(StrEnum):
    """The rolls and actions an ability's row is about."""

    ATTACK = "attack"
    COUNTERATTACK = "counterattack"
    INTERCEPT = "intercept"
    DEFEND = "defend"
    FIRST_AID = "first_aid"
    INITIATIVE = "initiative"
    MOVE = "move"


class Ability(_Frozen):
    """One ability: each bullet of the book's combat list is one; "good at ..." is free text."""

    id: Id
    group: Text
    name: Text
    category: Category
    text: Text
    requires: tuple[Id, ...] = ()
    modifier: RollModifier | None = None
    actions: tuple[Action, ...] = ()  # the rolls the modifier or rule is about
    item: Id | None = None  # the item kind it is about, or "unarmed"
    free_text: bool = False
    brief: str = ""  # the rule in one short line, for the sheet

    @property
    def title(self) -> str:
        """``group: name`` for lists, e.g. ``Leader: Rally``."""
        return f"{self.group}: {self.name}"

    @property
    def said_title(self) -> Phrase:
        """:attr:`title` as a phrase."""
        return phrase("{group}: {name}", group=Phrase(self.group), name=Phrase(self.name))

    @property
    def said_name(self) -> Phrase:
        """The name within its group as a phrase."""
        return Phrase(self.name)

    @property
    def said_group(self) -> Phrase:
        """The group (the book's heading) as a phrase."""
        return Phrase(self.group)

    @property
    def said_brief(self) -> Phrase:
        """The one-line rule as a phrase (an empty source when there is none)."""
        return Phrase(self.brief)


class AbilityCatalog(_Frozen):
    """Every ability, with prerequisites checked to exist and never to loop.

    >>> abilities = parse_abilities('''
    ... [[abilities]]
    ... id = "leader.direct"
    ... group = "Leader"
    ... name = "Direct"
    ... category = "combat"
    ... text = "You can use an action to direct someone else on your team."
    ... [[abilities]]
    ... id = "leader.initiative_direct"
    ... group = "Leader"
    ... name = "Direct on initiative"
    ... category = "combat"
    ... requires = ["leader.direct"]
    ... text = "Requires the prior ability."
    ... ''')
    >>> abilities.ability("leader.initiative_direct").requires
    ('leader.direct',)
    """

    abilities: tuple[Ability, ...] = Field(min_length=1)

    @model_validator(mode="after")
    def _check(self) -> AbilityCatalog:
        by_id = {ability.id: ability for ability in self.abilities}
        if len(by_id) != len(self.abilities):
            raise ValueError("ability ids must be unique")
        for ability in self.abilities:
            for needed in ability.requires:
                if needed not in by_id:
                    raise ValueError(f"{ability.id} requires unknown ability {needed!r}")
                if by_id[needed].category is not ability.category:
                    raise ValueError(f"{ability.id} requires an ability of another category")
            if ability.free_text and ability.category is not Category.NON_COMBAT:
                raise ValueError(f"{ability.id}: only non-combat abilities are free text")
        for ability in self.abilities:  # a chain of prerequisites must end
            seen: set[str] = set()
            stack = list(ability.requires)
            while stack:
                current = stack.pop()
                if current == ability.id:
                    raise ValueError(f"{ability.id} requires itself")
                if current not in seen:
                    seen.add(current)
                    stack.extend(by_id[current].requires)
        return self

    @property
    def ids(self) -> tuple[str, ...]:
        """Ability ids in catalog order."""
        return tuple(ability.id for ability in self.abilities)

    def ability(self, ability_id: str) -> Ability:
        """The ability with this id; a RuleError if there is none."""
        for ability in self.abilities:
            if ability.id == ability_id:
                return ability
        raise RuleError(f"There is no ability {ability_id!r}.")

    @property
    def combat(self) -> tuple[Ability, ...]:
        """The abilities a character picks from the book's list."""
        return tuple(a for a in self.abilities if a.category is Category.COMBAT)


# ---- The bundle -----------------------------------------------------------------------------


class Rules(_Frozen):
    """Items, abilities and body together, cross-checked: what every rule function takes."""

    items: ItemCatalog
    abilities: AbilityCatalog
    body: BodyPlan

    @model_validator(mode="after")
    def _check(self) -> Rules:
        ability_ids = set(self.abilities.ids)
        for kind in self.items.kinds:
            needed = set(kind.requires_one_of)
            if kind.attack_requires is not None:
                needed.add(kind.attack_requires)
            if not needed <= ability_ids:
                unknown = sorted(needed - ability_ids)
                raise ValueError(f"{kind.id} needs unknown abilities {unknown}")
        valid_items = {*self.items.ids, "unarmed"}
        for ability in self.abilities.abilities:
            if ability.item is not None and ability.item not in valid_items:
                raise ValueError(f"{ability.id} is about unknown item kind {ability.item!r}")
        return self


def _load(text: str) -> dict[str, object]:
    return tomllib.loads(text)


def parse_items(text: str) -> ItemCatalog:
    """Item kinds from TOML text (see data/items.toml); raises ValueError on a broken file."""
    return ItemCatalog.model_validate(_load(text))


def parse_abilities(text: str) -> AbilityCatalog:
    """Abilities from TOML text (see data/abilities.toml); raises ValueError on a broken file."""
    return AbilityCatalog.model_validate(_load(text))


def parse_body(text: str) -> BodyPlan:
    """Hit locations from TOML text (see data/body.toml); raises ValueError on a broken file."""
    return BodyPlan.model_validate(_load(text))


def parse_rules(*, items: str, abilities: str, body: str) -> Rules:
    """The whole bundle from the three TOML texts, cross-checked."""
    return Rules(
        items=parse_items(items), abilities=parse_abilities(abilities), body=parse_body(body)
    )
