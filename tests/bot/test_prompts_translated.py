"""The fight's questions, answers and board in the channel's language: a German table reads
them in German (the board still within a phone's 40 columns, buttons and menu entries within
Discord's limits), and in the pseudo-locale no English word of them is left."""

from __future__ import annotations

import discord

from bot.cogs.combat.board_message import board_text
from bot.cogs.combat.layout import prompt_message
from bot.cogs.combat.views import code
from bot.i18n import PSEUDO, render
from bot.i18n.checks import untranslated
from bot.store.values import StoredCombat
from data import load_rules
from engine.combat.options import LABEL_MAX, label_text
from engine.phrases import Said, phrase
from engine.textwidth import width
from testbed.harness import ALICE, CHANNEL_ID, Table
from tests.bot.fights import ana_and_goon_on_the_dance_floor
from tests.bot.test_big_fight_board import _forty_fighters
from tests.bot.test_board_layout import assert_fits_a_phone
from tests.bot.test_my_options import _newest_prompt
from tests.bot.test_prompt_menus import _thirty_goons_asked_who_rolls, entries, message_of

RULES = load_rules()
#: Names the fight gives: never translated.
NAMES = ("Ana", "Goon", "PCs", "NPCs", "Dance Floor", "GM")
#: What the Nightclub map names (its areas, its notes) and the board's markers for Ana and
#: Goon: the map's own words, never translated.
MAP_WORDS = ("Catwalk", "DJ Booth", "Bar", "Pool Tables", "Entrance", "Kitchen", "Alley",
             "PCs may start here", "A", "G")


async def _reaction_asked(table: Table) -> StoredCombat:
    """Ana attacks Goon: the GM is asked Goon's reaction."""
    await ana_and_goon_on_the_dance_floor(table)
    declared = await table.slash("attack", user=ALICE, target="Goon")
    assert not declared.ephemeral, declared.content
    stored = await table.bot.fights.fight(CHANNEL_ID)
    assert stored is not None
    return stored


def _labels(content: str, view: discord.ui.View | None) -> list[str]:
    assert view is not None
    return message_of(content, view).labels


def board_lines(stored: StoredCombat, language: str) -> list[str]:
    """The board's lines as the channel reads them in ``language``, in its code block."""
    content = code(board_text(stored, RULES, language))
    assert len(content) <= 2000
    return content.removeprefix("```text\n").removesuffix("\n```").splitlines()


async def test_a_german_table_reads_the_reaction_and_its_board_in_german(table: Table) -> None:
    stored = await _reaction_asked(table)
    english_prompt, _, _ = prompt_message(stored, RULES)
    assert english_prompt.startswith("**Goon (GM)** may react before the dice are rolled")
    content, view, _ = prompt_message(stored, RULES, language="de")
    assert content.startswith("**Goon (SL)** darf reagieren, bevor gewürfelt wird"), content
    labels = _labels(content, view)
    assert labels[:2] == ["Verteidigen", "Gegenangriff"] and "Passen" in labels, labels
    assert "Jetzt auflösen (SL)" in labels
    assert all(len(label) <= 80 for label in labels)
    lines = board_lines(stored, "de")
    assert lines[0] == "Runde 1 · Reaktion · PCs am Zug", lines
    assert "aN: N Aktionen übrig in dieser Runde" in lines
    assert "Warte auf: Goon (reagieren)" in lines, lines
    assert_fits_a_phone(lines)


async def test_a_big_german_board_keeps_to_a_phone_and_its_menus_to_discord(
        table: Table) -> None:
    await _forty_fighters(table)
    stored = await table.bot.fights.fight(CHANNEL_ID)
    assert stored is not None
    lines = board_lines(stored, "de")
    assert_fits_a_phone(lines)
    assert lines[0] == "Runde 1 · Zug · PCs am Zug", lines


