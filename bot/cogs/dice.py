"""`/roll`: a d100 roll in chat with Unhex's good re-rolls and critical choices."""

from __future__ import annotations

import re
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands
from discord.utils import escape_markdown

from bot.adjust_form import ADJUST_MEANS, adjust_example
from bot.cogs.characters.choices import changeable_character, matching_choices
from bot.cogs.characters.common import (
    LOOKUP_LIMIT,
    RULES,
    as_it_stands,
    find_character,
    hidden_in_fight,
    may_change,
)
from bot.components import PersistentButton, button_row
from bot.custom_ids import CustomId, choice, digits
from bot.host import Host
from bot.i18n import N_, SOURCE, channel_language, person_language, render, translated
from bot.options import Text
from bot.permissions import is_gm
from bot.store.values import StoredCharacter, StoredRoll
from bot.text import FORM_TEXT_LIMIT, clip, echo, parse_number
from bot.user_error import UserError
from engine.character import good_at_matching, good_roll
from engine.dice import MAX_LEVEL, MIN_LEVEL, Check, Reroll
from engine.phrases import Argument, Phrase, Said, phrase
from engine.quickroll import Decision, QuickRoll

NOTE_LIMIT = 200


def _line(check: Check) -> Phrase:
    dice: dict[str, Argument] = {"value": check.value, "tens": check.tens, "ones": check.ones,
            "outcome": check.said_outcome}
    if check.success:
        return phrase("**{value}** ({tens}·{ones}) — {outcome} · degrees {tens} and {ones}",
                      **dice)
    return phrase("**{value}** ({tens}·{ones}) — {outcome}", **dice)


def _rerolled(which: Reroll, line: Phrase) -> Phrase:
    """"Re-rolled …: <the new line>"."""
    match which:
        case Reroll.TENS:
            return phrase("Re-rolled tens: {line}", line=line)
        case Reroll.ONES:
            return phrase("Re-rolled ones: {line}", line=line)
        case _:
            return phrase("Re-rolled both: {line}", line=line)


def _heading(stored: StoredRoll) -> Phrase:
    """Who rolls against what, how good, and what for."""
    q = stored.state
    user, level = f"<@{stored.user_id}>", q.roll.level
    head = (phrase("🎲 {user} rolls as **{character}** vs **{level}**", user=user,
                   character=escape_markdown(q.character), level=level) if q.character
            else phrase("🎲 {user} rolls vs **{level}**", user=user, level=level))
    if q.ability:
        head = phrase("{head} (good at {ability})", head=head,
                      ability=escape_markdown(q.ability))
    elif q.good:
        head = phrase("{head} (good)", head=head)
    if stored.note:
        head = phrase("{head} — {note}", head=head, note=escape_markdown(stored.note))
    return head


def _roll_lines(stored: StoredRoll) -> list[Phrase]:
    q = stored.state
    r = q.roll
    lines = [_heading(stored)]
    if r.second_check is not None and r.rerolled is not None:
        first = r.first_check
        lines.append(phrase("First roll: ~~{value} ({tens}·{ones})~~ {outcome}",
                            value=first.value, tens=first.tens, ones=first.ones,
                            outcome=first.said_outcome))
        lines.append(_rerolled(r.rerolled, _line(r.second_check)))
    else:
        lines.append(_line(r.first_check))
    if r.adjusted_check is not None:
        lines.append(phrase("Adjusted to {line}", line=_line(r.adjusted_check)))
    elif r.critical_choice is not None:
        lines.append(phrase("Took an extra action."))
    if q.against is not None:
        lines.append(phrase("Other side vs {level}: {line}", level=q.against.level,
                            line=_line(q.against)))
    waiting = q.waiting_for
    if waiting is Decision.REROLL:
        lines.append(phrase("*Good: re-roll tens, ones or both — or keep this roll.*"))
    elif waiting is Decision.CRITICAL:
        lines.append(phrase("*Critical success: take an extra action, or adjust to "
                            "1-{limit}.*", limit=r.adjust_limit))
    elif q.against is not None:
        lines.append(_winner_line(stored))
    return lines


def render_roll(stored: StoredRoll, language: str = SOURCE) -> str:
    """The roll message as everyone in the channel sees it, in the channel's ``language``."""
    return "\n".join(render(line, language) for line in _roll_lines(stored))


def _winner_line(stored: StoredRoll) -> Phrase:
    q = stored.state
    match q.winner():
        case "roller":
            return phrase("**Winner: {user}**", user=f"<@{stored.user_id}>")
        case "other":
            return phrase("**Winner: the other side**")
        case "tie":
            return phrase("**Tie at {value}**: a PC beats an NPC; otherwise nobody wins.",
                          value=q.roll.result.value)
        case _:
            return phrase("**Both failed**: nobody wins.")


