"""The patch a fight's step logs to undo it, read from the two states' models."""

from __future__ import annotations

import jsonpatch
from pydantic import BaseModel, ConfigDict, field_serializer

from bot.store.patches import reverse_patch, reverse_patch_of_models
from engine.phrases import Phrase, phrase


class _Item(BaseModel):
    model_config = ConfigDict(frozen=True)
    name: str
    marks: frozenset[str] = frozenset()

    @field_serializer("marks")
    def _sorted(self, marks: frozenset[str]) -> list[str]:
        return sorted(marks)


class _Holder(BaseModel):
    model_config = ConfigDict(frozen=True)
    level: int
    items: tuple[_Item, ...] = ()
    held: _Item | None = None
    note: dict[str, int] = {}


def test_the_patch_from_models_undoes_a_step_like_the_patch_from_documents() -> None:
    knife = _Item(name="Knife")
    before = _Holder(level=40, items=(knife, _Item(name="Shield", marks=frozenset({"b", "a"}))),
                     held=knife, note={"x": 1})
    after = before.model_copy(update={
        "level": 36, "items": (knife, _Item(name="Shield", marks=frozenset({"a"}))),
        "held": None, "note": {"x": 2}})
    ops = reverse_patch_of_models(after, before)
    doc_after, doc_before = after.model_dump(mode="json"), before.model_dump(mode="json")
    assert jsonpatch.apply_patch(doc_after, ops) == doc_before
    assert jsonpatch.apply_patch(doc_after, reverse_patch(doc_after, doc_before)) == doc_before
    assert {op["path"] for op in ops} == {"/level", "/items/1/marks", "/held", "/note"}


def test_a_list_that_changed_length_is_replaced_whole() -> None:
    before = _Holder(level=1, items=(_Item(name="Knife"),))
    after = before.model_copy(update={"items": ()})
    ops = reverse_patch_of_models(after, before)
    assert ops == [{"op": "replace", "path": "/items", "value": [{"name": "Knife", "marks": []}]}]
    assert reverse_patch_of_models(before, before) == []


class _Told(BaseModel):
    model_config = ConfigDict(frozen=True)
    ending: Phrase | str | None = None
    limits: tuple[Phrase, ...] = ()


def test_a_phrase_taken_back_is_its_json_object_not_the_tuple_it_is() -> None:
    before = _Told(ending=phrase("{team} yields.", team="Goons"),
                   limits=(phrase("wounded"), phrase("{n} marks", n=2)))
    after = before.model_copy(update={"ending": "Over.", "limits": (phrase("wounded"),
                                                                    phrase("{n} marks", n=3))})
    ops = reverse_patch_of_models(after, before)
    undone = jsonpatch.apply_patch(after.model_dump(mode="json"), ops)
    assert undone == before.model_dump(mode="json")
    assert _Told.model_validate(undone) == before
