"""Big fights fit, through the real commands: a fight of 40 fighters (ten PCs of two players,
thirty numbered NPC copies in three areas, some wounded) posts a board that shows every
fighter within one message and a phone's 40 columns."""

from __future__ import annotations

from engine.character import Character
from testbed.harness import ALICE, BOB, GM, GUILD_ID, Table, User
from tests.bot.test_board_layout import assert_fits_a_phone, board_lines
from tests.engine.combat.test_crowded_board import on_the_board

PCS = ("Ana", "Bartholomew the Bold", "Delphine Okonkwo-Reyes", "Gunnar Stormhold",
       "Anastasia Fairweather", "Priya Raghunathan", "Sigrún Halldórsdóttir",
       "Tomás Echeverría", "Wilhelmina Park", "Maximilian Oduya")
COPIES = (("Street Goon", 12, "Dance Floor"), ("Door Bouncer", 10, "Pool Tables"),
          ("Security Guard", 8, "Dance Floor"))


async def _keep(table: Table, owner: User, character: Character) -> None:
    """A character as `/character create` keeps it (faster than 40 commands)."""
    await table.bot.store.characters.add(guild_id=GUILD_ID, owner_id=owner.id,
                                         character=character)


async def _forty_fighters(table: Table) -> list[str]:
    """The ten PCs (Ana the highest, so the PCs' roll is hers) and thirty NPC copies (each
    fourth one wounded, Security Guard 8 the NPCs' highest) in a fight, begun with the PCs
    first; every fighter's name."""
    owner = {name: (ALICE, BOB)[n % 2] for n, name in enumerate(PCS)}
    for n, name in enumerate(PCS):
        await _keep(table, owner[name], Character.new(name, level=50 - n))
    npcs = [(f"{base} {n}", area) for base, count, area in COPIES for n in range(1, count + 1)]
    for name, _ in npcs:
        fresh = Character.new(name, npc=True, level=45 if name == "Security Guard 8" else 40)
        wounded = name.endswith(("4", "8")) and fresh.max_level == 40
        await _keep(table, GM, fresh.model_copy(update={"level": 25}) if wounded else fresh)
    started = await table.slash("combat start", user=GM, map="Nightclub")
    assert not started.ephemeral, started.content
    for name, area in [*((pc, ("Entrance", "Alley")[n % 2]) for n, pc in enumerate(PCS)),
                       *npcs]:
        added = await table.slash("combat add", user=owner.get(name, GM), character=name,
                                  area=area)
        assert not added.ephemeral, added.content
    table.dice(3, 4, 6, 2)  # Ana (PCs) 34 beats the NPCs' 62
    await table.slash("combat begin", user=GM)
    await table.click(table.channel_messages()[-1], "PCs first", user=ALICE)
    return [*PCS, *(name for name, _ in npcs)]


async def test_a_forty_fighter_fight_posts_a_board_with_every_fighter(table: Table) -> None:
    names = await _forty_fighters(table)
    board = next(m for m in table.channel_messages() if m.content.startswith("```text\nRound"))
    lines = board_lines(board.content)
    assert len(board.content) <= 2000
    assert_fits_a_phone(lines)
    text = "\n".join(lines)
    assert [name for name in names if not on_the_board(text, name)] == [], text
    assert lines[0] == "Round 1 · turn · PCs acting"
    npc_lines = lines[lines.index("Street Goon 1-3,5-7,9-12 40/40 a1"):]
    assert npc_lines[:16] == [  # the copies that read the same share a line
        "Street Goon 1-3,5-7,9-12 40/40 a1", "  [NPCs] Dance Floor",
        "Street Goon 4,8 25/40 a1", "  [NPCs] Dance Floor",
        "Door Bouncer 1-3,5-7,9-10 40/40 a1", "  [NPCs] Pool Tables",
        "Door Bouncer 4,8 25/40 a1", "  [NPCs] Pool Tables",
        "Security Guard 1-3,5-7 40/40 a1", "  [NPCs] Dance Floor",
        "Security Guard 4 25/40 a1", "  [NPCs] Dance Floor",
        "Security Guard 8 45/45 a1", "  [NPCs] Dance Floor",
        "aN: N actions left this round",  # what a1 means
        "Map left out (crowded): /map show",  # the map gave way, and says so
    ]
    assert "Ana [PCs] Entrance 50/50 a1" in lines
    status = await table.slash("combat status", user=BOB)
    assert board_lines(status.content) == lines


async def test_the_end_of_a_fight_with_33_goons_alike_says_them_in_one_line(
    table: Table,
) -> None:
    await _keep(table, ALICE, Character.new("Ana", level=50))
    goons = [f"Goon {n}" for n in range(1, 35)]
    for name in goons:  # Goon 34 is hurt: he stands apart
        fresh = Character.new(name, npc=True, level=25)
        await _keep(table, GM, fresh.model_copy(update={"level": 10}) if name == "Goon 34"
                    else fresh)
    await table.slash("combat start", user=GM, map="Nightclub")
    await table.slash("combat add", user=ALICE, character="Ana", area="Entrance")
    for name in goons:
        await table.slash("combat add", user=GM, character=name, area="Dance Floor")
    await table.slash("combat end", user=GM)
    ended = next(m for m in table.channel_messages() if m.content.startswith("The GM ends"))
    assert ended.content.splitlines() == [
        "The GM ends the combat. Combat over after round 0.",
        "Ana (PCs): level 50/50, fine, wounds: none.",
        "Goon 1-33 (NPCs): level 25/25, fine, wounds: none.",  # not 33 lines alike
        "Goon 34 (NPCs): level 10/25, fine, wounds: none.",
    ]
