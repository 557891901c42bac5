"""A fight by post played over two weeks, as the table sees it: Alice (Ana), Bob (Bea) and the
GM (Goon and Rat, NPCs) answer when they can, hours or days apart. The fights' clock is the
story's, injected into every bot the story starts (never a sleep); the bot restarts between
the steps, and once it is down while a reaction window's deadline passes: the next bot's
start-up closes that window, once, with Ana's standing order followed.

Along the way: each reminder comes at its point (a quarter of the time left), pings only who
is late and never twice, across restarts too; Bob is reminded by direct message, then in the
channel once Discord refuses his direct messages; the GM is pinged once at a turn's deadline
and extends the turn, and later `turn_end: auto` ends turns by itself; Ana's standing order is
followed, then skipped and said when her shield is no longer in hand; Alice comes back after
four days to a catch-up; and after every restart the channel shows one live prompt and a
current board."""

from __future__ import annotations

import asyncio
import re
from collections.abc import AsyncIterator

import pytest

from bot.cogs.combat.session import FightSession
from testbed.harness import ALICE, BOB, CHANNEL_ID, GM, GUILD_ID, Message, Table
from tests.bot.fights import add_character

pytestmark = pytest.mark.both_engines

START = 1_800_000_000.0  # the story's first moment, on the fights' clock
HOUR = 3600.0
DEFEND = "When attacked: defend with Riot shield"
#: How a message that asks the GM what to do at a turn's deadline is told apart.
GM_CHOICES = "End the turn"


class StoryClock:
    """The fights' clock of every bot of the story: the story's time, moved on by the test."""

    def __init__(self) -> None:
        self.now = START

    def __call__(self) -> float:
        return self.now

    def at(self, hours: float) -> float:
        """The story's moment ``hours`` after its start (the clock moves there)."""
        self.now = START + hours * HOUR
        return self.now


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> StoryClock:
    """The story's clock, the one every fight session of the test reads from its start (as
    a process started later would read the time then), start-up included."""
    story = StoryClock()
    made = FightSession.__init__

    def on_story_time(session: FightSession, bot: object) -> None:
        made(session, bot)  # type: ignore[arg-type]
        session.clock = story

    monkeypatch.setattr(FightSession, "__init__", on_story_time)
    return story


@pytest.fixture
async def story(clock: StoryClock, database: str) -> AsyncIterator[Table]:
    """The table, its bot started on the story's clock."""
    table = await Table(database).start()
    yield table
    await table.stop()


# -- what the table sees ---------------------------------------------------------------------


def _session(table: Table) -> FightSession:
    session = table.bot.fights
    assert isinstance(session, FightSession)
    return session


def _reminders(table: Table) -> list[Message]:
    return [m for m in table.channel_messages() if m.content.startswith("⏰ Reminder")]


def _deadline_messages(table: Table) -> list[Message]:
    """What the channel was told when a deadline passed (a window closed, the GM pinged)."""
    return [m for m in table.channel_messages() if m.content.startswith("⏱️")]


def _pinged(message: Message) -> list[int]:
    assert message.allowed_mentions is not None, message.content
    assert message.allowed_mentions.get("parse") == [], message.allowed_mentions
    return sorted(int(u) for u in message.allowed_mentions.get("users", []))


def _prompt(table: Table) -> Message:
    """The one live prompt: the only message of the fight whose buttons answer the question
    it asks now (the GM's choices at a turn's deadline are the GM's tools, apart)."""
    live = [m for m in table.channel_messages()
            if m.buttons and GM_CHOICES not in m.labels]
    assert len(live) == 1, [(m.content, m.labels) for m in live]
    return live[0]


async def _shown_as_it_is(table: Table) -> Message:
    """Check that the channel shows the fight as it is: one live prompt, and the board as
    `/combat status` draws it now. The prompt."""
    board = next(m for m in table.channel_messages() if m.content.startswith("```text\nRound"))
    status = await table.slash("combat status", user=ALICE)
    assert board.content == status.content, (board.content, status.content)
    return _prompt(table)


