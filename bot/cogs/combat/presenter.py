"""Showing a fight to the table: the board (one message, edited: see
:mod:`~bot.cogs.combat.board_message`), the prompt (a new message
with the buttons of the newest version; the previous one loses its buttons) and, when a fight
ends, its recap and each PC's Recovery offer.

This runs outside every lock and after the step was committed. Requests for one channel are
coalesced: a burst of commands edits the board once, with the newest version. Only when
everything is shown is that version recorded as shown, so a restart (or the next command)
shows again whatever Discord refused or a crash cut short.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import TYPE_CHECKING

import discord

from bot.cogs.combat.board_message import BoardMessages
from bot.cogs.combat.recap import after_the_fight_hint, recap_message
from bot.cogs.combat.recovery import RecoverButton, has_to_recover
from bot.cogs.combat.turn import turn_lead
from bot.cogs.combat.views import TurnLead, prompt_message
from bot.components import button_row
from bot.store.values import DatabaseUnavailable, StoredCharacter, StoredCombat
from engine.catalog import Rules

if TYPE_CHECKING:
    from bot.client import UnhexBot

log = logging.getLogger(__name__)

__all__ = ["Presenter"]

#: What a question says once an undo went back to before it was asked.
TAKEN_BACK = "-# ↩️ This question was taken back with `/combat undo`."

#: Seconds to wait before trying again after Discord refused to show a fight.
RETRY_DELAYS = (2.0, 10.0, 60.0)


def _nonce(kind: str, stored: StoredCombat) -> str:
    """The nonce of a message showing ``stored``: Discord creates one message per nonce (for a
    few minutes), so showing the same version again after a crash between posting a message
    and recording its id finds that message instead of posting a second one."""
    return f"{kind}{stored.id}.{stored.version}"[:25]


class Presenter:
    def __init__(self, bot: UnhexBot, rules: Rules) -> None:
        self.bot = bot
        self.rules = rules
        self.boards = BoardMessages(rules)
        # channel -> fight id -> the newest version to show (None: read it from the store)
        self._wanted: dict[int, dict[int, StoredCombat | None]] = {}
        self._workers: dict[int, asyncio.Task[None]] = {}
        self._messages: dict[int, tuple[int | None, int | None]] = {}  # fight -> board, prompt
        self._attempts: dict[int, int] = {}  # fight -> refusals in a row
        # fight -> the version whose prompt `_messages` holds (posted, maybe not all shown)
        self._prompted: dict[int, int] = {}
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
        """Like :meth:`refresh` for a fight not read yet (start-up): it is read when shown."""
        self._wanted.setdefault(channel_id, {}).setdefault(combat_id, None)
        self._start(channel_id)

    def forget(self, combat_id: int) -> None:
        """Forget what this process showed of the fight: another process changed it, so its
        messages are read from the database next time."""
        self._messages.pop(combat_id, None)
        self._prompted.pop(combat_id, None)
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

    def close(self) -> None:
        for task in (*self._workers.values(), *self._retries.values()):
            task.cancel()

    def _start(self, channel_id: int) -> None:
        worker = self._workers.get(channel_id)
        if worker is None or worker.done():
            self._workers[channel_id] = asyncio.get_running_loop().create_task(
                self._work(channel_id), name=f"unhex-show:{channel_id}")

    async def _work(self, channel_id: int) -> None:
        """Show the channel's fights, oldest first (a fight's end, then the next one), each
        at the newest version asked for by the time it is shown."""
        while wanted := self._wanted.get(channel_id):
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
            except discord.Forbidden as error:
                log.warning("Not allowed to show fight %s in channel %s: %s", stored.id,
                            channel_id, error)
            except (discord.HTTPException, discord.RateLimited) as error:
                log.warning("Discord refused to show fight %s (%s)", stored.id, error)
                self._retry(stored)
            except DatabaseUnavailable:  # shown, but not recorded as shown: show it again
                log.warning("Could not record fight %s as shown: the database is unavailable",
                            stored.id)
                self._retry(stored)
            except Exception:
                log.exception("Could not show fight %s in channel %s", stored.id, channel_id)
            else:
                self._attempts.pop(stored.id, None)
                self._shown[stored.id] = stored.version
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

    async def post(self, channel_id: int, text: str) -> None:
        """Post ``text`` in the channel; a refusal is logged, not raised (nobody to tell)."""
        try:
            await self._channel(channel_id).send(text)
        except (discord.HTTPException, discord.RateLimited) as error:
            log.warning("Could not post in channel %s: %s", channel_id, error)

    async def show(self, stored: StoredCombat) -> None:
        """Edit the board, replace the prompt and, at a fight's end, offer Recovery; then
        record ``stored``'s version as shown. The board, the old prompt and the new one are
        three Discord calls made together: the table waits for one round trip, not three."""
        channel = self._channel(stored.channel_id, stored.guild_id)
        kept = self._messages.get(stored.id, (stored.board_message_id,
                                              stored.prompt_message_id))
        board_id, old_prompt = kept
        if self._prompted.get(stored.id) == stored.version:
            old_prompt = None  # this version's own, posted before a refusal: its nonce finds it
        undone = self._undone.get(stored.id) == stored.version
        asking = prompt_message(stored, self.rules, self._lead(stored, quiet=undone))
        taken_back = undone and asking[1] is None
        board, stripped, prompt = await asyncio.gather(
            self.boards.show(channel, stored, board_id, nonce=_nonce("b", stored)),
            self._strip(channel, old_prompt, taken_back=taken_back),
            self._prompt(channel, stored, asking, quiet=undone), return_exceptions=True)
        board_id, prompt_id = self._keep_messages(stored, kept, board, stripped, prompt)
        # All three are done either way; after a refusal the whole is shown again, later.
        for outcome in (board, stripped, prompt):
            if isinstance(outcome, BaseException):
                raise outcome
        if undone:
            del self._undone[stored.id]
        if not stored.active:
            await self.boards.end(channel, stored, board_id)
            recovering = await self._to_recover(stored)
            await self._post_recap(channel, stored, recovering=bool(recovering))
            await self._offer_recovery(channel, stored, recovering)
            self._messages.pop(stored.id, None)
            self._prompted.pop(stored.id, None)
            self._announced.pop(stored.id, None)
        await self.bot.store.combats.shown(stored, board=board_id, prompt=prompt_id,
                                           announced_turn=self._announced.get(stored.id))

    def _keep_messages(self, stored: StoredCombat, before: tuple[int | None, int | None],
                       board: object, stripped: object,
                       prompt: object) -> tuple[int | None, int | None]:
        """Keep the board and the prompt the table now sees, whatever else failed: a board
        posted afresh is the one to edit next; a prompt posted is the one the next version
        strips (unless the old one kept its buttons: that one goes first, and showing this
        version again finds the new prompt by its nonce)."""
        board_id, prompt_id = before
        if isinstance(board, int):
            board_id = board
        if not isinstance(stripped, BaseException) and (prompt is None or
                                                        isinstance(prompt, int)):
            prompt_id = prompt
            self._prompted[stored.id] = stored.version
        self._messages[stored.id] = (board_id, prompt_id)
        return board_id, prompt_id

    @staticmethod
    async def _strip(channel: discord.PartialMessageable, prompt_id: int | None, *,
                     taken_back: bool = False) -> None:
        """The previous prompt loses its buttons (they are out of date anyway); ``taken_back``:
        an undo went back to before its question, which it now says instead."""
        if prompt_id is not None:
            message = channel.get_partial_message(prompt_id)
            with contextlib.suppress(discord.NotFound):
                if taken_back:
                    await message.edit(content=TAKEN_BACK, view=None)
                else:
                    await message.edit(view=None)

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

    async def _post_recap(self, channel: discord.PartialMessageable,
                          stored: StoredCombat, *, recovering: bool) -> None:
        """The fight's recap, what to do next and its Log file button (once: shown again, the
        nonce finds the message already posted); ``recovering``: PCs are offered Recovery."""
        session = await self.bot.store.sessions.current(stored.guild_id)
        hint = after_the_fight_hint(stored, recovering=recovering,
                                    session_open=session is not None)
        content, view = recap_message(stored, self.rules, hint)
        if stored.report_channel_id is not None:  # a fight in a thread: back to its channel
            channel = self._channel(stored.report_channel_id, stored.guild_id)
            content = f"The fight in <#{stored.channel_id}> is over.\n{content}"
        await channel.send(content, view=view, nonce=_nonce("recap", stored),
                           allowed_mentions=discord.AllowedMentions.none())

    def _lead(self, stored: StoredCombat, *, quiet: bool = False) -> TurnLead | None:
        """The team's turn line; it pings the players the first time the turn is shown (not
        when an undo went back to it: ``quiet``)."""
        turn = f"{stored.state.round}:{stored.state.turn}"
        ping = not quiet and self._announced.get(stored.id, stored.announced_turn) != turn
        lead = turn_lead(stored, ping=ping)
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
        for saved in recovering:
            ch = saved.character
            await channel.send(
                f"{discord.utils.escape_markdown(ch.name)} (<@{saved.owner_id}>) may recover: "
                f"level {ch.level} → {ch.max_level}, wounds \\ and X erased, destroyed items "
                "replaced. Time passes while they do.",
                view=button_row(RecoverButton.for_character(saved)),
                nonce=f"r{stored.id}.{saved.id}"[:25],
                allowed_mentions=discord.AllowedMentions(
                    everyone=False, roles=False, users=[discord.Object(saved.owner_id)]),
            )

