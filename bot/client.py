"""The bot itself: settings, the store, the dice, the cogs and the command sync.

Slash commands are sent to Discord (synced) only when they changed: each start compares a
fingerprint of what a sync would send, and where to, with the one stored after the last
sync. Syncing on every start is what discord.py's maintainers advise against (it is
rate-limited); ``python -m bot sync`` forces a sync, for when Discord's copy was changed
by other means.
"""

from __future__ import annotations

import gc
import hashlib
import json
import logging
import re
from typing import TYPE_CHECKING, Any

import aiohttp
import discord
import discord.http
from discord import app_commands
from discord.ext import commands

from bot.components import answer_unknown
from bot.errors import report_error
from bot.forms import FormAnswer, Forms
from bot.host import FightReader, Host
from bot.i18n import CommandTranslator
from bot.operations.metrics import Metrics
from bot.options import check_options
from bot.pacing import EditPacing
from bot.permissions import IN_A_DM, server_only_in_a_dm
from bot.settings import Settings
from bot.unrepeated import repeat_refused
from engine.dice import DiceSource, RandomDice

if TYPE_CHECKING:
    from aiohttp import web

    from bot.store.interfaces import Store
    from bot.store.values import StoredCombat

log = logging.getLogger(__name__)

#: One extension per command family, loaded in this order.
EXTENSIONS: tuple[str, ...] = (
    "bot.cogs.dice",
    "bot.cogs.maps",
    "bot.cogs.characters",
    "bot.cogs.combat",
    "bot.cogs.sessions",
    "bot.cogs.gm",
    "bot.cogs.player_settings",
    "bot.cogs.help",
)

#: The `bot_meta` key of the fingerprint of the commands last synced.
SYNCED_COMMANDS = "synced_commands"

#: Discord's REST API, where ``UNHEX_DISCORD_API`` does not send the bot elsewhere.
DISCORD_API = discord.http.Route.BASE


def use_discord_api(base: str | None) -> None:
    """Send every REST call (interaction answers and webhooks included) to ``base``, such as
    a rate-limiting proxy shared by the bot's processes; None: to Discord itself. discord.py
    reads the base from its routes' class attribute (webhooks use the same class), so this
    holds for the whole process."""
    discord.http.Route.BASE = base or DISCORD_API


#: Seconds discord.py may wait for a rate limit before raising ``discord.RateLimited``
#: instead (its least): a fight shows its next step rather than wait for minutes.
MAX_RATELIMIT_WAIT = 30.0
#: Discord's code for "an hour-old message edited too often" (a 429, or a 400).
OLD_MESSAGE_EDITS = 30046


async def _refusal_code(response: aiohttp.ClientResponse) -> tuple[int | None, Any]:
    """Discord's error code in a refusal's JSON (None: none), and the JSON."""
    if response.status < 400 or response.content_type != "application/json":
        return None, None
    try:
        data = json.loads(await response.read())
    except (aiohttp.ClientError, ValueError):
        return None, None
    code = data.get("code") if isinstance(data, dict) else None
    return (code if isinstance(code, int) and code else None), data


def http_trace(metrics: Metrics, pacing: EditPacing | None = None) -> aiohttp.TraceConfig:
    """Counts each response of Discord's REST API by status (discord.py retries a 429
    itself: each one is counted), and each refusal by its code; tells ``pacing`` the
    buckets' headers.

    A 429 carrying 30046 is raised at once as the ``discord.HTTPException`` discord.py would
    raise after its retries: that message's edits are scarce for everyone in the channel,
    and a board posted afresh shows the step now, where waiting takes up to 6 s a try and
    holds the channel's edits meanwhile. A 5xx inside :func:`bot.unrepeated.sent_once` is
    raised at once too: the message may be made already."""
    async def on_request_end(session: Any, context: Any,
                             params: aiohttp.TraceRequestEndParams) -> None:
        response = params.response
        metrics.discord_http.labels(str(response.status)).inc()
        if pacing is not None:
            pacing.heard(params.method, params.url.path, response.headers)
        code, data = await _refusal_code(response)
        if repeat_refused(response.status):
            raise discord.DiscordServerError(response, await response.text())
        if code is None:
            return
        metrics.discord_refusals.labels(str(response.status), str(code)).inc()
        if response.status == 429 and code == OLD_MESSAGE_EDITS:
            raise discord.HTTPException(response, data)

    trace = aiohttp.TraceConfig()
    trace.on_request_end.append(on_request_end)
    return trace


