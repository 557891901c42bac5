"""Discord's limits, refused alike by the local Discord (400, 50035 Invalid Form Body naming
the field) and by the in-process table the bot tests use: both ask
:mod:`localdiscord.limits`, so a body past one limit gets the same errors from each."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import aiohttp
import pytest
from discord import HTTPException
from discord.http import MultipartParameters
from discord.webhook.async_ import AsyncWebhookAdapter

from localdiscord import LocalDiscord
from localdiscord.interactions import Interaction
from testbed.harness import CHANNEL_ID, Table, snowflake


def _button(label: str = "Go", custom_id: str = "go") -> dict[str, Any]:
    return {"type": 2, "style": 1, "label": label, "custom_id": custom_id}


def _select(options: int = 1, placeholder: str = "Pick", **option: str) -> dict[str, Any]:
    return {"type": 3, "custom_id": "menu", "placeholder": placeholder,
            "options": [{"label": f"Item {n}", "value": f"item-{n}", **option}
                        for n in range(options)]}


def _rows(*rows: list[dict[str, Any]]) -> dict[str, Any]:
    return {"content": "pick one",
            "components": [{"type": 1, "components": parts} for parts in rows]}


#: Each message body past exactly one of Discord's limits, and the field it names.
MESSAGES = {
    "content": ({"content": "x" * 2001}, "content"),
    "rows": (_rows(*[[_button()]] * 6), "components"),
    "buttons in a row": (_rows([_button(custom_id=f"b{n}") for n in range(6)]),
                         "components.0.components"),
    "custom id": (_rows([_button(custom_id="x" * 101)]),
                  "components.0.components.0.custom_id"),
    "button label": (_rows([_button(label="x" * 81)]), "components.0.components.0.label"),
    "placeholder": (_rows([_select(placeholder="x" * 151)]),
                    "components.0.components.0.placeholder"),
    "options": (_rows([_select(options=26)]), "components.0.components.0.options"),
    "option label": (_rows([_select(label="x" * 101)]),
                     "components.0.components.0.options.0.label"),
    "option value": (_rows([_select(value="x" * 101)]),
                     "components.0.components.0.options.0.value"),
    "option description": (_rows([_select(description="x" * 101)]),
                           "components.0.components.0.options.0.description"),
    "a menu beside a button": (_rows([_select(), _button()]), "components.0.components"),
}

#: Every limit reached and none passed: taken.
AT_THE_LIMITS = {
    "content": "x" * 2000,
    "components": [
        *({"type": 1, "components": [_button(label="x" * 80, custom_id=f"{row}{n}".ljust(100))
                                     for n in range(5)]} for row in range(4)),
        {"type": 1, "components": [_select(options=25, placeholder="x" * 150,
                                           description="x" * 100)]},
    ],
}


def _text_input(**overrides: Any) -> dict[str, Any]:
    return {"type": 18, "label": "New value",
            "component": {"type": 4, "custom_id": "value", "style": 1, **overrides}}


def _modal(rows: int = 1, title: str = "Adjust", **row: Any) -> dict[str, Any]:
    return {"custom_id": "adjust", "title": title,
            "components": [_text_input(**row) for _ in range(rows)]}


#: Each answer (its type and data) past one limit of a modal or of autocomplete choices.
ANSWERS = {
    "modal title": (9, _modal(title="x" * 46), "data.title"),
    "modal rows": (9, _modal(rows=6), "data.components"),
    "text input placeholder": (9, _modal(placeholder="x" * 101),
                               "data.components.0.component.placeholder"),
    "text input value": (9, _modal(value="x" * 4001), "data.components.0.component.value"),
    "label": (9, {**_modal(), "components": [{**_text_input(), "label": "x" * 46}]},
              "data.components.0.label"),
    "menu in a modal": (9, {**_modal(), "components": [
        {"type": 18, "label": "Which", "component": _select(options=26)}]},
        "data.components.0.component.options"),
    "choices": (8, {"choices": [{"name": f"c{n}", "value": f"c{n}"} for n in range(26)]},
                "data.choices"),
    "choice name": (8, {"choices": [{"name": "x" * 101, "value": "x"}]}, "data.choices.0.name"),
}


@pytest.fixture
async def post(discord: LocalDiscord) -> AsyncIterator[Any]:
    """``await post(path, body)``: the local Discord's status and JSON answer."""
    discord.limiter.enabled = False  # many posts in one channel: no 429 in the way
    async with aiohttp.ClientSession(headers={"Authorization": "Bot local"}) as session:
        async def call(path: str, body: Any) -> tuple[int, Any]:
            async with session.post(discord.api + path, json=body) as response:
                return response.status, await response.json()
        yield call


