"""What a fight says, in its readers' language: the channel reads the server's (kept in memory:
another process's change is read again after a while, this one's at once), one person their
own; the events render as phrases (the catch-up folds them by their values), German and the
pseudo-locale end to end through real payloads."""

from __future__ import annotations

from typing import get_args

import discord

from bot.cogs.combat.fight import COMMAND_KINDS
from bot.cogs.combat.fight_language import fight_language
from bot.cogs.combat.log_fold import fold_steps
from bot.cogs.combat.recap import round_begun
from bot.cogs.combat.session import FightSession
from bot.cogs.combat.views import events_text
from bot.i18n import PSEUDO, render
from bot.i18n.checks import untranslated
from bot.store.guilds import LanguageCache
from engine.catalog import Action
from engine.combat import Command, Event, EventKind
from engine.combat.roll_spec import roll_words
from engine.phrases import phrase
from testbed.harness import ALICE, CHANNEL_ID, GM, GUILD_ID, Table
from tests.bot.fights import add_character, start_fight
from tests.engine.combat.helpers import RULES

ATTACK = phrase("{attacker} attacks {target} with {weapon}: {roll} vs {level} — {outcome}.",
                attacker="Ana", target="Goon", weapon="Knife", roll=35, level=40,
                outcome=phrase("SUCCESS"))
HIT = phrase("{attacker} hits {target} and chooses which die is damage.", attacker="Ana",
             target="Goon")
DAMAGE = phrase("{target} takes {amount} damage to the {location}: level {before} → {after}. "
                "{down}", target="Goon", amount=5, location=phrase("right leg"), before=12,
                after=7, down=phrase("{name} is unconscious.", name="Goon"))
ROUND = phrase("Round {number} begins.", number=2)
TURN = phrase("Turn: {team}.", team="PCs")


def test_the_kept_language_is_read_again_once_it_is_older_than_a_minute() -> None:
    now = [1000.0]
    cache = LanguageCache(fresh_for=60, clock=lambda: now[0])
    cache.keep(GUILD_ID, "de")
    now[0] += 59
    assert cache.get(GUILD_ID) == "de"
    now[0] += 1  # another process may have chosen another since: ask the database
    try:
        cache.get(GUILD_ID)
    except KeyError:
        pass
    else:
        raise AssertionError("a language kept a minute was trusted")
    cache.keep(GUILD_ID, None)  # this process's own choice counts at once
    assert cache.get(GUILD_ID) is None


def test_the_catch_up_folds_phrases_by_their_values_in_the_readers_language() -> None:
    steps = [(ATTACK, HIT), (DAMAGE,), (ROUND, TURN)]
    assert fold_steps(steps, "en") == [
        "Ana hits Goon (Knife)", "Goon: 5 damage, right leg, level 12 → 7, unconscious",
        "Round 2 begins, now the PCs' turn"]
    assert fold_steps(steps, "de") == [
        "Ana trifft Goon (Knife)", "Goon: 5 Schaden, rechtes Bein, Stufe 12 → 7, bewusstlos",
        "Runde 2 beginnt, jetzt Zug von PCs"]
    # a name that reads like a sentence of the engine is a name, never misread
    odd = phrase("{attacker} hits {target} and chooses which die is damage.",
                 attacker="Bob takes 9 damage to the head", target="Goon")
    assert fold_steps([(odd,)], "en") == ["Bob takes 9 damage to the head hits Goon"]


def test_a_log_reads_its_rounds_from_the_phrases_values() -> None:
    assert round_begun(ROUND) == 2 and round_begun("Round 3 begins.") == 3
    assert round_begun(TURN) is None


def test_events_are_said_in_the_channels_language() -> None:
    nothing = Event(kind=EventKind.SETTINGS, text=phrase("Nothing changes."), fighter=None)
    assert events_text([nothing], "en") == "Nothing changes."
    assert events_text([nothing], "de") == "Nichts ändert sich."
    assert events_text([], "de") == "Erledigt."
    assert untranslated(events_text([nothing], PSEUDO)) == []


