"""What the engine says, as values the bot renders in a language: the engine never translates.

A :class:`Phrase` is an English source sentence with ``{named}`` placeholders, exactly as the
catalogues look it up (its ``msgid``), and its arguments: a ``str`` is put in as it is (a
fighter's name is never translated), an ``int`` too, and a nested :class:`Phrase` is rendered
in the same language first (a body part, a weapon's kind). A plural phrase also carries the
plural source and names the argument that counts.

``pybabel extract`` finds the sources through the constructors' first arguments (the keywords
``phrase`` and ``plural_phrase:1,2``, see the Makefile's ``catalogues``), so a phrase is always
written with a literal source:

>>> hit = phrase("{attacker} hits {target} in the {part}.", attacker="Ana", target="Goon",
...              part=phrase("head"))
>>> hit.english()
'Ana hits Goon in the head.'
>>> Phrase.from_json(hit.to_json()) == hit
True
>>> plural_phrase("{count} round", "{count} rounds", "count", count=2).english()
'2 rounds'
"""

from __future__ import annotations

from collections.abc import Mapping
from operator import itemgetter
from typing import TYPE_CHECKING, Any, TypeAlias

__all__ = ["CONTEXT_SEPARATOR", "COPIES", "Argument", "Phrase", "Said", "english", "phrase",
           "phrase_in", "plural_phrase", "said_from_json", "said_to_json"]

#: Between a message's context and its source, as gettext keys a message with a context
#: (``msgctxt``): ``"a roll\x04counterattack"``.
CONTEXT_SEPARATOR = "\x04"

#: What a phrase's placeholder may stand for.
Argument: TypeAlias = "str | int | Phrase"


class Phrase(tuple[str, tuple[tuple[str, "Argument"], ...], str | None, str | None]):
    """A sentence (or a word) to say in the reader's language. ``arguments``: (name, value)
    pairs in the order given; ``msgid_plural`` and ``count_name`` together, or neither.

    An immutable tuple underneath (its fields by name below), so that making, hashing and
    comparing one — a step makes and says a few dozen — runs in C; the bot keeps what phrases
    read in a cache keyed by the phrase itself."""

    __slots__ = ()

    def __new__(cls, msgid: str, arguments: tuple[tuple[str, Argument], ...] = (),
                msgid_plural: str | None = None, count_name: str | None = None) -> Phrase:
        return tuple.__new__(cls, (msgid, arguments, msgid_plural, count_name))

    def __getnewargs__(self) -> tuple[Any, ...]:  # (copy and pickle make it anew)
        return tuple(self)

    def __repr__(self) -> str:
        return (f"Phrase(msgid={self.msgid!r}, arguments={self.arguments!r}, "
                f"msgid_plural={self.msgid_plural!r}, count_name={self.count_name!r})")

    if TYPE_CHECKING:  # (what the fields are, for the type checker)
        @property
        def msgid(self) -> str: ...
        @property
        def arguments(self) -> tuple[tuple[str, Argument], ...]: ...
        @property
        def msgid_plural(self) -> str | None: ...
        @property
        def count_name(self) -> str | None: ...
    else:  # (read in C)
        msgid = property(itemgetter(0), doc="The English source, as catalogues look it up.")
        arguments = property(itemgetter(1), doc="The (name, value) pairs put in.")
        msgid_plural = property(itemgetter(2), doc="The plural's English source, if any.")
        count_name = property(itemgetter(3), doc="The argument whose number picks the plural.")

    def with_arguments(self, arguments: tuple[tuple[str, Argument], ...]) -> Phrase:
        """The same phrase saying other arguments."""
        return Phrase(self.msgid, arguments, self.msgid_plural, self.count_name)

    def plural_count(self) -> int:
        """The number that chooses a plural phrase's form."""
        for name, value in self.arguments:
            if name == self.count_name and isinstance(value, int):
                return value
        raise ValueError(f"{self.msgid!r} has no int argument {self.count_name!r}")

    def english(self) -> str:
        """The phrase in its source language, English's plural rule applied (for logs, tests
        and anyone without a catalogue)."""
        source, arguments, plural, _ = self
        if CONTEXT_SEPARATOR in source:
            source = source.partition(CONTEXT_SEPARATOR)[2]
        if not arguments and "{" not in source:
            return source  # (a word or a sentence without placeholders: as it is)
        if plural is not None and self.plural_count() != 1:
            source = plural
        values = {}  # (a loop, not a comprehension: a step says dozens of phrases)
        for name, value in arguments:
            values[name] = value.english() if isinstance(value, Phrase) else value
        return source.format_map(values)

    def to_json(self) -> dict[str, Any]:
        """The phrase as JSON's values: ``{"phrase": msgid, "args": {name: value}}``, a
        nested phrase as such an object, and ``plural`` and ``count`` for a plural phrase."""
        msgid, arguments, plural, count_name = self
        data: dict[str, Any] = {"phrase": msgid}
        if arguments:
            values = data["args"] = {}
            for name, value in arguments:
                values[name] = value.to_json() if isinstance(value, Phrase) else value
        if plural is not None:
            data["plural"] = plural
            data["count"] = count_name
        return data

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Phrase:
        """The phrase :meth:`to_json` gave; ValueError for anything else."""
        msgid = data.get("phrase")
        plural = data.get("plural")
        count_name = data.get("count")
        arguments = data.get("args", {})
        if (not isinstance(msgid, str) or not isinstance(arguments, Mapping)
                or (plural is None) != (count_name is None)
                or not isinstance(plural, str | None) or not isinstance(count_name, str | None)
                or not set(data) <= {"phrase", "args", "plural", "count"}):
            raise ValueError(f"not a phrase: {data!r}")
        return cls(msgid, tuple((str(name), _argument(value))
                                for name, value in arguments.items()), plural, count_name)

    @classmethod
    def __get_pydantic_core_schema__(cls, source: Any, handler: Any) -> Any:
        """A pydantic model's field may be a phrase: validated from a phrase or its JSON
        object, dumped as its JSON object (pydantic is imported only when a model asks)."""
        from pydantic_core import core_schema

        def validated(value: Any) -> Phrase:
            if isinstance(value, Phrase):
                return value
            if isinstance(value, Mapping):
                return cls.from_json(value)
            raise ValueError("a phrase is an object with its source under 'phrase'")

        return core_schema.no_info_plain_validator_function(
            validated, serialization=core_schema.plain_serializer_function_ser_schema(
                Phrase.to_json))


