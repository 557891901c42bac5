r"""An Unhex character and the rules that change it, as pure functions.

A `Character` is a frozen value. Every rule takes one, plus the `Rules` data, and returns a new
character with a small report of what happened; a request the rules refuse raises `RuleError`
with a sentence that can be shown to the player as it is.

>>> from data import load_rules
>>> rules = load_rules()
>>> ana = Character.new("Ana")
>>> ana.level, ana.max_level, slots(ana), ability_limit(ana)
(50, 50, 5, 2)
>>> ana, report = take_damage(ana, 4, 2, rules=rules)
>>> ana.level, ana.marks("right_leg")
(46, '\\\\\\\\')
>>> report.summary
'Ana takes 4 damage to the right leg: level 50 → 46. Marked 4 on the right leg.'
>>> status(ana, rules=rules)
<Status.FINE: 'fine'>

Wounds are kept per location as a string of marks, most severe first (``■``, then ``X``, then
``\``); empty boxes are not stored. The sheet (engine.sheet) draws the boxes.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from enum import StrEnum
from types import MappingProxyType
from typing import Annotated, Any, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    StringConstraints,
    ValidationError,
    ValidationInfo,
    field_serializer,
    field_validator,
    model_validator,
)

from engine.catalog import (
    Ability,
    Category,
    Hand,
    HitLocation,
    ItemKind,
    LessLethal,
    Penalty,
    Rules,
)
from engine.errors import RuleError

__all__ = [
    "HANDS",
    "MAX_LEVEL",
    "AbilityReport",
    "AdvanceReport",
    "Character",
    "DamageReport",
    "FirstAidReport",
    "HandsReport",
    "Item",
    "ItemRef",
    "ItemReport",
    "Mark",
    "RecoveryReport",
    "Status",
    "SurrenderReport",
    "ability_limit",
    "add_ability",
    "add_good_at",
    "add_item",
    "advance",
    "can_act",
    "can_move",
    "character_from_json",
    "character_problems",
    "check_character",
    "destroy_item",
    "first_aid_critical_failure",
    "first_aid_failure",
    "first_aid_success",
    "full_locations",
    "hold",
    "recover",
    "remove_ability",
    "remove_good_at",
    "remove_item",
    "rename",
    "slots",
    "status",
    "stow",
    "surrender",
    "take_damage",
    "usable_hands",
]

MIN_LEVEL = 1
MAX_LEVEL = 99  # RULINGS 15
START_LEVEL = 50
BASE_SLOTS = 5
BASE_ABILITIES = 2
UNCONSCIOUS_BELOW = 10
HANDS: tuple[Hand, Hand] = ("right", "left")


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
        raise ValueError(f"a box holds \\, X or ■, not {''.join(sorted(unknown))!r}")
    return "".join(sorted(marks, key=_SEVERITY.index))


def _plain_text(text: str) -> str:
    # Names are shown inside a Discord code block: a backtick or a line break would break it.
    if "`" in text or not text.isprintable():
        raise ValueError("use letters, digits and punctuation only, no backticks or line breaks")
    return text


CharacterName = Annotated[
    str,
    StringConstraints(strip_whitespace=True, min_length=1, max_length=32),
    AfterValidator(_plain_text),
]
ItemName = Annotated[
    str,
    StringConstraints(strip_whitespace=True, min_length=1, max_length=40),
    AfterValidator(_plain_text),
]
Activity = Annotated[
    str,
    StringConstraints(strip_whitespace=True, min_length=1, max_length=60),
    AfterValidator(_plain_text),
]


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class Item(_Frozen):
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


class Status(StrEnum):
    """How a character stands (RULINGS 14). Anything but FINE is out of action."""

    FINE = "fine"
    UNCONSCIOUS = "unconscious"
    SURRENDERED = "surrendered"  # level 0, out of the fight: "effectively unconscious"
    DEAD = "dead"


def _no_wounds() -> Mapping[str, str]:
    return MappingProxyType({})


class Character(_Frozen):
    """An Unhex character as the store keeps it (JSON via ``model_dump_json``).

    The model checks what it can alone; `check_character` checks it against the rules data,
    and so does validation given the rules as context:
    ``Character.model_validate_json(text, context={"rules": rules})``.

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

    @field_validator("wounds")
    @classmethod
    def _freeze_wounds(cls, wounds: Mapping[str, str]) -> Mapping[str, str]:
        canonical = {loc: _canonical_marks(marks) for loc, marks in wounds.items() if marks}
        return MappingProxyType(canonical)

    @field_serializer("wounds")
    def _dump_wounds(self, wounds: Mapping[str, str]) -> dict[str, str]:
        return dict(wounds)

    @model_validator(mode="after")
    def _check(self, info: ValidationInfo) -> Character:
        if self.level > self.max_level:
            raise ValueError(f"level {self.level} is above max level {self.max_level}")
        for hand, index in (("right", self.right_hand), ("left", self.left_hand)):
            if index is None:
                continue
            if not 0 <= index < len(self.items):
                raise ValueError(f"the {hand} hand holds item {index}, which does not exist")
            if self.items[index].destroyed:
                raise ValueError(f"the {hand} hand holds {self.items[index].name}, destroyed")
        if len(set(self.abilities)) != len(self.abilities):
            raise ValueError("an ability is listed twice")
        if len({a.casefold() for a in self.good_at}) != len(self.good_at):
            raise ValueError("a non-combat ability is listed twice")
        rules = info.context.get("rules") if isinstance(info.context, dict) else None
        if isinstance(rules, Rules):  # validating with context={"rules": rules} checks it all
            problems = character_problems(self, rules=rules)
            if problems:
                raise ValueError(" ".join(problems))
        return self

    @classmethod
    def new(cls, name: str, *, npc: bool = False, level: int = START_LEVEL) -> Character:
        """A fresh character: level and max level both ``level`` (the book starts PCs at 50)."""
        if not MIN_LEVEL <= level <= MAX_LEVEL:
            raise RuleError(f"A character's level is {MIN_LEVEL}-{MAX_LEVEL}, not {level}.")
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


