"""The engine's phrases: frozen values with their arguments, the same after a trip through JSON
(the fight's log keeps its events as JSON), and in a pydantic model's field."""

from __future__ import annotations

import copy
import json
import pickle

import pytest

from engine.frozen import FrozenModel
from engine.phrases import Phrase, phrase, phrase_in, plural_phrase


def _hit() -> Phrase:
    return phrase("{attacker} hits {target} in the {part} for {levels} levels.",
                  attacker="Ana", target="Goon", part=phrase("left arm"), levels=12)


def test_a_phrase_keeps_its_source_and_its_arguments_in_order() -> None:
    hit = _hit()
    assert hit.msgid == "{attacker} hits {target} in the {part} for {levels} levels."
    assert hit.arguments == (("attacker", "Ana"), ("target", "Goon"),
                             ("part", Phrase("left arm")), ("levels", 12))
    assert hit.english() == "Ana hits Goon in the left arm for 12 levels."
    with pytest.raises(AttributeError):
        hit.msgid = "changed"  # type: ignore[misc]
    assert hash(hit) == hash(_hit()) and hit == _hit()
    assert not hasattr(hit, "__dict__")  # slots: thousands are made in a fight


def test_a_plural_phrase_names_its_count_and_chooses_the_english_form() -> None:
    one = plural_phrase("{name} waits {count} round.", "{name} waits {count} rounds.", "count",
                        name="Ana", count=1)
    assert one.english() == "Ana waits 1 round."
    assert one.msgid_plural == "{name} waits {count} rounds." and one.count_name == "count"
    three = plural_phrase("{name} waits {count} round.", "{name} waits {count} rounds.",
                          "count", name="Ana", count=3)
    assert three.english() == "Ana waits 3 rounds." and three.plural_count() == 3
    with pytest.raises(ValueError, match="not an int"):
        plural_phrase("{n} round", "{n} rounds", "n", n="three")


def test_a_phrase_goes_through_json_and_back_whole() -> None:
    hit = _hit()
    text = json.dumps(hit.to_json())
    assert json.loads(text) == {
        "phrase": "{attacker} hits {target} in the {part} for {levels} levels.",
        "args": {"attacker": "Ana", "target": "Goon", "part": {"phrase": "left arm"},
                 "levels": 12}}
    assert Phrase.from_json(json.loads(text)) == hit
    waits = plural_phrase("{count} round", "{count} rounds", "count", count=2)
    assert Phrase.from_json(json.loads(json.dumps(waits.to_json()))) == waits


@pytest.mark.parametrize("data", [
    {"args": {}},  # no source
    {"phrase": "{n} round", "plural": "{n} rounds"},  # a plural without its count
    {"phrase": "{x}", "args": {"x": [1, 2]}},  # an argument of another kind
    {"phrase": "{x}", "args": {"x": True}},  # a bool is not a number here
    {"phrase": "x", "text": "x"},  # a key of something else
])
def test_what_is_not_a_phrase_is_refused(data: dict[str, object]) -> None:
    with pytest.raises(ValueError):
        Phrase.from_json(data)


class _Said(FrozenModel):
    text: Phrase | str


def test_a_models_field_holds_a_phrase_or_a_plain_string_through_json() -> None:
    said = _Said(text=_hit())
    dumped = said.model_dump_json()
    assert json.loads(dumped)["text"]["args"]["part"] == {"phrase": "left arm"}
    assert _Said.model_validate_json(dumped) == said
    plain = _Said(text="Round 2.")
    assert _Said.model_validate_json(plain.model_dump_json()).text == "Round 2."


def test_a_phrase_is_a_value_copied_pickled_and_hashed_as_one() -> None:
    hit = _hit()
    assert copy.deepcopy(hit) == hit and type(copy.copy(hit)) is Phrase
    assert pickle.loads(pickle.dumps(hit)) == hit
    assert hash(_hit()) == hash(hit) and {hit: 1}[_hit()] == 1
    assert phrase("{n} rounds", n=2) != phrase("{n} rounds", n=3)
    assert repr(phrase("Round {round}", round=2)) == (
        "Phrase(msgid='Round {round}', arguments=(('round', 2),), msgid_plural=None, "
        "count_name=None)")


def test_a_phrase_in_a_context_reads_its_words_in_english_and_keeps_its_context() -> None:
    noun = phrase_in("a roll", "counterattack")
    assert noun.english() == "counterattack" and noun != phrase("counterattack")
    assert Phrase.from_json(noun.to_json()) == noun
    assert phrase("good ({roll})", roll=noun).english() == "good (counterattack)"
