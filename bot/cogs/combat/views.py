"""What a fight shows: the board, and the prompt with a button for each answer to what the
fight waits for (a menu when the answers are too many for buttons). Buttons, menus and forms
carry short ids (the fight, its version, the prompt kind, the index of the option and of the
fighter), never names cut to fit Discord's 100 characters.
"""

from __future__ import annotations

import re
from typing import Any

import discord

from bot.adjust_form import ADJUST_MEANS, adjust_example
from bot.cogs.combat.answered import countdown
from bot.cogs.combat.fights import Update, fights_of
from bot.components import PersistentButton, identity_stamp, picked_values
from bot.custom_ids import CustomId, digits, word
from bot.i18n import N_, person_language, render, translated
from bot.permissions import is_gm
from bot.store.values import StoredCombat
from bot.text import FORM_TEXT_LIMIT, MESSAGE_LIMIT, clip
from bot.user_error import UserError
from engine.catalog import Rules
from engine.combat import (
    Answers,
    CloseWindow,
    Combat,
    Command,
    Event,
    Fighter,
    Prompt,
    PromptKind,
)
from engine.combat.asking import Choice, Question
from engine.combat.asking import asked as fight_asks
from engine.combat.choices import adjust_limit
from engine.combat.prompts import SPECS, Tone
from engine.errors import RuleError
from engine.phrases import Phrase, phrase
from engine.sheet import render_wounds

__all__ = [
    "ADJUST_FORM_SPEC",
    "ADJUST_MODAL_ID",
    "MENU_LABEL",
    "MENU_OPTIONS",
    "MOST_BUTTONS",
    "OUT_OF_DATE",
    "RESOLVE",
    "REVEAL",
    "TONE_STYLES",
    "AdjustModal",
    "CombatButton",
    "CombatMenu",
    "TogetherButton",
    "answer_id",
    "answer_rows",
    "answered_question",
    "asked",
    "asked_who",
    "closes",
    "code",
    "decides_for",
    "events_text",
    "fighter_at",
    "fighter_index",
    "menu_id",
    "pack_rows",
    "panel_fighter",
    "view_of",
    "within_rows",
]

RESOLVE = "resolve"  # the GM's "Resolve now" on a reaction window
REVEAL = "reveal"  # the GM's "Choose (GM)": options that would show a hidden NPC's marks


def code(text: str) -> str:
    return f"```text\n{text}\n```"


def events_text(events: tuple[Event, ...] | list[Event], language: str,
                limit: int = 1900) -> str:
    """What ``events`` told the table, a line each, in ``language``; cut to ``limit``
    characters (the rest is in `/combat log`)."""
    lines = [discord.utils.escape_markdown(render(e.text, language)) for e in events]
    text = "\n".join(lines)
    if len(text) > limit:
        more = translated("… (see /combat log)", language)
        text = text[: limit - 1 - len(more)].rsplit("\n", 1)[0] + "\n" + more
    return text or translated("Done.", language)


def answered_question(asked: str, outcome: str) -> str:
    """A prompt once a press answered it: what it asked (quoted), then what happened; the
    question is cut, never the outcome, to fit one message."""
    quoted = "\n".join(f"> {line}" for line in asked.splitlines() if line.strip())
    room = MESSAGE_LIMIT - 1 - len(outcome)
    if not quoted or room < 40:
        return clip(outcome)
    return f"{clip(quoted, room)}\n{outcome}"


# -- buttons ---------------------------------------------------------------------------------


def answer_id(prefix: str) -> CustomId:
    """The ids of an answer's buttons: the fight, its version, the question's kind, the
    option's and the fighter's places in that version (either blank when it has none)."""
    return CustomId(prefix, digits("combat"), digits("version"), word("kind"),
                    digits("option", blank=True), digits("fighter", blank=True))


def menu_id(prefix: str) -> CustomId:
    """The ids of an answer's menus: an :func:`answer_id` without the option, with which of
    the prompt's menus it is."""
    return CustomId(prefix, digits("combat"), digits("version"), word("kind"),
                    digits("fighter", blank=True), digits("part"))