# ---- Building and checking ------------------------------------------------------------------


def _sentence(error: ValidationError) -> str:
    parts = []
    for detail in error.errors():
        where = ".".join(str(part) for part in detail["loc"])
        message = str(detail["msg"]).removeprefix("Value error, ")
        parts.append(f"{where}: {message}" if where else message)
    return "; ".join(parts)


def _build(fields: Mapping[str, object]) -> Character:
    try:
        return Character.model_validate(dict(fields))
    except ValidationError as error:
        raise RuleError(f"That character is not valid: {_sentence(error)}.") from error


def _replace(c: Character, **changes: object) -> Character:
    return _build({**dict(c), **changes})


def _valid_name(name: str) -> str:
    cleaned = name.strip()
    if not 1 <= len(cleaned) <= 32:
        raise RuleError(f"A character's name is 1-32 characters; {cleaned!r} has {len(cleaned)}.")
    try:
        _plain_text(cleaned)
    except ValueError as error:
        raise RuleError(f"The name {cleaned!r} won't do: {error}.") from error
    return cleaned


def character_problems(c: Character, *, rules: Rules) -> tuple[str, ...]:
    """Every way the character breaks the rules data, each a sentence; empty when valid.

    >>> from data import load_rules
    >>> ana = Character(name="Ana", level=50, max_level=50,
    ...                 abilities=("leader.initiative_direct",))
    >>> character_problems(ana, rules=load_rules())
    ('Ana has Leader: Direct on initiative, which requires Leader: Direct.',)
    """
    problems: list[str] = []
    body = rules.body
    for location_id, marks in c.wounds.items():
        if location_id not in body.ids:
            problems.append(f"{c.name} has wounds on {location_id!r}, which is not a hit location.")
        elif len(marks) > body.location(location_id).boxes:
            loc = body.location(location_id)
            problems.append(f"{c.name}'s {_lower(loc)} has {loc.boxes} boxes, not {len(marks)}.")
    if len(c.items) > slots(c):
        problems.append(f"{c.name} has {slots(c)} item slots but carries {len(c.items)} items.")
    armor_count: dict[tuple[str, str], int] = {}
    for item in c.items:
        if item.kind not in rules.items.ids:
            problems.append(f"{item.name} is of unknown kind {item.kind!r}.")
            continue
        kind = rules.items.kind(item.kind)
        try:
            _check_item_fields(c, item, kind, rules)
        except RuleError as error:
            problems.append(str(error))
        if kind.per_location and item.location is not None:
            key = (kind.id, item.location)
            armor_count[key] = armor_count.get(key, 0) + 1
    for (kind_id, location_id), count in armor_count.items():
        kind = rules.items.kind(kind_id)
        if kind.max_per_location is not None and count > kind.max_per_location:
            problems.append(
                f"{c.name} has {count} {kind.name.lower()} on the {location_id.replace('_', ' ')}; "
                f"{kind.max_per_location} is the most per location."
            )
    problems.extend(_hand_problems(c, rules))
    problems.extend(_ability_problems(c, rules))
    return tuple(problems)


def check_character(c: Character, *, rules: Rules) -> Character:
    """The character itself if it keeps every rule; else a RuleError listing the problems."""
    problems = character_problems(c, rules=rules)
    if problems:
        raise RuleError(" ".join(problems))
    return c


def character_from_json(text: str, *, rules: Rules) -> Character:
    """A character from the store's JSON (or a player's paste), fully checked.

    >>> from data import load_rules
    >>> character_from_json('{"name": "Ana", "level": 50}', rules=load_rules())
    Traceback (most recent call last):
    ...
    engine.errors.RuleError: That character is not valid: max_level: Field required.
    """
    try:
        c = Character.model_validate_json(text)
    except ValidationError as error:
        raise RuleError(f"That character is not valid: {_sentence(error)}.") from error
    return check_character(c, rules=rules)


def _checked(c: Character, rules: Rules) -> Character:
    # Each rule refuses bad requests with its own message first; this is the safety net.
    return check_character(c, rules=rules)


def _hand_problems(c: Character, rules: Rules) -> list[str]:
    problems: list[str] = []
    for hand in HANDS:
        index = c.held(hand)
        if index is None:
            continue
        item = c.items[index]
        if item.kind not in rules.items.ids:
            continue
        kind = rules.items.kind(item.kind)
        other = c.held("left" if hand == "right" else "right")
        if not kind.held:
            problems.append(f"{item.name} ({kind.name.lower()}) is not held in a hand.")
        elif kind.hands == 2 and other != index:
            problems.append(f"{item.name} needs both hands.")
        elif kind.hands == 1 and other == index:
            problems.append(f"{item.name} is held in one hand, not both.")
        if hand not in usable_hands(c, rules=rules):
            problems.append(f"{c.name}'s {hand} arm is full of wounds and cannot hold {item.name}.")
    right, left = c.right_hand, c.left_hand
    if right is not None and left is not None and right != left:
        right_kind, left_kind = c.items[right].kind, c.items[left].kind
        known = right_kind in rules.items.ids and left_kind in rules.items.ids
        if known and (
            left_kind in rules.items.kind(right_kind).not_held_with
            or right_kind in rules.items.kind(left_kind).not_held_with
        ):
            problems.append(
                f"{c.name} cannot use {c.items[right].name} and {c.items[left].name} "
                "at the same time."
            )
    return problems


