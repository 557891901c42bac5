"""The languages a test table (testbed/harness.py) speaks.

- The server's preferred locale (:class:`PreferredLocale`) is one setting, as on Discord: each
  interaction says it (``guild_locale``) and the guild the bot has cached holds it (what the
  bot reads without an interaction: a timer's post, a reminder).
- In a pseudo-locale run (testbed/pseudo.py) a table's server and users speak ``en-XA``, and
  :class:`PseudoTable` reads what the bot sends for English, but only while the table plays
  wholly in the pseudo-locale: a test that chose another language for it (a German server or
  client, `/settings language de`) is shown that language's text, not English left behind.
  A text with English is a suspect until the table has looked in its store, once the bot has
  done what it was doing (:meth:`PseudoTable.judge`): names it holds that nobody typed in the
  test (a set-up's, a template's) are said as written (testbed/held.py).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any, Protocol

import discord
from discord.enums import try_enum

from bot.store.interfaces import Store
from testbed.held import Held, held_by
from testbed.pseudo import LOCALE, Leak, PseudoWatch, english_view, message_texts, modal_texts

__all__ = ["PreferredLocale", "PseudoTable", "Speaking"]


class Speaking(Protocol):
    """A table as far as its languages go."""

    guild_locale: str
    user_locale: str
    locales: dict[int, str]


def discord_locale(code: str) -> discord.Locale:
    """``code`` as discord.py holds a locale (one it does not know, such as ``en-XA``, too)."""
    return try_enum(discord.Locale, code)


class PreferredLocale:
    """The descriptor of a table's ``guild_locale``: setting it also sets the cached guild's
    ``preferred_locale``, as a GUILD_UPDATE from Discord would (once the bot is on the table;
    :meth:`on_guild` sets a new guild's)."""

    def __init__(self, guild_id: int) -> None:
        self.guild_id = guild_id

    def __set_name__(self, owner: type, name: str) -> None:
        self.kept = f"_{name}"

    def __get__(self, table: Any, owner: type | None = None) -> str:
        return str(getattr(table, self.kept))

    def __set__(self, table: Any, locale: str) -> None:
        setattr(table, self.kept, locale)
        bot = getattr(table, "bot", None)  # (none until the table starts)
        guild = None if bot is None else bot.get_guild(self.guild_id)
        if guild is not None:
            self.on_guild(guild, locale)

    @staticmethod
    def on_guild(guild: discord.Guild, locale: str) -> None:
        guild.preferred_locale = discord_locale(locale)


@dataclass(eq=False)  # (one table is itself only)
class PseudoTable:
    """One table's part in a pseudo-locale run: what users typed is allowed, what the bot
    sends is read for English while :meth:`reading`, and tests are shown it in English."""

    watch: PseudoWatch
    table: Speaking
    guild_id: int
    #: Texts read with English in them, before the table looked in its store.
    suspects: list[Leak] = field(default_factory=list)
    #: What the table's store has held when it looked.
    held: Held = field(default_factory=Held)

    def reading(self) -> bool:
        """Whether the table plays wholly in the pseudo-locale now: its server, every user's
        client and the server's language a GM chose (if any) all speak it."""
        return all(language.replace("_", "-") == LOCALE for language in self._languages())

    def _languages(self) -> Iterable[str]:
        yield from (self.table.guild_locale, self.table.user_locale,
                    *self.table.locales.values())
        # The server's language as the bot keeps it (/settings language), once it is on.
        store = getattr(getattr(self.table, "bot", None), "store", None)
        if store is not None:
            try:
                chosen = store.guilds.kept_language(self.guild_id)
            except KeyError:  # not read yet: nobody chose one in this test
                chosen = None
            if chosen is not None:
                yield chosen

    def allow(self, values: Iterable[Any]) -> None:
        """What a user typed (a command's options, a form's fields)."""
        self.watch.allow(values)

    def allow_whole(self, texts: Iterable[str]) -> None:
        """Texts a test put on the table as a user would have (a map's name it stored)."""
        self.watch.allow_whole(texts)

    def read(self, where: str, texts: Iterable[str]) -> None:
        if not self.reading():
            return
        for text in texts:
            suspect = self.watch.suspect(where, text)
            if suspect is not None:
                if not self.suspects:
                    self.watch.waiting.append(self)
                self.suspects.append(suspect)

    async def look(self, store: Store, guilds: Iterable[int], channels: Iterable[int]) -> None:
        """What ``store`` holds now for those servers and channels, remembered (what is
        deleted later is still named as it was)."""
        try:
            self.held.update(await held_by(store, guilds, channels))
        except Exception:  # (a store down or closed: nothing more is allowed)
            return

    async def judge(self, store: Store, guilds: Iterable[int], channels: Iterable[int]) -> None:
        """The suspects judged by what ``store`` holds and has held: English left is leaked."""
        if not self.suspects:
            return
        await self.look(store, guilds, channels)
        for suspect in self.suspects:
            leak = self.watch.judged(suspect, self.held.names, self.held.whole)
            if leak is not None:
                self.watch.leaks.append(leak)
        self._judged()

    def flush(self) -> None:
        """The suspects kept as leaks (the test ended before they were judged)."""
        self.watch.leaks.extend(self.suspects)
        self._judged()

    def _judged(self) -> None:
        self.suspects.clear()
        if self in self.watch.waiting:
            self.watch.waiting.remove(self)

    def read_message(self, body: dict[str, Any]) -> None:
        """What a message sent or edited shows."""
        for where, text in message_texts(body):
            self.read(where, [text])

    def read_modal(self, body: dict[str, Any]) -> dict[str, Any]:
        """A modal's texts read; the modal as a test sees it."""
        for where, text in modal_texts(body):
            self.read(where, [text])
        return dict(english_view(body))

    def read_choices(self, choices: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """Autocomplete's choices' names read; the choices as a test sees them."""
        self.read("autocomplete", [choice["name"] for choice in choices])
        return list(english_view(choices))