@pytest.fixture
async def table(tmp_path: Path) -> AsyncIterator[Table]:
    started = await Table(tmp_path / "unhex.sqlite3").start()
    yield started
    started.refused.clear()  # (each test looks at what was refused itself)
    await started.stop()


@pytest.mark.parametrize("case", MESSAGES)
async def test_a_message_past_a_limit_is_refused_with_50035_naming_the_field(
        discord: LocalDiscord, post: Any, case: str) -> None:
    body, field = MESSAGES[case]
    status, answer = await post(f"/channels/{discord.channel('fight').id}/messages", body)
    assert (status, answer["code"], answer["message"]) == (400, 50035, "Invalid Form Body")
    assert list(answer["errors"]) == [field]
    assert not discord.channel_messages("fight")


async def test_a_message_at_every_limit_is_taken(discord: LocalDiscord, post: Any) -> None:
    status, answer = await post(f"/channels/{discord.channel('fight').id}/messages",
                                AT_THE_LIMITS)
    assert status == 200, answer
    assert len(discord.channel_messages("fight")) == 1


def _interaction(discord: LocalDiscord, answer_type: int) -> Interaction:
    """A slash command for a modal, a user typing an option for autocomplete."""
    kind = 4 if answer_type == 8 else 2
    return discord.people.send("alice", discord.channel("fight"), kind, {"name": "roll"})


@pytest.mark.parametrize("case", ANSWERS)
async def test_a_modal_or_choices_past_a_limit_are_refused_with_50035_naming_the_field(
        discord: LocalDiscord, post: Any, case: str) -> None:
    answer_type, data, field = ANSWERS[case]
    interaction = _interaction(discord, answer_type)
    status, answer = await post(
        f"/interactions/{interaction.id}/{interaction.token}/callback",
        {"type": answer_type, "data": data})
    assert (status, answer["code"]) == (400, 50035)
    assert list(answer["errors"]) == [field]
    assert interaction.answered is None and interaction.modal is None
    assert not interaction.choices


@pytest.mark.parametrize("case", MESSAGES)
async def test_the_table_refuses_the_same_message_with_the_same_errors(
        discord: LocalDiscord, post: Any, table: Table, case: str) -> None:
    body, _ = MESSAGES[case]
    _, refused_locally = await post(f"/channels/{discord.channel('fight').id}/messages", body)
    with pytest.raises(HTTPException) as refused:
        await table.bot.http.send_message(CHANNEL_ID,
                                          params=MultipartParameters(body, None, None))
    assert (refused.value.status, refused.value.code) == (400, 50035)
    assert table.refused == [refused_locally["errors"]]
    assert not table.channel_messages()


@pytest.mark.parametrize("case", ANSWERS)
async def test_the_table_refuses_the_same_modal_or_choices_with_the_same_errors(
        discord: LocalDiscord, post: Any, table: Table, case: str) -> None:
    answer_type, data, _ = ANSWERS[case]
    interaction = _interaction(discord, answer_type)
    _, refused_locally = await post(
        f"/interactions/{interaction.id}/{interaction.token}/callback",
        {"type": answer_type, "data": data})
    with pytest.raises(HTTPException) as refused:
        await AsyncWebhookAdapter().create_interaction_response(
            snowflake(), f"token-{snowflake()}", session=None,  # type: ignore[arg-type]
            params=MultipartParameters({"type": answer_type, "data": data}, None, None))
    assert refused.value.code == 50035
    assert table.refused == [refused_locally["errors"]]


async def test_the_table_takes_a_message_at_every_limit(table: Table) -> None:
    await table.bot.http.send_message(CHANNEL_ID,
                                      params=MultipartParameters(AT_THE_LIMITS, None, None))
    assert [m.content for m in table.channel_messages()] == [AT_THE_LIMITS["content"]]
    assert not table.refused


async def test_a_refused_body_fails_the_test_at_the_tables_end_even_if_the_bot_carried_on(
        tmp_path: Path) -> None:
    table = await Table(tmp_path / "unhex.sqlite3").start()
    body, _ = MESSAGES["placeholder"]
    with pytest.raises(HTTPException):
        await table.bot.http.send_message(CHANNEL_ID,
                                          params=MultipartParameters(body, None, None))
    with pytest.raises(AssertionError, match="Discord refused"):
        await table.stop()