def _ability_problems(c: Character, rules: Rules) -> list[str]:
    problems: list[str] = []
    for ability_id in c.abilities:
        if ability_id not in rules.abilities.ids:
            problems.append(f"{c.name} has unknown ability {ability_id!r}.")
            continue
        ability = rules.abilities.ability(ability_id)
        if ability.free_text:
            problems.append(f"{ability.title} is written as 'good at ...', not as an id.")
        for needed in ability.requires:
            if needed not in c.abilities:
                problems.append(
                    f"{c.name} has {ability.title}, which requires "
                    f"{rules.abilities.ability(needed).title}."
                )
    limit = ability_limit(c)
    total = len(c.abilities) + len(c.good_at)
    if total > limit:
        problems.append(f"{c.name} has {total} abilities; max level {c.max_level} allows {limit}.")
    else:
        for category, count in (("combat", len(c.abilities)), ("non-combat", len(c.good_at))):
            if count > limit - 1:
                problems.append(
                    f"{c.name} has {count} {category} abilities; at max level {c.max_level} the "
                    f"most is {limit - 1}, since everyone starts with one of each kind."
                )
    return problems


def _check_item_fields(c: Character, item: Item, kind: ItemKind, rules: Rules) -> None:
    if kind.per_location:
        if item.location is None:
            raise RuleError(
                f"{kind.name} covers one hit location: say which "
                f"({', '.join(rules.body.ids)})."
            )
        rules.body.location(item.location)
    elif item.location is not None:
        raise RuleError(f"Only armor names a hit location; {item.name} is {_a(kind)}.")
    if item.less_lethal and kind.less_lethal is not LessLethal.VARIANT:
        raise RuleError(
            f"Only ammo comes in a less-lethal version; {item.name} is {_a(kind)}. "
            "Melee weapons deal less-lethal damage by choice."
        )
    if kind.requires_one_of:
        titles = ", ".join(rules.abilities.ability(a).title for a in kind.requires_one_of)
        if item.ability not in kind.requires_one_of:
            raise RuleError(f"{_a(kind).capitalize()} is for one ability: say which ({titles}).")
        if item.ability not in c.abilities:
            needed = rules.abilities.ability(item.ability).title
            raise RuleError(f"{c.name} needs the ability {needed} to carry {item.name}.")
    elif item.ability is not None:
        raise RuleError(f"{item.name} is {_a(kind)}, which is not tied to an ability.")


def _a(kind: ItemKind) -> str:
    name = kind.name.lower()
    if name.startswith(("a", "e", "i", "o", "u")):
        return f"an {name}"
    return f"a {name}"


def _lower(loc: HitLocation) -> str:
    return loc.name.lower()


# ---- Derived values -------------------------------------------------------------------------


def slots(c: Character) -> int:
    """Item slots: 5, and one more at each max level ending in 5 above 50 (55, 65, ... 95).

    >>> slots(Character.new("A")), slots(Character.new("B", level=55)), slots(Character.new("C", level=99))
    (5, 6, 10)
    """  # noqa: E501
    above_start = range(START_LEVEL + 1, c.max_level + 1)
    return BASE_SLOTS + sum(1 for level in above_start if level % 10 == 5)


def ability_limit(c: Character) -> int:
    """Abilities: 2 (one combat, one non-combat), and one more at max level 60, 70, 80 and 90.

    >>> ability_limit(Character.new("A", level=59)), ability_limit(Character.new("B", level=60))
    (2, 3)
    """
    return BASE_ABILITIES + sum(1 for level in range(60, c.max_level + 1) if level % 10 == 0)


def _is_full(c: Character, loc: HitLocation) -> bool:
    return len(c.marks(loc.id)) >= loc.boxes


def full_locations(c: Character, *, rules: Rules) -> tuple[str, ...]:
    """Locations whose every box is marked (their penalty applies), head first."""
    return tuple(loc.id for loc in rules.body.locations if _is_full(c, loc))


def status(c: Character, *, rules: Rules) -> Status:
    """Dead, surrendered, unconscious or fine (RULINGS 14), in that order of precedence.

    Unconscious: level below 10, or every head or every torso box marked. Dead: level below 0,
    or every head or every torso box a permanent wound.
    """
    vital = [loc for loc in rules.body.locations if loc.penalty is Penalty.UNCONSCIOUS]
    if c.level < 0 or any(c.marks(loc.id).count(Mark.PERMANENT) >= loc.boxes for loc in vital):
        return Status.DEAD
    if c.surrendered:
        return Status.SURRENDERED
    if c.level < UNCONSCIOUS_BELOW or any(_is_full(c, loc) for loc in vital):
        return Status.UNCONSCIOUS
    return Status.FINE


def can_act(c: Character, *, rules: Rules) -> bool:
    """Whether the character may spend actions (unconscious, surrendered and dead may not)."""
    return status(c, rules=rules) is Status.FINE


def usable_hands(c: Character, *, rules: Rules) -> tuple[Hand, ...]:
    """Hands whose arm still has an unmarked box ("You can't use that hand")."""
    usable: list[Hand] = []
    for hand in HANDS:
        arm = rules.body.arm_for(hand)
        if arm is None or not _is_full(c, arm):
            usable.append(hand)
    return tuple(usable)


def can_move(c: Character, *, rules: Rules) -> bool:
    """Whether the character may Move.

    One full leg: only "using 2 empty hands" (both usable and empty). Every leg full: never.
    """
    if not can_act(c, rules=rules):
        return False
    legs = [loc for loc in rules.body.locations if loc.penalty is Penalty.LEG]
    full_legs = [loc for loc in legs if _is_full(c, loc)]
    if not full_legs:
        return True
    if len(full_legs) == len(legs):
        return False
    return (
        usable_hands(c, rules=rules) == HANDS and c.right_hand is None and c.left_hand is None
    )


# ---- Reports --------------------------------------------------------------------------------


def _frozen_counts(counts: Mapping[str, int]) -> Mapping[str, int]:
    return MappingProxyType({k: v for k, v in counts.items() if v})


@dataclass(frozen=True, slots=True)
class ItemReport:
    """What happened to one item; ``index`` is its place in ``items`` (0-based)."""

    index: int
    item: Item
    summary: str


@dataclass(frozen=True, slots=True)
class HandsReport:
    """What each hand holds now, and which items left the hands."""

    right: int | None
    left: int | None
    stowed: tuple[int, ...]
    summary: str