async def _restart(table: Table) -> Message:
    """The bot stops as a crash would, and another starts on the database: the channel shows
    the fight as it is (the live prompt)."""
    await table.restart()
    return await _shown_as_it_is(table)


async def _at(table: Table, clock: StoryClock, hours: float) -> tuple[bool, bool]:
    """The story ``hours`` in, and the deadline watcher's work there done: whether a deadline
    was handled, and whether anyone was reminded."""
    clock.at(hours)
    session = _session(table)
    handled = await session.close_expired_window(CHANNEL_ID)
    reminded = await session.remind_late(CHANNEL_ID)
    await table.settle()
    return handled, reminded


def _when(hours: float) -> str:
    """A deadline ``hours`` into the story, as Discord timestamps."""
    at = int(START + hours * HOUR)
    return f"<t:{at}:f> (<t:{at}:R>)"


def _turn_ends(hours: float) -> str:
    at = int(START + hours * HOUR)
    return f"(the turn ends <t:{at}:f>, <t:{at}:R>)"


# -- the steps ---------------------------------------------------------------------------------


async def _set_up(table: Table) -> None:
    """Ana (Alice's, 40: a knife, a riot shield in the left hand, her standing order to defend
    with it), Bea (Bob's, 40, a knife; Bob is reminded by direct message), Goon and Rat (the
    GM's NPCs, knives) on the dance floor, in a fight by post; round 1, the PCs act."""
    chose = await table.slash("settings reminders", user=BOB, where="dm")
    assert chose.ephemeral and "direct message" in chose.content, chose.content
    await add_character(table, "Ana", level=40)
    for step, options in (("character item add", {"name": "Riot shield", "kind": "shield"}),
                          ("character item hold", {"item": "Riot shield", "hand": "left"})):
        done = await table.slash(step, character="Ana", **options)
        assert not done.ephemeral, done.content
    await add_character(table, "Bea", user=BOB, level=40)
    await add_character(table, "Goon", user=GM, level=25, npc=True)
    await add_character(table, "Rat", user=GM, level=20, npc=True)
    started = await table.slash("combat start", user=GM, map="Nightclub", pace="by post")
    assert "Reactions now wait 1 day. A team's turn now lasts 2 days." in started.answer.content, \
        started.answer.content
    for name, user in (("Ana", ALICE), ("Bea", BOB), ("Goon", GM), ("Rat", GM)):
        added = await table.slash("combat add", user=user, character=name, area="Dance Floor")
        assert not added.ephemeral, added.content
    await _initiative(table)
    panel = (await table.slash("combat orders")).answer
    ordered = await table.pick(panel, DEFEND)
    assert "Saved: when attacked, Ana will defend with Riot shield." in ordered.answer.content


async def _initiative(table: Table) -> None:
    """A round's initiative: Ana rolls for the PCs and wins (34 against Goon's 62); the PCs go
    first."""
    table.dice(3, 4, 6, 2)
    if not any("Ana rolls" in m.labels for m in table.channel_messages()):
        await table.slash("combat begin", user=GM)
    await table.click(_prompt(table), "Ana rolls", user=ALICE)
    first = await table.click(_prompt(table), "PCs first", user=ALICE)
    first.posted("Turn: PCs.")


async def _goon_attacks_ana(table: Table) -> Message:
    """Goon attacks Ana, who may react within a day: the prompt that asks her."""
    attacked = await table.slash("attack", user=GM, target="Ana", **{"as": "Goon"})
    assert "Ana may defend or counterattack (lethal or less-lethal) or pass (within 1 day)." \
        in attacked.answer.content, attacked.answer.content
    return attacked.prompt


async def _start_up_handles_the_passed_deadline(table: Table) -> None:
    """Wait for the deadline watcher of the bot just started: what a deadline that passed
    while no bot ran asks is done by it at start-up (its tasks run beside the table's)."""
    name = f"unhex-background:window:{CHANNEL_ID}"
    for _ in range(100):
        await asyncio.gather(*(t for t in asyncio.all_tasks() if t.get_name() == name))
        await asyncio.sleep(0)
    await table.settle()