class CombatButton(
    PersistentButton,
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    id_spec=answer_id("cb"),
):
    """One answer to what the fight waits for. The custom id says which fight and which saved
    version of it, which question, and the option's and fighter's places in that version (so
    it stays short whatever the names). A button from an older version is refused, so a
    double click or a late click on an old message applies nothing."""

    def __init__(self, combat_id: int, version: int, kind: str, option: str, fighter: str,
                 label: str, style: discord.ButtonStyle = discord.ButtonStyle.primary) -> None:
        super().__init__(discord.ui.Button(
            label=clip(label, 80), style=style,
            custom_id=self.id_spec.format(combat=combat_id, version=version, kind=kind,
                                          option=option, fighter=fighter),
        ))
        self.combat_id, self.version = combat_id, version
        self.kind, self.option, self.fighter = kind, option, fighter

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any],
                             item: discord.ui.Item[Any], match: re.Match[str]) -> CombatButton:
        return cls(int(match["combat"]), int(match["version"]), match["kind"], match["option"],
                   match["fighter"], "")

    async def handle(self, interaction: discord.Interaction[Any]) -> None:
        session = fights_of(interaction)
        if self.kind == REVEAL:
            await self._reveal(interaction, await session.require_fight(
                interaction, self.combat_id, self.version))
            return
        if self.kind == PromptKind.CRITICAL.value:
            stored = await session.require_fight(interaction, self.combat_id, self.version)
            _, option, fighter = answer(stored.state, self.kind, self.option, self.fighter)
            if option == "adjust" and fighter is not None:
                await self._open_adjust(interaction, stored, fighter)
                return
        await session.run(
            interaction, lambda state: decode(state, self.kind, self.option, self.fighter),
            combat_id=self.combat_id, version=self.version, update=self.after_press(interaction))

    def after_press(self, interaction: discord.Interaction[Any]
                    ) -> Update | None:
        """What brings the pressed message up to date once the press is applied (None: the
        fight's next prompt replaces it)."""
        return None

    async def _reveal(self, interaction: discord.Interaction[Any], stored: StoredCombat) -> None:
        """The options of a prompt whose buttons would show a hidden NPC's marks, with that
        NPC's wounds, to the GM alone."""
        if not await is_gm(interaction):
            raise UserError(phrase("Only a GM sees these choices: they show the wounds the GM "
                                   "keeps hidden."))
        state = stored.state
        rules = fights_of(interaction).rules
        secret = next((q for q in fight_asks(state, rules).questions
                       if q.secret and fighter_index(state, q.fighter) == self.fighter), None)
        if secret is None or state.aid is None:
            raise UserError(OUT_OF_DATE)
        treated = state.fighter(state.aid.target)
        language = await person_language(interaction)
        view = view_of(answer_rows(stored, secret, [], [], named=False, language=language) or [])
        view.stop()  # the buttons answer from their ids: nothing to keep, nothing to time out
        text = (f"**{asked_who(secret.who, secret.users, language)}** "
                f"{render(secret.text, language)}\n"
                f"{code(render_wounds(treated.character, rules=rules))}")
        await interaction.response.send_message(clip(text, 1900), view=view, ephemeral=True)

    async def _open_adjust(self, interaction: discord.Interaction[Any], stored: StoredCombat,
                           fighter: Fighter) -> None:
        if fighter.owner_id != interaction.user.id and not await is_gm(interaction):
            raise UserError(decides_for(fighter, fighter.name))
        limit = adjust_limit(stored.state, fighter.key) or 99
        await interaction.response.send_modal(AdjustModal(
            stored.id, stored.version, self.fighter, fighter.name, limit,
            await person_language(interaction)))


OUT_OF_DATE = N_("That button is out of date: the fight has moved on since. Use the newest "
                 "buttons.")