@dataclass(frozen=True, slots=True)
class AbilityReport:
    """An ability gained or lost (an id, or "good at <activity>")."""

    ability: str
    added: bool
    summary: str


@dataclass(frozen=True, slots=True)
class DamageReport:
    """What a hit did. ``marked`` counts new marks per location; ``unmarked`` had nowhere to go.

    ``newly_full`` lists locations whose penalty starts now; ``dropped`` the items that fell from
    a disabled arm; ``stop_moving`` is true when a leg filled up, ``cannot_move`` when the last one
    did.
    """

    damage: int
    location: str
    less_lethal: bool
    level_before: int
    level_after: int
    marked: Mapping[str, int]
    unmarked: int
    armor_destroyed: int | None
    newly_full: tuple[str, ...]
    dropped: tuple[int, ...]
    stop_moving: bool
    cannot_move: bool
    status_before: Status
    status_after: Status
    summary: str

    @property
    def became_unconscious(self) -> bool:
        """Fine before the hit, unconscious (not dead) after it."""
        return self.status_before is Status.FINE and self.status_after is Status.UNCONSCIOUS

    @property
    def became_dead(self) -> bool:
        """Alive before the hit, dead after it."""
        return self.status_before is not Status.DEAD and self.status_after is Status.DEAD


@dataclass(frozen=True, slots=True)
class FirstAidReport:
    """Marks changed by first aid, per location: erased ``\\``, ``\\`` → X, X → ■."""

    erased: Mapping[str, int]
    crossed: Mapping[str, int]
    made_permanent: Mapping[str, int]
    status_before: Status
    status_after: Status
    summary: str


@dataclass(frozen=True, slots=True)
class SurrenderReport:
    """The level given up by surrendering."""

    level_before: int
    summary: str


@dataclass(frozen=True, slots=True)
class RecoveryReport:
    """What recovery restored: level, erased marks per location, items made whole again."""

    level_before: int
    level_after: int
    erased: Mapping[str, int]
    restored: tuple[int, ...]
    summary: str


@dataclass(frozen=True, slots=True)
class AdvanceReport:
    """Max level before and after (equal at the cap), and what the new level unlocked."""

    max_before: int
    max_after: int
    new_slot: bool
    new_ability: bool
    summary: str


# ---- Names, items and hands -----------------------------------------------------------------

ItemRef = int | str
"""An item by its 0-based index in ``items`` (the sheet shows it 1-based) or by its name."""


def rename(c: Character, name: str) -> Character:
    """The character under a new name (1-32 characters)."""
    return _replace(c, name=_valid_name(name))


def _item_index(c: Character, item: ItemRef, *, intact_first: bool = False) -> int:
    if isinstance(item, bool):
        raise TypeError("an item is an index or a name")
    if isinstance(item, int):
        if 0 <= item < len(c.items):
            return item
        raise RuleError(f"{c.name} has no item number {item + 1}.")
    wanted = item.strip().casefold()
    matches = [i for i, it in enumerate(c.items) if it.name.casefold() == wanted]
    if not matches:
        raise RuleError(f"{c.name} has no item called {item.strip()!r}.")
    if intact_first:
        intact = [i for i in matches if not c.items[i].destroyed]
        return (intact or matches)[0]
    return matches[0]


def add_item(
    c: Character,
    name: str,
    kind: str,
    *,
    rules: Rules,
    location: str | None = None,
    less_lethal: bool = False,
    ability: str | None = None,
) -> tuple[Character, ItemReport]:
    """The character with one more item, in the next slot.

    Armor names its ``location``; ammo may be ``less_lethal``; an AoE weapon names the AoE
    ``ability`` it is for (an id or a name; it may be left out when the character has just one).

    >>> from data import load_rules
    >>> rules = load_rules()
    >>> ana, _ = add_item(Character.new("Ana"), "Vest", "armor", location="torso", rules=rules)
    >>> ana, report = add_item(ana, "Riot shield", "shield", rules=rules)
    >>> report.summary
    'Ana carries Riot shield (shield) in slot 2; 3 of 5 slots are free.'
    """
    item_kind = rules.items.kind(kind)
    if len(c.items) >= slots(c):
        raise RuleError(f"{c.name} has {slots(c)} item slots and all are full.")
    if item_kind.requires_one_of:
        ability = _aoe_ability(c, item_kind, ability, rules)
    try:
        item = Item(
            name=name, kind=kind, location=location, less_lethal=less_lethal, ability=ability
        )
    except ValidationError as error:
        raise RuleError(f"That item won't do: {_sentence(error)}.") from error
    _check_item_fields(c, item, item_kind, rules)
    if item_kind.per_location and item_kind.max_per_location is not None:
        same = [
            it for it in c.items if it.kind == item_kind.id and it.location == item.location
        ]
        if len(same) >= item_kind.max_per_location:
            loc = rules.body.location(str(item.location))
            raise RuleError(
                f"{c.name} already has {len(same)} {item_kind.name.lower()} on the {_lower(loc)}; "
                f"{item_kind.max_per_location} is the most per location."
            )
    new = _checked(_replace(c, items=(*c.items, item)), rules)
    index = len(new.items) - 1
    free = slots(new) - len(new.items)
    return new, ItemReport(
        index,
        item,
        f"{c.name} carries {item.name} ({item_kind.short}) in slot {index + 1}; "
        f"{free} of {slots(new)} slots are free.",
    )


def _aoe_ability(c: Character, kind: ItemKind, ability: str | None, rules: Rules) -> str:
    options = [rules.abilities.ability(a) for a in kind.requires_one_of]
    if ability is None:
        held = [a for a in options if a.id in c.abilities]
        if len(held) == 1:
            return held[0].id
        titles = ", ".join(a.title for a in options)
        if not held:
            raise RuleError(f"{c.name} needs an AoE ability ({titles}) to carry {_a(kind)}.")
        raise RuleError(
            f"{c.name} has several AoE abilities: say which one this {kind.short} is for."
        )
    wanted = ability.strip().casefold()
    for option in options:
        if wanted in (option.id, option.name.casefold(), option.title.casefold()):
            return option.id
    titles = ", ".join(a.title for a in options)
    raise RuleError(f"{_a(kind).capitalize()} is for one of {titles}, not {ability!r}.")


