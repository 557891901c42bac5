"""A fight's pace: a reaction window's and a team's turn's length, and what a turn's deadline
does when it passes (the GM told once, or the turn ended), extended by a GM."""

from __future__ import annotations

import pytest

from engine.combat import Attack, Combat, Done, Phase, PromptKind, new_combat
from engine.combat.asking import asked
from engine.combat.commands import CloseWindow, ExtendTurn, TurnDeadline
from engine.combat.model import EventKind, TurnEnd
from engine.combat.pace import LONGEST, due_command, next_turn_deadline, with_pace
from engine.errors import RuleError
from engine.phrases import english
from tests.engine.combat.helpers import (
    CLUB,
    GM,
    P1,
    begin,
    pistol,
    refused,
    run,
    setup,
    texts,
)

HOUR = 3600.0


def paced(turn_end: TurnEnd = TurnEnd.ASK) -> Combat:
    """Ana (P1's) and Cy (P1's) against a Goon; a turn lasts 48 hours, a window 24; the PCs'
    turn started at 0."""
    c = setup((pistol("Ana"), "Entrance", 100), (pistol("Cy"), "Entrance", 100),
              (pistol("Goon", npc=True), "Entrance", None))
    c = with_pace(c, reaction_seconds=24 * 3600, turn_seconds=48 * 3600, turn_end=turn_end,
                  now=0.0)
    return begin(c, [3, 2, 6, 1], "PCs")


def test_new_combat_takes_durations_up_to_two_weeks() -> None:
    c = new_combat(CLUB, reaction_seconds=LONGEST, turn_seconds=LONGEST,
                   turn_end=TurnEnd.AUTO)
    assert (c.reaction_seconds, c.turn_seconds, c.turn_end) == (LONGEST, LONGEST, TurnEnd.AUTO)
    assert new_combat(CLUB).turn_seconds is None
    for bad in (0, LONGEST + 1):
        with pytest.raises(RuleError, match="14 days"):
            new_combat(CLUB, reaction_seconds=bad)
        with pytest.raises(RuleError, match="14 days"):
            new_combat(CLUB, turn_seconds=bad)


def test_a_turn_starts_with_its_deadline_shown_on_its_questions() -> None:
    c = paced()
    assert c.acting_team == "PCs" and c.turn_deadline == 48 * HOUR
    assert next_turn_deadline(c) == 48 * HOUR
    acts = [q for q in asked(c).questions if q.kind is PromptKind.ACT]
    assert acts and all(q.deadline == 48 * HOUR for q in acts)
    # No deadline without a turn length: today's turns.
    c = setup((pistol("Ana"), "Entrance", 100), (pistol("Goon", npc=True), "Bar", None))
    c = begin(c, [3, 2, 6, 1], "PCs")
    assert c.turn_deadline is None and due_command(c, 10 ** 9) is None


def test_a_window_says_its_time_in_words() -> None:
    c = paced()
    c, events = run(c, Attack(fighter="Ana", target="Goon"), actor=P1, now=HOUR)
    assert any("within 1 day" in t for t in texts(events))
    assert c.phase is Phase.REACTION
    # The window's deadline comes first; the turn's waits while the window is open.
    assert due_command(c, 25 * HOUR) == CloseWindow(by_timeout=True)
    assert next_turn_deadline(c) is None


def test_the_deadline_tells_the_gm_once_who_has_not_acted() -> None:
    c = paced()
    assert due_command(c, 47 * HOUR) is None
    assert due_command(c, 48 * HOUR) == TurnDeadline()
    refused(c, TurnDeadline(), "left", now=47 * HOUR)
    c, events = run(c, TurnDeadline(), now=48 * HOUR)
    told = [e for e in events if e.kind is EventKind.TURN_DEADLINE]
    assert [english(e.text) for e in told] == [
        "Time is up for the PCs' turn. Not acted yet: Ana and Cy. A GM may act for them, "
        "extend the turn, or end it."]
    assert c.acting_team == "PCs" and c.turn_deadline_told
    assert next_turn_deadline(c) is None and due_command(c, 99 * HOUR) is None
    refused(c, TurnDeadline(), "no deadline", now=49 * HOUR)


def test_a_gm_extends_the_turn_by_its_length_or_a_given_time() -> None:
    c = paced()
    c, _ = run(c, TurnDeadline(), now=50 * HOUR)
    refused(c, ExtendTurn(), "Only a GM", actor=P1, now=50 * HOUR)
    c, events = run(c, ExtendTurn(), now=50 * HOUR)
    assert texts(events) == ["The GM extends the PCs' turn by 2 days."]
    assert c.turn_deadline == 98 * HOUR and not c.turn_deadline_told  # from now: it had passed
    c, _ = run(c, ExtendTurn(seconds=1800), now=60 * HOUR)  # still running: from the deadline
    assert c.turn_deadline == 98.5 * HOUR and next_turn_deadline(c) == 98.5 * HOUR
    refused(c, ExtendTurn(seconds=LONGEST + 1), "14 days", now=60 * HOUR)


def test_a_turn_ended_by_done_takes_its_deadline_with_it() -> None:
    c = paced()
    c, _ = run(c, Done(), actor=P1, now=HOUR)
    assert c.acting_team == "NPCs" and c.turn_deadline == 49 * HOUR
    c, _ = run(c, Done(), now=2 * HOUR)
    assert c.phase is Phase.INITIATIVE and c.turn_deadline is None


def test_auto_ends_the_turn_at_its_deadline() -> None:
    c = paced(TurnEnd.AUTO)
    c, events = run(c, TurnDeadline(), now=48 * HOUR)
    assert texts(events)[:2] == [
        "Time is up for the PCs' turn: it ends. Not acted yet: Ana and Cy.",
        "PCs are done (time is up)."]
    assert c.acting_team == "NPCs" and c.turn_deadline == 96 * HOUR


def test_extending_needs_a_length_when_turns_have_none() -> None:
    c = setup((pistol("Ana"), "Entrance", 100), (pistol("Goon", npc=True), "Bar", None))
    c = begin(c, [3, 2, 6, 1], "PCs")
    refused(c, ExtendTurn(), "no deadline")
    c, _ = run(c, ExtendTurn(seconds=600), now=5.0)
    assert c.turn_deadline == 605.0


def test_a_new_turn_length_applies_to_the_running_turn_from_now() -> None:
    c = paced()
    c = with_pace(c, reaction_seconds=45, turn_seconds=None, turn_end=TurnEnd.ASK, now=HOUR)
    assert c.turn_deadline is None
    c = with_pace(c, reaction_seconds=45, turn_seconds=600, turn_end=TurnEnd.ASK, now=HOUR)
    assert c.turn_deadline == HOUR + 600
    # Only the reaction's length changed: the running turn keeps its deadline.
    c = with_pace(c, reaction_seconds=90, turn_seconds=600, turn_end=TurnEnd.ASK, now=2 * HOUR)
    assert c.turn_deadline == HOUR + 600
    assert GM.gm
