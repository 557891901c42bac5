"""Saying a message in a language: gettext's lookup in the language's catalogue (its plural
forms are CLDR's, as Babel wrote them in the catalogue's header), then the arguments put in.

>>> from engine.phrases import phrase
>>> render(phrase("{name} waits.", name="Ana"), "en")
'Ana waits.'
>>> render("Round 2.", "en")
'Round 2.'
"""

from __future__ import annotations

import functools

from bot.i18n.catalogues import CATALOGUES, SOURCE, Catalogues
from engine.phrases import CONTEXT_SEPARATOR, Phrase

__all__ = ["N_", "render", "translated"]


#: How many said texts are kept: a step says a few dozen, most of them again at the next step
#: (the board's words, the buttons, the same fighters' names); a few hundred kilobytes.
KEPT_SAID = 4096


@functools.lru_cache(maxsize=KEPT_SAID)
def render(text: Phrase | str, language: str, catalogues: Catalogues = CATALOGUES) -> str:
    """``text`` in ``language`` (a catalogue's name, :mod:`bot.i18n.languages`): a plain
    string is looked up as it is; a phrase's nested phrases are rendered in the same language
    and its names and numbers put in as they are. What is said is kept (the catalogues are
    read once and a phrase is an immutable value, so the same text reads the same)."""
    if language == SOURCE:  # (the source's words as written: nothing to look up)
        return text if isinstance(text, str) else text.english()
    translations = catalogues.translations(language)
    if isinstance(text, str):
        return translations.gettext(text) if text else text
    arguments = {}  # (a loop, not a comprehension: one Python call fewer a phrase)
    for name, value in text.arguments:
        arguments[name] = (render(value, language, catalogues) if isinstance(value, Phrase)
                           else value)
    if text.msgid_plural is None:
        source = translations.gettext(text.msgid)
    else:
        source = translations.ngettext(text.msgid, text.msgid_plural, text.plural_count())
    if CONTEXT_SEPARATOR in source:  # (a message with a context the catalogue lacks)
        source = source.partition(CONTEXT_SEPARATOR)[2]
    return source.format_map(arguments)


def translated(message: str, language: str) -> str:
    """``message`` (a literal: ``pybabel extract`` reads it here) in ``language``."""
    return render(message, language)


def N_(message: str) -> str:
    """Marks a literal for the catalogue without translating it here: a constant, a command's
    description, rendered later in its reader's language."""
    return message

