"""A whole fight's sentences read in the table's language: every event of a scripted fight
(numbered copies caught in a Blast and answered for at once, a GM answering for a player, a
standing order followed as a window closes on time, the GM ending the fight) rendered in the
pseudo-locale leaves no English but the names, and the lines the copies fold into read German
in German and as they always did in English."""

from __future__ import annotations

from bot.i18n import PSEUDO, render
from bot.i18n.checks import untranslated
from data import load_rules
from engine.combat import (
    Answers,
    AoE,
    AoEChoice,
    Attack,
    ChooseDice,
    CloseWindow,
    Combat,
    Command,
    Done,
    EndCombat,
    Event,
    EventKind,
    React,
    SetOrder,
)
from engine.combat.actions.weapon_words import range_said, weapon_said
from engine.combat.order_values import Situation
from engine.combat.step_values import UNARMED, Weapon
from engine.phrases import english
from tests.engine.abilities.test_aoe import grenadier
from tests.engine.combat.helpers import GM, P1, P2, Actor, begin, knife, run, setup

#: Names and the map's areas: never translated.
NAMES = {"Ana", "Bea", "Boss", "Thug", "Goon", "Grenade", "Knife", "Dance Floor", "Entrance",
         "NPCs", "PCs", "Blast"}
GOONS = ("Goon 1", "Goon 2", "Goon 3")


def _fight() -> list[Event]:
    """Ana (P1's) throws a grenade at Goon 1-3 (hidden NPCs): the GM answers for them all at
    once (no Defend, the points on the torso); Boss attacks Bea (P2's) and the GM answers for
    her; Thug attacks her and the window closes on time, so her standing order defends; the GM
    ends the fight. Everything said, in order."""
    c = setup((grenadier("Ana"), "Entrance", 100), (knife("Bea"), "Entrance", 200),
              (knife("Boss", npc=True), "Entrance", None),
              (knife("Thug", npc=True), "Entrance", None),
              *((knife(goon, level=25, npc=True), "Dance Floor", None) for goon in GOONS))
    c = begin(c, [3, 2, 6, 1], "PCs").model_copy(update={"hide_npcs": True})
    said: list[Event] = []

    def step(c: Combat, cmd: Command, faces: tuple[int, ...] = (), actor: Actor = GM,
             now: float = 0.0) -> Combat:
        c, events = run(c, cmd, faces, actor, now)
        said.extend(events)
        return c

    c = step(c, SetOrder(fighter="Bea", situation=Situation.ATTACKED, reaction="defend"),
             actor=P2)
    c = step(c, AoE(fighter="Ana", area="Dance Floor"), (4, 2), actor=P1)
    c = step(c, AoEChoice(fighter="Ana", option="ones"), actor=P1)  # 2 damage
    c = step(c, Answers(answers=tuple(AoEChoice(fighter=g, option="pass") for g in GOONS)))
    for _ in range(2):
        c = step(c, Answers(answers=tuple(AoEChoice(fighter=g, option="torso") for g in GOONS)))
    c = step(c, Done(), actor=P2)
    c = step(c, Attack(fighter="Boss", target="Bea"))
    c = step(c, React(fighter="Bea", reaction="pass"), (2, 3))
    c = step(c, ChooseDice(fighter="Boss", damage="tens"))
    c = step(c, Attack(fighter="Thug", target="Bea"))
    c = step(c, CloseWindow(by_timeout=True), (4, 5, 4, 7), now=45.0)
    step(c, EndCombat())
    return said


def _wound_summary(event: Event) -> bool:
    """A wound's summary still said in plain English by the character's damage (not by the
    fight's actions): left aside until it is a phrase, then checked like the rest."""
    return event.kind in (EventKind.DAMAGE, EventKind.AOE_DAMAGE) and isinstance(event.text,
                                                                                  str)


def test_no_english_is_left_in_a_whole_fight() -> None:
    said = _fight()
    checked = [text for event in said if not _wound_summary(event)
               for text in (event.text, event.gm_text) if text is not None]
    assert len(checked) > 25
    for text in checked:
        rendered = render(text, PSEUDO)
        assert untranslated(rendered, allowed=NAMES) == [], rendered


def test_the_copies_the_gm_and_the_standing_order_read_german_and_english() -> None:
    said = _fight()
    english_lines = [english(event.gm_text or event.text) for event in said]
    german = [render(event.gm_text or event.text, "de") for event in said]
    public = [render(event.text, "de") for event in said]
    for english_line, german_line in (
        ("Goon 1-3 do not defend.", "Goon 1-3 verteidigen nicht."),
        ("Goon 1-3 each: 1 point to the torso (1 left to place).",
         "Goon 1-3 je: 1 Punkt auf den Rumpf (noch 1 zu verteilen)."),
        ("Bea does not react (by the GM).", "Bea reagiert nicht (durch den SL)."),
        ("Bea defends (standing order).", "Bea verteidigt (Dauerbefehl)."),
    ):
        assert english_line in english_lines, english_lines
        assert german_line in german, german
    assert "Goon 1-3 je: 1 Punkt verteilt (alle 2 verteilt)." in public, public
    assert any(line.startswith("Der SL beendet den Kampf.") for line in german), german


def test_a_weapon_and_its_reach_read_german() -> None:
    rules = load_rules()
    knife_weapon = Weapon(name="Knife", kind="melee_1h")
    assert weapon_said(None) == weapon_said(Weapon(name=UNARMED, kind=UNARMED))
    assert render(weapon_said(None), "de") == "bloßen Händen"
    assert render(weapon_said(knife_weapon), "de") == "Knife"
    assert english(range_said(knife_weapon, rules)) == "reaches range 0"
    assert render(range_said(Weapon(name="Rifle", kind="ranged_2h"), rules), "de") == (
        "reicht Reichweite 1 oder mehr")
