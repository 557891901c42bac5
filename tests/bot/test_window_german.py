"""A German table reads a reaction window in German: who may answer and how, each answer, a
refusal and the window's close, the engine's phrases rendered by the bot's catalogue."""

from __future__ import annotations

import pytest

from bot.i18n import render
from engine.combat import Attack, CloseWindow, Event, React, apply
from engine.dice import ScriptedDice
from engine.errors import RuleError
from engine.phrases import english
from tests.engine.combat.helpers import GM, P1, RULES, duel, knife, run


def _german(events: tuple[Event, ...]) -> list[str]:
    return [render(e.text, "de") for e in events]


def test_a_reaction_window_reads_german() -> None:
    c = duel(knife("Ana"), knife("Goon", npc=True))
    c, events = run(c, Attack(fighter="Ana", target="Goon"), actor=P1)
    declared, offered = _german(events)
    assert declared == "Ana greift Goon mit Knife an."
    assert offered.startswith("Goon darf verteidigen oder zurück angreifen (tödlich oder weniger "
                              "tödlich) oder passen (innerhalb von ")
    # English stays as it was
    assert english(events[1].text).startswith("Goon may defend or counterattack (lethal or ")

    with pytest.raises(RuleError) as refused:
        apply(c, React(fighter="Goon", reaction="defend", lethal=False), actor=GM,
              dice=ScriptedDice([]), rules=RULES, now=0.0)
    assert render(refused.value.said, "de") == (
        "Eine Verteidigung macht keinen Schaden: Nur ein Gegenangriff oder ein Abfangen kann "
        "weniger tödlich sein.")

    _, events = run(c, React(fighter="Goon", reaction="counterattack"), [2, 5, 1, 6])
    said = _german(events)
    assert said[0] == "Goon greift mit Knife zurück an."
    assert said[1].startswith("Ana greift Goon mit Knife an: ")
    assert said[2].startswith("Goon greift Ana mit Knife zurück an: ")


def test_a_window_closed_on_time_reads_german() -> None:
    c = duel(knife("Ana"), knife("Goon", npc=True))
    c = run(c, Attack(fighter="Ana", target="Goon"), actor=P1)[0]
    attack = c.attack
    assert attack is not None and attack.deadline is not None
    _, events = run(c, CloseWindow(by_timeout=True), [2, 5], now=attack.deadline)
    assert _german(events)[0] == "Das Reaktionsfenster schließt sich: die Zeit ist um."