def test_undo_names_every_kind_of_command_in_the_readers_language() -> None:
    union = get_args(Command)[0]
    kinds = {get_args(model.model_fields["kind"].annotation)[0] for model in get_args(union)}
    assert kinds | {"settings"} == set(COMMAND_KINDS)
    # each says in English what the log's kind says, as the answer always did
    assert all(said.english() == kind.replace("_", " ") for kind, said in COMMAND_KINDS.items())


async def _fight(table: Table) -> None:
    await add_character(table, "Ana", level=40)
    await add_character(table, "Goon", user=GM, level=25, npc=True)
    await start_fight(table, ("Ana", "Dance Floor"), ("Goon", "Bar"), user_of={"Ana": ALICE})


async def test_a_german_table_reads_the_fights_own_sentences_in_german(table: Table) -> None:
    await table.slash("settings language", user=GM, language="de")
    table.locales[GM.id] = "de"
    refused = await table.slash("combat log", user=GM)
    assert refused.content == ("In diesem Kanal gibt es keinen Kampf. Ein SL startet einen "
                               "mit `/combat start`.")
    await _fight(table)
    hidden = await table.slash("combat settings", user=GM, hide_npcs=True)
    assert hidden.answer.content == ("⚙️ Die Spieler sehen jetzt, wie verletzt jeder NSC "
                                     "aussieht, nicht seine Stufe und Wunden.")
    undone = await table.slash("combat undo", user=GM)
    assert undone.answer.content.startswith(
        "↩️ Der letzte Befehl wurde rückgängig gemacht (Einstellungen).")
    struck = table.message(hidden.answer.id).content
    assert struck.endswith("-# ↩️ Mit `/combat undo` zurückgenommen."), struck
    log = await table.slash("combat log", user=GM)
    assert "~~Die Spieler sehen jetzt" in log.content
    file = await table.slash("combat log", user=GM, file=True)
    assert file.content.startswith("📜 Das ganze Protokoll des Kampfes auf "), file.content
    [text] = file.message.files.values()
    assert "(rückgängig) Die Spieler sehen jetzt" in text, text


async def test_a_german_table_names_its_default_teams_in_german_and_the_fight_keeps_them(
        table: Table) -> None:
    await table.slash("settings language", user=GM, language="de")
    await add_character(table, "Ana", level=40)
    for name, level in (("Goon", 25), ("Rat", 20)):
        await add_character(table, name, user=GM, level=level, npc=True)
    await table.slash("combat start", user=GM, map="Nightclub")
    ana = await table.slash("combat add", user=ALICE, character="Ana", area="Dance Floor")
    assert ana.said.startswith("Ana tritt dem Kampf für SC in Dance Floor bei."), ana.said
    npcs = await table.slash("combat addmany", user=GM, characters="Goon, Rat", area="Bar")
    assert npcs.said.startswith("Goon und Rat treten dem Kampf für NSC in Bar bei."), (
        npcs.said)
    # the teams are names in the fight's state: another language later reads them as they are
    await table.slash("settings language", user=GM, language="default")
    board = (await table.slash("combat status", user=ALICE)).content
    assert "Ana [SC] Dance Floor 40/40 a0" in board, board
    assert "Goon [NSC] Bar 25/25 a0" in board, board
    table.dice(3, 4, 6, 2)  # Ana 34 beats the NPCs' 62
    await table.slash("combat begin", user=GM)
    await table.click(table.channel_messages()[-1], "SC first", user=ALICE)
    turn = table.channel_messages()[-1]
    assert turn.content.startswith("**Round 1, SC's turn:** Ana"), turn.content
    assert "Done (SC)" in turn.labels


async def test_in_the_pseudo_locale_no_english_of_the_fights_own_sentences_is_left(
        table: Table) -> None:
    await table.bot.store.guilds.set_language(GUILD_ID, PSEUDO)
    table.locales[GM.id] = "en-XA"
    await _fight(table)
    names = {"Ana", "Goon", "Dance Floor", "Bar"}  # (the default teams named in the language)
    hidden = await table.slash("combat settings", user=GM, hide_npcs=True)
    assert untranslated(hidden.answer.content, names) == []
    undone = await table.slash("combat undo", user=GM)
    assert untranslated(undone.answer.content, names) == [], undone.answer.content
    assert untranslated(table.message(hidden.answer.id).content, names) == []
    log = await table.slash("combat log", user=GM)
    assert untranslated(log.content, names) == [], log.content
    file = await table.slash("combat log", user=GM, file=True)
    assert untranslated(file.content, names | {"nightclub"}) == [], file.content
    [text] = file.message.files.values()
    assert untranslated(text, names | {"nightclub", "Unhex"}) == [], text