def roll_view(stored: StoredRoll, language: str = SOURCE) -> discord.ui.View | None:
    """The buttons for the decision the roll waits for, if any (labelled in ``language``,
    the channel's)."""
    match stored.state.waiting_for:
        case Decision.REROLL:
            return button_row(
                *(RollButton(stored.id, which.value, language) for which in Reroll),
                RollButton(stored.id, "keep", language),
            )
        case Decision.CRITICAL:
            return button_row(RollButton(stored.id, "extra", language),
                              RollButton(stored.id, "adjust", language))
        case _:
            return None


_BUTTON_STYLE = {
    "tens": (N_("Re-roll tens"), discord.ButtonStyle.primary),
    "ones": (N_("Re-roll ones"), discord.ButtonStyle.primary),
    "both": (N_("Re-roll both"), discord.ButtonStyle.primary),
    "keep": (N_("Keep"), discord.ButtonStyle.secondary),
    "extra": (N_("Extra action"), discord.ButtonStyle.success),
    "adjust": (N_("Adjust"), discord.ButtonStyle.success),
}


class RollButton(
    PersistentButton,
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    id_spec=CustomId("roll", digits("id", 18), choice("action", *_BUTTON_STYLE)),
):
    """One decision on a chat roll; only the roller may press it."""

    def __init__(self, roll_id: int, action: str, language: str = SOURCE) -> None:
        label, style = _BUTTON_STYLE[action]
        super().__init__(discord.ui.Button(
            label=render(label, language), style=style,
            custom_id=self.id_spec.format(id=roll_id, action=action)))
        self.roll_id = roll_id
        self.action = action

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any],
        match: re.Match[str],
    ) -> RollButton:
        return cls(int(match["id"]), match["action"])

    async def handle(self, interaction: discord.Interaction[Any]) -> None:
        bot: Host = interaction.client
        stored = await _own_roll(bot, self.roll_id, interaction.user.id)
        q = stored.state
        if self.action == "adjust":
            q.adjust(q.roll.adjust_limit)  # refuses now, before the modal, if adjusting is closed
            modal = AdjustModal(stored, await person_language(interaction))
            # Not kept in memory: DiceCog.adjust_submitted answers the submit by its custom id,
            # so a modal left open across a restart still works.
            modal.stop()
            await interaction.response.send_modal(modal)
            return
        if self.action == "keep":
            new = q.keep()
        elif self.action == "extra":
            new = q.extra_action()
        else:
            new = q.reroll(Reroll(self.action), bot.dice)
        await _save_and_show(bot, interaction, stored, new)


async def _own_roll(bot: Host, roll_id: int, user_id: int) -> StoredRoll:
    stored = await bot.store.rolls.get(roll_id)
    if stored is None:
        raise UserError(phrase("That roll is no longer kept."))
    if stored.user_id != user_id:
        raise UserError(phrase("Only {user} can decide this roll.", user=f"<@{stored.user_id}>"))
    return stored


async def _save_and_show(
    bot: Host, interaction: discord.Interaction[Any], stored: StoredRoll, new: QuickRoll
) -> None:
    saved = await bot.store.rolls.replace(stored, new)
    if saved is None:
        raise UserError(phrase("This roll was decided a moment ago; nothing more changed."))
    language = await channel_language(interaction)
    await interaction.response.edit_message(content=render_roll(saved, language),
                                            view=roll_view(saved, language))


#: The Adjust form's id: the roll it adjusts.
ADJUST_FORM_SPEC = CustomId("roll-adjust", digits("id", 18))
ADJUST_MODAL_ID = ADJUST_FORM_SPEC.template


class AdjustModal(discord.ui.Modal):
    """The form Adjust opens, in its roller's ``language``; its submit is answered by
    :func:`submit_adjust`."""

    def __init__(self, stored: StoredRoll, language: str = SOURCE) -> None:
        # Discord's limits hold in every language: a title and a label 45, the rest 100.
        super().__init__(title=clip(translated("Adjust the critical success", language),
                                    FORM_TEXT_LIMIT),
                         custom_id=ADJUST_FORM_SPEC.format(id=stored.id))
        limit = stored.state.roll.adjust_limit
        self.value: discord.ui.TextInput[AdjustModal] = discord.ui.TextInput(
            placeholder=clip(adjust_example(limit, attack=False, language=language), 100),
            min_length=1, max_length=2)
        self.add_item(discord.ui.Label(
            text=clip(render(phrase("Set the roll to (1-{limit})", limit=limit), language),
                      FORM_TEXT_LIMIT),
            description=clip(render(ADJUST_MEANS, language), 100), component=self.value))