class CombatMenu(
    PersistentButton,
    discord.ui.DynamicItem[discord.ui.Select[Any]],
    id_spec=menu_id("cm"),
):
    """A prompt's answers as a menu, for a prompt with more of them than buttons can show.
    The custom id is a :class:`CombatButton`'s without the option (and with which of the
    prompt's menus it is); each entry's value is the option's index. A pick is the press of
    that option's button: the same command, the same refusals (an older version, a fighter
    not yours)."""

    button: type[CombatButton] = CombatButton  # whose press a pick is

    def __init__(self, select: discord.ui.Select[Any], combat_id: int, version: int,
                 kind: str, fighter: str) -> None:
        super().__init__(select)
        self.combat_id, self.version, self.kind, self.fighter = combat_id, version, kind, fighter

    @classmethod
    def make(cls, stored: StoredCombat, asked_question: Question, part: int, placeholder: str,
             options: list[tuple[int, str]]) -> CombatMenu:
        """Menu ``part`` of ``asked_question``: ``options`` are (option index, label) pairs."""
        index = fighter_index(stored.state, asked_question.fighter)
        kind = asked_question.kind.value
        select: discord.ui.Select[Any] = discord.ui.Select(
            custom_id=cls.id_spec.format(combat=stored.id, version=stored.version,
                                         kind=kind, fighter=index, part=part),
            placeholder=clip(placeholder, MENU_PLACEHOLDER), options=[
                discord.SelectOption(label=clip(label, MENU_LABEL), value=str(n))
                for n, label in options])
        return cls(select, stored.id, stored.version, kind, index)

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any],
                             item: discord.ui.Item[Any], match: re.Match[str]) -> CombatMenu:
        return cls(discord.ui.Select(custom_id=match.string), int(match["combat"]),
                   int(match["version"]), match["kind"], match["fighter"])

    async def handle(self, interaction: discord.Interaction[Any]) -> None:
        picked = next(iter(picked_values(interaction)), "")
        button = self.button(self.combat_id, self.version, self.kind, picked, self.fighter, "")
        await button.handle(interaction)


class TogetherButton(
    PersistentButton,
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    id_spec=CustomId("ct", digits("combat"), digits("version"), word("kind"), digits("option"),
                     digits("fighter")),
):
    """One answer to every question alike (``Asking.groups``): the GM's thirty Goons caught in
    one blast, say. The id names the fight's version and one of the questions; the others
    are found in that same version, so a press answers exactly the questions shown, in one
    step (an ``Answers`` command), and a press on an older version is refused."""

    def __init__(self, combat_id: int, version: int, kind: str, option: str, fighter: str,
                 label: str = "", style: discord.ButtonStyle = discord.ButtonStyle.primary
                 ) -> None:
        super().__init__(discord.ui.Button(
            label=clip(label, 80), style=style,
            custom_id=self.id_spec.format(combat=combat_id, version=version, kind=kind,
                                          option=option, fighter=fighter)))
        self.combat_id, self.version = combat_id, version
        self.kind, self.option, self.fighter = kind, option, fighter

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any],
                             item: discord.ui.Item[Any], match: re.Match[str]
                             ) -> TogetherButton:
        return cls(int(match["combat"]), int(match["version"]), match["kind"],
                   match["option"], match["fighter"])

    def _command(self, state: Combat, rules: Rules) -> Command:
        prompt = asked(state, self.kind, self.fighter)  # (out of date when no longer asked)
        alike = next((group.questions for group in fight_asks(state, rules).groups
                      if any(q.kind is prompt.kind and q.fighter == prompt.fighter
                             for q in group.questions)), ())
        fighters = [fighter_index(state, q.fighter) for q in alike] or [self.fighter]
        return Answers(answers=tuple(
            decode(state, self.kind, self.option, fighter) for fighter in fighters))

    async def handle(self, interaction: discord.Interaction[Any]) -> None:
        session = fights_of(interaction)
        await session.run(interaction, lambda state: self._command(state, session.rules),
                          combat_id=self.combat_id, version=self.version)


#: Discord's limits on a menu: entries, an entry's label, the placeholder.
MENU_OPTIONS, MENU_LABEL, MENU_PLACEHOLDER = 25, 100, 150
#: A prompt with more answers than this shows them in a menu: past two rows of buttons a
#: phone shows a wall of them to scan, where a menu is one row that lists them in order.
MOST_BUTTONS = 10


def decides_for(f: Fighter, name: str) -> Phrase:
    """Who may decide for ``f`` (``name``, as the message shows it), refusing someone else:
    an NPC's GM, a PC's player or a GM."""
    if f.owner_id is None:
        return phrase("Only a GM decides for {name}.", name=name)
    return phrase("Only their player or a GM decides for {name}.", name=name)


