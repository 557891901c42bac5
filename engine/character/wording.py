"""How the reports name things, as phrases: "a shield", "2 on the head", "Ana is dead.".

No rulebook heading of its own: the wording every rule's summary shares.

>>> from data import load_rules
>>> counts_phrase({"head": 2, "right_arm": 1}, load_rules()).english()
'2 on the head and 1 on the right arm'
>>> rules = load_rules()
>>> [with_article(rules.items.kind(k)).english() for k in ("armor", "shield")]
['an armor', 'a shield']
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from engine.catalog import ItemKind, Rules
from engine.character._index import rules_index
from engine.character.condition import Status
from engine.listing import chained
from engine.phrases import Phrase, Said, phrase

__all__ = ["counts_phrase", "sentences_phrase", "status_sentence", "with_article",
           "with_capital_article"]


def with_article(kind: ItemKind) -> Phrase:
    """The kind's name in lower case after "a" or "an": "a shield", "an armor" (a language
    with genders says the kind its own way)."""
    name = kind.said_lower
    if _takes_an(kind):
        # Translators: an item's kind after the article "an" ("an armor").
        return phrase("an {kind}", kind=name)
    # Translators: an item's kind after the article "a" ("a shield").
    return phrase("a {kind}", kind=name)


def with_capital_article(kind: ItemKind) -> Phrase:
    """:func:`with_article` opening a sentence: "A shield", "An armor"."""
    name = kind.said_lower
    if _takes_an(kind):
        # Translators: an item's kind after the article "An", opening a sentence.
        return phrase("An {kind}", kind=name)
    # Translators: an item's kind after the article "A", opening a sentence.
    return phrase("A {kind}", kind=name)


def _takes_an(kind: ItemKind) -> bool:
    return kind.name.lower().startswith(("a", "e", "i", "o", "u"))


def counts_phrase(counts: Mapping[str, int], rules: Rules) -> Said:
    """Counts per location id in words: "2 on the head and 1 on the right arm"."""
    lookup = rules_index(rules)
    said: list[Said] = [
        # Translators: marks made on a hit location ("2 on the head").
        phrase("{count} on the {location}", count=n, location=lookup.location(loc).said_lower)
        for loc, n in counts.items()
    ]
    return chained(said, lambda first, last: phrase("{first} and {last}", first=first,
                                                    last=last))


def sentences_phrase(sentences: Sequence[Said]) -> Said:
    """Sentences one after another, a space between them."""
    return chained(sentences, lambda first, second: phrase("{first} {second}", first=first,
                                                           second=second))


def status_sentence(name: str, now: Status) -> Phrase:
    """How a character stands now: "Ana is unconscious."."""
    if now is Status.FINE:
        return phrase("{fighter} is fine.", fighter=name)
    if now is Status.UNCONSCIOUS:
        return phrase("{fighter} is unconscious.", fighter=name)
    if now is Status.SURRENDERED:
        return phrase("{fighter} is surrendered.", fighter=name)
    return phrase("{fighter} is dead.", fighter=name)