def remove_item(c: Character, item: ItemRef, *, rules: Rules) -> tuple[Character, ItemReport]:
    """The character without that item (dropped from its hand too); the slot frees up."""
    index = _item_index(c, item)
    removed = c.items[index]

    def shifted(held: int | None) -> int | None:
        if held is None or held == index:
            return None
        return held - 1 if held > index else held

    new = _checked(
        _replace(
            c,
            items=c.items[:index] + c.items[index + 1 :],
            right_hand=shifted(c.right_hand),
            left_hand=shifted(c.left_hand),
        ),
        rules,
    )
    free = slots(new) - len(new.items)
    return new, ItemReport(
        index, removed, f"{c.name} no longer carries {removed.name}; {free} slots are free."
    )


def destroy_item(c: Character, item: ItemRef, *, rules: Rules) -> tuple[Character, ItemReport]:
    """The character with that item destroyed (and out of its hands) until recovery."""
    index = _item_index(c, item, intact_first=True)
    target = c.items[index]
    if target.destroyed:
        raise RuleError(f"{c.name}'s {target.name} is already destroyed.")
    items = list(c.items)
    items[index] = target.model_copy(update={"destroyed": True})
    new = _checked(
        _replace(
            c,
            items=tuple(items),
            right_hand=None if c.right_hand == index else c.right_hand,
            left_hand=None if c.left_hand == index else c.left_hand,
        ),
        rules,
    )
    return new, ItemReport(index, items[index], f"{c.name}'s {target.name} is destroyed.")


def _hands_text(c: Character) -> str:
    if c.right_hand is not None and c.right_hand == c.left_hand:
        return f"{c.items[c.right_hand].name} in both hands"
    parts = [
        f"{c.items[index].name} in the {hand} hand"
        for hand in HANDS
        if (index := c.held(hand)) is not None
    ]
    return " and ".join(parts) if parts else "nothing in hand"


def hold(
    c: Character, item: ItemRef, hand: Hand | None = None, *, rules: Rules
) -> tuple[Character, HandsReport]:
    """The character holding that item; whatever was in the way is stowed.

    A 2H item takes both hands. A 1H item goes in ``hand``, or else in an empty usable hand
    (right first), or else in the right hand. Out of combat this is free; in combat,
    rearranging hands takes an action (the combat engine counts it).

    >>> from data import load_rules
    >>> rules = load_rules()
    >>> ana, _ = add_item(Character.new("Ana"), "Greatsword", "melee_2h", rules=rules)
    >>> ana, report = hold(ana, "greatsword", rules=rules)
    >>> ana.right_hand, ana.left_hand, report.summary
    (0, 0, 'Ana has Greatsword in both hands.')
    """
    index = _item_index(c, item, intact_first=True)
    target = c.items[index]
    kind = rules.items.kind(target.kind)
    if target.destroyed:
        raise RuleError(f"{c.name}'s {target.name} is destroyed; recovery replaces it.")
    if not kind.held:
        raise RuleError(f"{target.name} ({kind.short}) is not held in a hand.")
    usable = usable_hands(c, rules=rules)
    if kind.hands == 2:
        if usable != HANDS:
            raise RuleError(f"{target.name} needs both hands, and {c.name} cannot use one of them.")
        right: int | None = index
        left: int | None = index
    else:
        if not usable:
            raise RuleError(f"{c.name}'s arms are full of wounds: neither hand can be used.")
        if hand is None:
            # Keep it where it is, else take an empty hand, else free the first usable one.
            already = [h for h in usable if c.held(h) == index]
            empty = [h for h in usable if c.held(h) is None]
            chosen = [*already, *empty, *usable][0]
        else:
            chosen = hand
        if chosen not in usable:
            raise RuleError(f"{c.name}'s {chosen} arm is full of wounds: that hand can't be used.")
        holding = {h: c.held(h) for h in HANDS}
        for h in HANDS:  # a 2H item in the way leaves both hands; this item leaves the other
            if holding[h] == index or (
                holding[h] is not None and holding[h] == holding[chosen] and h != chosen
            ):
                holding[h] = None
        holding[chosen] = index
        right, left = holding["right"], holding["left"]
    other = left if right == index else right
    if other is not None and other != index:
        other_kind = c.items[other].kind
        clash = kind.not_held_with + rules.items.kind(other_kind).not_held_with
        if other_kind in clash or kind.id in clash:
            raise RuleError(
                f"{c.name} cannot use {target.name} and {c.items[other].name} at the same time."
            )
    new = _checked(_replace(c, right_hand=right, left_hand=left), rules)
    stowed = tuple(
        sorted({i for i in (c.right_hand, c.left_hand) if i is not None} - {right, left})
    )
    return new, HandsReport(right, left, stowed, f"{c.name} has {_hands_text(new)}.")


def stow(c: Character, hand: Hand | None = None, *, rules: Rules) -> tuple[Character, HandsReport]:
    """The character with that hand (or both) empty; a 2H item leaves both hands."""
    hands = HANDS if hand is None else (hand,)
    leaving = {c.held(h) for h in hands} - {None}
    right = None if c.right_hand in leaving else c.right_hand
    left = None if c.left_hand in leaving else c.left_hand
    new = _checked(_replace(c, right_hand=right, left_hand=left), rules)
    stowed = tuple(sorted(i for i in leaving if i is not None))
    return new, HandsReport(right, left, stowed, f"{c.name} has {_hands_text(new)}.")


# ---- Abilities ------------------------------------------------------------------------------


def _next_ability_level(c: Character) -> int | None:
    return next((lv for lv in range(max(60, c.max_level + 1), 100) if lv % 10 == 0), None)