def fighter_at(state: Combat, index: str) -> Fighter | None:
    """The fighter at ``index`` (as a button's id gives it) in ``state``."""
    if not index.isascii() or not index.isdigit() or int(index) >= len(state.fighters):
        return None
    return state.fighters[int(index)]


def panel_fighter(state: Combat, index: str, stamp: str,
                  stale: str = OUT_OF_DATE) -> Fighter:
    """The fighter a panel (an ephemeral message of menus) was made for, if it is still the
    one at ``index``: its ``stamp`` is the identity stamp of its key. ``stale``: what the user
    is told otherwise."""
    f = fighter_at(state, index)
    if f is None or identity_stamp(f.key) != stamp:
        raise UserError(stale)
    return f


def fighter_index(state: Combat, key: str | None) -> str:
    if key is None:
        return ""
    return str(next(i for i, f in enumerate(state.fighters) if f.key == key))


def asked(state: Combat, kind: str, fighter: str) -> Prompt:
    """The question of ``kind`` about the fighter at index ``fighter`` that ``state`` waits
    for, as a button of that version names it; OUT_OF_DATE when it waits for no such one."""
    found = fighter_at(state, fighter)
    key = None if found is None else found.key
    for prompt in state.waiting_for():
        if prompt.kind.value == kind and prompt.fighter == key:
            return prompt
    raise UserError(OUT_OF_DATE)


def answer(state: Combat, kind: str, option: str,
           fighter: str) -> tuple[PromptKind | None, str, Fighter | None]:
    """What a button of ``state``'s version answers: the prompt kind (``None`` for the GM's
    Resolve now), the option and the fighter it is for."""
    if kind == RESOLVE:
        return None, "", None
    prompt = asked(state, kind, fighter)
    if not (option.isascii() and option.isdigit() and int(option) < len(prompt.options)):
        raise UserError(OUT_OF_DATE)
    return prompt.kind, prompt.options[int(option)], fighter_at(state, fighter)


def decode(state: Combat, kind: str, option: str, fighter: str) -> Command:
    """The engine command a button of ``state``'s version stands for."""
    prompt_kind, chosen, found = answer(state, kind, option, fighter)
    if prompt_kind is None:
        return CloseWindow(by_timeout=False)
    return _command_for(prompt_kind, chosen, "" if found is None else found.key)


def _command_for(kind: PromptKind, option: str, fighter: str) -> Command:
    try:
        return SPECS[kind].command(option, fighter)
    except RuleError as error:
        raise UserError(error.said) from None


ADJUST_FORM_SPEC = CustomId("cb-adjust", digits("combat"), digits("version"), digits("fighter"))
ADJUST_MODAL_ID = ADJUST_FORM_SPEC.template


class AdjustModal(discord.ui.Modal):
    """The form Adjust opens: the value the critical success's roll becomes, said with what
    that value means. It is not kept in memory: the session answers its submit from the
    custom id, so a form left open across a restart still works."""

    def __init__(self, combat_id: int, version: int, fighter: str, fighter_name: str,
                 limit: int, language: str) -> None:
        super().__init__(title=clip(render(phrase("Adjust the critical success"), language),
                                    FORM_TEXT_LIMIT),
                         custom_id=ADJUST_FORM_SPEC.format(combat=combat_id, version=version,
                                                           fighter=fighter))
        # the range stays whole, the name gives way (45 at most)
        accepts = render(phrase(" to (1-{limit})", limit=limit), language)
        self.value: discord.ui.TextInput[AdjustModal] = discord.ui.TextInput(
            placeholder=clip(adjust_example(limit, language=language), 100),
            min_length=1, max_length=2)
        self.add_item(discord.ui.Label(
            text=clip(render(phrase("Set {name}'s roll", name=fighter_name), language),
                      45 - len(accepts)) + accepts,
            description=clip(render(ADJUST_MEANS, language), 100), component=self.value))
        self.stop()


def view_of(rows: list[list[Any]]) -> discord.ui.View:
    """A view of ``rows`` of dynamic items, each in its row."""
    view = discord.ui.View(timeout=None)
    for row_index, row in enumerate(rows):
        for item in row:
            item.item.row = row_index
            view.add_item(item)
    return view


