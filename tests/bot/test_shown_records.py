"""What the table saw of a fight, recorded without a transaction of its own at every step: the
next step carries it, a quiet fight has it written once after a short delay, a clean
shutdown writes what is left, and a restart before any of these shows the fight again with
one live prompt."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from bot.store.values import StoredCombat
from testbed.harness import CHANNEL_ID, GM, Table
from tests.bot.fights import ana_and_goon_on_the_dance_floor

#: Seconds a record waits, where a test wants it to wait for the next step.
FOREVER = 3600.0


async def _kept(table: Table) -> StoredCombat:
    stored = await table.bot.store.combats.active(CHANNEL_ID)
    assert stored is not None
    return stored


def _records_written(table: Table, monkeypatch: pytest.MonkeyPatch) -> list[list[Any]]:
    """Each list of records the store is asked to write on their own, from now on."""
    written: list[list[Any]] = []
    shown = table.bot.store.combats.shown

    async def counted(records: Any) -> None:
        written.append(list(records))
        await shown(records)

    monkeypatch.setattr(table.bot.store.combats, "shown", counted)
    return written


async def test_a_step_carries_the_record_of_the_version_shown_before_it(
        table: Table, monkeypatch: pytest.MonkeyPatch) -> None:
    records = table.bot.fights.presenter.records
    records.delay = FOREVER
    await ana_and_goon_on_the_dance_floor(table)
    written = _records_written(table, monkeypatch)

    declared = await table.slash("attack", target="Goon")
    kept = await _kept(table)
    waiting = records.unwritten(kept.id)
    assert waiting is not None and waiting.version == kept.version
    assert waiting.prompt_message_id == declared.prompt.id
    assert kept.shown_version < kept.version  # not written yet

    table.dice(3, 5)
    await table.click(declared.prompt, "Pass", user=GM)
    after = await _kept(table)
    assert after.version == kept.version + 1
    assert (after.shown_version, after.prompt_message_id) == (kept.version, declared.prompt.id)
    assert written == []  # nothing written but by the steps themselves


async def test_a_quiet_fight_s_record_is_written_once_after_a_short_delay(
        table: Table, monkeypatch: pytest.MonkeyPatch) -> None:
    records = table.bot.fights.presenter.records
    records.delay = FOREVER
    await ana_and_goon_on_the_dance_floor(table)
    written = _records_written(table, monkeypatch)
    records.close()  # (its timer was set for FOREVER)
    records.delay = 0.01

    declared = await table.slash("attack", target="Goon")
    kept = await _kept(table)
    for _ in range(500):  # (the timer's write, waited for: no time is asserted)
        if records.unwritten(kept.id) is None and written:
            break
        await asyncio.sleep(0.01)
    await table.settle()
    for _ in range(50):  # the timer finds nothing more to write
        await asyncio.sleep(0.01)
    assert [[(r.combat_id, r.version, r.prompt_message_id) for r in w] for w in written] == [
        [(kept.id, kept.version, declared.prompt.id)]]
    after = await _kept(table)
    assert (after.version, after.shown_version, after.prompt_message_id) == (
        kept.version, kept.version, declared.prompt.id)


async def test_a_clean_shutdown_writes_the_records_left(table: Table) -> None:
    records = table.bot.fights.presenter.records
    records.delay = FOREVER
    await ana_and_goon_on_the_dance_floor(table)
    declared = await table.slash("attack", target="Goon")
    assert (await _kept(table)).shown_version < (await _kept(table)).version

    await table.bot.fights.close()
    kept = await _kept(table)
    assert (kept.shown_version, kept.prompt_message_id) == (kept.version, declared.prompt.id)


async def test_a_restart_before_the_record_shows_the_version_again_with_one_live_prompt(
        table: Table) -> None:
    table.bot.fights.presenter.records.delay = FOREVER
    await ana_and_goon_on_the_dance_floor(table)
    declared = await table.slash("attack", target="Goon")
    posted = declared.prompt
    kept = await _kept(table)
    assert kept.shown_version < kept.version  # as a crash leaves it
    boards = [m.id for m in table.channel_messages() if m.content.startswith("```")]

    await table.restart(dice=[3, 5])
    await table.settle()
    with_buttons = [m for m in table.channel_messages() if m.buttons]
    assert [m.id for m in with_buttons] == [posted.id]  # found again, not posted twice
    assert [m.id for m in table.channel_messages() if m.content.startswith("```")] == boards
    passed = await table.click(posted, "Pass", user=GM)
    assert "35 (3·5) vs 40" in passed.answer.content
    after = await _kept(table)
    assert (after.shown_version, after.prompt_message_id) == (kept.version, posted.id)
