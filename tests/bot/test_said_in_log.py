"""The fight's log keeps what the engine said as values: a phrase is read back as the same
phrase (so it can be rendered in any language later), a plain string as it was, and the GM's
wording beside the players'."""

from __future__ import annotations

import json

from bot.store.steps import logged_events, told_events
from engine.combat import Event
from engine.combat.model import EventKind
from engine.phrases import phrase, plural_phrase


def test_phrases_and_strings_come_back_from_the_log_as_they_were_said() -> None:
    hit = phrase("{attacker} hits {target} in the {part}.", attacker="Ana", target="Goon",
                 part=phrase("head"))
    hidden = phrase("{name} is hurt.", name="Goon")
    exact = plural_phrase("{name} takes {n} wound.", "{name} takes {n} wounds.", "n",
                          name="Goon", n=3)
    events = [Event(kind=EventKind.DECLARE, text=hit),
              Event(kind=EventKind.DAMAGE, text=hidden, gm_text=exact),
              Event(kind=EventKind.ROUND, text="Round 2 begins.")]
    public, for_gm = told_events(logged_events(events))
    assert public == (hit, hidden, "Round 2 begins.")
    assert for_gm == (hit, exact, "Round 2 begins.")
    assert told_events("") == ((), ())
    assert json.loads(logged_events(events))[1] == {
        "text": {"phrase": "{name} is hurt.", "args": {"name": "Goon"}},
        "gm_text": {"phrase": "{name} takes {n} wound.", "args": {"name": "Goon", "n": 3},
                    "plural": "{name} takes {n} wounds.", "count": "n"}}
    assert logged_events(events[2:]) == '["Round 2 begins."]' and logged_events([]) == "[]"