# -- the GM's tools: start, settings, extend, status, undo, a deadline's ping -----------------

NOW = 1_800_000_000.0  # the fights' clock, held still so the deadlines said are known
HOUR = 3600


def _session(table: Table) -> FightSession:
    session = table.bot.fights
    assert isinstance(session, FightSession)
    return session


async def _gm_tools(table: Table, pcs_first: str) -> dict[str, str]:
    """A fight by post driven through the GM's tools; what each showed, by what it was
    (``pcs_first``: that button's label in the table's language)."""
    _session(table).clock = lambda: NOW
    await add_character(table, "Ana", level=40)
    await add_character(table, "Goon", user=GM, level=25, npc=True)
    shown: dict[str, str] = {}
    started = await table.slash("combat start", user=GM, map="Nightclub", pace="by post",
                                hide_npcs=True)
    shown["start"] = started.answer.content
    shown["refused"] = (await table.slash("combat start", user=GM, map="Nightclub")).content
    for name, user in (("Ana", ALICE), ("Goon", GM)):
        await table.slash("combat add", user=user, character=name, area="Dance Floor")
    shown["bad turn"] = (await table.slash("combat settings", user=GM, turn="soon")).content
    shown["bad remind"] = (await table.slash("combat settings", user=GM,
                                             remind="often")).content
    shown["settings"] = (await table.slash("combat settings", user=GM, reaction="1h30m",
                                           remind="2h")).answer.content
    shown["percent"] = (await table.slash("combat settings", user=GM, turn_end="auto",
                                          remind="30%")).answer.content
    shown["undo"] = (await table.slash("combat undo", user=GM)).answer.content
    table.dice(3, 4, 6, 2)  # Ana (PCs) 34 beats the NPCs' 62
    await table.slash("combat begin", user=GM)
    await table.click(table.channel_messages()[-1], pcs_first, user=ALICE)
    shown["extend"] = (await table.slash("combat extend", user=GM, by="12h")).said
    shown["undo extend"] = (await table.slash("combat undo", user=GM)).answer.content
    shown["status"] = (await table.slash("combat status", user=ALICE,
                                         character="Goon")).content
    shown["board"] = (await table.slash("combat status", user=ALICE)).content
    _session(table).clock = lambda: NOW + 48 * HOUR
    assert await _session(table).close_expired_window(CHANNEL_ID)
    await table.settle()
    ping = next(m for m in reversed(table.channel_messages()) if m.content.startswith("⏱️"))
    shown["ping"] = ping.content + "\n" + "\n".join(ping.labels)
    return shown


async def test_a_german_table_reads_the_gms_tools_in_german(table: Table) -> None:
    await table.slash("settings language", user=GM, language="de")
    table.locales[GM.id] = table.locales[ALICE.id] = "de"
    shown = await _gm_tools(table, "SC zuerst")  # the default teams named in German
    assert shown["start"].endswith(
        "dann startet ein SL mit `/combat begin`. Reaktionen warten jetzt 1 Tag. Der Zug eines "
        "Teams dauert jetzt 2 Tage. Die Spieler sehen jetzt, wie verletzt jeder NSC aussieht, "
        "nicht seine Stufe und Wunden."), shown["start"]
    assert shown["bad turn"] == (
        "„soon“ ist keine Dauer für einen Zug: Schreib `45s`, `10m`, `12h`, `2d` oder zusammen "
        "wie `1h30m`, von 5 Sekunden bis 14 Tage oder `none` für keine Frist. Nichts wurde "
        "geändert.")
    assert shown["bad remind"].startswith("„often“ ist kein Zeitpunkt für eine Erinnerung")
    assert shown["settings"] == ("⚙️ Reaktionen warten jetzt 1 Stunde 30 Minuten. Säumige "
                                 "werden jetzt erinnert: 2 Stunden vor der Frist.")
    assert shown["percent"] == ("⚙️ Bei der Frist eines Zugs endet der Zug jetzt von selbst. "
                                "Säumige werden jetzt erinnert: wenn noch 30 % der Zeit übrig "
                                "sind.")
    assert shown["undo"].startswith(
        "↩️ Der letzte Befehl wurde rückgängig gemacht (Einstellungen).")
    ends = int(NOW) + 60 * HOUR
    assert shown["extend"].endswith(f"⏱️ Der Zug endet jetzt <t:{ends}:f>, <t:{ends}:R>.")
    assert shown["undo extend"] == (
        "↩️ Der letzte Befehl wurde rückgängig gemacht (Zug verlängern).")
    assert shown["status"] == ("```text\nGoon · NSC\nSieht unverletzt aus\n(der SL hält "
                               "Stufe und\nWunden verborgen)\n```")
    assert shown["board"].startswith("```text\nRunde 1 · Zug · SC am Zug\n"), shown["board"]
    assert "Goon [NSC] Dance Floor unverletzt a1" in shown["board"]
    ping = shown["ping"]
    assert "Die Zeit für den Zug von SC ist um. Noch nicht gehandelt: Ana." in ping, ping
    assert ping.endswith("\nUm 2 Tage verlängern\nZug beenden"), ping