# -- the story -------------------------------------------------------------------------------


async def test_a_fight_by_post_over_two_weeks(clock: StoryClock, story: Table) -> None:
    await _set_up(story)  # day 0: the PCs' turn runs 2 days
    prompt = await _round_one_the_pcs_turn(story, clock)
    await _alice_comes_back(story, clock, prompt)
    await _the_bot_is_down_as_a_window_closes(story, clock)
    await _round_two_ana_without_her_shield(story, clock)
    await _round_three_and_the_end(story, clock)


async def _round_one_the_pcs_turn(table: Table, clock: StoryClock) -> Message:
    """Hours 0 to 86: Bea acts, Alice does not; reminders, the GM's ping, an extension. The
    live prompt then (the PCs' turn line)."""
    assert _turn_ends(48) in _prompt(table).content
    # Hour 2: Bob's Bea attacks Goon (the GM lets it be) and misses: Bea has acted.
    clock.at(2)
    table.dice(8, 1)
    attacked = await table.slash("attack", user=BOB, target="Goon")
    passed = await table.click(attacked.prompt, "Pass", user=GM)
    assert "Bea's attack misses." in passed.said, passed.said
    await _restart(table)

    # Hour 36, a quarter of the turn left: only Alice, who has not acted, is reminded.
    assert await _at(table, clock, 35.9) == (False, False)
    assert await _at(table, clock, 36) == (False, True)
    [reminder] = _reminders(table)
    assert reminder.content.startswith(
        f"⏰ Reminder: the fight waits for you until {_when(48)}.\n"
        f"{ALICE.mention}: Ana may act.\n[Go to the prompt]("), reminder.content
    assert BOB.mention not in reminder.content and _pinged(reminder) == [ALICE.id]
    assert table.direct_messages(BOB) == []  # Bea has acted: Bob is not late
    await _restart(table)
    assert await _at(table, clock, 40) == (False, False)  # never twice
    assert len(_reminders(table)) == 1

    # Hour 48, the turn's deadline: the GM is pinged once, with who has not acted.
    assert await _at(table, clock, 47.99) == (False, False)
    assert await _at(table, clock, 48) == (True, False)
    [ping] = _deadline_messages(table)
    assert ping.content.startswith(
        f"⏱️ {GM.mention}: Time is up for the PCs' turn. Not acted yet: Ana. A GM may act "
        "for them, extend the turn, or end it."), ping.content
    assert ping.labels == ["Extend by 2 days", GM_CHOICES] and _pinged(ping) == [GM.id]
    await _restart(table)
    assert await _at(table, clock, 49) == (False, False)  # told once
    assert len(_deadline_messages(table)) == 1

    # Hour 50: the GM extends the turn by its length (from its deadline: to hour 98); the
    # extended turn is reminded anew, at a quarter of its time left.
    clock.at(50)
    extended = await table.click(ping, "Extend by 2 days", user=GM)
    assert "The GM extends the PCs' turn by 2 days." in extended.said, extended.said
    prompt = await _restart(table)
    assert _turn_ends(98) in prompt.content, prompt.content
    assert await _at(table, clock, 85.9) == (False, False)
    assert await _at(table, clock, 86) == (False, True)
    again = _reminders(table)[-1]
    assert again.content.startswith(
        f"⏰ Reminder: the fight waits for you until {_when(98)}.\n"
        f"{ALICE.mention}: Ana may act."), again.content
    assert _pinged(again) == [ALICE.id] and len(_reminders(table)) == 2
    return prompt


