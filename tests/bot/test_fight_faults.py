"""Fights you can trust: a step is one transaction, a crash or a refusing Discord loses nothing
and leaves nobody without buttons, and one character is in one fight at a time."""

from __future__ import annotations

import asyncio
import sqlite3

import discord
import pytest

import bot.cogs.combat.session as session_module
from engine.character import Character
from engine.combat import Fighter
from testbed.harness import ALICE, CHANNEL_ID, GM, GUILD_ID, OTHER_CHANNEL_ID, Reply, Table
from tests.bot.fights import add_character, ana_and_goon_on_the_dance_floor, start_fight

pytestmark = pytest.mark.both_engines


class _FakeResponse:
    def __init__(self, status: int) -> None:
        self.status = status
        self.reason = "Service Unavailable" if status >= 500 else "Forbidden"


def _http_error(status: int) -> discord.HTTPException:
    kind = discord.Forbidden if status == 403 else discord.DiscordServerError
    return kind(_FakeResponse(status), "refused")  # type: ignore[arg-type]


async def _sheet(table: Table, name: str) -> Character:
    stored = await table.bot.store.characters.get(GUILD_ID, name)
    assert stored is not None
    return stored.character


async def _level(table: Table, name: str) -> int:
    return (await _sheet(table, name)).level


async def _ana_hurt_and_fight_over_soon(table: Table) -> None:
    """Ana (40) and Goon (25) fighting; Ana has taken 4 damage (36)."""
    await ana_and_goon_on_the_dance_floor(table)
    await table.slash("combat set", user=GM, character="Ana", level=36)


# -- a step is one transaction ---------------------------------------------------------------