def _check_room(c: Character, category: Category) -> None:
    limit = ability_limit(c)
    total = len(c.abilities) + len(c.good_at)
    later = _next_ability_level(c)
    when = f"the next comes at max level {later}" if later else "there are no more to come"
    if total >= limit:
        raise RuleError(f"{c.name} has {total} of {limit} abilities; {when}.")
    same = len(c.abilities) if category is Category.COMBAT else len(c.good_at)
    if same >= limit - 1:
        other = "non-combat" if category is Category.COMBAT else "combat"
        raise RuleError(
            f"{c.name}'s last free ability is kept for a {other} ability: everyone starts with "
            f"one combat and one non-combat ability."
        )


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
        raise RuleError("A non-combat ability names its activity, as in 'good at forensics'.")
    if ability.id in c.abilities:
        raise RuleError(f"{c.name} already has {ability.title}.")
    missing = [rules.abilities.ability(a).title for a in ability.requires if a not in c.abilities]
    if missing:
        raise RuleError(
            f"{ability.title} requires {' and '.join(missing)}, which {c.name} does not have."
        )
    _check_room(c, ability.category)
    new = _checked(_replace(c, abilities=(*c.abilities, ability.id)), rules)
    return new, AbilityReport(ability.id, True, f"{c.name} gains {ability.title}.")


def remove_ability(
    c: Character, ability_id: str, *, rules: Rules
) -> tuple[Character, AbilityReport]:
    """The character without that combat ability (refused while something depends on it)."""
    ability = rules.abilities.ability(ability_id)
    if ability.id not in c.abilities:
        raise RuleError(f"{c.name} does not have {ability.title}.")
    dependents: list[Ability] = [
        rules.abilities.ability(a)
        for a in c.abilities
        if a in rules.abilities.ids and ability.id in rules.abilities.ability(a).requires
    ]
    if dependents:
        names = " and ".join(a.title for a in dependents)
        raise RuleError(f"{c.name} cannot lose {ability.title} while keeping {names}.")
    bound = [it.name for it in c.items if it.ability == ability.id]
    if bound:
        raise RuleError(
            f"{c.name} carries {', '.join(bound)} for {ability.title}: remove "
            f"{'it' if len(bound) == 1 else 'them'} first."
        )
    kept = tuple(a for a in c.abilities if a != ability.id)
    new = _checked(_replace(c, abilities=kept), rules)
    return new, AbilityReport(ability.id, False, f"{c.name} loses {ability.title}.")


def _activity(text: str) -> str:
    cleaned = text.strip()
    if cleaned.casefold().startswith("good at "):
        cleaned = cleaned[len("good at ") :].strip()
    if not 1 <= len(cleaned) <= 60:
        raise RuleError("A non-combat ability is 1-60 characters, as in 'good at forensics'.")
    try:
        _plain_text(cleaned)
    except ValueError as error:
        raise RuleError(f"That ability won't do: {error}.") from error
    return cleaned


def add_good_at(c: Character, activity: str, *, rules: Rules) -> tuple[Character, AbilityReport]:
    """The character with a non-combat ability: good at ``activity`` (a leading "good at" is
    dropped).

    >>> from data import load_rules
    >>> ana, report = add_good_at(Character.new("Ana"), "Good at forensic accounting",
    ...                           rules=load_rules())
    >>> ana.good_at, report.summary
    (('forensic accounting',), 'Ana is good at forensic accounting.')
    """
    cleaned = _activity(activity)
    if cleaned.casefold() in {a.casefold() for a in c.good_at}:
        raise RuleError(f"{c.name} is already good at {cleaned}.")
    _check_room(c, Category.NON_COMBAT)
    new = _checked(_replace(c, good_at=(*c.good_at, cleaned)), rules)
    return new, AbilityReport(f"good at {cleaned}", True, f"{c.name} is good at {cleaned}.")


def remove_good_at(
    c: Character, activity: str, *, rules: Rules
) -> tuple[Character, AbilityReport]:
    """The character without that non-combat ability."""
    cleaned = _activity(activity)
    kept = tuple(a for a in c.good_at if a.casefold() != cleaned.casefold())
    if len(kept) == len(c.good_at):
        raise RuleError(f"{c.name} has no ability 'good at {cleaned}'.")
    new = _checked(_replace(c, good_at=kept), rules)
    return new, AbilityReport(
        f"good at {cleaned}", False, f"{c.name} is no longer good at {cleaned}."
    )


# ---- Damage ---------------------------------------------------------------------------------


def _location(location: int | str, rules: Rules) -> HitLocation:
    if isinstance(location, bool):
        raise TypeError("a location is a die face or a location id")
    if isinstance(location, int):
        return rules.body.for_die(location)
    return rules.body.location(location)


def _counts_text(counts: Mapping[str, int], rules: Rules) -> str:
    return " and ".join(
        f"{n} on the {_lower(rules.body.location(loc))}" for loc, n in counts.items()
    )


