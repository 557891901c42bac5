"""The catalogues, loaded once: each language's gettext translations from bot/locale.

The template ``unhex.pot`` is extracted from the sources; each language's translator keeps
``<lang>/LC_MESSAGES/unhex.po``, and ``make`` compiles it into the ``unhex.mo`` read here. A
``.po`` without its ``.mo``, or newer than it (a translator's copy, a test run straight from a
checkout), is compiled in memory by Babel on loading: what is read is always the ``.po``'s.
English is the source language: it has no catalogue and every message stands as written.
The pseudo-locale is made from the template (:mod:`bot.i18n.pseudo`) when ``make`` has not
made it since the template last changed.
"""

from __future__ import annotations

import gettext
import logging
from io import BytesIO
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.support import Translations

from bot.i18n.pseudo import pseudo_catalog

__all__ = ["CATALOGUES", "DOMAIN", "LOCALE_FOLDER", "PSEUDO", "SOURCE", "Catalogues"]

log = logging.getLogger(__name__)

#: The gettext domain: the catalogues' file name.
DOMAIN = "unhex"
#: Where the template and the languages' folders are.
LOCALE_FOLDER = Path(__file__).resolve().parent.parent / "locale"
#: The language the sources are written in.
SOURCE = "en"
#: The pseudo-locale (:mod:`bot.i18n.pseudo`): made for the tests, offered to nobody.
PSEUDO = "en_XA"


def _translations(catalog: Catalog) -> gettext.NullTranslations:
    buffer = BytesIO()
    write_mo(buffer, catalog)  # fuzzy entries are left out, as pybabel compile does
    buffer.seek(0)
    return Translations(buffer, domain=DOMAIN)


def _newer(path: Path, than: Path) -> bool:
    return path.exists() and (not than.exists() or path.stat().st_mtime >= than.stat().st_mtime)


def _compiled(folder: Path) -> gettext.NullTranslations:
    """The translations in ``folder`` (a language's LC_MESSAGES), from the .mo when it is not
    older than the .po, else compiled from the .po now."""
    po = folder / f"{DOMAIN}.po"
    mo = folder / f"{DOMAIN}.mo"
    if _newer(mo, po):
        with mo.open("rb") as compiled:
            return Translations(compiled, domain=DOMAIN)
    log.debug("Compiling %s in memory (no .mo as new as it: `make catalogues`)", po)
    with po.open("rb") as source:
        return _translations(read_po(source, domain=DOMAIN))


def _pseudo(folder: Path) -> gettext.NullTranslations | None:
    """The pseudo-locale: as ``make`` left it if it is newer than the template, else made
    from the template now (None: no template)."""
    template = folder / f"{DOMAIN}.pot"
    made = folder / PSEUDO / "LC_MESSAGES"
    if _newer(made / f"{DOMAIN}.po", template):
        return _compiled(made)
    if not template.exists():
        return None
    with template.open("rb") as source:
        return _translations(pseudo_catalog(read_po(source, domain=DOMAIN)))


class Catalogues:
    """Every language's translations in ``folder``, read on the first use and kept."""

    def __init__(self, folder: Path = LOCALE_FOLDER) -> None:
        self.folder = folder
        self._loaded: dict[str, gettext.NullTranslations] | None = None
        self._spoken: dict[bool, tuple[str, ...]] = {}

    def load(self) -> dict[str, gettext.NullTranslations]:
        """Read every catalogue (once; the bot does it before its commands are synced)."""
        if self._loaded is None:
            found = sorted({path.parent.parent.name
                            for path in self.folder.glob(f"*/LC_MESSAGES/{DOMAIN}.[pm]o")}
                           - {PSEUDO})
            loaded = {language: _compiled(self.folder / language / "LC_MESSAGES")
                      for language in found}
            pseudo = _pseudo(self.folder)
            if pseudo is not None:
                loaded[PSEUDO] = pseudo
            self._loaded = loaded
        return self._loaded

    def languages(self, *, pseudo: bool = False) -> tuple[str, ...]:
        """The languages the bot speaks, the source first (Babel's spelling: ``de``,
        ``pt_BR``); the pseudo-locale only when asked."""
        spoken = self._spoken.get(pseudo)
        if spoken is None:  # (asked for every message: worked out once)
            spoken = self._spoken[pseudo] = (SOURCE, *(
                language for language in self.load()
                if language != SOURCE and (pseudo or language != PSEUDO)))
        return spoken

    def translations(self, language: str) -> gettext.NullTranslations:
        """The language's translations; the source's (each message as written) for English
        and for a language without a catalogue."""
        return self.load().get(language) or _SOURCE_TRANSLATIONS


_SOURCE_TRANSLATIONS = gettext.NullTranslations()

#: The bot's catalogues.
CATALOGUES = Catalogues()