async def command_fingerprint(tree: app_commands.CommandTree,
                              guild: discord.abc.Snowflake | None) -> str:
    """A hash of what ``tree.sync(guild=guild)`` sends to Discord (the same payload, built
    the same way: with the translations of the tree's translator, so a changed catalogue
    syncs again) and of where it sends it (``guild``, or everywhere when None)."""
    commands = tree.get_commands(guild=guild)
    translator = tree.translator
    if translator is None:
        payload = [command.to_dict(tree) for command in commands]
    else:
        payload = [await command.get_translated_payload(tree, translator)
                   for command in commands]
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


class FightsInStore:
    """Each channel's fight as the store keeps it: the bot's fights until the fight commands
    load and bring their session (which keeps fights in memory)."""

    def __init__(self, bot: Host) -> None:
        self.bot = bot

    async def fight(self, channel_id: int) -> StoredCombat | None:
        return await self.bot.store.combats.active(channel_id)

    @property
    def in_memory(self) -> int:
        return 0


class UnhexBot(commands.AutoShardedBot):
    """A slash-command bot running the shards its settings name (every shard Discord
    recommends, by default); nothing here needs a privileged intent."""

    store: Store

    def __init__(
        self, settings: Settings, *, dice: DiceSource | None = None, force_sync: bool = False
    ) -> None:
        use_discord_api(settings.discord_api_base)
        self.metrics = Metrics()
        #: When each channel's next board edit may go out (its edit bucket's headers).
        self.edit_pacing = EditPacing()
        plan = settings.shards
        # (discord.py takes no shard_ids at all, rather than None, for "every shard")
        sharding: dict[str, Any] = {} if plan.ids is None else {"shard_ids": list(plan.ids)}
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=discord.Intents.default(),
            # User-typed text is echoed in many messages: it must never ping anyone.
            allowed_mentions=discord.AllowedMentions.none(),
            help_command=None,
            shard_count=plan.count,
            http_trace=http_trace(self.metrics, self.edit_pacing),
            max_ratelimit_timeout=MAX_RATELIMIT_WAIT,
            **sharding,
        )
        self.settings = settings
        #: The shards whose gateway connection is up now.
        self.connected_shards: set[int] = set()
        self._web: web.AppRunner | None = None
        self.dice: DiceSource = dice if dice is not None else RandomDice(settings.dice_seed)
        self.force_sync = force_sync
        #: What the start's command sync did, in a sentence.
        self.sync_report = ""
        self.tree.on_error = report_error  # type: ignore[method-assign]
        self.tree.interaction_check = check_interaction  # type: ignore[method-assign]
        #: The custom ids of the buttons and forms the bot answers (see :meth:`answers`).
        self.answered_ids: list[re.Pattern[str]] = []
        #: The forms the bot answers from their custom id (see :meth:`answers_form`).
        self.forms = Forms()
        #: The fights, as every cog reads them (see :mod:`bot.host`); the fight commands
        #: put their session here when they load.
        self.fights: FightReader = FightsInStore(self)

    def add_dynamic_items(self, *items: type[discord.ui.DynamicItem[Any]]) -> None:
        super().add_dynamic_items(*items)
        self.answers(*(item.__discord_ui_compiled_template__ for item in items))

    def answers(self, *patterns: re.Pattern[str]) -> None:
        """Record custom ids the bot answers (persistent buttons record theirs when added);
        a button or form with any other id gets a sentence saying it no longer works."""
        self.answered_ids.extend(patterns)

    def answers_form(self, pattern: re.Pattern[str], answer: FormAnswer) -> None:
        """Answer the submit of a form whose custom id matches ``pattern`` with ``answer``
        (:mod:`bot.forms`)."""
        self.forms.add(pattern, answer)
        self.answers(pattern)

    def dispatch(self, event_name: str, /, *args: Any, **kwargs: Any) -> None:
        if event_name == "interaction":  # before any handler of it runs
            self.metrics.arrived(args[0])
        super().dispatch(event_name, *args, **kwargs)

    async def on_interaction(self, interaction: discord.Interaction[Any]) -> None:
        if await self.forms.answer(interaction):
            return
        if await answer_unknown(interaction, self.answered_ids):
            self.metrics.handled(interaction, "unknown")

    async def on_app_command_completion(self, interaction: discord.Interaction[Any],
                                        command: Any) -> None:
        self.metrics.handled(interaction, "ok")

    # -- shards --------------------------------------------------------------------------

    # (A shard counts as connected once READY or RESUMED says so: on_shard_connect comes as
    # the socket opens, before Discord has accepted the session.)

    async def on_shard_ready(self, shard_id: int) -> None:
        self.connected_shards.add(shard_id)
        log.info("Shard %s of %s ready", shard_id, self.shard_count)

    async def on_shard_resumed(self, shard_id: int) -> None:
        self.connected_shards.add(shard_id)

    async def on_shard_disconnect(self, shard_id: int) -> None:
        self.connected_shards.discard(shard_id)

    def shards_not_connected(self) -> list[str]:
        """The shards this process runs whose gateway connection is not up, by number."""
        plan = self.settings.shards
        expected = plan.ids or (range(self.shard_count) if self.shard_count else None)
        if expected is None:
            return ["any (Discord has not said how many yet)"]
        return [str(shard) for shard in expected if shard not in self.connected_shards]

    def refresh_gauges(self) -> None:
        """Bring the gauges /metrics shows up to date (they are read, not counted)."""
        self.metrics.fights_in_memory.set(self.fights.in_memory)
        for shard_id, shard in self.shards.items():
            self.metrics.gateway_latency.labels(str(shard_id)).set(shard.latency)

    # -- start and stop ------------------------------------------------------------------

    async def setup_hook(self) -> None:
        from bot.operations.timed_store import timed_store
        from bot.store import describe_database, open_store

        # What the process made before it starts (modules, rules) lives as long as it: frozen
        # now, the collections that reading thousands of fights' summaries sets off walk only
        # those (a full one over the imports took a third of a start among 10,000 fights).
        gc.freeze()
        log.info("This process runs %s.", self.settings.shards.describe())
        store = await open_store(self.settings.database, pool_size=self.settings.database_pool)
        self.store = timed_store(store, self.metrics)
        log.info("Database: %s (%s)", describe_database(self.settings.database),
                 self.store.engine)
        await self.tree.set_translator(CommandTranslator())  # reads the catalogues, once
        for extension in EXTENSIONS:
            await self.load_extension(extension)
        if self.settings.http_port is not None:
            from bot.operations.web import serve

            self._web = await serve(self, self.settings.http_host, self.settings.http_port)
        if self.force_sync or self.settings.shards.runs_shard_zero:
            self.sync_report = await self.sync_commands(force=self.force_sync)
        else:
            self.sync_report = ("Not syncing commands: the process that runs shard 0 does "
                                "(or `python -m bot sync`).")
        log.info("%s", self.sync_report)
        # The bot has finished its setup: the ~86,000 objects made so far (modules, rules,
        # commands) live as long as the process. Frozen, Python's full garbage collections
        # no longer walk them: each costs a fraction of its ~40 ms pause mid-fight.
        gc.freeze()

    async def sync_commands(self, *, force: bool = False) -> str:
        """Send the slash commands to Discord (globally, or to the development server) if they
        changed since the last sync, or if ``force``; say what was done in a sentence. The
        fingerprint is stored only once Discord has accepted the commands."""
        guild = None
        if self.settings.dev_guild is not None:
            guild = discord.Object(id=self.settings.dev_guild)
            self.tree.copy_global_to(guild=guild)
        where = "globally" if guild is None else f"to the development server {guild.id}"
        fingerprint = await command_fingerprint(self.tree, guild)
        if not force and await self.store.meta.get(SYNCED_COMMANDS) == fingerprint:
            return (f"Commands unchanged since they were last synced {where}: not syncing "
                    "(`python -m bot sync` forces it).")
        await self.tree.sync(guild=guild)
        await self.store.meta.set(SYNCED_COMMANDS, fingerprint)
        return f"Synced {len(self.tree.get_commands(guild=guild))} commands {where}."

    async def close(self) -> None:
        await super().close()
        if self._web is not None:
            await self._web.cleanup()
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