def take_damage(
    c: Character,
    amount: int,
    location_die: int | str,
    *,
    rules: Rules,
    mark: Mark | Literal["\\", "X"] = Mark.SLASH,
    less_lethal: bool = False,
    use_armor: bool | int = False,
) -> tuple[Character, DamageReport]:
    """The character after a hit for ``amount`` at ``location_die``.

    ``location_die`` is the hit-location die (0-9), or a location id for damage the target
    places itself (AoE). The level drops by ``amount``; that many boxes are marked with ``mark``
    (X for a 2H melee weapon) at the location, overflowing to the torso; past a full torso
    nothing is left to mark but the level still drops (RULINGS 16). A damage die of 0 is a hit
    that does nothing (RULINGS 17). Less-lethal damage lowers the level only.

    ``use_armor`` (True, or the index of a particular armor item) destroys armor on the hit
    location instead of losing level and marking boxes; when the hit location was already full,
    armor on the torso, where the damage goes, may be used instead.

    The book's example: three ``\\`` on the right leg, hit for 4 at location 2:

    >>> from data import load_rules
    >>> rules = load_rules()
    >>> you = Character(name="You", level=50, max_level=50, wounds={"right_leg": "\\\\" * 3})
    >>> you, report = take_damage(you, 4, 2, rules=rules)
    >>> you.level, you.marks("right_leg"), you.marks("torso"), report.stop_moving
    (46, '\\\\\\\\\\\\\\\\\\\\\\\\', '\\\\', True)
    """
    if amount < 0:
        raise RuleError(f"Damage is 0 or more, not {amount}.")
    loc = _location(location_die, rules)
    wound_mark = Mark(mark)
    if wound_mark is Mark.PERMANENT:
        raise RuleError("Damage marks boxes with \\ or X; only first aid makes ■.")
    status_before = status(c, rules=rules)
    where = f"the {_lower(loc)}"

    def report(new: Character, summary: str, **changes: Any) -> tuple[Character, DamageReport]:
        nothing = DamageReport(
            damage=amount,
            location=loc.id,
            less_lethal=less_lethal,
            level_before=c.level,
            level_after=new.level,
            marked=_frozen_counts({}),
            unmarked=0,
            armor_destroyed=None,
            newly_full=(),
            dropped=(),
            stop_moving=False,
            cannot_move=False,
            status_before=status_before,
            status_after=status(new, rules=rules),
            summary=summary,
        )
        return new, replace(nothing, **changes)

    if amount == 0:
        return report(c, f"{c.name} is hit on {where} for no damage.")

    if use_armor is not False:
        armor_index = _armor_for(c, loc, use_armor, rules)
        new, _ = destroy_item(c, armor_index, rules=rules)
        armor = c.items[armor_index]
        return report(
            new,
            f"{c.name}'s {armor.name} is destroyed instead of taking {amount} damage on {where}.",
            armor_destroyed=armor_index,
        )

    level = c.level - amount
    if less_lethal:
        new = _replace(c, level=level)
        return report(
            new,
            f"{c.name} takes {amount} less-lethal damage on {where}: "
            f"level {c.level} → {level}, no wounds marked."
            + _status_news(status_before, status(new, rules=rules), c.name),
        )

    wounds = dict(c.wounds)
    marked: dict[str, int] = {}
    remaining = amount
    overflow = rules.body.location(rules.body.overflow)
    for target in (loc, overflow) if loc.id != overflow.id else (loc,):
        room = target.boxes - len(wounds.get(target.id, ""))
        placed = min(room, remaining)
        if placed > 0:
            wounds[target.id] = wounds.get(target.id, "") + wound_mark.value * placed
            marked[target.id] = placed
            remaining -= placed
    full_before = set(full_locations(c, rules=rules))
    wounded = _replace(c, level=level, wounds=wounds)
    newly_full = tuple(
        loc_id for loc_id in full_locations(wounded, rules=rules) if loc_id not in full_before
    )

    # A disabled arm drops what its hand holds; a 2H item then leaves both hands.
    dropped: set[int] = set()
    right, left = c.right_hand, c.left_hand
    for loc_id in newly_full:
        hand = rules.body.location(loc_id).hand
        held = c.held(hand) if hand is not None else None
        if held is not None:
            dropped.add(held)
    right = None if right in dropped else right
    left = None if left in dropped else left
    new = _checked(_replace(wounded, right_hand=right, left_hand=left), rules)

    legs = [lo.id for lo in rules.body.locations if lo.penalty is Penalty.LEG]
    leg_filled = any(loc_id in legs for loc_id in newly_full)
    all_legs_full = all(leg in full_locations(new, rules=rules) for leg in legs)
    status_after = status(new, rules=rules)

    text = f"{c.name} takes {amount} damage to {where}: level {c.level} → {level}."
    if marked:
        text += f" Marked {_counts_text(marked, rules)}."
    if remaining:
        text += f" No box is left for {remaining} more."
    for index in sorted(dropped):
        text += f" {c.name} drops {c.items[index].name}."
    if leg_filled:
        text += f" {c.name} cannot move." if all_legs_full else f" {c.name} must stop moving."
    text += _status_news(status_before, status_after, c.name)
    return report(
        new,
        text,
        marked=_frozen_counts(marked),
        unmarked=remaining,
        newly_full=newly_full,
        dropped=tuple(sorted(dropped)),
        stop_moving=leg_filled,
        cannot_move=leg_filled and all_legs_full,
    )


def _status_news(before: Status, after: Status, name: str) -> str:
    if after is before or after is Status.FINE:
        return ""
    return f" {name} is {after.value}."


def _armor_for(c: Character, loc: HitLocation, use_armor: bool | int, rules: Rules) -> int:
    eligible = {loc.id}
    if _is_full(c, loc):  # the damage goes to the torso: armor there takes it
        eligible.add(rules.body.overflow)
    candidates = [
        i
        for i, it in enumerate(c.items)
        if rules.items.kind(it.kind).per_location and not it.destroyed and it.location in eligible
    ]
    if use_armor is True:
        if not candidates:
            raise RuleError(f"{c.name} has no intact armor on the {_lower(loc)}.")
        # Armor on the hit location itself first.
        return min(candidates, key=lambda i: (c.items[i].location != loc.id, i))
    index = _item_index(c, int(use_armor))
    if index not in candidates:
        raise RuleError(f"{c.items[index].name} is not intact armor on the {_lower(loc)}.")
    return index


# ---- First aid ------------------------------------------------------------------------------


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
    new = _checked(_replace(c, wounds=final), rules)
    status_before, status_after = status(c, rules=rules), status(new, rules=rules)
    parts = []
    if any(made_permanent.values()):
        parts.append(f"Made permanent (■): {_counts_text(_frozen_counts(made_permanent), rules)}.")
    if any(erased.values()):
        parts.append(f"Erased {_counts_text(_frozen_counts(erased), rules)}.")
    if any(crossed.values()):
        parts.append(f"\\ became X: {_counts_text(_frozen_counts(crossed), rules)}.")
    text = " ".join(parts) or "No marks changed."
    if status_after is not status_before:
        text += f" {c.name} is {status_after.value}."
    return new, FirstAidReport(
        erased=_frozen_counts(erased),
        crossed=_frozen_counts(crossed),
        made_permanent=_frozen_counts(made_permanent),
        status_before=status_before,
        status_after=status_after,
        summary=f"First aid on {c.name}: {text}",
    )


