"""The questions between turns in a fight by post (rules note on deadlines between turns):
initiative's and the rallies' questions share a deadline a turn's length from when the first
was asked, kept in the state; past it the GM is told once, or with ``turn_end: auto`` each is
answered the default way. A question asked during a team's turn closes with the turn."""

from __future__ import annotations

import pytest

from engine.combat import Attack, Combat, Done, Phase, PromptKind
from engine.combat.asking import asked
from engine.combat.commands import BetweenTurnsDeadline, CloseWindow, TurnDeadline
from engine.combat.model import TurnEnd
from engine.combat.pace import due_command, next_between_turns_deadline, with_pace
from engine.combat.reminders import pending_reminders
from engine.errors import RuleError
from tests.engine.combat.helpers import P1, run, texts
from tests.engine.combat.test_pace import HOUR, paced


def _round_two(turn_end: TurnEnd = TurnEnd.ASK) -> Combat:
    """Both teams done by hour 2: round 2's initiative asks the PCs who rolls."""
    c = paced(turn_end)
    c, _ = run(c, Done(), actor=P1, now=HOUR)
    c, _ = run(c, Done(), now=2 * HOUR)
    return c


def test_initiative_questions_share_a_deadline_a_turn_long_from_when_first_asked() -> None:
    c = _round_two()
    assert c.phase is Phase.INITIATIVE
    [question] = asked(c).questions
    assert question.kind is PromptKind.CHOOSE_ROLLER and question.deadline == 50 * HOUR
    assert c.between_turns_deadline == 50 * HOUR == next_between_turns_deadline(c)
    assert due_command(c, 50 * HOUR - 1) is None
    assert due_command(c, 50 * HOUR) == BetweenTurnsDeadline()
    # The PCs' players are reminded with a quarter of the time left.
    [reminder] = pending_reminders(c)
    assert reminder.deadline == 50 * HOUR and reminder.due == 38 * HOUR
    assert reminder.users == (P1.user_id,)
    # Not yet: nothing is done before the deadline.
    with pytest.raises(RuleError, match="1 hour left"):
        run(c, BetweenTurnsDeadline(), now=49 * HOUR)


def test_past_it_the_gm_is_told_once_who_has_not_answered() -> None:
    c = _round_two()
    c, events = run(c, BetweenTurnsDeadline(), now=50 * HOUR)
    assert texts(events) == [
        "Time is up for round 2's initiative. Not answered yet: PCs (choose who rolls). A GM "
        "may answer for them."]
    assert c.between_turns_told and c.phase is Phase.INITIATIVE
    assert due_command(c, 60 * HOUR) is None and pending_reminders(c) == ()
    with pytest.raises(RuleError, match="Nothing between turns"):
        run(c, BetweenTurnsDeadline(), now=60 * HOUR)


def test_with_auto_each_is_answered_the_default_way_and_the_turn_starts() -> None:
    c = _round_two(TurnEnd.AUTO)
    # Ana (the first at the PCs' highest level) rolls 32, the Goon 61; the PCs win and, as
    # the team that chooses, go first.
    c, events = run(c, BetweenTurnsDeadline(), [3, 2, 6, 1], now=50 * HOUR)
    said = texts(events)
    assert said[0] == ("Time is up for round 2's initiative: Not answered yet: PCs (choose "
                       "who rolls). Each is answered the default way.")
    assert any("PCs choose Ana to roll initiative" in t for t in said), said
    assert c.phase is Phase.TURN and c.acting_team == "PCs"
    assert c.between_turns_deadline is None and c.turn_deadline == 98 * HOUR


def test_a_question_during_a_turn_closes_with_the_turn() -> None:
    c = paced()
    c, _ = run(c, Attack(fighter="Ana", target="Goon"), actor=P1, now=HOUR)
    c, _ = run(c, CloseWindow(), [2, 1], now=2 * HOUR)
    assert c.phase is Phase.RESOLUTION, c.prompts
    waiting = [q for q in asked(c).questions if not q.offer]
    assert waiting and all(q.deadline == 48 * HOUR for q in waiting), waiting
    assert due_command(c, 48 * HOUR) == TurnDeadline()
    c, events = run(c, TurnDeadline(), now=48 * HOUR)
    assert "end it once the action is resolved" in texts(events)[0]
    assert c.turn_deadline_told


def test_a_live_fight_asks_between_turns_without_a_deadline() -> None:
    c = _round_two()
    c = with_pace(c, reaction_seconds=45, turn_seconds=None, turn_end=TurnEnd.ASK, now=3 * HOUR)
    assert c.between_turns_deadline is None and asked(c).questions[0].deadline is None
    assert due_command(c, 10 ** 9) is None
