"""The local table (`python -m bot local`, see :mod:`bot.local`): the local Discord
(:mod:`localdiscord`) seeded with a table (:mod:`~bot.local_table.seed`), the page that plays
it in a browser (:mod:`~bot.local_table.page`, ``web/``) and the newcomer's example
(:mod:`~bot.local_table.example`)."""

from __future__ import annotations

from pathlib import Path

from bot.local_table.page import add_page
from bot.local_table.seed import table_seed
from localdiscord import LocalDiscord

__all__ = ["local_discord"]


def local_discord(state_file: Path | None = None) -> LocalDiscord:
    """The local Discord of the table, with its page (not started)."""
    return LocalDiscord(table_seed(), state_file, extend=add_page)