async def test_in_the_pseudo_locale_no_english_of_the_gms_tools_is_left(table: Table) -> None:
    await table.bot.store.guilds.set_language(GUILD_ID, PSEUDO)
    table.locales[GM.id] = table.locales[ALICE.id] = "en-XA"
    pcs_first = render(phrase("{team} first", team=render(phrase("PCs"), PSEUDO)), PSEUDO)
    shown = await _gm_tools(table, pcs_first)
    names = {"Ana", "Goon", "Dance Floor", "nightclub", "soon", "often"}
    # (the board's map and its legend are the map's own: not the fight's tools)
    shown["board"] = "\n".join([*shown["board"].splitlines()[:6], "```"])
    for what, text in shown.items():
        assert untranslated(text, names) == [], (what, text)


async def test_the_servers_preferred_locale_is_said_with_or_without_an_interaction(
        table: Table) -> None:
    """As on Discord, the server's preferred locale is one setting: what interactions say and
    what the bot's cached guild holds (a timer's post reads that)."""
    table.guild_locale = "de"
    guild = table.bot.get_guild(GUILD_ID)
    assert guild is not None and guild.preferred_locale is discord.Locale.german
    assert await fight_language(table.bot, GUILD_ID) == "de"
    await table.restart()
    assert await fight_language(table.bot, GUILD_ID) == "de"


async def test_a_german_gm_picks_a_hit_location_by_its_german_name_or_types_its_id(
        table: Table) -> None:
    table.locales[GM.id] = "de"
    await add_character(table, "Ana", level=40)
    await start_fight(table, ("Ana", "Dance Floor"), user_of={"Ana": ALICE})
    offered = await table.autocomplete_choices("combat set", "location", user=GM,
                                               character="Ana")
    assert offered[1] == {"name": "Rechter Arm", "value": "right_arm"}
    for typed in ("rumpf", "tors"):
        found = await table.autocomplete_choices("combat set", "location", user=GM,
                                                 character="Ana", location=typed)
        assert found == [{"name": "Rumpf", "value": "torso"}], (typed, found)
    marked = await table.slash("combat set", user=GM, character="Ana", location="torso",
                               marks="\\")
    assert not marked.answer.ephemeral, marked.answer.content


def test_a_defend_without_a_shield_is_a_noun_of_its_own() -> None:
    """"defend" is the verb a reaction offers; the roll without a shield is said as a noun."""
    assert render(roll_words(Action.DEFEND, None, RULES), "de") == "Verteidigung"
    assert render(phrase("defend"), "de") == "verteidigen"


def test_a_counterattack_or_intercept_roll_is_a_noun_the_reaction_a_verb() -> None:
    """English says both with one word; the roll's is told apart by its context (msgctxt)."""
    assert render(roll_words(Action.COUNTERATTACK, None, RULES), "de") == "Gegenangriff"
    assert render(roll_words(Action.INTERCEPT, None, RULES), "de") == "Abfangen"
    assert render(phrase("counterattack"), "de") == "zurück angreifen"
    assert render(roll_words(Action.INTERCEPT, None, RULES), "en") == "intercept"
