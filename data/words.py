"""The words of the rules data that players read, for the catalogues: ``pybabel extract`` reads
them from the TOML files through :func:`extract_words` (babel.cfg names it), so a translator
sees each hit location's, item kind's and ability's name where it is written.

The engine says them as phrases whose source is the data's own text (``engine.catalog``:
``HitLocation.said_name`` and the like); the bot renders them in the reader's language.

>>> import io
>>> words = extract_words(io.BytesIO(b'[[locations]]\\nname = "Head"\\nshort = "Head"\\n'),
...                       (), (), {})
>>> [(line, text) for line, _, text, _ in words]
[(2, 'Head'), (2, 'head'), (3, 'Head')]
"""

from __future__ import annotations

import tomllib
from collections.abc import Collection, Iterator, Mapping
from typing import IO, Any

__all__ = ["SAID_FIELDS", "extract_words"]

#: Per table of the data files, the fields players read (the rest are ids, numbers, or the
#: rulebook's full text, which the bot does not show).
SAID_FIELDS: Mapping[str, tuple[str, ...]] = {
    "locations": ("name", "short"),
    "kinds": ("name", "short", "examples"),
    "abilities": ("group", "name", "brief"),
}

_NOTES = {
    ("locations", "name"): "a hit location",
    ("locations", "short"): "a hit location on the sheet's body figure (at most 10 columns)",
    ("kinds", "name"): "a kind of combat item",
    ("kinds", "short"): "a kind of combat item, short (at most 12 columns)",
    ("kinds", "examples"): "an example of an item of this kind",
    ("abilities", "group"): "a heading of the rulebook's abilities",
    ("abilities", "name"): "an ability's name within its heading",
    ("abilities", "brief"): "an ability's rule on the sheet and in menus (at most 37 columns)",
}


def _line_of(lines: list[str], start: int, field: str, text: str) -> int:
    """The 1-based line, from ``start``, where ``field`` is given ``text`` (``start`` if not
    found: a value over several lines)."""
    for number in range(start, len(lines)):
        if lines[number].lstrip().startswith(field) and text in lines[number]:
            return number + 1
    return start + 1


def extract_words(fileobj: IO[bytes], keywords: Collection[str], comment_tags: Collection[str],
                  options: Mapping[str, Any]) -> Iterator[tuple[int, str | None, str, list[str]]]:
    """Babel's extraction method for a rules data file: each field players read, with a
    translator's note saying what it is (a hit location's name also in lower case, as a
    sentence says it: "the right arm", and an item kind's: "a shield")."""
    source = fileobj.read().decode("utf-8")
    lines = source.splitlines()
    data = tomllib.loads(source)
    cursor = 0
    for table, fields in SAID_FIELDS.items():
        for row in data.get(table, ()):
            for field in fields:
                values = row.get(field, ())
                for text in [values] if isinstance(values, str) else values:
                    if not text:
                        continue
                    line = _line_of(lines, cursor, field, text)
                    cursor = line - 1
                    note = [f"Translators: {_NOTES[table, field]}"]
                    yield line, None, text, note
                    if (table, field) == ("locations", "name"):
                        yield line, None, text.lower(), [
                            "Translators: a hit location as a sentence says it"]
                    if (table, field) == ("kinds", "name"):
                        yield line, None, text.lower(), [
                            "Translators: a kind of combat item as a sentence says it"]
