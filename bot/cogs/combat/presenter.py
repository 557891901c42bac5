"""Showing a fight to the table: the board (one message, edited: see
:mod:`~bot.cogs.combat.board_message`), the prompt (a new message
with the buttons of the newest version; the previous one loses its buttons) and, when a fight
ends, its recap and each PC's Recovery offer.

This runs outside every lock and after the step was committed. A step answered through an
interaction posts its prompt as that interaction's follow-up (:meth:`Presenter.ask`: the
interaction's token, not the channel's buckets); the channel's worker then edits the board
alone, and posts a prompt itself only where no interaction was at hand (a window closed by
its timer, a restart, an undo). Requests for one channel are coalesced: a burst of commands
edits the board once, with the newest version. Only when everything is shown is that version
recorded as shown, so a restart (or the next command) shows again whatever Discord refused or
a crash cut short. The record waits for the fight's next step to carry it
(:mod:`~bot.cogs.combat.shown_records`), unless it names a new board or the fight's end.

A prompt posted as a follow-up is recorded with that record too, not one of its own. Where this
process may not know every prompt of a fight (a follow-up answered with 5xx, which Discord
may have made; a start-up after a crash that cut a follow-up's step short; a fight another
process changed), the channel is swept first (:mod:`~bot.cogs.combat.sweep`): a prompt found
asking what the fight asks is the live one, every other loses its buttons.

A step that leaves what the fight asks as it was (a standing order, the fight's settings)
keeps the live prompt where it is: no new message, no edit. Its buttons carry an older
version; :meth:`Presenter.answers` lets a press on them through while the prompt asks what the
fight asks (a press on any other message, or once the question changed, is out of date).
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import discord

from bot.cogs.combat.board_message import BoardMessages
from bot.cogs.combat.fight_language import fight_language
from bot.cogs.combat.held_back import HeldBack
from bot.cogs.combat.layout import TurnLead, prompt_message
from bot.cogs.combat.live_prompt import LivePrompt, LivePrompts, strip
from bot.cogs.combat.one_by_one import OneByOneMenu, PanelButton, PanelMenu
from bot.cogs.combat.recap import after_the_fight_hint, recap_message
from bot.cogs.combat.recovery import RecoverButton, has_to_recover
from bot.cogs.combat.shown_records import ShownRecords
from bot.cogs.combat.sweep import Templates, prompts_of, view_ids
from bot.cogs.combat.turn import TurnButton, turn_lead
from bot.cogs.combat.views import CombatButton, CombatMenu, TogetherButton
from bot.components import button_row
from bot.i18n import N_, render
from bot.store.values import DatabaseUnavailable, ShownRecord, StoredCharacter, StoredCombat
from bot.unrepeated import sent_once
from engine.catalog import Rules
from engine.phrases import phrase

if TYPE_CHECKING:
    from bot.host import Host

log = logging.getLogger(__name__)

__all__ = ["Presenter"]

#: What a question says once an undo went back to before it was asked.
TAKEN_BACK = N_("-# ↩️ This question was taken back with `/combat undo`.")

#: Seconds to wait before trying again after Discord refused to show a fight.
RETRY_DELAYS = (2.0, 10.0, 60.0)

#: What a prompt is made of, as a sweep of the channel knows a prompt by its custom ids.
PROMPT_ITEMS: Templates = tuple(
    item.__discord_ui_compiled_template__
    for item in (CombatButton, CombatMenu, TogetherButton, OneByOneMenu, PanelButton,
                 PanelMenu, TurnButton))


def look_of(content: str, view: discord.ui.View | None) -> tuple[object, ...] | None:
    """What a prompt shows, the version in its custom ids aside: two versions whose prompts
    look the same ask the same (None: nothing asked)."""
    if view is None:
        return None
    return (content, tuple(_item_look(item) for item in view.children))


def _item_look(item: discord.ui.Item[Any]) -> tuple[object, ...]:
    custom_id = str(getattr(item, "custom_id", "") or "")
    for template in PROMPT_ITEMS:
        match = template.fullmatch(custom_id)
        if match is not None and "version" in template.groupindex:
            custom_id = custom_id[:match.start("version")] + custom_id[match.end("version"):]
            break
    options = tuple((o.label, o.value, o.default) for o in getattr(item, "options", ()))
    return (type(item).__name__, custom_id, getattr(item, "label", None),
            str(getattr(item, "style", "")), getattr(item, "disabled", False), options)


def _nonce(kind: str, stored: StoredCombat) -> str:
    """The nonce of a message showing ``stored``: Discord creates one message per nonce (for a
    few minutes), so showing the same version again after a crash between posting a message
    and recording its id finds that message instead of posting a second one."""
    return f"{kind}{stored.id}.{stored.version}"[:25]


class Presenter:
    def __init__(self, bot: Host, rules: Rules, clock: Callable[[], float] = time.time) -> None:
        self.bot = bot
        self.rules = rules
        self.clock = clock  # the fights' clock: when a question closed
        self.boards = BoardMessages(rules, bot)
        # channel -> fight id -> the newest version to show (None: read it from the store)
        self._wanted: dict[int, dict[int, StoredCombat | None]] = {}
        self._workers: dict[int, asyncio.Task[None]] = {}
        self._messages: dict[int, tuple[int | None, int | None]] = {}  # fight -> board, prompt
        self._attempts: dict[int, int] = {}  # fight -> refusals in a row
        self._shown: dict[int, int] = {}  # fight -> the version the table sees
        self._retries: dict[int, asyncio.Task[None]] = {}
        # fight -> the turn ("round:turn") whose players were pinged: a turn is announced once
        # (kept with the fight, so a restart does not ping them again)
        self._announced: dict[int, str] = {}
        # fight -> (version, when its step arrived) of the steps whose messages are not all
        # out yet, for the metrics
        self._timing: dict[int, list[tuple[int, float]]] = {}
        # fight -> the version an undo restored: shown without pinging anyone again
        self._undone: dict[int, int] = {}
        # fights whose channel may hold prompts this process does not know: swept when shown
        self._unsure: set[int] = set()
        self.prompts = LivePrompts(clock, stray=self._unsure.add)
        self.held = HeldBack(bot)
        self.records = ShownRecords(bot)

    def refresh(self, stored: StoredCombat, *, started: float | None = None,
                undone: bool = False) -> None:
        """Bring the table's view of ``stored``'s fight up to ``stored`` (or newer);
        ``started``: when the step that made it arrived (timed until all is shown);
        ``undone``: an undo restored it, so its question pings nobody again, and a question
        it no longer asks says it was taken back."""
        if undone:
            self._undone[stored.id] = stored.version
        if started is not None:
            self._timing.setdefault(stored.id, []).append((stored.version, started))
        wanted = self._wanted.setdefault(stored.channel_id, {})
        known = wanted.get(stored.id)
        if known is None or known.version <= stored.version:
            wanted[stored.id] = stored
        self._start(stored.channel_id)

    def refresh_later(self, channel_id: int, combat_id: int) -> None:
        """Like :meth:`refresh` for a fight not read yet (start-up): it is read when shown,
        after a sweep of its channel (a crash may have cut its follow-up's step short)."""
        self._unsure.add(combat_id)
        self._wanted.setdefault(channel_id, {}).setdefault(combat_id, None)
        self._start(channel_id)

    def permissions_changed(self, guild_id: int) -> None:
        """A channel's or a role's permissions changed in the guild: each fight there that a
        missing permission held back is shown in full, once the bot may."""
        for stored in self.held.released(guild_id):
            self.refresh(stored)

    def forget(self, combat_id: int) -> None:
        """Forget what this process showed of the fight: another process changed it, so its
        messages are read from the database next time, and its channel swept (the other
        process may have posted a prompt not recorded yet)."""
        self._unsure.add(combat_id)
        self._messages.pop(combat_id, None)
        self.prompts.forget(combat_id)
        self._shown.pop(combat_id, None)
        self._announced.pop(combat_id, None)
        self._undone.pop(combat_id, None)

    def _all_out(self, stored: StoredCombat) -> None:
        timing = self._timing.pop(stored.id, [])
        for version, started in timing:
            if version <= stored.version:
                self.bot.metrics.all_out(started)
        later = [(v, s) for v, s in timing if v > stored.version]
        if later:
            self._timing[stored.id] = later

    async def close(self) -> None:
        """Stop showing; what was shown is written down, so the next start shows nothing
        again."""
        for task in (*self._workers.values(), *self._retries.values()):
            task.cancel()
        await self.records.write_all()

    def _start(self, channel_id: int) -> None:
        worker = self._workers.get(channel_id)
        if worker is None or worker.done():
            self._workers[channel_id] = asyncio.get_running_loop().create_task(
                self._work(channel_id), name=f"unhex-show:{channel_id}")

    async def _work(self, channel_id: int) -> None:
        """Show the channel's fights, oldest first (a fight's end, then the next one), each
        at the newest version asked for by the time it is shown (a board edit waits for its
        share of the channel's edit bucket first, so the newest version is then the one
        shown)."""
        while self._wanted.get(channel_id):
            await self.bot.edit_pacing.wait(channel_id)
            wanted = self._wanted.get(channel_id)
            if not wanted:
                continue
            combat_id = min(wanted)
            stored = wanted.pop(combat_id)
            if not wanted:
                del self._wanted[channel_id]
            if stored is None:
                stored = await self._read(combat_id)
            if stored is None or stored.version <= self._shown.get(stored.id,
                                                                   stored.shown_version):
                continue  # (a late retry of an older version, or already shown)
            try:
                await self.show(stored)
            except discord.Forbidden as error:  # shown once the permission is back
                log.warning("Not allowed to show fight %s in channel %s: %s", stored.id,
                            channel_id, error)
                self.held.hold(stored)
            except (discord.HTTPException, discord.RateLimited) as error:
                log.warning("Discord refused to show fight %s (%s)", stored.id, error)
                self._retry(stored)
            except DatabaseUnavailable:  # (a recap's reads, or a new board's record)
                log.warning("Could not show fight %s: the database is unavailable", stored.id)
                self._retry(stored)
            except Exception:
                log.exception("Could not show fight %s in channel %s", stored.id, channel_id)
            else:
                self._attempts.pop(stored.id, None)
                self._shown[stored.id] = stored.version
                self.held.shown(stored)
                self._all_out(stored)

    async def _read(self, combat_id: int) -> StoredCombat | None:
        """The fight as kept; None (logged) while the database is unavailable: the fight's
        next step, or the next start, shows it."""
        try:
            return await self.bot.store.combats.get(combat_id)
        except DatabaseUnavailable:
            log.warning("Could not read fight %s to show it: the database is unavailable",
                        combat_id)
            return None

    def _retry(self, stored: StoredCombat) -> None:
        """Try again a little later, a few times; after that the next step of the fight (or
        a restart) shows it."""
        attempt = self._attempts.get(stored.id, 0)
        if attempt >= len(RETRY_DELAYS):
            self._attempts.pop(stored.id, None)
            return
        self._attempts[stored.id] = attempt + 1

        async def later() -> None:
            await asyncio.sleep(RETRY_DELAYS[attempt])
            self.refresh(stored)

        self._retries[stored.channel_id] = asyncio.get_running_loop().create_task(
            later(), name=f"unhex-background:retry:{stored.channel_id}")

    def _channel(self, channel_id: int, guild_id: int | None = None) -> discord.PartialMessageable:
        return self.bot.get_partial_messageable(channel_id, guild_id=guild_id)

    async def post(self, channel_id: int, text: str) -> int | None:
        """Post ``text`` in the channel: its message id; a refusal is logged, not raised
        (nobody to tell), and gives None."""
        try:
            return (await self._channel(channel_id).send(text)).id
        except (discord.HTTPException, discord.RateLimited) as error:
            log.warning("Could not post in channel %s: %s", channel_id, error)
            return None

    async def show(self, stored: StoredCombat) -> None:
        """Edit the board, bring the prompt up to date (when no interaction's answer did) and,
        at a fight's end, offer Recovery; then record ``stored``'s version as shown. The board
        and the prompt are Discord calls made together: the table waits for one round trip."""
        channel = self._channel(stored.channel_id, stored.guild_id)
        board_id, _ = self._messages.get(stored.id, (stored.board_message_id, None))
        known_board = board_id
        undone = self._undone.get(stored.id) == stored.version
        language = await fight_language(self.bot, stored.guild_id)
        showing = self.boards.show(channel, stored, board_id, nonce=_nonce("b", stored),
                                   language=language)
        if self._prompt_is_out(stored):  # (the board alone: no task for each of the two)
            board_id = await showing
        else:
            board, prompt = await asyncio.gather(
                showing, self._ask_in_channel(channel, stored, language, undone=undone),
                return_exceptions=True)
            # Both are done either way; after a refusal the whole is shown again, later.
            if isinstance(board, BaseException):
                raise board
            if isinstance(prompt, BaseException):
                raise prompt
            board_id = board
        prompt_id = self.prompts.of(stored).message_id  # (a newer one may be out already)
        self._messages[stored.id] = (board_id, prompt_id)
        if undone:
            del self._undone[stored.id]
        if not stored.active:
            await self.boards.end(channel, stored, board_id)
            recovering = await self._to_recover(stored)
            await self._post_recap(channel, stored, recovering=bool(recovering))
            await self._offer_recovery(channel, stored, recovering)
            self._messages.pop(stored.id, None)
            self.prompts.forget(stored.id)
            self._announced.pop(stored.id, None)
        record = ShownRecord(stored.id, stored.version, board_id, prompt_id,
                             self._announced.get(stored.id))
        if board_id != known_board or not stored.active:
            await self.records.now(record)
        else:
            self.records.later(record)

    async def ask(self, interaction: discord.Interaction[Any], stored: StoredCombat) -> None:
        """Post what the fight asks at ``stored`` as the interaction's follow-up, pinging
        exactly those asked (its token's bucket, not the channel's); the prompt it replaces
        loses its buttons. Refused, it is left to the channel's worker, which posts it; not
        repeated after a 5xx (a follow-up takes no nonce): the worker sweeps the channel for
        what Discord made anyway. Its id is recorded with the worker's write."""
        announced = self._announced.get(stored.id)
        language = await fight_language(self.bot, stored.guild_id)
        content, view, mentions = prompt_message(stored, self.rules,
                                                 self._lead(stored, language),
                                                 language=language)
        if view is None:
            return  # (the worker strips the previous prompt, if a press has not)
        view.stop()  # the buttons answer from their ids: nothing for discord.py to watch
        look = look_of(content, view)
        if await self._kept(stored, look):
            return
        try:
            with sent_once():
                message = await interaction.followup.send(content, view=view,
                                                          allowed_mentions=mentions, wait=True)
        except discord.HTTPException as error:
            if error.status >= 500:
                self._unsure.add(stored.id)
            log.warning("Could not post the prompt of fight %s as interaction %s's follow-up "
                        "(%s); the channel gets it", stored.id, interaction.id, error)
            self._announced.pop(stored.id, None)
            if announced is not None:
                self._announced[stored.id] = announced
            return
        channel = self._channel(stored.channel_id, stored.guild_id)
        await self.prompts.replace(stored, channel, LivePrompt.followup(stored, message, look,
                                                                      language=language))

    async def _kept(self, stored: StoredCombat, look: tuple[object, ...] | None) -> bool:
        """Whether the live prompt (newer than ``stored`` or not) looks as ``stored``'s would
        (``look``) and is still there (one read: a moderator may have deleted it; any doubt
        posts anew): then it stays as ``stored``'s prompt, and nothing is posted."""
        live = self.prompts.of(stored)
        if look is None or live.message_id is None or live.look != look \
                or stored.id in self._unsure:
            return False
        if live.version >= stored.version:
            return True
        try:
            await self.bot.http.get_message(stored.channel_id, live.message_id)
        except (discord.HTTPException, discord.RateLimited) as error:
            log.info("Fight %s's prompt %s could not be read (%s): asked anew", stored.id,
                     live.message_id, error)
            return False
        log.info("Fight %s's prompt %s asks what version %s asks: kept", stored.id,
                 live.message_id, stored.version)
        self.prompts.keep(stored)
        return True

    def answers(self, stored: StoredCombat, message: discord.Message | None,
                version: int, language: str) -> bool:
        """Whether a press of a button of ``version`` (older than ``stored``'s) on
        ``message`` answers what the fight asks now: ``message`` is the live prompt, kept
        for ``stored`` (as recorded, after a restart too) or asking what ``stored`` asks."""
        if message is None or version >= stored.version \
                or not self.prompts.is_live(stored, message.id):
            return False
        live = self.prompts.of(stored)
        if live.version >= stored.version:
            return True
        if live.look is None:
            return False
        content, view, _ = prompt_message(
            stored, self.rules, turn_lead(stored, ping=False, language=language),
            language=language)
        if view is not None:
            view.stop()
        return look_of(content, view) == live.look

    def _prompt_is_out(self, stored: StoredCombat) -> bool:
        """Whether ``stored``'s prompt (or a newer one) is out already, as this process
        knows for sure: :meth:`_ask_in_channel` would have nothing to do."""
        return stored.id not in self._unsure and self.prompts.of(stored).version >= stored.version

    async def _ask_in_channel(self, channel: discord.PartialMessageable, stored: StoredCombat,
                              language: str, *, undone: bool) -> None:
        """Where no interaction posted ``stored``'s prompt (a timer, a restart, an undo, a
        refused follow-up): post it in the channel and strip the one it replaces; ``undone``:
        it pings nobody, and a question taken back says so."""
        asking: tuple[str, discord.ui.View | None, discord.AllowedMentions] | None = None
        if stored.id in self._unsure:
            asking = prompt_message(stored, self.rules, self._lead(stored, language, quiet=undone),
                                    language=language)
            await self._sweep(channel, stored, asking[1], language)
        if self.prompts.of(stored).version >= stored.version:
            return  # an interaction's answer posted it (or a newer one), or a sweep found it
        if asking is None:
            asking = prompt_message(stored, self.rules, self._lead(stored, language, quiet=undone),
                                    language=language)
        look = look_of(asking[0], asking[1])
        if await self._kept(stored, look):
            return
        taken_back = render(TAKEN_BACK, language) if undone and asking[1] is None else None
        posted = await self._prompt(channel, stored, asking, quiet=undone)
        said = asking[0] if posted is not None else None
        await self.prompts.replace(stored, channel, LivePrompt(stored.version, posted,
                                                               content=said, look=look,
                                                               language=language),
                                   taken_back=taken_back)

    async def _prompt(self, channel: discord.PartialMessageable, stored: StoredCombat,
                      asking: tuple[str, discord.ui.View | None, discord.AllowedMentions], *,
                      quiet: bool = False) -> int | None:
        """Post what the fight waits for (``asking``: its ``prompt_message``), with its
        buttons; its message id (None: nothing). ``quiet``: it pings nobody."""
        content, view, mentions = asking
        if view is None:
            return None
        if quiet:
            mentions = discord.AllowedMentions.none()
        # Every button answers from its custom id (the bot's dynamic items): there is nothing
        # for discord.py's view store to keep or watch for this message.
        view.stop()
        message = await channel.send(content, view=view, allowed_mentions=mentions,
                                     nonce=_nonce("p", stored))
        return message.id

    async def _sweep(self, channel: discord.PartialMessageable, stored: StoredCombat,
                     view: discord.ui.View | None, language: str) -> None:
        """Strip every prompt of the fight among the channel's newest messages but its live
        one. When this process knows no prompt for ``stored``'s version, one found asking
        what ``view`` asks (the same buttons: posted before a restart, or made by Discord
        though it answered 5xx) becomes the live prompt rather than being asked twice."""
        self._unsure.discard(stored.id)
        assert self.bot.user is not None
        try:
            found = await prompts_of(channel, stored.id, self.bot.user.id, PROMPT_ITEMS)
        except discord.Forbidden as error:  # the channel is out of sight: nothing to find
            log.warning("Could not look for the prompts of fight %s (%s)", stored.id, error)
            return
        except discord.HTTPException:
            self._unsure.add(stored.id)  # (shown again later: swept then)
            raise
        live = self.prompts.of(stored)
        asks = view_ids(view)
        adopted = None
        if live.version < stored.version and asks:
            adopted = next((message for message, ids in found if ids == asks), None)
        if adopted is not None:  # (the prompt it replaces loses its buttons there)
            await self.prompts.replace(stored, channel, LivePrompt(
                stored.version, adopted.id, content=adopted.content, language=language))
        for message, _ in found:
            if message.id not in (live.message_id, adopted and adopted.id):
                log.info("Stripping a stray prompt of fight %s: %s", stored.id, message.id)
                if not await strip(channel, LivePrompt(stored.version, message.id,
                                                       content=message.content,
                                                       language=language),
                                   now=self.clock()):
                    self._unsure.add(stored.id)  # (swept again next time)

    async def _post_recap(self, channel: discord.PartialMessageable,
                          stored: StoredCombat, *, recovering: bool) -> None:
        """The fight's recap, what to do next and its Log file button (once: shown again, the
        nonce finds the message already posted); ``recovering``: PCs are offered Recovery."""
        session = await self.bot.store.sessions.current(stored.guild_id)
        language = await fight_language(self.bot, stored.guild_id)
        hint = after_the_fight_hint(stored, language, recovering=recovering,
                                    session_open=session is not None)
        content, view = recap_message(stored, self.rules, language, hint)
        if stored.report_channel_id is not None:  # a fight in a thread: back to its channel
            channel = self._channel(stored.report_channel_id, stored.guild_id)
            over = render(phrase("The fight in {channel} is over.",
                                 channel=f"<#{stored.channel_id}>"), language)
            content = f"{over}\n{content}"
        await channel.send(content, view=view, nonce=_nonce("recap", stored),
                           allowed_mentions=discord.AllowedMentions.none())

    def _lead(self, stored: StoredCombat, language: str, *,
              quiet: bool = False) -> TurnLead | None:
        """The team's turn line in ``language``; it pings the players the first time the turn
        is shown (not when an undo went back to it: ``quiet``)."""
        turn = f"{stored.state.round}:{stored.state.turn}"
        ping = not quiet and self._announced.get(stored.id, stored.announced_turn) != turn
        lead = turn_lead(stored, ping=ping, language=language)
        if lead is not None:
            self._announced[stored.id] = turn
        return lead

    async def _to_recover(self, stored: StoredCombat) -> list[StoredCharacter]:
        """The fight's PCs to offer Recovery: not one who died, nor one with nothing to
        recover."""
        found = []
        for fighter in stored.state.fighters:
            if fighter.character_id is None or fighter.owner_id is None:
                continue
            saved = await self.bot.store.characters.get_by_id(fighter.character_id)
            if saved is None or saved.npc or not has_to_recover(saved.character, self.rules):
                continue
            found.append(saved)
        return found

    async def _offer_recovery(self, channel: discord.PartialMessageable, stored: StoredCombat,
                              recovering: list[StoredCharacter]) -> None:
        """Each PC's owner in ``recovering`` is offered Recovery with a button (004
        "Recovery")."""
        language = await fight_language(self.bot, stored.guild_id) if recovering else ""
        for saved in recovering:
            ch = saved.character
            await channel.send(
                render(phrase("{name} ({owner}) may recover: level {level} → {most}, wounds "
                              "\\ and X erased, destroyed items replaced. Time passes while "
                              "they do.", name=discord.utils.escape_markdown(ch.name),
                              owner=f"<@{saved.owner_id}>", level=ch.level, most=ch.max_level),
                       language),
                view=button_row(RecoverButton.for_character(saved, language)),
                nonce=f"r{stored.id}.{saved.id}"[:25],
                allowed_mentions=discord.AllowedMentions(
                    everyone=False, roles=False, users=[discord.Object(saved.owner_id)]),
            )

