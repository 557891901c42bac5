"""The fight's own sentences (rounds, initiative, rolls, turns, refusals) read in the table's
language: the engine says phrases, the bot renders them."""

from __future__ import annotations

import pytest

from bot.i18n import render
from bot.i18n.checks import untranslated
from engine.combat import Begin, ChooseOrder, Done
from engine.combat.model import Actor, Combat, EventKind
from engine.errors import RuleError
from engine.phrases import english
from tests.engine.combat.helpers import go, pistol, run, setup

P1 = Actor(user_id=100, gm=False)
_MINE = {EventKind.ROUND, EventKind.INITIATIVE, EventKind.INITIATIVE_WON, EventKind.ORDER,
         EventKind.TURN, EventKind.TURN_END, EventKind.ROUND_END}


def _duel() -> Combat:
    return setup(
        (pistol("Ana", 40, max_level=60), "Entrance", 100),
        (pistol("Cy", 30), "Entrance", 200),
        (pistol("Goon", 25, npc=True), "Bar", None),
    )


def test_a_round_s_initiative_reads_in_german() -> None:
    c, events = run(_duel(), Begin(), [3, 4, 6, 2])
    said = [render(e.text, "de") for e in events]
    assert "Runde 1 beginnt." in said
    assert "Ana würfelt die Initiative für PCs: 34 (3·4) gegen 40 — ERFOLG." in said
    assert "Goon würfelt die Initiative für NPCs: 62 (6·2) gegen 25 — FEHLSCHLAG." in said
    assert "PCs gewinnen die Initiative und bestimmen das Team, das zuerst dran ist." in said
    # English reads as it always did.
    assert "PCs win initiative and choose which team goes first." in [english(e.text)
                                                                      for e in events]
    c, events = run(c, ChooseOrder(first_team="npcs"), actor=P1)
    assert [render(e.text, "de") for e in events][:2] == [
        "PCs wählen die Reihenfolge: NPCs, dann PCs.", "Zug: NPCs."]


def test_a_refusal_and_a_team_s_done_read_in_german() -> None:
    c = go(_duel(), Begin(), [3, 4, 6, 2])
    c = go(c, ChooseOrder(first_team="PCs"), actor=P1)
    with pytest.raises(RuleError) as refused:
        run(c, Done(team="NPCs"), actor=P1)
    assert render(refused.value.said, "de") == "Es ist nicht der Zug von NPCs; PCs handeln gerade."
    assert str(refused.value) == "It is not the NPCs' turn; PCs are acting."
    c, events = run(c, Done(team="PCs"), actor=P1)
    assert [render(e.text, "de") for e in events][:2] == ["PCs sind fertig.", "Zug: NPCs."]


def test_the_fight_s_own_sentences_leave_no_english_in_the_pseudo_locale() -> None:
    c, events = run(_duel(), Begin(), [3, 4, 6, 2])
    c, more = run(c, ChooseOrder(first_team="PCs"), actor=P1)
    c, done = run(c, Done(team="PCs"), actor=P1)
    names = ["Ana", "Cy", "Goon", "PCs", "NPCs"]
    mine = [e for e in (*events, *more, *done) if e.kind in _MINE]
    assert len(mine) >= 6
    for event in mine:
        assert untranslated(render(event.text, "en_XA"), allowed=names) == [], event.text