async def test_thirty_rollers_are_asked_in_german_menus(table: Table) -> None:
    await _thirty_goons_asked_who_rolls(table)
    stored = await table.bot.fights.fight(CHANNEL_ID)
    assert stored is not None
    content, view, _ = prompt_message(stored, RULES, language="de")
    assert view is not None
    shown = message_of(content, view)
    assert content == ("**NPCs (SL)** haben mehr als einen Kämpfer auf ihrer höchsten Stufe: "
                       "Wer würfelt die Initiative?")
    assert entries(shown) == [f"Goon {n} würfelt" for n in range(1, 31)]
    placeholders = [row["components"][0]["placeholder"] for row in shown.components]
    assert placeholders == ["NPCs: wählen, wer würfelt (1-25 von 30)",
                            "NPCs: wählen, wer würfelt (26-30 von 30)"]


async def test_no_english_is_left_in_a_prompt_or_the_board_in_the_pseudo_locale(
        table: Table) -> None:
    stored = await _reaction_asked(table)
    content, view, _ = prompt_message(stored, RULES, language=PSEUDO)
    assert untranslated(content, NAMES) == [], content
    for label in _labels(content, view):
        assert untranslated(label, NAMES) == [], label
    lines = board_lines(stored, PSEUDO)
    # The map's legend and headings too; "a1" is the board's own mark, which its key explains.
    said = "\n".join(lines)
    assert "⟦Ŵĥó íš ŵĥéŕé:~~~~⟧" in lines, said
    assert untranslated(said, (*NAMES, *MAP_WORDS, "a1")) == [], said
    assert_fits_a_phone(lines)


async def test_the_board_draws_its_map_with_a_german_legend_within_a_phone(
        table: Table) -> None:
    await ana_and_goon_on_the_dance_floor(table)
    stored = await table.bot.fights.fight(CHANNEL_ID)
    assert stored is not None
    english_lines = board_lines(stored, "en")
    assert "─ move+sight ┄ sight only ▶ one way" in english_lines
    lines = board_lines(stored, "de")
    assert "─ Bewegung+Sicht ┄ nur Sicht ▶ Einbahn" in lines, lines
    assert "Wer ist wo:" in lines and "Dance Floor: A Ana, G Goon" in lines, lines
    assert "Warte auf: Ana (handeln)" in lines, lines
    assert_fits_a_phone(lines)


async def _my_options_labels(table: Table) -> list[str]:
    """Alice opens My options on Ana's turn: every label of its menus."""
    await ana_and_goon_on_the_dance_floor(table)
    turn = _newest_prompt(table)
    assert turn is not None
    panel = (await table.click(turn, "My options", user=ALICE)).message
    assert panel.ephemeral
    return [entry["label"] for menu in panel.selects() for entry in menu["options"]]


async def test_my_options_reads_in_the_players_own_language(table: Table) -> None:
    table.locales[ALICE.id] = "de"  # the server stays English: My options is Alice's own
    labels = await _my_options_labels(table)
    assert labels == ["Goon mit Knife", "Goon mit Knife (weniger tödlich)", "DJ Booth", "Bar",
                      "Pool Tables", "Entrance", "Knife benutzen",
                      "Knife verstauen (rechte Hand)", "Knife fallen lassen (rechte Hand)"]
    assert all(len(label) <= LABEL_MAX and width(label) <= LABEL_MAX for label in labels)


async def test_my_options_has_no_english_in_the_pseudo_locale(table: Table) -> None:
    table.locales[ALICE.id] = "en-XA"
    for label in await _my_options_labels(table):
        assert untranslated(label, (*NAMES, *MAP_WORDS, "Knife")) == [], label


def test_a_long_label_is_fitted_as_it_reads_in_german() -> None:
    """The name is cut as long as the German label needs (longer than the English one), and
    never the label's own words."""
    def german(said: Said) -> str:
        return render(said, "de")

    label = phrase("{target} with {weapon} (less-lethal)", target="Anastasia " + "x" * 60,
                   weapon="Knife")
    assert len(label_text(label)) == LABEL_MAX
    said = label_text(label, german)
    assert said.endswith("… mit Knife (weniger tödlich)") and said.startswith("Anastasia x")
    assert len(said) == LABEL_MAX, said
    assert label_text(label, german, limit=100) == german(label)  # room enough: not cut