async def test_a_crash_during_the_write_back_leaves_the_fight_and_the_sheets_untouched(
    table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    await _ana_hurt_and_fight_over_soon(table)
    written: list[str] = []

    def crash_on_the_second_sheet(sheet: Character, fighter: Fighter) -> Character:
        written.append(fighter.name)
        if len(written) == 2:
            raise RuntimeError("the process dies here")
        return session_module.after_the_fight(sheet, fighter.character)

    monkeypatch.setattr(session_module, "_write_back", crash_on_the_second_sheet)
    ended = await table.slash("combat end", user=GM)
    assert ended.ephemeral and "Nothing was changed" in ended.content
    assert written == ["Ana", "Goon"]
    assert await _level(table, "Ana") == 40  # Ana's write-back was rolled back with the rest
    monkeypatch.undo()
    await table.restart()
    status = await table.slash("combat status")  # the fight goes on
    assert "Ana" in status.content and not status.content.startswith("There is no fight")
    ended = await table.slash("combat end", user=GM)
    assert not ended.ephemeral
    assert await _level(table, "Ana") == 36


async def test_the_sheet_of_a_character_in_a_fight_is_changed_only_through_the_fight(
    table: Table,
) -> None:
    await _ana_hurt_and_fight_over_soon(table)
    refused = await table.slash("character advance", character="Ana")
    assert refused.ephemeral, refused.content
    assert f"<#{CHANNEL_ID}>" in refused.content and "/combat set" in refused.content
    for command, options in (("character item add", {"name": "Rope", "kind": "melee_1h"}),
                             ("character recover", {}), ("character delete", {})):
        other = await table.slash(command, character="Ana", **options)
        assert other.ephemeral and f"<#{CHANNEL_ID}>" in other.content, (command, other.content)
    await table.slash("combat end", user=GM)
    advanced = await table.slash("character advance", character="Ana")
    assert "advances to max level 41" in advanced.content
    assert await _level(table, "Ana") == 36  # the fight's damage, and the advance, both kept


async def test_end_and_advance_at_the_same_moment_lose_nothing(table: Table) -> None:
    await _ana_hurt_and_fight_over_soon(table)
    ended, advanced = await table.at_once(("combat end", {"user": GM}),
                                          ("character advance", {"character": "Ana"}))
    assert not ended.ephemeral, ended.content
    sheet = await _sheet(table, "Ana")
    assert sheet.level == 36  # the fight's end was written back
    if "advances to max level 41" in advanced.content:  # shown: then it is on the sheet
        assert sheet.max_level == 41
    else:
        assert advanced.ephemeral and sheet.max_level == 40


async def test_one_character_fights_in_one_channel_at_a_time(table: Table) -> None:
    await add_character(table, "Ana", level=40)
    await start_fight(table, ("Ana", "Dance Floor"), user_of={"Ana": ALICE})
    await table.slash("combat start", user=GM, map="Nightclub", channel=OTHER_CHANNEL_ID)
    again = await table.slash("combat add", channel=OTHER_CHANNEL_ID, character="Ana",
                              area="Bar")
    assert again.ephemeral and f"<#{CHANNEL_ID}>" in again.content, again.content
    empty = await table.slash("combat status", channel=OTHER_CHANNEL_ID)
    assert "Ana" not in empty.content
    await table.slash("combat remove", user=GM, character="Ana")
    now_free = await table.slash("combat add", channel=OTHER_CHANNEL_ID, character="Ana",
                                 area="Bar")
    assert not now_free.ephemeral, now_free.content


async def test_undo_of_an_add_frees_the_character_for_another_fight(table: Table) -> None:
    await add_character(table, "Ana", level=40)
    await start_fight(table, ("Ana", "Dance Floor"), user_of={"Ana": ALICE})
    await table.slash("combat undo", user=GM)
    await table.slash("combat start", user=GM, map="Nightclub", channel=OTHER_CHANNEL_ID)
    added = await table.slash("combat add", channel=OTHER_CHANNEL_ID, character="Ana",
                              area="Bar")
    assert not added.ephemeral, added.content


async def test_the_sheet_shows_the_fight_s_wounds_while_it_lasts(table: Table) -> None:
    await _ana_hurt_and_fight_over_soon(table)
    sheet = await table.slash("sheet", character="Ana")
    assert "Level 36/40" in sheet.content, sheet.content
    assert f"<#{CHANNEL_ID}>" in sheet.content


# -- start-up restores what the table needs ------------------------------------------------------


async def test_a_crash_before_the_prompt_is_posted_is_mended_at_start_up(table: Table) -> None:
    await ana_and_goon_on_the_dance_floor(table)

    async def down() -> None:
        raise _http_error(503)

    table.channel_faults[CHANNEL_ID] = down
    table.followups_down = True  # the prompt comes as the answer's follow-up: refused too
    declared = await table.slash("attack", target="Goon")
    assert "Ana attacks Goon" in declared.answer.content  # answered first, then Discord failed
    assert not any(m.buttons for m in declared.messages)
    table.channel_faults.clear()
    table.followups_down = False
    for task in list(table.bot.fights.presenter._retries.values()):
        task.cancel()
    await table.restart(dice=[3, 5])
    prompt = table.channel_messages()[-1]
    assert "may react" in prompt.content and "Goon (GM)" in prompt.content
    passed = await table.click(prompt, "Pass", user=GM)
    assert "35 (3·5) vs 40" in passed.answer.content


async def test_start_up_does_not_post_again_what_the_table_already_sees(table: Table) -> None:
    await ana_and_goon_on_the_dance_floor(table)
    await table.slash("attack", target="Goon")
    seen = len(table.channel_messages())
    await table.restart()
    assert len(table.channel_messages()) == seen


async def test_a_refusing_discord_is_tried_again_by_the_next_command(table: Table) -> None:
    await ana_and_goon_on_the_dance_floor(table)
    calls = 0

    async def once() -> None:
        nonlocal calls
        calls += 1
        raise _http_error(503)

    table.channel_faults[CHANNEL_ID] = once
    declared = await table.slash("attack", target="Goon")
    assert declared.answer.content.startswith("Ana attacks Goon")
    table.channel_faults.clear()
    shown = await table.slash("combat status")
    assert "Waiting for: Goon (react)" in shown.content
    await table.bot.fights.presenter._retries[CHANNEL_ID]  # the retry shows the prompt
    await table.settle()
    assert "may react" in table.channel_messages()[-1].content


# -- answer first, Discord outside the lock ---------------------------------------------------


async def _answered(*replies: Reply) -> None:
    for _ in range(200):
        if all(r.messages for r in replies):
            return
        await asyncio.sleep(0.01)
    raise AssertionError("no answer within 2 s")


async def test_a_slow_discord_in_one_channel_does_not_delay_the_answers(table: Table) -> None:
    await ana_and_goon_on_the_dance_floor(table)
    await add_character(table, "Cara", level=30, user=ALICE)
    await table.slash("combat start", user=GM, map="Nightclub", channel=OTHER_CHANNEL_ID)
    gate = asyncio.Event()

    async def slow() -> None:
        await gate.wait()

    table.channel_faults[CHANNEL_ID] = slow
    first = table.send_slash("attack", target="Goon")
    elsewhere = table.send_slash("combat add", channel=OTHER_CHANNEL_ID, character="Cara",
                                 area="Bar")
    await _answered(first, elsewhere)
    assert first.answer.content.startswith("Ana attacks Goon")  # answered before the board
    second = table.send_slash("combat status")
    await _answered(second)
    assert "Waiting for: Goon (react)" in second.answer.content
    assert "Cara joins" in elsewhere.answer.content or not elsewhere.answer.ephemeral
    gate.set()
    await table.settle()
    assert "may react" in table.channel_messages()[-1].content


async def test_a_burst_of_commands_edits_the_board_once(table: Table) -> None:
    await add_character(table, "Ana", level=40)
    for name in ("Goon", "Rat", "Bat"):
        await add_character(table, name, user=GM, level=20, npc=True)
    await table.slash("combat start", user=GM, map="Nightclub")
    board = table.channel_messages()[-1]
    edits = 0
    gate = asyncio.Event()

    async def count() -> None:
        nonlocal edits
        edits += 1
        await gate.wait()

    table.channel_faults[CHANNEL_ID] = count
    replies = [table.send_slash("combat add", user=GM, character=name, area="Bar")
               for name in ("Goon", "Rat", "Bat")]
    await _answered(*replies)  # all three saved and answered while the first edit hangs
    gate.set()
    await table.settle()
    assert all(not r.answer.ephemeral for r in replies), [r.answer.content for r in replies]
    assert edits == 2  # the first add's board edit, then one for the other two
    assert all(n in table.message(board.id).content for n in ("Goon", "Rat", "Bat"))


# -- permissions -------------------------------------------------------------------------------


async def test_without_send_messages_nothing_is_applied_and_the_answer_says_why(
    table: Table,
) -> None:
    await ana_and_goon_on_the_dance_floor(table)
    table.app_permissions = discord.Permissions.all()
    table.app_permissions.send_messages = False
    refused = await table.slash("attack", target="Goon")
    assert refused.ephemeral and "Send Messages" in refused.content, refused.content
    assert "Something went wrong" not in refused.content
    log = await table.slash("combat log")
    assert "attacks" not in log.content


# -- within Discord's limits -------------------------------------------------------------------


@pytest.mark.parametrize(("command", "options"), [
    ("attack", {"target": "x" * 6000}),
    ("move", {"to": "x" * 6000}),
    ("door", {"area": "x" * 6000, "open": True}),
    ("firstaid", {"target": "x" * 6000}),
    ("item hold", {"item": "x" * 6000}),
    ("item use", {"what": "x" * 6000}),
    ("combat add", {"character": "x" * 6000, "area": "Bar"}),
    ("combat status", {"character": "x" * 6000}),
    ("combat set", {"character": "x" * 6000, "level": 3}),
    ("combat remove", {"character": "x" * 6000}),
    ("attack", {"target": "Goon", "as": "y" * 6000}),
])
async def test_a_6000_character_option_gets_a_short_clear_refusal(
    table: Table, command: str, options: dict[str, object]
) -> None:
    await ana_and_goon_on_the_dance_floor(table)
    refused = await table.slash(command, user=GM, **options)  # the harness checks the length
    assert refused.ephemeral and len(refused.content) < 300, refused.content
    assert "Something went wrong" not in refused.content


async def test_unicode_digits_in_the_adjust_form_are_not_a_number(table: Table) -> None:
    await ana_and_goon_on_the_dance_floor(table)
    declared = await table.slash("attack", target="Goon")
    table.dice(2, 2)
    rolled = await table.click(declared.prompt, "Pass", user=GM)
    opened = await table.click(rolled.prompt, "Adjust")
    for typed in ("²", "①", "٣٩"):
        refused = await table.submit(opened.modal, {"Set Ana's roll to (1-40)": typed},
                                     message=rolled.prompt)
        assert refused.ephemeral and refused.content == (
            f"“{typed}” is not a number; a critical success can be adjusted to 1-40.")


async def test_button_ids_stay_short_whatever_the_names(table: Table) -> None:
    long_name = "Bartholomew the Unyielding Third"  # 32 characters
    await add_character(table, long_name, level=40)
    await add_character(table, "Goon", user=GM, level=25, npc=True)
    await start_fight(table, (long_name, "Dance Floor"), ("Goon", "Dance Floor"),
                 user_of={long_name: ALICE})
    table.dice(3, 4, 6, 2)
    begun = await table.slash("combat begin", user=GM)
    await table.click(begun.prompt, "PCs first")
    declared = await table.slash("attack", user=GM, target=long_name, **{"as": "Goon"})
    assert declared.ephemeral  # not the NPCs' turn; Alice attacks instead
    declared = await table.slash("attack", target="Goon")
    for button in declared.prompt.buttons:
        assert long_name.casefold() not in button.custom_id and len(button.custom_id) <= 40
    table.dice(3, 5)
    passed = await table.click(declared.prompt, "Pass", user=GM)
    assert "35 (3·5) vs 40" in passed.answer.content


# -- buttons re-check who presses them ---------------------------------------------------------


async def test_an_old_recover_button_does_not_recover_a_new_character_with_the_same_id(
    table: Table,
) -> None:
    await _ana_hurt_and_fight_over_soon(table)
    ended = await table.slash("combat end", user=GM)
    offer = ended.posted("may recover")
    deleted = await table.slash("character delete", character="Ana")
    await table.click(deleted.message, "Delete character")
    await add_character(table, "Ana", level=40, weapon=None)  # gets the freed id
    new_ana = await table.bot.store.characters.get(GUILD_ID, "Ana")
    assert new_ana is not None
    await table.bot.store.characters.replace(
        new_ana, new_ana.character.model_copy(update={"level": 20}))
    pressed = await table.click(offer, "Recover Ana")
    assert pressed.ephemeral and "no longer exists" in pressed.content, pressed.content
    assert await _level(table, "Ana") == 20


# -- people pressing at once -------------------------------------------------------------------


async def test_fifty_presses_of_one_button_apply_once(table: Table) -> None:
    await ana_and_goon_on_the_dance_floor(table)
    declared = await table.slash("attack", target="Goon")
    table.dice(3, 5, 6, 0)
    presses = [table.send_click(declared.prompt, "Pass", user=GM) for _ in range(50)]
    await table.settle()
    applied = [p for p in presses if p.messages and not p.answer.ephemeral]
    assert len(applied) == 1, [p.answer.content for p in presses if p.messages][:3]
    assert all(p.messages and p.answer.ephemeral for p in presses if p is not applied[0])
    log = await table.slash("combat log")
    assert log.content.count("35 (3·5)") == 1, log.content


async def test_a_failure_after_the_step_was_saved_says_it_was_saved(
    table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    await ana_and_goon_on_the_dance_floor(table)

    def broken(stored: object) -> None:
        raise RuntimeError("the presenter broke")

    monkeypatch.setattr(table.bot.fights.presenter, "refresh", broken)
    declared = await table.slash("attack", target="Goon")
    assert declared.answer.content.startswith("Ana attacks Goon")
    assert declared.message.ephemeral
    assert "was saved" in declared.message.content and "Nothing was changed" not in (
        declared.message.content)
    log = await table.slash("combat log")
    assert "Ana attacks Goon" in log.content


# -- undo over patches -------------------------------------------------------------------------


async def test_undo_steps_back_through_every_state_the_fight_had(table: Table) -> None:
    await ana_and_goon_on_the_dance_floor(table)
    states = [(await table.bot.fights.fight(CHANNEL_ID)).state]  # type: ignore[union-attr]

    async def step(reply_coro: object) -> object:
        reply = await reply_coro  # type: ignore[misc]
        stored = await table.bot.fights.fight(CHANNEL_ID)
        assert stored is not None
        states.append(stored.state)
        return reply

    declared = await step(table.slash("attack", target="Goon"))
    table.dice(3, 5)
    passed = await step(table.click(declared.prompt, "Pass", user=GM))  # type: ignore[attr-defined]
    await step(table.click(passed.prompt, "5 damage · 3: right leg"))  # type: ignore[attr-defined]
    await step(table.slash("combat set", user=GM, character="Ana", level=12))
    await table.restart()  # patches are applied to the state as stored
    for expected in reversed(states[:-1]):
        undone = await table.slash("combat undo", user=GM)
        assert not undone.ephemeral, undone.content
        stored = await table.bot.fights.fight(CHANNEL_ID)
        assert stored is not None and stored.state == expected


async def test_a_new_fight_started_while_discord_is_slow_still_shows_the_old_one_s_end(
    table: Table,
) -> None:
    await _ana_hurt_and_fight_over_soon(table)
    gate = asyncio.Event()

    async def slow() -> None:
        await gate.wait()

    table.channel_faults[CHANNEL_ID] = slow
    ended = table.send_slash("combat end", user=GM)
    await _answered(ended)
    started = table.send_slash("combat start", user=GM, map="Warehouse")
    await _answered(started)
    gate.set()
    await table.settle()
    assert not started.answer.ephemeral, started.answer.content
    offers = [m for m in table.channel_messages() if "may recover" in m.content]
    assert len(offers) == 1 and offers[0].labels == ["Recover Ana"]


async def test_an_answer_discord_refuses_is_posted_in_the_channel(table: Table) -> None:
    await ana_and_goon_on_the_dance_floor(table)
    table.expired_tokens = True
    declared = await table.slash("attack", target="Goon")
    table.expired_tokens = False
    posted = [m.content for m in declared.messages]
    assert any(c.startswith("Ana attacks Goon") for c in posted), posted
    assert "may react" in declared.prompt.content


async def test_any_change_saved_before_an_unexpected_failure_says_it_was_saved(
    table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    import bot.cogs.characters.cog as character_commands

    await add_character(table, "Ana", level=40, weapon=None)

    def broken(summary: str) -> str:
        raise RuntimeError("the answer broke")

    monkeypatch.setattr(character_commands, "escaped_summary", broken)
    advanced = await table.slash("character advance", character="Ana")
    assert advanced.ephemeral and "was saved" in advanced.content, advanced.content
    monkeypatch.undo()
    assert (await _sheet(table, "Ana")).max_level == 41


# -- start-up ----------------------------------------------------------------------------------


async def test_start_up_reads_no_fight_whose_table_is_up_to_date(
    table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    await ana_and_goon_on_the_dance_floor(table)
    await table.slash("attack", target="Goon")  # a reaction window with a deadline
    for channel in (OTHER_CHANNEL_ID,):
        await table.slash("combat start", user=GM, map="Warehouse", channel=channel)
    await table.settle()
    # What the table sees written down, as the quiet fights' timer does after its delay.
    await table.bot.fights.presenter.records.write_all()
    from engine.combat import Combat

    built: list[object] = []
    real = Combat.model_validate
    monkeypatch.setattr(Combat, "model_validate",
                        classmethod(lambda cls, *a, **k: built.append(a) or real(*a, **k)))
    await table.restart()
    assert built == []  # no state was built: summaries only
    assert CHANNEL_ID in table.bot.fights._deadlines  # and the window is watched again


async def test_a_window_closes_by_itself_after_a_restart(
    table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    import time

    await ana_and_goon_on_the_dance_floor(table)
    await table.slash("attack", target="Goon")
    later = time.time() + 60  # past the 45-second window
    monkeypatch.setattr(time, "time", lambda: later)
    await table.restart(dice=[3, 5])
    for _ in range(200):
        if any("Time is up" in m.content for m in table.channel_messages()):
            break
        await asyncio.sleep(0.01)
    await table.settle()
    closed = [m.content for m in table.channel_messages() if "Time is up" in m.content]
    assert closed and "35 (3·5) vs 40" in closed[0], closed


@pytest.mark.sqlite_only  # PostgreSQL's schema starts where SQLite's ninth migration ends
async def test_a_fight_saved_by_the_bot_before_this_schema_carries_on(
    table: Table, tmp_path: object
) -> None:
    """A database of schema 5 (whole states in the log, no `fighting`, no shown version): the
    migration fills in who fights where and the next deadline, start-up shows the fight again
    with buttons of today's kind, and undo still steps back over an old log entry."""
    from pathlib import Path

    from bot.store.sqlite import MIGRATIONS

    await ana_and_goon_on_the_dance_floor(table)
    with sqlite3.connect(table.database) as db:
        before, = db.execute("SELECT state FROM combats WHERE active = 1").fetchone()
    await table.slash("attack", target="Goon")
    with sqlite3.connect(table.database) as db:
        state, = db.execute("SELECT state FROM combats WHERE active = 1").fetchone()
        characters = db.execute("SELECT id, guild_id, name, name_key, owner_id, npc, data "
                                "FROM characters").fetchall()
    old = Path(str(tmp_path)) / "old.sqlite3"
    with sqlite3.connect(old) as db:
        for migration in MIGRATIONS[:5]:
            db.executescript(migration.script)
        db.execute("PRAGMA user_version = 5")
        db.executemany("INSERT INTO characters (id, guild_id, name, name_key, owner_id, npc, "
                       "data) VALUES (?, ?, ?, ?, ?, ?, ?)", characters)
        db.execute("INSERT INTO combats (guild_id, channel_id, map_name, state, version) "
                   "VALUES (?, ?, 'Nightclub', ?, 7)", (900_000_000_000_000_100, CHANNEL_ID,
                                                        state))
        db.execute("INSERT INTO combat_log (combat_id, user_id, command, events, state_before) "
                   "VALUES (1, 1, '{\"kind\": \"attack\"}', '[\"Ana attacks Goon.\"]', ?)",
                   (before,))
    await table.stop()
    table.database = old
    await table.start(dice=[3, 5])
    with sqlite3.connect(old) as db:
        held = db.execute("SELECT count(*) FROM fighting WHERE combat_id = 1").fetchone()[0]
        deadline = db.execute("SELECT next_deadline FROM combats").fetchone()[0]
    assert held == 2 and deadline is not None
    prompt = table.channel_messages()[-1]
    assert "may react" in prompt.content and prompt.buttons[0].custom_id.startswith("cb:1:7:")
    undone = await table.slash("combat undo", user=GM)
    assert "Undid the last command (attack)" in undone.answer.content
    status = await table.slash("combat status")
    assert "Waiting for: Ana (act)" in status.content  # back to before the attack