async def submit_adjust(
    bot: Host, interaction: discord.Interaction[Any], roll_id: int, text: str
) -> None:
    value = parse_number(text)  # ASCII digits only: "²" and "①" are not numbers to int()
    if value is None:
        raise UserError(phrase("“{typed}” is not a number.", typed=echo(text)))
    stored = await _own_roll(bot, roll_id, interaction.user.id)
    new = stored.state.adjust(value)
    await _save_and_show(bot, interaction, stored, new)


# -- rolling as a character, with a non-combat ability ------------------------------------------
#
# Who rolls: the character named in ``as:``, which must be one the user may change (their own
# PC; any character for a GM). Without ``as:``, an ``ability:`` is looked for among those same
# characters; its autocomplete offers each as "Good at lockpicking (Ana)" with the value
# "Ana: lockpicking", so picking from the list is never ambiguous. ``level:`` left out is the
# character's level as it stands (a fight's copy while a fight holds it).


async def _rollers(
    interaction: discord.Interaction[Any], name: str | None
) -> list[StoredCharacter]:
    """The characters the user may roll as: ``name`` alone when given, else all of them."""
    if interaction.guild_id is None:
        raise UserError(phrase("Characters live on a server: roll as one there, not in a DM."))
    if name:
        stored = await find_character(interaction, name)
        if not await may_change(interaction, stored):
            raise UserError(phrase(
                "**{name}** is not yours to roll as: you roll as your own PCs (a GM as anyone).",
                name=escape_markdown(stored.name)))
        return [stored]
    bot: Host = interaction.client
    every = await bot.store.characters.list(interaction.guild_id)
    gm = await is_gm(interaction)
    return [s for s in every if (not s.npc and s.owner_id == interaction.user.id) or gm]


async def _own_pc(interaction: discord.Interaction[Any]) -> StoredCharacter:
    """Who rolls when `/roll` names neither a level nor a roller: the user's one PC; when
    they have none or several, a UserError saying what to name."""
    if interaction.guild_id is None:
        raise UserError(phrase("Say the level to roll against (`level:`)."))
    bot: Host = interaction.client
    every = await bot.store.characters.list(interaction.guild_id)
    own = [s for s in every if not s.npc and s.owner_id == interaction.user.id]
    if len(own) == 1:
        return own[0]
    if not own:
        raise UserError(phrase("Say the level to roll against (`level:`), or who rolls "
                               "(`as:`): you have no PC on this server to roll against."))
    names = ", ".join(f"**{escape_markdown(s.name)}**" for s in own[:10])
    if len(own) > 10:
        raise UserError(phrase("Say the level to roll against (`level:`), or who rolls "
                               "(`as:`): you have {count} PCs ({names} and {more} more).",
                               count=len(own), names=names, more=len(own) - 10))
    raise UserError(phrase("Say the level to roll against (`level:`), or who rolls (`as:`): "
                           "you have {count} PCs ({names}).", count=len(own), names=names))


def _ability_of(candidates: list[StoredCharacter], text: str) -> tuple[StoredCharacter, str]:
    """The character and the non-combat ability meant by ``text`` ("Ana: lockpicking" or
    "lockpicking"); a UserError saying why when there is none or more than one."""
    if len(candidates) == 1:
        stored = candidates[0]
        prefix = f"{stored.name}:".casefold()
        bare = text.strip()[len(prefix):] if text.strip().casefold().startswith(prefix) else text
        return stored, good_roll(stored.character, bare, rules=RULES)
    found: list[tuple[StoredCharacter, str]] = []
    for stored in candidates:
        prefix = f"{stored.name}:".casefold()
        if text.strip().casefold().startswith(prefix):
            activity = good_at_matching(stored.character, text.strip()[len(prefix):])
            if activity is not None:
                return stored, good_roll(stored.character, activity, rules=RULES)
        activity = good_at_matching(stored.character, text)
        if activity is not None:
            found.append((stored, activity))
    if not candidates:
        raise UserError(phrase("You have no character on this server: `/character create` "
                               "makes one, and `/character ability add` makes it good at "
                               "something."))
    if not found:
        raise UserError(phrase(
            "None of your characters is good at “{typed}”: pick one from the list, or name who "
            "rolls with `as:`. `/character ability add` adds a non-combat ability.",
            typed=echo(text)))
    if len(found) > 1:
        names: Said = f"**{escape_markdown(found[0][0].name)}**"
        for other, _ in found[1:]:
            names = phrase("{first} and {second}", first=names,
                           second=f"**{escape_markdown(other.name)}**")
        raise UserError(phrase("{names} are all good at that: pick one from the list, or name "
                               "who rolls with `as:`.", names=names))
    stored, activity = found[0]
    return stored, good_roll(stored.character, activity, rules=RULES)


