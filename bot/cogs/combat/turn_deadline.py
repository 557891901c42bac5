"""A team's turn that reached its deadline, at the table: the GM is pinged once (the server's
GM role, else the GM who began the fight) with who has not acted, and two buttons: **Extend**
(by the turn's length) and **End the turn** (as Done); a GM may also act for a player with
that player's buttons, as always."""

from __future__ import annotations

import json
import re
from typing import TYPE_CHECKING, Any

import discord

from bot.cogs.combat.answered import settled
from bot.cogs.combat.fights import fights_of
from bot.components import PersistentButton
from bot.custom_ids import CustomId, choice, digits
from bot.deferral import update_pressed
from bot.i18n import N_, channel_language, render, translated
from bot.store.values import StoredCombat
from bot.user_error import UserError
from engine.combat import Combat, Command, Done, Event, Phase
from engine.combat.commands import ExtendTurn
from engine.combat.pace import duration_phrase
from engine.phrases import phrase

if TYPE_CHECKING:
    from bot.host import Host

__all__ = ["DeadlineButton", "gm_ping"]

#: What the GM may do besides the buttons.
ACT_FOR_THEM = N_("-# A GM may also act for a player's fighter with that player's buttons "
                  "(**My options** on the turn's message).")
#: Where the GM answers for the late between turns (the outcome said that a GM may).
ANSWER_FOR_THEM = N_("-# Their buttons are on the question's message.")


class DeadlineButton(
    PersistentButton,
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    id_spec=CustomId("deadline", choice("what", "extend", "end"), digits("combat"),
                     digits("round"), digits("turn")),
):
    """**Extend** or **End the turn**, for a GM, on the ping of a turn past its deadline. The
    id carries the fight, the round and the turn: a press once that turn is over applies
    nothing."""

    def __init__(self, what: str, combat_id: int, round_: int, turn: int,
                 label: str = "") -> None:
        super().__init__(discord.ui.Button(
            label=label or what,
            style=discord.ButtonStyle.primary if what == "extend" else
            discord.ButtonStyle.secondary,
            custom_id=self.id_spec.format(what=what, combat=combat_id, round=round_, turn=turn)))
        self.what, self.combat_id, self.round, self.turn = what, combat_id, round_, turn

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any],
                             item: discord.ui.Item[Any], match: re.Match[str]) -> DeadlineButton:
        return cls(match["what"], int(match["combat"]), int(match["round"]), int(match["turn"]))

    async def handle(self, interaction: discord.Interaction[Any]) -> None:
        def command(state: Combat) -> Command:
            if state.phase is not Phase.TURN or (state.round, state.turn) != (
                    self.round, self.turn):
                raise UserError(phrase("That turn is over: use the newest buttons."))
            if not state.turn_deadline_told:  # extended since: this ping was answered
                raise UserError(phrase("A GM has chosen already for this deadline."))
            if self.what == "extend":
                return ExtendTurn()
            return Done(team=state.acting_team)

        session = fights_of(interaction)

        async def settle_ping(saved: StoredCombat, events: tuple[Event, ...]) -> None:
            """The ping says what the GM chose, and by whom, its countdowns settled and its
            buttons gone: a second press is not offered (and one on an old copy applies
            nothing, as its turn's deadline moved on or the turn is over)."""
            message = interaction.message
            language = await channel_language(interaction)
            before = "" if message is None else settled(message.content, session.clock(),
                                                        language)
            chose = (render(events[0].text, language).splitlines()[0] if events
                     else translated("Done.", language))
            after = f"{before}\n✅ {chose} ({interaction.user.mention})".lstrip("\n")
            await update_pressed(interaction, content=after[:2000], view=None,
                                 allowed_mentions=discord.AllowedMentions.none())

        await session.run(interaction, command, combat_id=self.combat_id, update=settle_ping)


def _buttons(saved: StoredCombat, language: str) -> discord.ui.View:
    state = saved.state
    assert state.turn is not None
    view = discord.ui.View(timeout=None)
    seconds = state.turn_seconds
    extend = (translated("Extend", language) if seconds is None else
              render(phrase("Extend by {duration}", duration=duration_phrase(seconds)),
                     language))
    view.add_item(DeadlineButton("extend", saved.id, state.round, state.turn, extend[:80]))
    view.add_item(DeadlineButton("end", saved.id, state.round, state.turn,
                                 translated("End the turn", language)))
    return view


async def _gm_mention(bot: Host, saved: StoredCombat,
                      language: str) -> tuple[str, discord.AllowedMentions]:
    """Whom to ping: the server's GM role, else the GM who began the fight."""
    role = await bot.store.guilds.gm_role(saved.guild_id)
    if role is not None:
        return f"<@&{role}>", discord.AllowedMentions(
            everyone=False, users=False, roles=[discord.Object(role)])
    began = next((e.user_id for e in await bot.store.combats.log(saved.id, limit=None)
                  if json.loads(e.command).get("kind") == "begin"), None)
    if began is None:
        return translated("GMs", language), discord.AllowedMentions.none()
    return f"<@{began}>", discord.AllowedMentions(
        everyone=False, roles=False, users=[discord.Object(began)])


async def gm_ping(bot: Host, saved: StoredCombat, outcome: str, language: str) -> int | None:
    """Ping the GM once that the turn reached its deadline (``outcome``: what the deadline
    did, said in ``language``, the channel's), with the choices at hand; the
    message's id (None: Discord refused, logged by the caller's presenter). Between turns
    (initiative, the rallies at the end) the GM answers with the players' buttons alone."""
    state = saved.state
    in_turn = state.phase in (Phase.TURN, Phase.RESOLUTION) and state.turn is not None
    mention, allowed = await _gm_mention(bot, saved, language)
    text = (f"⏱️ {mention}: {outcome}\n"
            f"{render(ACT_FOR_THEM if in_turn else ANSWER_FOR_THEM, language)}")
    channel = bot.get_partial_messageable(saved.channel_id, guild_id=saved.guild_id)
    try:
        if in_turn:
            sent = await channel.send(text, view=_buttons(saved, language),
                                      allowed_mentions=allowed)
        else:
            sent = await channel.send(text, allowed_mentions=allowed)
    except (discord.HTTPException, discord.RateLimited):
        return None
    return sent.id
