"""A process that runs some of Discord's shards: which it says, what it syncs, which fights
its start-up looks after, and what its metrics count (through the real dispatch)."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest
from prometheus_client import generate_latest

import bot.__main__ as main_module
from bot.operations.shards import shard_of
from bot.store.values import DatabaseUnavailable
from testbed.harness import ALICE, CHANNEL_ID, GM, GUILD_ID, Table
from tests.bot.fights import ana_and_goon_on_the_dance_floor
from tests.processes_io import metric

#: The test server's shard when the bot runs two.
OWN = shard_of(GUILD_ID, 2)


def _two_shards(ids: str) -> dict[str, object]:
    return {"UNHEX_SHARD_COUNT": 2, "UNHEX_SHARD_IDS": ids}


def _sample(table: Table, name: str, **labels: str) -> float:
    table.bot.refresh_gauges()
    return metric(generate_latest(table.bot.metrics.registry).decode(), name, **labels)


async def test_only_the_process_running_shard_zero_syncs_the_commands(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, logger="bot.client")
    other = await Table(tmp_path / "a.sqlite3", settings=_two_shards("1")).start()
    assert other.synced == []
    assert other.bot.sync_report.startswith("Not syncing commands: the process that runs "
                                            "shard 0 does")
    assert "This process runs shard 1 of 2." in caplog.messages
    await other.stop()
    first = await Table(tmp_path / "b.sqlite3", settings=_two_shards("0")).start()
    assert len(first.synced) == 1
    await first.stop()


async def test_start_up_looks_after_the_fights_of_its_own_shards_only(tmp_path: Path) -> None:
    table = await Table(tmp_path / "db.sqlite3").start()
    await ana_and_goon_on_the_dance_floor(table)
    table.dice(2, 0)
    await table.slash("attack", target="Goon")  # a reaction window opens, with its timer
    assert table.bot.fights.armed_channels == {CHANNEL_ID}

    table.settings = _two_shards(str(1 - OWN))
    await table.restart()
    assert table.bot.fights.armed_channels == frozenset()

    table.settings = _two_shards(str(OWN))
    await table.restart()
    assert table.bot.fights.armed_channels == {CHANNEL_ID}
    table.dice(1, 5, 3, 4, 6, 2)
    reply = await table.click(table.channel_messages()[-1], "Pass", user=GM)
    assert not reply.ephemeral  # the fight goes on in the process that owns it
    await table.stop()


@pytest.mark.parametrize(("count", "ids", "says"), [
    ("2", "0-2", "UNHEX_SHARD_IDS names shard 2, but UNHEX_SHARD_COUNT=2 numbers them 0 to 1"),
    (None, "0", "UNHEX_SHARD_IDS needs UNHEX_SHARD_COUNT"),
    ("4", "1-", "'1-' is not a shard id or a range such as 0-3"),
])
def test_shard_settings_that_do_not_fit_are_refused_in_a_sentence(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path,
        count: str | None, ids: str, says: str) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("DISCORD_TOKEN", "x")
    if count is not None:
        monkeypatch.setenv("UNHEX_SHARD_COUNT", count)
    monkeypatch.setenv("UNHEX_SHARD_IDS", ids)
    assert main_module.main([]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and says in err[0] and "Value error" not in err[0]


async def test_metrics_count_each_interaction_by_kind_command_and_outcome(
        tmp_path: Path) -> None:
    table = await Table(tmp_path / "db.sqlite3").start()
    table.dice(3, 4, 5, 6)
    await table.slash("roll", level=40)
    await table.slash("sheet", character="Nobody")  # refused: no such character
    prompt = (await table.slash("roll", level=40, good=True)).message
    await table.press("gone:1", message=prompt)  # an id the bot no longer answers
    await ana_and_goon_on_the_dance_floor(table)

    assert _sample(table, "unhex_interactions_total", kind="command", command="roll",
                   outcome="ok") == 2
    assert _sample(table, "unhex_interactions_total", kind="command", command="sheet",
                   outcome="refused") == 1
    assert _sample(table, "unhex_interactions_total", kind="button", command="(unknown)",
                   outcome="unknown") == 1
    assert _sample(table, "unhex_interactions_total", kind="button", command="cb",
                   outcome="ok") == 1  # (PCs first)
    answered = _sample(table, "unhex_first_response_seconds_count", kind="command")
    assert answered == 13  # every slash command above (3, and 10 to set the fight up)
    assert _sample(table, "unhex_fights_in_memory") == 1
    assert _sample(table, "unhex_database_transaction_seconds_count",
                   operation="combats.save") >= 3
    table.dice(2, 0)
    await table.slash("attack", user=ALICE, target="Goon")
    assert _sample(table, "unhex_fight_steps_total", outcome="applied") >= 4
    assert _sample(table, "unhex_messages_out_seconds_count") >= 1
    await table.stop()


async def test_a_commit_cut_off_after_it_landed_is_never_applied_again(tmp_path: Path) -> None:
    """The database went away as it answered: the step may have been saved. The bot must not
    take the newer version it then finds for a stale copy and apply the command once more."""
    table = await Table(tmp_path / "db.sqlite3").start()
    await ana_and_goon_on_the_dance_floor(table)
    combats = table.bot.store.combats
    before = await combats.active(CHANNEL_ID)
    assert before is not None
    save = combats.save

    async def saved_then_cut_off(*args: object, **kwargs: object) -> object:
        await save(*args, **kwargs)
        raise DatabaseUnavailable

    combats.save = saved_then_cut_off
    table.dice(2, 0, 2, 0)
    reply = await table.slash("attack", target="Goon")
    combats.save = save

    assert reply.ephemeral and "database" in reply.content
    after = await combats.active(CHANNEL_ID)
    assert after is not None and after.version == before.version + 1
    await table.stop()
