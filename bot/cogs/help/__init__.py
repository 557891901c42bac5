"""`/help`: the bot's commands explained a page at a time — :mod:`.pages` holds the pages'
text, :mod:`.paging` the command and the buttons between pages."""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.cogs.help.paging import HelpCog, HelpPageButton

if TYPE_CHECKING:
    from bot.host import Host

__all__ = ["setup"]


async def setup(bot: Host) -> None:
    bot.add_dynamic_items(HelpPageButton)
    await bot.add_cog(HelpCog())
