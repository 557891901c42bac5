"""How the reports name things: a location in lower case, "a shield", "2 on the head".

No rulebook heading of its own: the wording every rule's summary shares.

>>> from data import load_rules
>>> _counts_text({"head": 2, "right_arm": 1}, load_rules())
'2 on the head and 1 on the right arm'
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from engine.catalog import HitLocation, ItemKind, Rules
from engine.character._index import rules_index


def _a(kind: ItemKind) -> str:
    name = kind.name.lower()
    if name.startswith(("a", "e", "i", "o", "u")):
        return f"an {name}"
    return f"a {name}"


def _lower(loc: HitLocation) -> str:
    return loc.name.lower()


def _counts_text(counts: Mapping[str, int], rules: Rules) -> str:
    lookup = rules_index(rules)
    return " and ".join(f"{n} on the {_lower(lookup.location(loc))}" for loc, n in counts.items())


def _frozen_counts(counts: Mapping[str, int]) -> Mapping[str, int]:
    return MappingProxyType({k: v for k, v in counts.items() if v})
