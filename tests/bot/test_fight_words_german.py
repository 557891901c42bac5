"""The fight's own words in German: a refusal out of reach, what lapses with a fighter who can
no longer act, what applies to a roll, a reminder's point and the recap (the engine's phrases
rendered by the bot's catalogue); and no English of the recap in the pseudo-locale."""

from __future__ import annotations

import pytest

from bot.i18n import PSEUDO, render
from bot.i18n.checks import untranslated
from engine.catalog import Action
from engine.character import Character, Item
from engine.combat import AddFighter, Attack, FirstAid, Surrender, apply
from engine.combat.model import Fighter
from engine.combat.recap import recap_text
from engine.combat.reminders import reminder_phrase
from engine.combat.roll_spec import roll_spec
from engine.dice import ScriptedDice
from engine.errors import RuleError
from engine.phrases import english
from testbed.harness import ALICE, GM, GUILD_ID, Message, Table
from tests.bot.fights import add_character, begin_pcs_first, start_fight
from tests.engine.combat.helpers import P1, RULES, begin, go, knife, run, setup


def test_a_target_out_of_reach_is_refused_in_german() -> None:
    c = setup((knife("Ana"), "Bar", 100), (knife("Goon", npc=True), "Dance Floor", None))
    c = begin(c, [3, 2, 6, 1], "PCs")
    with pytest.raises(RuleError) as refused:
        apply(c, Attack(fighter="Ana", target="Goon"), actor=P1, dice=ScriptedDice([]),
              rules=RULES, now=0.0)
    assert str(refused.value) == "Goon is out of range for Knife: range 1 (reaches range 0)."
    assert render(refused.value.said, "de") == (
        "Goon ist außer Reichweite von Knife: Reichweite 1 (reicht Reichweite 0).")


def test_first_aid_that_lapses_reads_german() -> None:
    ana = Character(name="Ana", level=40, max_level=60, abilities=("first_aid.sure",),
                    items=(Item(name="Kit", kind="first_aid"),), right_hand=0,
                    wounds={"torso": "\\"})
    c = setup((ana, "Entrance", 100), (knife("Goon", npc=True), "Bar", None))
    c = go(begin(c, [3, 2, 6, 1], "PCs"), FirstAid(fighter="Ana", target="Ana"), actor=P1)
    _, events = run(c, Surrender(fighter="Ana"), actor=P1)
    assert "Ana kann keine Erste Hilfe mehr leisten: Sie wirkt nicht." in [
        render(e.text, "de") for e in events]


def test_what_applies_to_a_roll_and_a_reminders_point_read_german() -> None:
    axe = Character(name="Bea", level=50, max_level=70, items=(Item(name="Axe", kind="melee_2h"),),
                    abilities=("melee_2h.good_attack", "melee_2h.precise_attack"))
    bea = Fighter(key="bea", name="Bea", team="PCs", area="Entrance", character=axe)
    applies = roll_spec(bea, RULES, Action.ATTACK, "melee_2h").applies(RULES)
    assert applies is not None and english(applies) == "good, precise (2H melee attack)"
    assert render(applies, "de") == "gut, präzise (Angriff: Nahkampf 2H)"
    assert render(reminder_phrase(0.25, None), "de") == "wenn noch 25 % der Zeit übrig sind"
    assert render(reminder_phrase(None, 7200), "de") == "2 Stunden vor der Frist"


async def _knocked_out(table: Table) -> Message:
    """Ana knocks Goon out in round 1 (the table's language set in between)."""
    await add_character(table, "Ana", level=40)
    await add_character(table, "Goon", user=GM, level=12, npc=True)
    await start_fight(table, ("Ana", "Dance Floor"), ("Goon", "Dance Floor"),
                      user_of={"Ana": ALICE})
    await begin_pcs_first(table)
    declared = await table.slash("attack", target="Goon")
    table.dice(3, 5)
    passed = await table.click(declared.prompt, "Pass", user=GM)
    return passed.prompt


def _recap(table: Table) -> Message:
    [recap] = [m for m in table.channel_messages() if "🏁" in m.content]
    return recap


async def test_a_german_table_reads_the_recap_in_german(table: Table) -> None:
    prompt = await _knocked_out(table)
    await table.bot.store.guilds.set_language(GUILD_ID, "de")
    await table.click(prompt, "5 damage · 3: right leg", user=ALICE)
    assert _recap(table).content.splitlines()[:6] == [
        "🏁 **Rückblick auf den Kampf** · nightclub",
        "PCs gewinnt nach 1 Runde.",
        "Kampfunfähig: Goon (von Ana bewusstlos geschlagen, Runde 1).",
        "Schaden:",
        "Ana (PCs): verursacht 5, erlitten 0",
        "Goon (NPCs): verursacht 0, erlitten 5",
    ]


async def test_in_the_pseudo_locale_the_recap_has_no_english(table: Table) -> None:
    prompt = await _knocked_out(table)
    await table.bot.store.guilds.set_language(GUILD_ID, PSEUDO)
    await table.click(prompt, "5 damage · 3: right leg", user=ALICE)
    recap = _recap(table).content
    assert untranslated(recap, {"Ana", "Goon", "PCs", "NPCs", "nightclub"}) == [], recap


def test_a_long_recap_is_measured_as_said() -> None:
    c = setup((knife("Ana"), "Bar", 100))
    for n in range(1, 31):
        c = go(c, AddFighter(character=knife(f"Goon number {n:02} xxxxxxxx", npc=True),
                             area="Bar"))
    fighters = [c.fighters[0], *(f.model_copy(update={
        "character": f.character.model_copy(update={"level": 0}),
        "tally": f.tally.model_copy(update={"out_by": "Ana", "out_round": n})})
        for n, f in enumerate(c.fighters[1:], 1))]
    c = c.model_copy(update={"phase": "ended", "round": 30, "fighters": tuple(fighters)})
    german = recap_text(c, rules=RULES, say=lambda said: render(said, "de"))
    out = german.splitlines()[1]
    assert out.startswith("Kampfunfähig: Goon number 01 ") and out.endswith(" weitere.")
    assert len(out) <= 400
