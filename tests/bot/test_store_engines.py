"""The store's promises, the same on SQLite and on PostgreSQL: optimistic versions, one active
fight per channel, one fight per character, names unique per server whatever their case, and
a fight's step saved whole or not at all."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from bot.store import open_store
from bot.store.interfaces import Store
from bot.store.values import AlreadyFighting, InFight, NameTaken, ShownRecord
from data import load_rules
from engine.character import Character
from engine.combat import Actor, AddFighter, Combat, Event, apply, new_combat
from engine.dice import ScriptedDice

pytestmark = pytest.mark.both_engines

MAP = "Bar -- Kitchen"


@pytest.fixture
async def store(database: str) -> AsyncIterator[Store]:
    opened = await open_store(database)
    yield opened
    await opened.close()


def add_fighter(state: Combat, character: Character, area: str, *, owner_id: int,
                character_id: int) -> Combat:
    command = AddFighter(character=character, area=area, owner_id=owner_id,
                         character_id=character_id)
    added, _ = apply(state, command, actor=Actor(user_id=owner_id, gm=True),
                     dice=ScriptedDice(()), rules=load_rules(), now=0.0)
    return added


def _settings(seconds: int) -> tuple[Event, ...]:
    return (Event(kind="settings", text=f"Reactions wait {seconds} s."),)


async def test_names_are_unique_per_server_whatever_their_case(store: Store) -> None:
    ana = await store.characters.add(guild_id=1, owner_id=7, character=Character.new("Ana"))
    with pytest.raises(NameTaken):
        await store.characters.add(guild_id=1, owner_id=8, character=Character.new(" ANA "))
    other_server = await store.characters.add(guild_id=2, owner_id=8,
                                              character=Character.new("ana"))
    bram = await store.characters.add(guild_id=1, owner_id=7, character=Character.new("Bram"))
    with pytest.raises(NameTaken):
        await store.characters.replace(bram, Character.new("aNa"))
    assert (await store.characters.get(1, "ANA")) == ana
    assert other_server.id != ana.id
    assert [e.name for e in await store.characters.entries(1)] == ["Ana", "Bram"]


async def test_a_change_to_a_character_read_before_another_change_is_refused(
        store: Store) -> None:
    ana = await store.characters.add(guild_id=1, owner_id=7, character=Character.new("Ana"))
    first = await store.characters.replace(ana, Character.new("Ana", level=60))
    assert first is not None and first.version == 1
    assert await store.characters.replace(ana, Character.new("Ana", level=20)) is None
    kept = await store.characters.get_by_id(ana.id)
    assert kept is not None and kept.character.level == 60
    latest, count = await store.characters.latest_pc(1, 7)
    assert latest == kept and count == 1
    assert not await store.characters.delete(ana.id, "2000-01-01 00:00:00.000000")
    assert await store.characters.delete(ana.id, ana.created_at)
    assert await store.characters.get_by_id(ana.id) is None


async def test_one_active_fight_per_channel_and_stale_saves_refused(store: Store) -> None:
    fight = await store.combats.start(guild_id=1, channel_id=2, map_name="m",
                                      state=new_combat(MAP))
    assert fight is not None
    assert await store.combats.start(guild_id=1, channel_id=2, map_name="m",
                                     state=new_combat(MAP)) is None
    changed = fight.state.model_copy(update={"reaction_seconds": 90})
    saved = await store.combats.save(fight, changed, user_id=7, command="{}",
                                     events=_settings(90))
    assert saved is not None and saved.version == 1
    again = fight.state.model_copy(update={"reaction_seconds": 30})
    assert await store.combats.save(fight, again, user_id=7, command="{}",
                                    events=_settings(30)) is None
    active = await store.combats.active(2)
    assert active is not None and active.state.reaction_seconds == 90
    assert [e.events for e in await store.combats.log(fight.id)] == [("Reactions wait 90 s.",)]
    undone = await store.combats.undo(saved)
    assert undone is not None and undone[0].state.reaction_seconds == fight.state.reaction_seconds
    assert [e.undone for e in await store.combats.log(fight.id)] == [True]


async def test_undo_steps_back_last_first_and_refuses_a_stale_copy(store: Store) -> None:
    """Each undo goes back over the last step not yet undone, letting go of a character that
    step took; a copy read before a later step undoes nothing; with nothing left, None."""
    ana = await store.characters.add(guild_id=1, owner_id=7, character=Character.new("Ana"))
    fight = await store.combats.start(guild_id=1, channel_id=2, map_name="m",
                                      state=new_combat(MAP))
    assert fight is not None
    joined = await store.combats.save(
        fight, add_fighter(fight.state, ana.character, "Bar", owner_id=7, character_id=ana.id),
        user_id=7, command="join", events=())
    assert joined is not None and await store.combats.fight_of(ana.id) == (fight.id, 2)
    slower = await store.combats.save(
        joined, joined.state.model_copy(update={"reaction_seconds": 90}), user_id=7,
        command="slower", events=_settings(90))
    assert slower is not None
    assert await store.combats.undo(joined) is None  # read before "slower"
    assert [e.undone for e in await store.combats.log(fight.id)] == [False, False]
    back = await store.combats.undo(slower)
    assert back is not None and back.command == "slower"
    assert back.said == ("Reactions wait 90 s.",)  # what the step had told the table
    assert (back[0].version, back[0].state.reaction_seconds) == (
        slower.version + 1, joined.state.reaction_seconds)
    assert await store.combats.fight_of(ana.id) == (fight.id, 2)
    first = await store.combats.undo(back[0])
    assert first is not None and first[1] == "join"
    assert first[0].state.fighters == fight.state.fighters
    assert await store.combats.fight_of(ana.id) is None
    assert await store.combats.undo(first[0]) is None
    assert [e.undone for e in await store.combats.log(fight.id)] == [True, True]
    active = await store.combats.active(2)
    assert active is not None and active.version == first[0].version == slower.version + 2


async def test_a_character_fights_in_one_place_and_a_refused_step_leaves_nothing(
        store: Store) -> None:
    ana = await store.characters.add(guild_id=1, owner_id=7, character=Character.new("Ana"))
    here = await store.combats.start(guild_id=1, channel_id=2, map_name="m",
                                     state=new_combat(MAP))
    there = await store.combats.start(guild_id=1, channel_id=3, map_name="m",
                                      state=new_combat(MAP))
    assert here is not None and there is not None
    with_ana = add_fighter(here.state, ana.character, "Bar", owner_id=7,
                           character_id=ana.id)
    held = await store.combats.save(here, with_ana, user_id=7, command="{}", events=())
    assert held is not None
    assert await store.combats.fight_of(ana.id) == (here.id, 2)
    with pytest.raises(InFight):
        await store.characters.replace(ana, Character.new("Ana", level=10))
    also = add_fighter(there.state, ana.character, "Bar", owner_id=7, character_id=ana.id)
    with pytest.raises(AlreadyFighting) as taken:
        await store.combats.save(there, also, user_id=7, command="{}", events=())
    assert taken.value.channel_id == 2
    untouched = await store.combats.get(there.id)
    assert untouched is not None and untouched.version == 0 and not untouched.state.fighters
    assert await store.combats.log(there.id) == []


async def test_maps_rolls_settings_and_facts_round_trip(store: Store) -> None:
    docks = await store.maps.add(guild_id=1, name="  Old   Docks ", text=MAP, author_id=7)
    assert docks is not None and docks.name == "Old Docks"
    assert await store.maps.add(guild_id=1, name="old docks", text=MAP, author_id=7) is None
    edited = await store.maps.replace_text(docks, "Bar -- Pier")
    assert edited is not None and edited.text == "Bar -- Pier"
    assert await store.maps.replace_text(docks, "Bar") is None  # read before the edit
    assert await store.maps.names(1) == ["Old Docks"]
    assert await store.maps.delete(docks.id, docks.created_at)
    await store.guilds.set_gm_role(1, 55)
    assert await store.guilds.gm_role(1) == 55
    await store.meta.set("k", "v")
    assert await store.meta.get("k") == "v"
    assert await store.schema_version() >= 1


async def test_the_version_shown_is_recorded_and_never_goes_back(store: Store) -> None:
    fight = await store.combats.start(guild_id=1, channel_id=2, map_name="m",
                                      state=new_combat(MAP))
    assert fight is not None
    await store.combats.shown([ShownRecord(fight.id, 0, 11, None, "1:0 'Ana'")])
    saved = await store.combats.save(fight, fight.state.model_copy(update={"round": 2}),
                                     user_id=7, command="{}", events=())
    assert saved is not None
    await store.combats.shown([ShownRecord(saved.id, 1, 12, 13)])
    await store.combats.shown([ShownRecord(fight.id, 0, 14, 15)])  # a late older record
    again = await store.combats.get(fight.id)
    assert again is not None
    assert (again.board_message_id, again.prompt_message_id, again.shown_version,
            again.announced_turn) == (12, 13, 1, "1:0 'Ana'")


async def test_a_step_carries_the_record_of_the_version_shown_before_it(store: Store) -> None:
    """The record rides in the step's own UPDATE, the usual step's and one that takes a
    character alike; a record older than the one kept changes nothing."""
    ana = await store.characters.add(guild_id=1, owner_id=7, character=Character.new("Ana"))
    fight = await store.combats.start(guild_id=1, channel_id=2, map_name="m",
                                      state=new_combat(MAP))
    assert fight is not None
    usual = await store.combats.save(fight, fight.state.model_copy(update={"round": 2}),
                                     user_id=7, command="{}", events=(),
                                     shown=ShownRecord(fight.id, 0, 11, 21, "1:0 'Ana'"))
    assert usual is not None and usual.version == 1
    kept = await store.combats.get(fight.id)
    assert kept is not None
    assert (kept.version, kept.shown_version, kept.board_message_id, kept.prompt_message_id,
            kept.announced_turn) == (1, 0, 11, 21, "1:0 'Ana'")
    await store.combats.shown([ShownRecord(fight.id, 1, 11, 22)])
    taking = add_fighter(usual.state, ana.character, "Bar", owner_id=7, character_id=ana.id)
    joined = await store.combats.save(usual, taking, user_id=7, command="{}", events=(),
                                      shown=ShownRecord(fight.id, 0, 99, 98, "9:9 'x'"))
    assert joined is not None and joined.version == 2
    kept = await store.combats.get(fight.id)
    assert kept is not None
    assert (kept.version, kept.shown_version, kept.board_message_id, kept.prompt_message_id,
            kept.announced_turn) == (2, 1, 11, 22, "1:0 'Ana'")
    assert await store.combats.fight_of(ana.id) == (fight.id, 2)


async def test_a_refused_direct_message_is_marked_per_player_until_taken_or_chosen_anew(
        store: Store) -> None:
    await store.players.set_reminded_by_dm(7, True)
    await store.players.set_reminded_by_dm(8, True)
    assert await store.players.dm_refused([7, 8, 9]) == set()
    await store.players.set_dm_refused(7, True)
    await store.players.set_dm_refused(9, True)  # (no choice made yet: a row of its own)
    assert await store.players.dm_refused([7, 8, 9]) == {7, 9}
    assert await store.players.reminded_by_dm([7, 8, 9]) == {7, 8}
    await store.players.set_dm_refused(7, False)
    assert await store.players.dm_refused([7, 8]) == set()
    await store.players.set_dm_refused(8, True)
    await store.players.set_reminded_by_dm(8, True)  # chosen anew: a refusal is said again
    assert await store.players.dm_refused([8]) == set()
    assert await store.players.dm_refused([]) == set()
