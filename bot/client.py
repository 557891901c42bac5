"""The bot itself: settings, the store, the dice, the cogs and the command sync."""

from __future__ import annotations

import logging
import re
from typing import TYPE_CHECKING, Any

import discord
from discord.ext import commands

from bot.components import answer_unknown
from bot.errors import report_error
from bot.options import check_options
from bot.settings import Settings
from engine.dice import DiceSource, RandomDice

if TYPE_CHECKING:
    from bot.cogs.combat import FightSession
    from bot.store import Store

log = logging.getLogger(__name__)

#: One extension per command family, loaded in this order.
EXTENSIONS: tuple[str, ...] = (
    "bot.cogs.dice",
    "bot.cogs.maps",
    "bot.cogs.characters",
    "bot.cogs.combat",
    "bot.cogs.gm",
)


class UnhexBot(commands.Bot):
    """A slash-command bot; nothing here needs a privileged intent."""

    store: Store
    fights: FightSession  # set when the fight commands load (bot.cogs.combat)

    def __init__(self, settings: Settings, *, dice: DiceSource | None = None) -> None:
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=discord.Intents.default(),
            # User-typed text is echoed in many messages: it must never ping anyone.
            allowed_mentions=discord.AllowedMentions.none(),
            help_command=None,
        )
        self.settings = settings
        self.dice: DiceSource = dice if dice is not None else RandomDice(settings.dice_seed)
        self.tree.on_error = report_error  # type: ignore[method-assign]
        self.tree.interaction_check = check_options  # type: ignore[method-assign]
        #: The custom ids of the buttons and forms the bot answers (see :meth:`answers`).
        self.answered_ids: list[re.Pattern[str]] = []

    def add_dynamic_items(self, *items: type[discord.ui.DynamicItem[Any]]) -> None:
        super().add_dynamic_items(*items)
        self.answers(*(item.__discord_ui_compiled_template__ for item in items))

    def answers(self, *patterns: re.Pattern[str]) -> None:
        """Record custom ids the bot answers (persistent buttons record theirs when added);
        a button or form with any other id gets a sentence saying it no longer works."""
        self.answered_ids.extend(patterns)

    async def on_interaction(self, interaction: discord.Interaction[Any]) -> None:
        await answer_unknown(interaction, self.answered_ids)

    async def setup_hook(self) -> None:
        from bot.store import Store

        self.store = await Store.open(self.settings.database)
        for extension in EXTENSIONS:
            await self.load_extension(extension)
        await self.sync_commands()

    async def sync_commands(self) -> None:
        if self.settings.dev_guild is not None:
            guild = discord.Object(id=self.settings.dev_guild)
            self.tree.copy_global_to(guild=guild)
            synced = await self.tree.sync(guild=guild)
            log.info("Synced %d commands to the development server %s", len(synced), guild.id)
        else:
            synced = await self.tree.sync()
            log.info("Synced %d commands globally", len(synced))

    async def close(self) -> None:
        await super().close()
        store = getattr(self, "store", None)
        if store is not None:
            await store.close()


def create_bot(settings: Settings | None = None, *, dice: DiceSource | None = None) -> UnhexBot:
    """Build the fully configured bot from ``settings`` (default: the environment) without
    connecting; ``setup_hook`` opens the store, loads the cogs and syncs the commands."""
    return UnhexBot(settings if settings is not None else Settings(), dice=dice)
