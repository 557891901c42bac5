"""Custom ids spelled once: a persistent button's, menu's or form's custom id is a prefix and
named fields of known shapes, joined by colons. One :class:`CustomId` gives both the regex
that a press or a submit is matched against and the ids the bot builds, so the two cannot
drift apart (a button already posted, or a form left open, keeps working only while its id
still matches)."""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass, replace

__all__ = [
    "ID_LIMIT", "CustomId", "IdField", "any_text", "choice", "digits", "eight_hex", "either",
    "hex_token", "optional", "word",
]

#: The most characters Discord keeps in a component's custom id.
ID_LIMIT = 100


@dataclass(frozen=True)
class IdField:
    """One field of a custom id: its name, the regex its text matches (no groups of its own)
    and a few values of that shape (what the tests build ids from)."""

    name: str
    shape: str
    examples: tuple[str, ...]
    #: Left out, colon and all, when it has no value: only the last fields may be.
    optional: bool = False

    @property
    def regex(self) -> str:
        group = f"(?P<{self.name}>{self.shape})"
        return f"(?::{group})?" if self.optional else f":{group}"


def digits(name: str, most: int | None = None, *, blank: bool = False,
           signed: bool = False) -> IdField:
    """A whole number in ASCII digits (at most ``most`` of them; ``blank``: or nothing;
    ``signed``: a minus sign allowed)."""
    count = "+" if most is None else f"{{1,{most}}}"
    shape = ("-?" if signed else "") + "[0-9]" + count
    longest = "9" * (most or 18)
    examples = ("0", "12", longest, *(["-1"] if signed else []))
    if blank:
        return IdField(name, f"(?:{shape})?", ("", *examples))
    return IdField(name, shape, examples)


def choice(name: str, *words: str) -> IdField:
    """One of ``words``."""
    return IdField(name, "|".join(re.escape(w) for w in words), words)


def word(name: str) -> IdField:
    """Lowercase letters and underscores (an engine's name for a kind of thing)."""
    return IdField(name, "[a-z_]+", ("a", "aoe_damage"))


def eight_hex(name: str = "stamp") -> IdField:
    """Eight hex digits (:func:`bot.components.identity_stamp`)."""
    return IdField(name, "[0-9a-f]{8}", ("0badf00d",))


def hex_token(name: str = "nonce") -> IdField:
    """Hex digits, as many as given: a random token that makes each form opened its own id
    (``secrets.token_hex``)."""
    return IdField(name, "[0-9a-f]+", ("0badf00d", "0123456789abcdef"))


def any_text(name: str) -> IdField:
    """Any text, colons and line breaks too: the last field, so that those before it read
    back the same."""
    return IdField(name, "(?s:.*)", ("", "Old docks: east\nside"))


def optional(field: IdField) -> IdField:
    """``field``, left out of the id when its value is None."""
    return replace(field, optional=True)


class CustomId:
    """``prefix:field:field…``: the regex of such ids (:attr:`template`, for ``DynamicItem``
    or a form's submit) and the id of given values (:meth:`format`)."""

    def __init__(self, prefix: str, *fields: IdField) -> None:
        given = [f.optional for f in fields]
        if given != sorted(given):
            raise ValueError(f"{prefix} ids: only the last fields may be optional")
        self.prefix = prefix
        self.fields = fields
        self._names = tuple(f.name for f in fields)  # (worked out once: a prompt makes many)
        self.template = re.compile(re.escape(prefix) + "".join(f.regex for f in fields))

    def format(self, **values: object) -> str:
        """The id of ``values`` (one per field; None leaves an optional field out). Refuses
        values that would not read back the same, or an id longer than Discord keeps."""
        names = self._names
        if len(values) != len(names) or not values.keys() >= set(names):
            raise ValueError(f"{self.prefix} ids take {list(names)}, not {sorted(values)}")
        texts = {name: None if values[name] is None else str(values[name]) for name in names}
        custom_id = ":".join([self.prefix, *[t for t in texts.values() if t is not None]])
        match = self.template.fullmatch(custom_id)
        if match is None or match.groupdict() != texts or len(custom_id) > ID_LIMIT:
            raise ValueError(f"{custom_id!r} is not a {self.prefix} id of {texts}")
        return custom_id

    def examples(self) -> list[str]:
        """Ids of every mix of the fields' example values (optional fields left out too)."""
        choices = [(*f.examples, None) if f.optional else f.examples for f in self.fields]
        found = []
        for picked in itertools.product(*choices):
            present = [value is not None for value in picked]
            if present != sorted(present, reverse=True):
                continue  # an optional field left out before one given: not an id
            found.append(self.format(**dict(zip([f.name for f in self.fields], picked,
                                                strict=True))))
        return found


def either(*specs: CustomId) -> re.Pattern[str]:
    """The regex of the ids any of ``specs`` builds (one form, opened in several ways): each
    field's group is None where another spec's id matched."""
    return re.compile("|".join(f"(?:{spec.template.pattern})" for spec in specs))
