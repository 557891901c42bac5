"""The rules data looked up by id, built once per `Rules` object.

No rulebook heading of its own. The catalogs keep hit locations, item kinds and abilities in
tuples, in the book's order, so every lookup by id is a scan; one hit in a fight makes dozens of
them (the location, the overflow, each item's kind, the legs, the arms, the vital locations).
The index answers them from dictionaries and precomputed tuples, and lets an unknown id fall
through to the catalog, so the error a player sees stays the catalog's own.

>>> from data import load_rules
>>> rules = load_rules()
>>> index = rules_index(rules)
>>> index is rules_index(rules), index.location("torso").boxes, index.for_die(9).id
(True, 9, 'head')
>>> [loc.id for loc in index.vital], [loc.id for loc in index.legs], index.overflow.id
(['head', 'torso'], ['right_leg', 'left_leg'], 'torso')
>>> index.location("tail")
Traceback (most recent call last):
...
engine.errors.RuleError: There is no hit location called 'tail'; the locations are head (`head`), right arm (`right_arm`), left arm (`left_arm`), torso (`torso`), right leg (`right_leg`), left leg (`left_leg`).
"""  # noqa: E501

from __future__ import annotations

import weakref
from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType

from engine.catalog import (
    Ability,
    AbilityCatalog,
    BodyPlan,
    Hand,
    HitLocation,
    ItemCatalog,
    ItemKind,
    Penalty,
    Rules,
)


@dataclass(frozen=True, slots=True)
class RulesIndex:
    """One `Rules` object's locations, item kinds and abilities by id, and the body's groups."""

    body: BodyPlan
    items: ItemCatalog
    abilities: AbilityCatalog
    locations: Mapping[str, HitLocation]
    faces: Mapping[int, HitLocation]
    kinds: Mapping[str, ItemKind]
    ability_ids: Mapping[str, Ability]
    vital: tuple[HitLocation, ...]  # penalty UNCONSCIOUS: head and torso
    legs: tuple[HitLocation, ...]  # the body plan's legs, computed once
    arms: Mapping[Hand, HitLocation]  # the arm that works each hand
    overflow: HitLocation

    @classmethod
    def of(cls, rules: Rules) -> RulesIndex:
        """The index of ``rules``, built afresh (`rules_index` keeps one per Rules object)."""
        body = rules.body
        return cls(
            body=body,
            items=rules.items,
            abilities=rules.abilities,
            locations=MappingProxyType({loc.id: loc for loc in body.locations}),
            faces=MappingProxyType({face: loc for loc in body.locations for face in loc.dice}),
            kinds=MappingProxyType({kind.id: kind for kind in rules.items.kinds}),
            ability_ids=MappingProxyType({a.id: a for a in rules.abilities.abilities}),
            vital=tuple(loc for loc in body.locations if loc.penalty is Penalty.UNCONSCIOUS),
            legs=body.legs,
            arms=MappingProxyType(
                {loc.hand: loc for loc in body.locations if loc.hand is not None}
            ),
            overflow=body.location(body.overflow),
        )

    def location(self, location_id: str) -> HitLocation:
        """The hit location with this id; an unknown one gets the body plan's RuleError."""
        found = self.locations.get(location_id)
        return found if found is not None else self.body.location(location_id)

    def for_die(self, die: int) -> HitLocation:
        """The location a hit-location die selects; another number gets the body plan's error."""
        found = self.faces.get(die)
        return found if found is not None else self.body.for_die(die)

    def kind(self, kind_id: str) -> ItemKind:
        """The item kind with this id; an unknown one gets the item catalog's RuleError."""
        found = self.kinds.get(kind_id)
        return found if found is not None else self.items.kind(kind_id)

    def ability(self, ability_id: str) -> Ability:
        """The ability with this id; an unknown one gets the ability catalog's RuleError."""
        found = self.ability_ids.get(ability_id)
        return found if found is not None else self.abilities.ability(ability_id)


# One index per live Rules object, by identity: hashing a Rules model would hash the whole
# catalog on every lookup. An entry goes when its Rules object is freed, before its id can be
# reused, and the weak reference is checked all the same.
_INDEXES: dict[int, tuple[weakref.ref[Rules], RulesIndex]] = {}


def rules_index(rules: Rules) -> RulesIndex:
    """The index of ``rules``, built on first use and kept while ``rules`` lives."""
    key = id(rules)
    entry = _INDEXES.get(key)
    if entry is not None and entry[0]() is rules:
        return entry[1]
    index = RulesIndex.of(rules)
    _INDEXES[key] = (weakref.ref(rules, lambda _: _INDEXES.pop(key, None)), index)
    return index