def _plan(plan: Mapping[str, int], rules: Rules) -> dict[str, int]:
    counts: dict[str, int] = {}
    for location_id, count in plan.items():
        rules.body.location(location_id)
        if count < 0:
            raise RuleError(f"A number of boxes is 0 or more, not {count}.")
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
    for name, die in (("boxes", boxes), ("additional locations", extra_locations)):
        if not 0 <= die <= 9:
            raise RuleError(f"The {name} die shows 0-9, not {die}.")
    counts = _plan(plan, rules)
    if sum(counts.values()) > boxes:
        raise RuleError(
            f"The first aid roll erases at most {boxes} boxes; the plan erases "
            f"{sum(counts.values())}."
        )
    if len(counts) > 1 + extra_locations:
        raise RuleError(
            f"The first aid roll reaches at most {1 + extra_locations} "
            f"location{'s' if extra_locations else ''}; the plan names {len(counts)}."
        )
    wounds = dict(c.wounds)
    for location_id, count in counts.items():
        available = wounds.get(location_id, "").count(Mark.SLASH.value)
        if count > available:
            loc = rules.body.location(location_id)
            raise RuleError(
                f"{c.name}'s {_lower(loc)} has {available} \\ mark"
                f"{'' if available == 1 else 's'} to erase, not {count}."
            )
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
        raise RuleError(f"A critical failure's die reads 1-10, not {die}.")
    counts = _plan(converted, rules)
    crosses = sum(marks.count(Mark.CROSS.value) for marks in c.wounds.values())
    due = min(die, crosses)
    if sum(counts.values()) != due:
        reason = f"the die shows {die}" if die <= crosses else f"there are only {crosses} X marks"
        raise RuleError(
            f"{due} X mark{'' if due == 1 else 's'} must become ■ ({reason}); "
            f"the choice makes {sum(counts.values())}."
        )
    wounds = dict(c.wounds)
    for location_id, count in counts.items():
        available = wounds.get(location_id, "").count(Mark.CROSS.value)
        if count > available:
            loc = rules.body.location(location_id)
            raise RuleError(f"{c.name}'s {_lower(loc)} has {available} X marks, not {count}.")
        wounds[location_id] = _replace_marks(wounds[location_id], Mark.CROSS, Mark.PERMANENT, count)
    return _first_aid_result(c, wounds, erased={}, made_permanent=counts, rules=rules)


# ---- Surrender, recovery, advancement -------------------------------------------------------


def surrender(c: Character, *, rules: Rules) -> tuple[Character, SurrenderReport]:
    """The character out of the fight: level 0, effectively unconscious."""
    current = status(c, rules=rules)
    if current is Status.DEAD:
        raise RuleError(f"{c.name} is dead and cannot surrender.")
    if current is Status.SURRENDERED:
        raise RuleError(f"{c.name} has already surrendered.")
    new = _checked(_replace(c, level=0, surrendered=True), rules)
    text = f"{c.name} surrenders: level {c.level} → 0, out of the fight."
    return new, SurrenderReport(c.level, text)


def recover(c: Character, *, rules: Rules) -> tuple[Character, RecoveryReport]:
    """The character after recovery: level back to max, ``\\`` and X erased (■ stays),
    surrender over, and every destroyed item replaced (its slot refilled).

    >>> from data import load_rules
    >>> rules = load_rules()
    >>> ana = Character(name="Ana", level=12, max_level=50, wounds={"head": "■X\\\\"})
    >>> ana, report = recover(ana, rules=rules)
    >>> ana.level, dict(ana.wounds), report.erased["head"]
    (50, {'head': '■'}, 2)
    """
    if status(c, rules=rules) is Status.DEAD:
        raise RuleError(f"{c.name} is dead: recovery cannot bring them back.")
    wounds = {loc: marks.replace("\\", "").replace("X", "") for loc, marks in c.wounds.items()}
    erased = {loc: len(c.wounds[loc]) - len(wounds[loc]) for loc in c.wounds}
    restored = tuple(i for i, it in enumerate(c.items) if it.destroyed)
    items = tuple(it.model_copy(update={"destroyed": False}) for it in c.items)
    new = _checked(
        _replace(c, level=c.max_level, wounds=wounds, items=items, surrendered=False), rules
    )
    text = f"{c.name} recovers: level {c.level} → {new.level}"
    if any(erased.values()):
        text += f", {sum(erased.values())} wounds erased"
    if restored:
        text += f", {', '.join(c.items[i].name for i in restored)} replaced"
    return new, RecoveryReport(c.level, new.level, _frozen_counts(erased), restored, text + ".")


def advance(c: Character) -> tuple[Character, AdvanceReport]:
    """The character after a session whose goal was met: max level +1, never above 99.

    >>> ana, report = advance(Character.new("Ana", level=54))
    >>> ana.max_level, ana.level, report.new_slot, report.summary
    (55, 54, True, 'Ana advances to max level 55 and gains an item slot (6 now).')
    """
    if c.max_level >= MAX_LEVEL:
        text = f"{c.name} is at max level {MAX_LEVEL}, the highest there is."
        return c, AdvanceReport(c.max_level, c.max_level, False, False, text)
    new = _replace(c, max_level=c.max_level + 1)
    new_slot = slots(new) > slots(c)
    new_ability = ability_limit(new) > ability_limit(c)
    text = f"{c.name} advances to max level {new.max_level}"
    if new_slot:
        text += f" and gains an item slot ({slots(new)} now)"
    if new_ability:
        text += f" and may choose another ability ({ability_limit(new)} now)"
    return new, AdvanceReport(c.max_level, new.max_level, new_slot, new_ability, text + ".")
