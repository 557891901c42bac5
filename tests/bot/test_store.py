"""The store on its own: writes from different stores on the one connection never mix."""

from __future__ import annotations

import asyncio
import copy
from pathlib import Path
from typing import Any

import jsonpatch
from hypothesis import given
from hypothesis import strategies as st

from bot.store.patches import reverse_patch
from bot.store.sqlite import SqliteStore
from bot.store.values import NameTaken
from engine.character import Character
from engine.combat import Event, new_combat


async def test_a_rollback_elsewhere_never_undoes_a_fight_being_saved(tmp_path: Path) -> None:
    store = await SqliteStore.open(tmp_path / "unhex.sqlite3")
    try:
        await store.characters.add(guild_id=1, owner_id=7, character=Character.new("Ana"))
        bram = await store.characters.add(guild_id=1, owner_id=7, character=Character.new("Bram"))
        stored = await store.combats.start(guild_id=1, channel_id=2, map_name="nightclub",
                                           state=new_combat("Bar -- Kitchen"))
        assert stored is not None
        execute = store.db.execute

        def slow_execute(sql: str, *args: Any) -> Any:
            if not sql.startswith("UPDATE combats"):
                return execute(sql, *args)

            async def run() -> Any:
                cursor = await execute(sql, *args)
                if sql.startswith("UPDATE combats"):
                    for _ in range(20):  # let every other task run before the log and commit
                        await asyncio.sleep(0)
                return cursor

            return run()

        store.db.execute = slow_execute  # type: ignore[method-assign,assignment]
        changed = stored.state.model_copy(update={"reaction_seconds": 90})
        renaming = store.characters.replace(bram, Character.new("Ana"))  # a taken name
        results = await asyncio.gather(
            store.combats.save(stored, changed, user_id=7, command='{"kind": "settings"}',
                               events=[Event(kind="settings", text="Reactions wait 90 s.")]),
            renaming,
            return_exceptions=True,
        )
        assert isinstance(results[1], NameTaken)
        store.db.execute = execute  # type: ignore[method-assign]
        again = await store.combats.active(2)
        assert again is not None and again.state.reaction_seconds == 90
        assert [e.events for e in await store.combats.log(again.id)] == [("Reactions wait 90 s.",)]
    finally:
        await store.close()




_json = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=5),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=4), inner,
                                                                 max_size=4),
    max_leaves=20,
)


@given(after=st.dictionaries(st.text(max_size=4), _json, max_size=5),
       before=st.dictionaries(st.text(max_size=4), _json, max_size=5))
def test_a_reverse_patch_turns_any_state_back_into_the_one_before(
    after: dict[str, Any], before: dict[str, Any]
) -> None:
    patch = reverse_patch(after, before)
    assert jsonpatch.apply_patch(copy.deepcopy(after), patch) == before
