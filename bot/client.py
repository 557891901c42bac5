"""The bot itself: settings, the store, the dice, the cogs and the command sync.

Slash commands are sent to Discord (synced) only when they changed: each start compares a
fingerprint of what a sync would send, and where to, with the one stored after the last
sync. Syncing on every start is what discord.py's maintainers advise against (it is
rate-limited); ``python -m bot sync`` forces a sync, for when Discord's copy was changed
by other means.
"""

from __future__ import annotations

import hashlib
import json
import logging
import re
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.components import answer_unknown
from bot.errors import report_error
from bot.options import check_options
from bot.permissions import IN_A_DM, server_only_in_a_dm
from bot.settings import Settings
from engine.dice import DiceSource, RandomDice

if TYPE_CHECKING:
    from bot.cogs.combat import FightSession
    from bot.store.interfaces import Store

log = logging.getLogger(__name__)

#: One extension per command family, loaded in this order.
EXTENSIONS: tuple[str, ...] = (
    "bot.cogs.dice",
    "bot.cogs.maps",
    "bot.cogs.characters",
    "bot.cogs.combat",
    "bot.cogs.gm",
)

#: The `bot_meta` key of the fingerprint of the commands last synced.
SYNCED_COMMANDS = "synced_commands"


def command_fingerprint(tree: app_commands.CommandTree, guild: discord.abc.Snowflake | None) -> str:
    """A hash of what ``tree.sync(guild=guild)`` sends to Discord (the same payload, built
    the same way) and of where it sends it (``guild``, or everywhere when None)."""
    payload = [command.to_dict(tree) for command in tree.get_commands(guild=guild)]
    target = None if guild is None else guild.id
    text = json.dumps({"guild": target, "commands": payload}, sort_keys=True, ensure_ascii=True)
    return hashlib.sha256(text.encode()).hexdigest()


async def check_interaction(interaction: discord.Interaction[Any]) -> bool:
    """The command tree's check before any command runs: a server's command in a DM says it
    works in a server's channel (before anything about its options), then the options must
    be the command's own (:func:`check_options`)."""
    if server_only_in_a_dm(interaction):
        if interaction.type is discord.InteractionType.autocomplete:
            await interaction.response.autocomplete([])
            return False
        raise app_commands.CheckFailure(IN_A_DM)
    return await check_options(interaction)


class UnhexBot(commands.Bot):
    """A slash-command bot; nothing here needs a privileged intent."""

    store: Store
    fights: FightSession  # set when the fight commands load (bot.cogs.combat)

    def __init__(
        self, settings: Settings, *, dice: DiceSource | None = None, force_sync: bool = False
    ) -> None:
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=discord.Intents.default(),
            # User-typed text is echoed in many messages: it must never ping anyone.
            allowed_mentions=discord.AllowedMentions.none(),
            help_command=None,
        )
        self.settings = settings
        self.dice: DiceSource = dice if dice is not None else RandomDice(settings.dice_seed)
        self.force_sync = force_sync
        #: What the start's command sync did, in a sentence.
        self.sync_report = ""
        self.tree.on_error = report_error  # type: ignore[method-assign]
        self.tree.interaction_check = check_interaction  # type: ignore[method-assign]
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
        from bot.store import describe_database, open_store

        self.store = await open_store(self.settings.database,
                                      pool_size=self.settings.database_pool)
        log.info("Database: %s (%s)", describe_database(self.settings.database),
                 self.store.engine)
        for extension in EXTENSIONS:
            await self.load_extension(extension)
        self.sync_report = await self.sync_commands(force=self.force_sync)
        log.info("%s", self.sync_report)

    async def sync_commands(self, *, force: bool = False) -> str:
        """Send the slash commands to Discord (globally, or to the development server) if they
        changed since the last sync, or if ``force``; say what was done in a sentence. The
        fingerprint is stored only once Discord has accepted the commands."""
        guild = None
        if self.settings.dev_guild is not None:
            guild = discord.Object(id=self.settings.dev_guild)
            self.tree.copy_global_to(guild=guild)
        where = "globally" if guild is None else f"to the development server {guild.id}"
        fingerprint = command_fingerprint(self.tree, guild)
        if not force and await self.store.meta.get(SYNCED_COMMANDS) == fingerprint:
            return (f"Commands unchanged since they were last synced {where}: not syncing "
                    "(`python -m bot sync` forces it).")
        await self.tree.sync(guild=guild)
        await self.store.meta.set(SYNCED_COMMANDS, fingerprint)
        return f"Synced {len(self.tree.get_commands(guild=guild))} commands {where}."

    async def close(self) -> None:
        await super().close()
        store = getattr(self, "store", None)
        if store is not None:
            await store.close()


def create_bot(
    settings: Settings | None = None, *, dice: DiceSource | None = None, force_sync: bool = False
) -> UnhexBot:
    """Build the fully configured bot from ``settings`` (default: the environment) without
    connecting; ``setup_hook`` opens the store, loads the cogs and syncs the commands if they
    changed (always, with ``force_sync``)."""
    return UnhexBot(settings if settings is not None else Settings(), dice=dice,
                    force_sync=force_sync)
