r"""The pseudo-locale ``en_XA``: every message of the template wrapped in ``⟦…⟧``, its letters
accented and about 30% longer, its placeholders and `code` (command names) kept as they are.
A test run in it shows English that never went through a catalogue (:func:`bot.i18n.checks.
untranslated`) and text that does not fit German's longer words.

``python -m bot.i18n pseudo bot/locale/unhex.pot bot/locale/en_XA/LC_MESSAGES/unhex.po``
(``make`` does it) writes it from the template.

>>> pseudo_text("{name} hits `/attack`!")
'⟦{name} ĥíţš `/attack`!~~~~~~~⟧'
>>> plain_text("Ana: ⟦{name} ĥíţš `/attack`!~~~~~~~⟧ ⟦Ŕóúñđ 2.\\~\\~⟧")
'Ana: {name} hits `/attack`! Round 2.'
"""

from __future__ import annotations

import math
import re
from pathlib import Path
from string import Formatter

from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po, write_po

__all__ = ["plain_text", "pseudo_catalog", "pseudo_text", "write_pseudo"]

_ACCENTED = str.maketrans("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ",
                          "áƀçđéƒĝĥíĵķĺɱñóþǫŕšţúṽŵẋýžÁƁÇĐÉƑĜĤÍĴĶĹṀÑÓÞǪŔŠŢÚṼŴẊÝŽ")
_PLAIN = {accented: plain for plain, accented in _ACCENTED.items()}
#: A pseudo message's end: its padding (Markdown-escaped too) and closing bracket.
_PSEUDO_END = re.compile(r"(?:\\?~)*⟧")
#: How much longer a pseudo message is than its source (German runs about a third longer).
LONGER = 0.3


def _accented(literal: str, in_code: bool) -> tuple[str, bool]:
    """Every letter outside `code` accented, braces escaped again for ``str.format``; and
    whether the literal ends inside `code`."""
    parts = literal.split("`")
    accented = [part if (index % 2 == 1) != in_code else part.translate(_ACCENTED)
                for index, part in enumerate(parts)]
    ends_in_code = in_code != (len(parts) % 2 == 0)
    return "`".join(accented).replace("{", "{{").replace("}", "}}"), ends_in_code


def pseudo_text(source: str) -> str:
    """``source`` in the pseudo-locale (its ``{fields}`` as they are)."""
    if not source:
        return source
    pieces = []
    in_code = False
    for literal, field, spec, conversion in Formatter().parse(source):
        accented, in_code = _accented(literal, in_code)
        pieces.append(accented)
        if field is not None:
            pieces.append("{" + field + (f"!{conversion}" if conversion else "")
                          + (f":{spec}" if spec else "") + "}")
    padding = "~" * math.ceil(len(source) * LONGER)
    return f"⟦{''.join(pieces)}{padding}⟧"


def plain_text(text: str) -> str:
    """The English a pseudo-locale ``text`` was made from: what is inside ``⟦…⟧`` back to
    plain letters, brackets and padding gone (a source's own ``~`` right before its end goes
    too). A harness that plays in the pseudo-locale shows tests this, so their English
    assertions and clicks by label still hold."""
    if "⟦" not in text:
        return text
    plain = []
    depth = 0
    for piece in re.split(r"(⟦|(?:\\?~)*⟧)", text):
        if piece == "⟦":
            depth += 1
        elif _PSEUDO_END.fullmatch(piece):
            depth = max(depth - 1, 0)
        else:
            plain.append(piece.translate(_PLAIN) if depth else piece)
    return "".join(plain)


def pseudo_catalog(template: Catalog) -> Catalog:
    """The pseudo-locale's catalogue: every entry of ``template`` translated."""
    catalog = Catalog(locale="en", domain=template.domain, project=template.project,
                      fuzzy=False)
    for message in template:
        if not message.id:
            continue  # the header
        if isinstance(message.id, tuple | list):
            singular, plural = message.id[0], message.id[1]
            string: str | tuple[str, ...] = (pseudo_text(singular), pseudo_text(plural))
        else:
            string = pseudo_text(message.id)
        catalog.add(message.id, string, locations=message.locations,
                    context=message.context, flags=message.flags - {"fuzzy"})
    return catalog


def write_pseudo(template_path: Path, output_path: Path) -> None:
    """Write the pseudo-locale's catalogue made from the template at ``template_path``."""
    with template_path.open("rb") as template:
        catalog = pseudo_catalog(read_po(template))
    output_path.parent.mkdir(parents=True, exist_ok=True)
    with output_path.open("wb") as output:
        write_po(output, catalog, width=100)

