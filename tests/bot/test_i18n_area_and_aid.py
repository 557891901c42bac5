"""AoE, First Aid and the hands read in the table's language: the engine's sentences for them,
rendered by the bot in German read German, and in the pseudo-locale no English is left in what
these actions say themselves (a fighter's, an item's and an area's names aside)."""

from __future__ import annotations

from bot.i18n import PSEUDO, render
from bot.i18n.checks import untranslated
from engine.character import Character, Item
from engine.combat import AidMark, AoE, AoEChoice, Combat, Event, FirstAid, ManageItems
from engine.phrases import Said
from tests.engine.abilities.test_aoe import blast_fight
from tests.engine.combat.helpers import P1, begin, knife, run, setup

#: What the pseudo-locale check leaves aside: names, and the roll's own words (said by the
#: rolls, not by these actions).
NAMES = {"You", "Grenade", "Dance", "Floor", "Cy", "Goon", "Rat", "Moe", "Ana", "Bram", "Kit",
         "Entrance", "Blast"}


def _blast() -> tuple[Combat, list[Event]]:
    """The book's Blast: 42, 4 damage and 2 more targets; Rat places a point on the right
    leg."""
    c, told = run(blast_fight(), AoE(fighter="You", area="Dance Floor"), [4, 2], actor=P1)
    c, chose = run(c, AoEChoice(fighter="You", option="tens"), actor=P1)
    said = [*told, *chose]
    for name in ("Goon", "Rat", "Moe"):
        c, passed = run(c, AoEChoice(fighter=name, option="pass"))
        said += passed
    c, placed = run(c, AoEChoice(fighter="Rat", option="right_leg"))
    return c, [*said, *placed]


def _aid() -> list[Event]:
    """Ana's sure first aid on Bram: one \\ erased on the head."""
    medic = Character(name="Ana", level=40, max_level=60, abilities=("first_aid.sure",),
                      items=(Item(name="Kit", kind="first_aid"),), right_hand=0)
    bram = Character(name="Bram", level=30, max_level=50,
                     wounds={"head": "\\\\", "left_arm": "\\"})
    c = begin(setup((medic, "Dance Floor", 100), (bram, "Dance Floor", 200),
                    (knife("Goon", 25, npc=True), "Alley", None)), [3, 4, 6, 2], "PCs")
    c, declared = run(c, FirstAid(fighter="Ana", target="Bram", sure=True), actor=P1)
    c, marked = run(c, AidMark(fighter="Ana", option="head"), actor=P1)
    return [*declared, *marked]


def _in(language: str, said: list[Said]) -> list[str]:
    return [render(text, language) for text in said]


def test_a_blast_reads_german() -> None:
    _, events = _blast()
    german = _in("de", [e.gm_text or e.text for e in events])
    assert german[0] == "You setzt Grenade (Explosion) auf Dance Floor ein; Grenade wird zerstört."
    assert german[1] == "Explosion von You auf Dance Floor: 42 (4·2) gegen 50 — ERFOLG."
    assert german[2] == "You wählt 4 Schaden und 2 weitere Ziele."
    assert "Die Explosion erfasst Goon, Rat und Moe." in german
    assert german[-1] == "Rat: 1 Punkt auf das rechte Bein (noch 3 zu verteilen)."


def test_first_aid_reads_german() -> None:
    german = _in("de", [e.text for e in _aid()])
    assert german[0] == ("Ana leistet Bram Erste Hilfe mit Kit (verbraucht): ein sicherer "
                         "Erfolg, kein Wurf.")
    assert "Bram, Kopf: ein \\ gelöscht." in german


def test_dropping_and_holding_read_german() -> None:
    c = begin(setup((knife("Ana"), "Entrance", 100), (knife("Goon", npc=True), "Bar", None)),
              [3, 4, 6, 2], "PCs")
    c, dropped = run(c, ManageItems(fighter="Ana", op="drop", hand="right"), actor=P1)
    _, taken = run(c, ManageItems(fighter="Ana", op="pickup", item="Knife"), actor=P1)
    assert _in("de", [dropped[0].text]) == ["Ana lässt Knife in Entrance fallen (keine Aktion)."]
    assert render(taken[0].text, "de").startswith("Ana hebt Knife auf: ")
    assert render(taken[0].text, "de").endswith(" (eine Aktion)")


def test_no_english_is_left_in_what_these_actions_say() -> None:
    _, blast = _blast()
    aid = _aid()
    # Theirs alone: the AoE's declaration, choice, targets and points; the aid's declaration
    # and mark (a roll's result, a Defend's pass and a wound's summary are said elsewhere).
    own = [blast[0], blast[2], *(e for e in blast if e.kind.value == "aoe"), blast[-1],
           aid[0], aid[1]]
    for text in _in(PSEUDO, [e.gm_text or e.text for e in own]):
        assert untranslated(text, allowed=NAMES) == [], text