async def _alice_comes_back(table: Table, clock: StoryClock, prompt: Message) -> None:
    """Hour 90: Alice is back after almost four days and catches up, just for her (by the
    command, and by the turn line's button); then she ends the PCs' turn."""
    clock.at(90)
    seen = len(table.channel_messages())
    caught = await table.slash("combat catchup", user=ALICE)
    board = next(m for m in table.channel_messages() if m.content.startswith("```text\nRound"))
    assert caught.ephemeral and caught.message.allowed_mentions == {"parse": []}
    assert caught.content == (
        "📰 **Catching up** · nightclub · Ana\n"
        "-# Since Ana last acted: 4 steps.\n"
        "• Bea attacks Goon (Knife)\n"
        "• Bea misses Goon\n"
        "• Time is up for the PCs' turn\n"
        "• The GM extends the PCs' turn by 2 days\n"
        "**Ana** · level 40/40 · fine · marks: none\n"
        "**Who is where:**\n"
        "• Dance Floor: Ana, Bea, Goon, Rat\n"
        "**Waiting for you:**\n"
        f"• Ana: may act, by {_when(98)}\n"
        f"📌 The board: https://discord.com/channels/{GUILD_ID}/{CHANNEL_ID}/{board.id}"), \
        caught.content
    pressed = await table.click(prompt, "Catch up", user=ALICE)
    assert pressed.ephemeral and pressed.content == caught.content
    assert len(table.channel_messages()) == seen  # the table sees nothing of it
    # Ana keeps her action to defend: Alice ends the PCs' turn. The NPCs' runs to hour 138.
    done = await table.click(prompt, "Done (PCs)", user=ALICE)
    done.posted("PCs are done.\nTurn: NPCs.")
    assert _turn_ends(138) in _prompt(table).content


async def _the_bot_is_down_as_a_window_closes(table: Table, clock: StoryClock) -> None:
    """Hour 91: Goon attacks Ana (a day to react: until hour 115). The bot goes down at hour
    92 and is back at hour 116: the reminder's point and the deadline passed while no bot
    ran. The new bot's start-up closes the window, once: Ana defends by her standing order."""
    clock.at(91)
    await _goon_attacks_ana(table)
    reminded = len(_reminders(table))
    clock.at(116)
    await table.restart([7, 0, 8, 1])  # Goon's attack and Ana's Defend both fail
    await _start_up_handles_the_passed_deadline(table)
    closed = _deadline_messages(table)[-1]
    assert closed.content.startswith(
        "⏱️ Time is up.\nThe reaction window closes: time is up.\n"
        "Ana defends (standing order).\n"), closed.content
    assert "Goon's attack misses." in closed.content
    assert len(_reminders(table)) == reminded  # no reminder of a window already closed
    await _shown_as_it_is(table)
    await _restart(table)
    assert await _at(table, clock, 117) == (False, False)
    assert len(_deadline_messages(table)) == 2  # the ping and this window: each once


async def _round_two_ana_without_her_shield(table: Table, clock: StoryClock) -> None:
    """Hours 117 to 190: Bob reminded by direct message, a turn ended by itself, and Ana's
    standing order skipped once her shield is on the floor."""
    done = await table.click(_prompt(table), "Done (NPCs)", user=GM)  # Rat waits
    done.posted("Round 2 begins.")
    await _initiative(table)
    assert _turn_ends(165) in _prompt(table).content
    # Ana drops her shield (free: she may still act); the GM has turns end by themselves.
    clock.at(118)
    dropped = await table.slash("item drop", item="Riot shield")
    assert "Ana drops Riot shield in Dance Floor (no action)." in dropped.answer.content, \
        dropped.answer.content
    auto = await table.slash("combat settings", user=GM, turn_end="auto")
    assert "At a turn's deadline, the turn now ends by itself." in auto.answer.content, \
        auto.answer.content
    await _restart(table)

    # Hour 153: both are late. Alice is pinged in the channel, Bob by direct message.
    assert await _at(table, clock, 153) == (False, True)
    reminder = _reminders(table)[-1]
    assert reminder.content.startswith(
        f"⏰ Reminder: the fight waits for you until {_when(165)}.\n"
        f"{ALICE.mention}: Ana may act.\n"), reminder.content
    assert BOB.mention not in reminder.content and _pinged(reminder) == [ALICE.id]
    [dm] = table.direct_messages(BOB)
    assert dm.content.startswith(
        f"⏰ Reminder: the fight in <#{CHANNEL_ID}> waits for you until {_when(165)}.\n"
        "Bea may act."), dm.content
    await _restart(table)

    # Hour 165: the turn ends by itself; nobody is asked to choose.
    assert await _at(table, clock, 165) == (True, False)
    ended = _deadline_messages(table)[-1]
    assert ended.content.startswith(
        "⏱️ Time is up.\nTime is up for the PCs' turn: it ends. Not acted yet: Ana and Bea.\n"
        "PCs are done (time is up)."), ended.content
    assert GM_CHOICES not in ended.labels
    assert _turn_ends(213) in _prompt(table).content  # the NPCs' turn, two days
    await _goon_attacks_ana_without_a_shield(table, clock)


