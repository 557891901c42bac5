"""How the reports name things: a location in lower case, "a shield", "2 on the head".

No rulebook heading of its own: the wording every rule's summary shares.

>>> from data import load_rules
>>> counts_text({"head": 2, "right_arm": 1}, load_rules())
'2 on the head and 1 on the right arm'
"""

from __future__ import annotations

from collections.abc import Mapping

from engine.catalog import HitLocation, ItemKind, Rules
from engine.character._index import rules_index

__all__ = ["counts_text", "location_name", "with_article"]


def with_article(kind: ItemKind) -> str:
    """The kind's name in lower case after "a" or "an": "a shield", "an armor"."""
    name = kind.name.lower()
    if name.startswith(("a", "e", "i", "o", "u")):
        return f"an {name}"
    return f"a {name}"


def location_name(loc: HitLocation) -> str:
    """The location's name as a sentence uses it: "right arm"."""
    return loc.name.lower()


def counts_text(counts: Mapping[str, int], rules: Rules) -> str:
    """Counts per location id in words: "2 on the head and 1 on the right arm"."""
    lookup = rules_index(rules)
    return " and ".join(
        f"{n} on the {location_name(lookup.location(loc))}" for loc, n in counts.items()
    )