def answer_rows(stored: StoredCombat, asked_question: Question, rows: list[list[Any]],
                resolve: list[Any], *, named: bool, language: str,
                button: type[CombatButton] = CombatButton,
                menu: type[CombatMenu] = CombatMenu) -> list[list[Any]] | None:
    """``rows`` with ``asked_question``'s answers added: a ``button`` each, or one or more
    ``menu`` when they are more than :data:`MOST_BUTTONS` or their buttons do not fit;
    ``None`` when even menus leave no room for ``resolve`` (the GM's Resolve now) within
    Discord's 5 rows. Labels in ``language``."""
    choices = asked_question.choices
    if len(choices) <= MOST_BUTTONS:
        index = fighter_index(stored.state, asked_question.fighter)
        buttons = [
            button(stored.id, stored.version, asked_question.kind.value, str(n), index,
                   answer_label(asked_question, choice, named, language),
                   TONE_STYLES[choice.tone])
            for n, choice in enumerate(choices)]
        packed = within_rows(pack_rows(rows, buttons), resolve)
        if packed is not None:
            return packed
    menus = _menus(stored, asked_question, named, language, menu)
    return within_rows([*rows, *([m] for m in menus)], resolve)


def _menus(stored: StoredCombat, asked_question: Question, named: bool, language: str,
           menu: type[CombatMenu] = CombatMenu) -> list[CombatMenu]:
    """The question's answers in menus of at most 25 entries, each labelled as its button
    would be; the placeholder says whose question it is (and which entries, when they are
    split)."""
    labels = [(n, answer_label(asked_question, choice, named, language))
              for n, choice in enumerate(asked_question.choices)]
    parts = [labels[i:i + MENU_OPTIONS] for i in range(0, len(labels), MENU_OPTIONS)]
    placeholder = f"{asked_question.who}: {render(asked_question.waiting, language)}"

    def which(chunk: list[tuple[int, str]]) -> str:
        if len(parts) == 1:
            return ""
        return " " + render(phrase("({first}-{last} of {count})", first=chunk[0][0] + 1,
                                   last=chunk[-1][0] + 1, count=len(labels)), language)
    return [menu.make(stored, asked_question, part, placeholder + which(chunk), chunk)
            for part, chunk in enumerate(parts)]


def within_rows(rows: list[list[Any]], resolve: list[Any]) -> list[list[Any]] | None:
    """``rows``, when they leave room for ``resolve`` within Discord's 5 rows."""
    return rows if len(pack_rows(rows, resolve)) <= 5 else None


def answer_label(asked_question: Question, choice: Choice, named: bool, language: str) -> str:
    """An answer's label in ``language``; ``named``: headed by the name of the fighter it is
    for (where several fighters' answers share a message)."""
    label = render(choice.label, language)
    if asked_question.fighter and named:
        return f"{asked_question.who}: {label}"
    return label


def asked_who(who: str, users: tuple[int, ...], language: str) -> str:
    """Whose question it is (a name, or numbered copies in one entry: "Goon 1-30"), and who
    answers: the players asked, pinged (a prompt to a whole team asks each of its players),
    else the GM."""
    name = discord.utils.escape_markdown(who)
    if users:
        return f"{name} ({', '.join(f'<@{u}>' for u in users)})"
    return render(phrase("{name} (GM)", name=name), language)


def closes(asked_question: Question, language: str) -> str:
    """When the question closes by itself, as Discord counts it down (none: "")."""
    deadline = asked_question.deadline
    return countdown(deadline, language) if deadline else ""


def pack_rows(rows: list[list[Any]], group: list[Any]) -> list[list[Any]]:
    """``rows`` with ``group`` (buttons) added: in the last row when it fits there, else in new
    rows of at most five (Discord's limit per row). A menu fills its row alone."""
    if not group:
        return rows
    if rows and len(rows[-1]) + len(group) <= 5 and not any(
            isinstance(item.item, discord.ui.Select) for item in rows[-1]):
        return [*rows[:-1], [*rows[-1], *group]]
    return [*rows, *(group[i:i + 5] for i in range(0, len(group), 5))]


#: A button's colour by its option's tone (the prompt's spec says which option has which).
TONE_STYLES = {
    Tone.PLAIN: discord.ButtonStyle.primary,
    Tone.TAKE: discord.ButtonStyle.success,
    Tone.DECLINE: discord.ButtonStyle.secondary,
}