async def _goon_attacks_ana_without_a_shield(table: Table, clock: StoryClock) -> None:
    """Hour 166: Goon attacks Ana again; Alice is reminded at hour 184; at hour 190 the
    window closes with the bot running, and Ana's order is skipped: no shield in hand."""
    clock.at(166)
    await _goon_attacks_ana(table)
    await _restart(table)
    assert await _at(table, clock, 184) == (False, True)
    reminder = _reminders(table)[-1]
    assert reminder.content.startswith(
        f"⏰ Reminder: the fight waits for you until {_when(190)}.\n{ALICE.mention}: Ana may "), \
        reminder.content
    assert _pinged(reminder) == [ALICE.id] and len(table.direct_messages(BOB)) == 1
    table.dice(7, 0)  # Goon's attack fails
    assert await _at(table, clock, 190) == (True, False)
    closed = _deadline_messages(table)[-1]
    assert closed.content.startswith(
        "⏱️ Time is up.\nThe reaction window closes: time is up.\n"
        "Ana's standing order to defend with Riot shield is skipped: no Riot shield in a "
        "usable hand.\n"), closed.content
    assert "Ana defends" not in closed.content
    log = (await table.slash("combat log", user=GM)).content
    assert "Ana defends (standing order)." in log and "is skipped: no Riot shield" in log, log


async def _round_three_and_the_end(table: Table, clock: StoryClock) -> None:
    """Hour 191: round 3. Bob now refuses direct messages: at hour 227 he is reminded in the
    channel, with Alice, and told why. The turns end by themselves; on day 14 the GM ends
    the fight."""
    clock.at(191)
    done = await table.click(_prompt(table), "Done (NPCs)", user=GM)
    done.posted("Round 3 begins.")
    await _initiative(table)
    assert _turn_ends(239) in _prompt(table).content
    table.no_dms.add(BOB.id)
    await _restart(table)
    assert await _at(table, clock, 227) == (False, True)
    reminder = _reminders(table)[-1]
    assert reminder.content.startswith(
        f"⏰ Reminder: the fight waits for you until {_when(239)}.\n"
        f"{ALICE.mention}: Ana may act.\n{BOB.mention}: Bea may act.\n"), reminder.content
    assert _pinged(reminder) == [ALICE.id, BOB.id]
    assert re.search(r"direct message", reminder.content, re.IGNORECASE), reminder.content
    assert len(table.direct_messages(BOB)) == 1  # the refused one is not there
    await _restart(table)
    assert await _at(table, clock, 230) == (False, False)

    # Hour 239: the PCs' turn ends by itself; the NPCs' turn too, two days later (their
    # turn asks no player: nobody is reminded).
    assert await _at(table, clock, 239) == (True, False)
    await _restart(table)
    assert await _at(table, clock, 275) == (False, False)
    assert await _at(table, clock, 287) == (True, False)
    assert "Round 4 begins." in _deadline_messages(table)[-1].content
    await _restart(table)
    clock.at(336)
    ended = await table.slash("combat end", user=GM)
    recap = ended.posted("🏁 **Fight recap**")
    assert _prompt(table).id == recap.id  # what is left to press: the log, as a file
