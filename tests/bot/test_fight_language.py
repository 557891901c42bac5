"""What a fight says, in its readers' language: the channel reads the server's (kept in memory:
another process's change is read again after a while, this one's at once), one person their
own; the events render as phrases (the catch-up folds them by their values), German and the
pseudo-locale end to end through real payloads."""

from __future__ import annotations

from bot.cogs.combat.log_fold import fold_steps
from bot.cogs.combat.recap import round_begun
from bot.cogs.combat.views import events_text
from bot.i18n import PSEUDO
from bot.i18n.checks import untranslated
from bot.store.guilds import LanguageCache
from engine.combat import Event, EventKind
from engine.phrases import phrase
from testbed.harness import ALICE, GM, GUILD_ID, Table
from tests.bot.fights import add_character, start_fight

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
        "↩️ Der letzte Befehl wurde rückgängig gemacht (settings).")
    struck = table.message(hidden.answer.id).content
    assert struck.endswith("-# ↩️ Mit `/combat undo` zurückgenommen."), struck
    log = await table.slash("combat log", user=GM)
    assert "~~Die Spieler sehen jetzt" in log.content
    file = await table.slash("combat log", user=GM, file=True)
    assert file.content.startswith("📜 Das ganze Protokoll des Kampfes auf "), file.content
    [text] = file.message.files.values()
    assert "(rückgängig) Die Spieler sehen jetzt" in text, text


async def test_in_the_pseudo_locale_no_english_of_the_fights_own_sentences_is_left(
        table: Table) -> None:
    await table.bot.store.guilds.set_language(GUILD_ID, PSEUDO)
    table.locales[GM.id] = "en-XA"
    await _fight(table)
    names = {"Ana", "Goon", "settings", "PCs", "NPCs", "Dance Floor", "Bar"}
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