def _argument(value: Any) -> Argument:
    if isinstance(value, Mapping):
        return Phrase.from_json(value)
    if isinstance(value, str) or (isinstance(value, int) and not isinstance(value, bool)):
        return value
    raise ValueError(f"a phrase's argument is a str, an int or a phrase, not {value!r}")


def phrase(msgid: str, /, **arguments: Argument) -> Phrase:
    """A phrase: ``phrase("{attacker} hits {target}.", attacker=..., target=...)``."""
    return _new_tuple(Phrase, (msgid, tuple(arguments.items()), None, None))


_new_tuple = tuple.__new__  # (the constructors' fast path: no Python-level __new__)


def phrase_in(context: str, msgid: str, /, **arguments: Argument) -> Phrase:
    """A phrase whose English words say something else elsewhere, told apart by ``context``
    (gettext's ``msgctxt``; ``pybabel extract -k phrase_in:1c,2``), so a language may say
    each its own way: ``phrase_in("a roll", "counterattack")``, a noun, beside the verb
    ``phrase("counterattack")``. English reads ``msgid``."""
    return _new_tuple(Phrase, (context + CONTEXT_SEPARATOR + msgid, tuple(arguments.items()),
                               None, None))


def plural_phrase(singular: str, plural: str, count_name: str, /,
                  **arguments: Argument) -> Phrase:
    """A phrase whose form follows the number ``arguments[count_name]`` in the reader's
    language: ``plural_phrase("{n} round", "{n} rounds", "n", n=rounds)``."""
    if not isinstance(arguments.get(count_name), int):
        raise ValueError(f"{singular!r} counts {count_name!r}, which is not an int argument")
    return Phrase(singular, tuple(arguments.items()), plural, count_name)


#: The count argument of a phrase said of a numbered copy that reads differently of several:
#: ``plural_phrase("{name} does not defend.", "{name} do not defend.", COPIES, name=...,
#: copies=1)``; folding copies alike into one line (``engine.combat.alike``) counts them.
COPIES = "copies"

#: What the engine says: a phrase, or a plain string (a name, or what older logs kept).
Said: TypeAlias = "Phrase | str"


def english(said: Said) -> str:
    """What ``said`` reads in English (a plain string as it is)."""
    return said if isinstance(said, str) else said.english()


def said_to_json(said: Said) -> str | dict[str, Any]:
    """``said`` as JSON's values: a string as it is, a phrase as its object."""
    return said if isinstance(said, str) else said.to_json()


def said_from_json(data: Any) -> Said:
    """What :func:`said_to_json` gave, read back."""
    return data if isinstance(data, str) else Phrase.from_json(data)