async def roller_ability(
    interaction: discord.Interaction[Any], current: str
) -> list[app_commands.Choice[str]]:
    """The roller's own non-combat abilities: of the ``as:`` character, or of every character
    the user may roll as (each labelled with whose it is)."""
    named = getattr(interaction.namespace, "as", None)
    try:
        candidates = await _rollers(interaction, named if isinstance(named, str) else None)
    except UserError:
        return []
    language = await person_language(interaction)
    options = [
        (render(phrase("Good at {activity}", activity=activity) if named else
                phrase("Good at {activity} ({name})", activity=activity, name=s.name), language),
         activity if named else f"{s.name}: {activity}")
        for s in candidates for activity in s.character.good_at
    ]
    good_at = render(phrase("Good at {activity}", activity=""), language)
    typed = current.removeprefix(good_at.casefold()).removeprefix(good_at)
    return matching_choices(options, typed.removeprefix("good at ").removeprefix("Good at "))


async def roller(
    interaction: discord.Interaction[Any], current: str
) -> list[app_commands.Choice[str]]:
    """The characters the user may roll as: their own PCs, or all of them for a GM."""
    return await changeable_character(interaction, current)


class DiceCog(commands.Cog):
    def __init__(self, bot: Host) -> None:
        self.bot = bot

    async def adjust_submitted(self, interaction: discord.Interaction[Any],
                               match: re.Match[str], text: str) -> None:
        """Answer the Adjust modal's submit from its custom id and the database alone."""
        await submit_adjust(self.bot, interaction, int(match["id"]), text)

    @app_commands.command(name="roll", description=N_("Roll d100 against a level (Unhex "
                                                       "rules)."))
    @app_commands.describe(
        level=N_("Your level: a success is a roll at or under it (1-99; default: your PC's)"),
        good=N_("Good at this: you may re-roll tens, ones or both once"),
        against=N_("Opposed roll: the other side's level (1-99)"),
        note=N_("What the roll is for (shown with the result)"),
        ability=N_("A non-combat ability of yours (“good at …”): the roll is good"),
        as_=N_("Who rolls: one of your characters (any, for a GM)"),
    )
    @app_commands.rename(as_="as")
    @app_commands.autocomplete(ability=roller_ability, as_=roller)
    async def roll(
        self,
        interaction: discord.Interaction[Any],
        level: app_commands.Range[int, MIN_LEVEL, MAX_LEVEL] | None = None,
        good: bool = False,
        against: app_commands.Range[int, MIN_LEVEL, MAX_LEVEL] | None = None,
        note: app_commands.Transform[str, Text(NOTE_LIMIT)] | None = None,
        ability: app_commands.Transform[str, Text(LOOKUP_LIMIT)] | None = None,
        as_: app_commands.Transform[str, Text(LOOKUP_LIMIT)] | None = None,
    ) -> None:
        named = as_.strip() if as_ and as_.strip() else None
        who: StoredCharacter | None = None
        activity: str | None = None
        if ability is not None and ability.strip():
            who, activity = _ability_of(await _rollers(interaction, named), ability)
        elif named is not None:
            who = (await _rollers(interaction, named))[0]
        if level is None:
            who = who or await _own_pc(interaction)
            level = (await as_it_stands(interaction, who))[0].level
        # An NPC whose figures its fight hides rolls for the GM's eyes only.
        private = who is not None and await hidden_in_fight(interaction, who)
        try:
            state = QuickRoll.start(
                level, self.bot.dice, good=good, against=against,
                character=None if who is None else who.name, ability=activity,
            )
        except ValueError as error:  # Discord enforces 1-99; a stale client may not
            raise UserError(str(error)) from None
        stored = await self.bot.store.rolls.add(
            guild_id=interaction.guild_id, channel_id=interaction.channel_id or 0,
            user_id=interaction.user.id, note=note, state=state,
        )
        # Shown to the table (or, hidden, to the GM in its stead): the channel's language.
        language = await channel_language(interaction)
        view = roll_view(stored, language)
        if view is None:
            await interaction.response.send_message(render_roll(stored, language),
                                                    ephemeral=private)
        else:
            view.stop()  # answered from the buttons' custom ids, never kept in memory
            await interaction.response.send_message(render_roll(stored, language), view=view,
                                                    ephemeral=private)


async def setup(bot: Host) -> None:
    bot.add_dynamic_items(RollButton)
    cog = DiceCog(bot)
    bot.answers_form(ADJUST_MODAL_ID, cog.adjust_submitted)
    await bot.add_cog(cog)
