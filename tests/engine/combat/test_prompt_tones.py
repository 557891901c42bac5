"""Each prompt's spec says how its options read: a chance taken, a chance let go, or plain.
The bot colours the buttons from it (green, grey, blue); no other table of options exists."""

from __future__ import annotations

from engine.combat.model import PromptKind
from engine.combat.prompts import LESS_LETHAL, SPECS, Tone


def test_taking_a_chance_and_letting_it_go_read_apart() -> None:
    react = SPECS[PromptKind.REACT]
    assert [react.tone(o) for o in ("defend", f"counterattack{LESS_LETHAL}", "pass")] == [
        Tone.TAKE, Tone.TAKE, Tone.DECLINE]
    assert SPECS[PromptKind.AOE_DEFEND].tone("defend") is Tone.TAKE
    assert SPECS[PromptKind.CRITICAL].tone("adjust") is Tone.TAKE
    assert SPECS[PromptKind.MODIFIER].tone("none") is Tone.DECLINE
    assert SPECS[PromptKind.MODIFIER].tone("powerful") is Tone.PLAIN


def test_every_toned_option_is_one_the_prompt_labels() -> None:
    untold = [(kind, option) for kind, spec in SPECS.items() for option in spec.tones
              if option not in spec.labels]
    assert not untold
