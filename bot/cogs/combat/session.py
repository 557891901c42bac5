"""The one path every fight command takes.

Under the channel's lock, and only for database work: read the fight (once; a fight is kept in
memory after it is first touched), let the engine apply the command, and commit the step in one
transaction with everything it changes. Then, outside the lock: answer the interaction (a press
on the fight's prompt answers by updating that prompt: what it asked, what happened, its
buttons gone; a turn handed over or a round ended is posted below it, as news), post what the
fight asks next as the interaction's follow-up, and ask the
:class:`~bot.cogs.combat.presenter.Presenter` to bring the board up to date (coalesced per
channel). An answer not ready within 2 s is deferred first (:mod:`bot.deferral`). The
answers go through the interaction's token, so a step spends at most the board's
edit on the channel's buckets. Discord being slow or refusing never holds up another command.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import OrderedDict
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import discord
from discord import InteractionResponseType
from discord.http import handle_message_parameters

from bot.cogs.combat.acting import actor_of
from bot.cogs.combat.answered import news_at, settled
from bot.cogs.combat.fight_language import fight_language
from bot.cogs.combat.fight_permissions import require_channel_permissions
from bot.cogs.combat.fights import MakeCommand, Update
from bot.cogs.combat.held_back import lacking_notice
from bot.cogs.combat.presenter import Presenter
from bot.cogs.combat.reminders import send_reminders
from bot.cogs.combat.step_messages import StepMessage, StepMessages, taken_back_text
from bot.cogs.combat.turn_deadline import gm_ping
from bot.cogs.combat.views import OUT_OF_DATE, answered_question, events_text
from bot.deferral import DEFER_AFTER, DeferTimer, update_pressed
from bot.i18n import channel_language, render, translated
from bot.permissions import require_guild
from bot.store.compact import compact_state
from bot.store.values import AlreadyFighting, DatabaseUnavailable, StoredCombat, Undone
from bot.text import clip
from bot.user_error import UserError
from data import load_rules
from engine.character import Character
from engine.combat import (
    Actor,
    Combat,
    Command,
    Event,
    Fighter,
    apply,
    command_adapter,
)
from engine.combat.aftermath import after_the_fight
from engine.combat.asking import asked
from engine.combat.commands import BetweenTurnsDeadline, TurnDeadline
from engine.combat.pace import due_command
from engine.combat.reminders import pending_reminders
from engine.errors import RuleError
from engine.phrases import Said, phrase

if TYPE_CHECKING:
    from bot.host import Host

log = logging.getLogger(__name__)

__all__ = ["FightSession", "StaleCopy"]

#: How many fights stay in memory after they were last touched.
CACHED_FIGHTS = 256


def _write_back(sheet: Character, fighter: Fighter) -> Character:
    return after_the_fight(sheet, fighter.character)


class StaleCopy(UserError):
    """The fight in memory was older than the database's: it changed elsewhere (another
    process, while a guild changes hands); the copy was dropped."""


class FightSession:
    """Every fight of the bot: locks, fights in memory, applying and committing, timers.
    It is the bot's ``fights`` (:class:`bot.host.FightReader`) once the fight commands load,
    and what their buttons reach (:class:`bot.cogs.combat.fights.Fights`)."""

    def __init__(self, bot: Host) -> None:
        self.bot = bot
        self.rules = load_rules()
        self.clock: Callable[[], float] = time.time
        #: Seconds before an expired reaction window is closed again, when the database was
        #: unavailable as it expired.
        self.deadline_retry = 5.0
        #: Seconds after which an answer not ready yet is deferred (Discord allows 3).
        self.defer_after = DEFER_AFTER
        self._locks: dict[int, asyncio.Lock] = {}
        self._fights: OrderedDict[int, StoredCombat] = OrderedDict()  # channel -> fight
        self._deadlines: dict[int, float] = {}  # channel -> when its window closes
        self._watcher: asyncio.Task[None] | None = None
        self._wakes_at: float | None = None  # when the watcher looks next (None: at once)
        self.presenter = Presenter(bot, self.rules, clock=lambda: self.clock())
        self.steps = StepMessages()  # where each step's outcome was shown, for an undo

    # -- start and stop ------------------------------------------------------------------

    async def restore(self) -> None:
        """After a restart: re-arm every window's timer and show again every fight whose
        newest step the table has not seen, without reading any fight's whole state; only
        the fights of guilds on this process's shards (another process has the others)."""
        restoring = await self.bot.store.combats.to_restore(self.bot.settings.shards)
        if restoring.deadlines:  # (all at once: one look at the watcher, not one a fight)
            self._deadlines.update(restoring.deadlines)
            self._wake_by(min(restoring.deadlines.values()))
        for channel_id, combat_id in restoring.unshown:
            self.presenter.refresh_later(channel_id, combat_id)

    async def close(self) -> None:
        if self._watcher is not None:
            self._watcher.cancel()
        await self.presenter.close()

    # -- reading -------------------------------------------------------------------------

    def lock(self, channel_id: int) -> asyncio.Lock:
        return self._locks.setdefault(channel_id, asyncio.Lock())

    async def fight(self, channel_id: int) -> StoredCombat | None:
        """The channel's active fight, from memory once it has been read."""
        stored = self._fights.get(channel_id)
        if stored is None:
            stored = await self.bot.store.combats.active(channel_id)
            if stored is None:
                return None
            # Steps may have been taken since this process last held the fight (elsewhere):
            # an undo marks only the messages of steps known to be the log's newest.
            self.steps.forget(stored.id)
            self._keep(stored)
        else:
            self._fights.move_to_end(channel_id)
        return stored

    def _keep(self, stored: StoredCombat) -> None:
        if not stored.active:
            self._fights.pop(stored.channel_id, None)
            return
        self._fights[stored.channel_id] = stored
        self._fights.move_to_end(stored.channel_id)
        while len(self._fights) > CACHED_FIGHTS:
            self._fights.popitem(last=False)

    @property
    def in_memory(self) -> int:
        """How many fights are kept in memory now."""
        return len(self._fights)

    @property
    def armed_channels(self) -> frozenset[int]:
        """The channels whose reaction window this process will close when time is up."""
        return frozenset(self._deadlines)

    def wakes_for(self, channel_id: int) -> float | None:
        """When the watcher next looks at the channel's fight (None: it does not)."""
        return self._deadlines.get(channel_id)

    def forget(self, channel_id: int) -> None:
        """Read the channel's fight from the database next time (it changed elsewhere)."""
        stored = self._fights.pop(channel_id, None)
        if stored is not None:
            self.steps.forget(stored.id)

    def drop_stale(self, stored: StoredCombat) -> None:
        """Forget ``stored`` and what was shown of it: it changed elsewhere."""
        self.forget(stored.channel_id)
        self.presenter.forget(stored.id)

    async def require_fight(self, interaction: discord.Interaction[Any],
                            combat_id: int | None = None,
                            version: int | None = None) -> StoredCombat:
        """The channel's fight; with ``combat_id`` (and ``version``), refused unless it is
        that fight (at that version), as a button or form of it expects."""
        require_guild(interaction)
        return await self._require_fight(interaction, combat_id, version)

    async def _require_fight(self, interaction: discord.Interaction[Any],
                             combat_id: int | None, version: int | None) -> StoredCombat:
        """:meth:`require_fight` once the interaction is known to come from a server."""
        channel_id = interaction.channel_id or 0
        stored = await self.fight(channel_id)
        if stored is not None and _behind(stored, combat_id, version):
            # The button was made by a newer step than the copy in memory: another process
            # changed the fight (a guild changing hands). Read it again.
            self.drop_stale(stored)
            stored = await self.fight(channel_id)
        if stored is None:
            if combat_id is not None:
                raise UserError(phrase("That button belongs to a fight that is over."))
            raise UserError(phrase("There is no fight in this channel. A GM starts one with "
                                   "`/combat start`."))
        if combat_id is not None and stored.id != combat_id:
            raise UserError(phrase("That button belongs to a fight that is over."))
        if version is not None and stored.version != version and not self.presenter.answers(
                stored, interaction.message, version,
                await channel_language(interaction)):  # (a kept prompt's older buttons)
            raise UserError(OUT_OF_DATE)
        return stored

    # -- changing ------------------------------------------------------------------------

    async def run(self, interaction: discord.Interaction[Any], make: MakeCommand, *,
                  combat_id: int | None = None, version: int | None = None,
                  update: Update | None = None,
                  hint: Callable[[Combat], Said] | None = None,
                  ) -> StoredCombat:
        """Apply a command for the user and commit it, then answer and show the fight.
        ``update``: first, once committed, bring the message the user pressed up to date
        (the answer then follows it). ``hint``: what to do next, from the fight as it now
        is, said after what happened."""
        require_guild(interaction)
        require_channel_permissions(interaction)
        channel_id = interaction.channel_id or 0
        # The lock is held for database work only (about a millisecond); a database slow to
        # answer would still make the answer miss Discord's 3 seconds, so it is deferred
        # first when it is not ready in time. An answer Discord refuses anyway is posted in
        # the channel instead (see :meth:`answer`).
        timer = DeferTimer(interaction, arrived=self.bot.metrics.started_at(interaction.id),
                           after=self.defer_after)
        try:
            actor = await actor_of(interaction)
            async with self.lock(channel_id):
                saved, events = await self._apply(interaction, make, combat_id, version, actor)
        finally:
            await timer.settle()
        if update is not None:
            try:
                await update(saved, events)
            except discord.HTTPException as error:  # the answer below still tells the table
                log.warning("Could not update the message of interaction %s (%s)",
                            interaction.id, error)
        language = await channel_language(interaction)  # (kept in memory: no query)
        after = "" if hint is None else render(hint(saved.state), language)  # (after the news)
        missing = self.presenter.held.missing(channel_id)  # (taken away while on its way)
        if missing:
            after += "\n" + render(lacking_notice(missing), language)
        shown = None if update is not None else await self._answer_on_prompt(
            interaction, saved, events, after, language)
        if shown is None:
            shown = await self.tell(interaction, clip(events_text(events, language) + after),
                                    channel_id, language)
        await self.shown(saved, shown)
        await self.presenter.ask(interaction, saved)
        self.presenter.refresh(saved, started=self.bot.metrics.started_at(interaction.id))
        compact_state(saved.state)  # memory's housekeeping waits until the table was answered
        return saved

    async def run_quietly(self, interaction: discord.Interaction[Any], make: MakeCommand, *,
                          combat_id: int | None = None, update: Update) -> StoredCombat:
        """Apply a command for the user and commit it as :meth:`run` does, but tell the table
        nothing: ``update`` alone answers the user (a standing order is the player's own plan,
        not news). The board and the prompt are brought up to the new version."""
        require_guild(interaction)
        require_channel_permissions(interaction)
        timer = DeferTimer(interaction, arrived=self.bot.metrics.started_at(interaction.id),
                           after=self.defer_after)
        try:
            actor = await actor_of(interaction)
            async with self.lock(interaction.channel_id or 0):
                saved, events = await self._apply(interaction, make, combat_id, None, actor)
        finally:
            await timer.settle()
        await update(saved, events)
        self.presenter.refresh(saved)
        return saved

    async def _apply(self, interaction: discord.Interaction[Any], make: MakeCommand,
                     combat_id: int | None, version: int | None,
                     actor: Actor) -> tuple[StoredCombat, tuple[Event, ...]]:
        """Apply and commit under the lock. When the copy in memory turns out stale (another
        process changed the fight: a guild changing hands), read the fight again and try
        once more; a button of an older version is then refused as out of date. A refusal
        made on the copy in memory is checked against the database first, so a stale copy
        never refuses what the fight as it is allows."""
        for attempt in range(2):
            stored = await self._require_fight(interaction, combat_id, version)
            try:
                command = await _made(make, stored.state)
                return await self._commit(stored, command, actor)
            except StaleCopy:
                if attempt:
                    raise
            except DatabaseUnavailable:
                raise  # (a commit cut off may have landed: never apply the command again)
            except (RuleError, UserError):
                if attempt or not await self._changed_elsewhere(stored):
                    raise
        raise AssertionError("unreachable")

    async def _changed_elsewhere(self, stored: StoredCombat) -> bool:
        """Whether the database holds a newer version of ``stored`` (dropping the copy)."""
        kept = await self.bot.store.combats.get(stored.id)
        if kept is None or kept.version == stored.version:
            return False
        self.drop_stale(stored)
        return True

    async def _commit(self, stored: StoredCombat, command: Command,
                      actor: Actor) -> tuple[StoredCombat, tuple[Event, ...]]:
        """Apply ``command`` and commit the step (the caller holds the channel's lock)."""
        state, events = apply(stored.state, command, actor=actor, dice=self.bot.dice,
                              rules=self.rules, now=self.clock())
        text = command_adapter.dump_json(command).decode()
        return await self.commit(stored, state, events, user_id=actor.user_id, command=text)

    async def commit(self, stored: StoredCombat, state: Combat, events: tuple[Event, ...], *,
                     user_id: int, command: str) -> tuple[StoredCombat, tuple[Event, ...]]:
        """Save a new state of ``stored`` (the caller holds the channel's lock)."""
        shown = self.presenter.records.unwritten(stored.id)  # (carried by this step's commit)
        try:
            saved = await self.bot.store.combats.save(
                stored, state, user_id=user_id, command=command, events=events,
                write_back=_write_back, shown=shown)
        except DatabaseUnavailable:
            # Whether a commit cut off on its way was made is not known: read the fight again
            # next time (its version refuses a step applied twice).
            self.forget(stored.channel_id)
            raise
        except AlreadyFighting as taken:
            self.forget(stored.channel_id)
            name = next((f.name for f in state.fighters
                         if f.character_id == taken.character_id), "That character")
            raise UserError(phrase("{name} is already in the fight in {channel}; a character "
                                   "fights in one place at a time.",
                                   name=discord.utils.escape_markdown(name),
                                   channel=f"<#{taken.channel_id}>")) from None
        if saved is None:
            self.bot.metrics.fight_steps.labels("stale").inc()
            self.drop_stale(stored)
            raise StaleCopy(phrase("The fight changed a moment ago; look again and retry."))
        self.bot.metrics.fight_steps.labels("applied").inc()
        if shown is not None:
            self.presenter.records.carried(shown)
        self.steps.committed(saved.id, saved.version)
        if not saved.active:
            self.steps.forget(saved.id)
        self._keep(saved)
        self._rearm(saved)
        return saved, events

    async def undo(self, interaction: discord.Interaction[Any]
                   ) -> tuple[Undone, StepMessage | None]:
        """Take back the channel's last command: what was undone, and the message that showed
        its outcome when this process knows it (None: not known, as after a restart); that
        message is for :meth:`mark_taken_back`, once the undo is answered (outside the lock:
        a Discord call never holds up a step)."""
        async with self.lock(interaction.channel_id or 0):
            stored = await self.require_fight(interaction)
            try:
                result = await self.bot.store.combats.undo(stored)
            except DatabaseUnavailable:
                self.forget(stored.channel_id)  # (as in :meth:`commit`)
                raise
            if result is None:
                raise UserError(phrase("There is nothing to undo in this fight."))
            restored = result.combat
            taken = self.steps.taken_back(restored.id)
            self._keep(restored)
            self._rearm(restored)
        return result, taken

    async def shown(self, saved: StoredCombat, message: StepMessage | None) -> None:
        """``message`` shows the outcome of the step that made ``saved`` (None: no message
        for it); one an undo took back already is marked at once."""
        if message is not None and self.steps.shown(saved.id, saved.version, message):
            await self.mark_taken_back(message)

    async def mark_taken_back(self, message: StepMessage | None) -> None:
        """Edit the message of a step an undo took back: its outcome struck, and a line saying
        so (one edit, through the bot's HTTP client, its rate limits kept). Refused (the
        message deleted, a permission missing), it is logged and left: the undo stands."""
        if message is None:
            return
        with handle_message_parameters(content=taken_back_text(message),
                                       allowed_mentions=discord.AllowedMentions.none()
                                       ) as params:
            try:
                await self.bot.http.edit_message(message.channel_id, message.message_id,
                                                 params=params)
            except (discord.HTTPException, discord.RateLimited) as error:
                log.warning("Could not mark message %s as taken back (%s)", message.message_id,
                            error)

    async def _answer_on_prompt(self, interaction: discord.Interaction[Any],
                                saved: StoredCombat, events: tuple[Event, ...],
                                after: str, language: str) -> StepMessage | None:
        """Answer a press on the fight's live prompt by updating that prompt (callback type 7):
        what it asked (its countdown stopped), then what happened and ``after``, its buttons
        gone. The step's news (a turn handed over, a round ended: :func:`news_at`) and
        ``after`` go to a new message at the bottom instead, where the next prompt follows.
        The message that shows the step's outcome, for an undo; None when the prompt was not
        answered (any other message, or Discord refused: the caller then answers anew)."""
        pressed = interaction.message
        deferred = interaction.response.type is InteractionResponseType.deferred_message_update
        if (pressed is None or (interaction.response.is_done() and not deferred)
                or not self.presenter.prompts.is_live(saved, pressed.id)):
            return None
        asked = settled(pressed.content, self.clock(), language)
        news = news_at(events)
        if news == 0 < len(events):  # (all news: the prompt keeps what it asked)
            content, outcome = asked, ""
        else:
            outcome = (events_text(events[:news], language)
                       + ("" if news < len(events) else after))
            content = answered_question(asked, outcome)
        try:
            await update_pressed(interaction, content=content, view=None,
                                 allowed_mentions=discord.AllowedMentions.none())
        except discord.HTTPException as error:
            log.warning("Could not answer interaction %s on its prompt (%s)", interaction.id,
                        error)
            return None
        self.presenter.prompts.pressed(saved, pressed.id)
        if news < len(events):
            posted = await self.tell(interaction,
                                     clip(events_text(events[news:], language) + after),
                                     saved.channel_id, language)
            if not outcome:  # (all news: the new message is the step's)
                return posted
        answered = content.endswith(outcome)  # (else the outcome was cut to fit alone)
        return StepMessage(saved.channel_id, pressed.id,
                           content[:len(content) - len(outcome)].rstrip("\n") if answered
                           else "",
                           outcome if answered else content, language)

    async def answer(self, interaction: discord.Interaction[Any], text: str,
                     channel_id: int) -> int | None:
        """Answer the interaction for the table; if Discord refuses (an expired token, an
        outage), post the text in the channel instead, so what was saved is still seen. The
        id of the message that says it (None: not known)."""
        try:
            if interaction.response.is_done():
                sent = await interaction.followup.send(text, wait=True)
                return sent.id
            callback = await interaction.response.send_message(text)
            return callback.message_id
        except discord.HTTPException as error:
            log.warning("Could not answer interaction %s (%s); posting instead",
                        interaction.id, error)
            return await self.presenter.post(channel_id, text)

    async def tell(self, interaction: discord.Interaction[Any], text: str,
                   channel_id: int, language: str) -> StepMessage | None:
        """:meth:`answer` with a step's outcome (said in ``language``): the message that shows
        it, for an undo."""
        message_id = await self.answer(interaction, text, channel_id)
        return None if message_id is None else StepMessage(channel_id, message_id, "", text,
                                                           language)

    # -- reaction windows that close by themselves ----------------------------------------

    def _rearm(self, stored: StoredCombat) -> None:
        deadline = stored.next_deadline
        if deadline is None:
            self._deadlines.pop(stored.channel_id, None)
        else:
            self._arm(stored.channel_id, deadline)

    def _arm(self, channel_id: int, deadline: float) -> None:
        """Close the channel's window at ``deadline``. One task watches every deadline (a
        bot with thousands of open windows keeps one task, not thousands)."""
        self._deadlines[channel_id] = deadline
        self._wake_by(deadline)

    def _wake_by(self, deadline: float) -> None:
        """See that the watcher looks at the deadlines by ``deadline``: it is started, or
        started again to wake sooner, unless it wakes in time already."""
        watching = self._watcher is not None and not self._watcher.done()
        if watching and (self._wakes_at is None or deadline >= self._wakes_at):
            return  # the watcher wakes in time for it
        if watching and self._watcher is not asyncio.current_task():
            assert self._watcher is not None
            self._watcher.cancel()
        self._wakes_at = None
        self._watcher = asyncio.get_running_loop().create_task(
            self._watch(), name="unhex-background:deadlines")

    async def _watch(self) -> None:
        while self._deadlines:
            due = self._wakes_at = min(self._deadlines.values())
            await asyncio.sleep(max(0.0, due - self.clock()))
            now = self.clock()
            for channel_id, deadline in list(self._deadlines.items()):
                if deadline <= now:
                    del self._deadlines[channel_id]
                    asyncio.get_running_loop().create_task(
                        self._close(channel_id), name=f"unhex-background:window:{channel_id}")

    async def _close(self, channel_id: int) -> None:
        try:
            await self.close_expired_window(channel_id)
            await self.remind_late(channel_id)
        except DatabaseUnavailable:  # the window still closes, once, when it is back
            log.warning("Could not close the reaction window in channel %s: the database is "
                        "unavailable; trying again in %g s", channel_id, self.deadline_retry)
            self._arm(channel_id, self.clock() + self.deadline_retry)
        except Exception:  # a timer has nobody to answer: log it
            log.exception("Could not close the reaction window in channel %s", channel_id)

    async def close_expired_window(self, channel_id: int) -> bool:
        """Do what the channel's passed deadline asks (the timer's job): close a reaction
        window, or say that a team's turn reached its deadline (``engine.combat.pace``); with
        a stale copy in memory, read the fight again: another process may have done it
        already, and a deadline acts once."""
        async with self.lock(channel_id):
            for attempt in range(2):
                stored = await self.fight(channel_id)
                command = None if stored is None else due_command(stored.state, self.clock())
                if stored is None or command is None:
                    return False
                system = Actor(user_id=self.bot.user.id if self.bot.user else 0, gm=True)
                try:
                    saved, events = await self._commit(stored, command, system)
                    break
                except StaleCopy:
                    if attempt:
                        raise
        language = await fight_language(self.bot, saved.guild_id)
        outcome = events_text(events, language)
        told = saved.state.turn_deadline_told or saved.state.between_turns_told
        if isinstance(command, TurnDeadline | BetweenTurnsDeadline) and told:
            posted = await gm_ping(self.bot, saved, outcome, language)
            lead = "⏱️"
        else:
            lead = translated("⏱️ Time is up.", language)
            posted = await self.presenter.post(channel_id, f"{lead}\n{outcome}")
        await self.shown(saved, None if posted is None else StepMessage(
            channel_id, posted, lead, outcome, language))
        self.presenter.refresh(saved)
        compact_state(saved.state)
        return True

    async def remind_late(self, channel_id: int) -> bool:
        """Remind the late players of the channel's fight whose reminders are due (the
        timer's job): recorded first, so a reminder goes once even when another process
        (or this one, restarted) looks too; then sent, outside the lock."""
        async with self.lock(channel_id):
            stored = await self.fight(channel_id)
            if stored is None:
                return False
            now = self.clock()
            pending = pending_reminders(stored.state, stored.reminded)
            due = [r for r in pending if r.due <= now]
            if not due:
                if stored.next_deadline is not None and stored.next_deadline > now:
                    self._arm(channel_id, stored.next_deadline)
                return False
            waiting = {q.deadline for q in asked(stored.state).questions}
            kept = tuple(d for d in stored.reminded if d in waiting)  # (the others are past)
            saved = await self.bot.store.combats.remind(
                stored, kept + tuple(r.deadline for r in due))
            if saved is None:  # recorded elsewhere, or the fight moved on: look again
                self.drop_stale(stored)
                self._arm(channel_id, now)
                return False
            self._keep(saved)
            self._rearm(saved)
        await send_reminders(self.bot, saved, due, now=now,
                             prompt_id=self.presenter.prompts.of(saved).message_id)
        return True


def _behind(stored: StoredCombat, combat_id: int | None, version: int | None) -> bool:
    """Whether a button of fight ``combat_id`` at ``version`` is newer than ``stored``."""
    if combat_id is not None and stored.id != combat_id:
        return stored.id < combat_id
    return version is not None and stored.version < version


async def _made(make: MakeCommand, state: Combat) -> Command:
    if not callable(make):
        return make
    made = make(state)
    return await made if asyncio.iscoroutine(made) else made  # type: ignore[return-value]
