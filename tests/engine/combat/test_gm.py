"""004 "Meta" ("the GM decides"): the GM's corrections during a fight, and ending it."""

from __future__ import annotations

from engine.combat import (
    Done,
    EndCombat,
    GMSet,
    Phase,
)
from engine.phrases import english
from tests.engine.combat.helpers import (
    P1,
    duel,
    go,
    knife,
    refused,
    run,
)


def test_gm_set_and_end() -> None:
    c = duel(knife("Ana"), knife("Bob", npc=True))
    refused(c, GMSet(fighter="Ana", level=30), "Only a GM", actor=P1)
    c, events = run(c, GMSet(fighter="Ana", level=30, area="Bar", marks={"head": "X"}))
    ana = c.fighter("ana")
    assert ana.character.level == 30 and ana.area == "Bar" and ana.character.marks("head") == "X"
    assert events[0].kind == "gm_set" and english(events[0].text).startswith("GM correction to Ana")
    refused(c, EndCombat(), "Only a GM", actor=P1)
    c = go(c, EndCombat())
    assert c.phase is Phase.ENDED and c.waiting_for() == ()
    refused(c, Done(), "over")
