"""Every reply that ends a newcomer's step says the next useful command: a map saved, a fight
started and filled, a fight's end, a character armed, imported or deleted, a GM role set; and
`/map show` in a fight's channel says who is where. Each command a hint names is one the bot
has, with the options it names (checked over the whole of the bot's text, and over the
replies here)."""

from __future__ import annotations

import ast
import itertools
import re
from pathlib import Path
from typing import Any

from discord import app_commands

from bot.cogs.maps import TEXT_LABEL
from engine.character import Character
from testbed.harness import ALICE, BOB, CHANNEL_ID, GM, GUILD_ID, Reply, Table
from tests.bot.fights import add_character, ana_and_goon_on_the_dance_floor, start_fight

MESSAGE_LIMIT = 2000
ROOT = Path(__file__).resolve().parents[2]
PANEL = "(`/character panel`)"


def named_commands(text: str) -> list[tuple[str, list[str]]]:
    """Each backticked `/command sub opt:value …` in ``text`` as (its name, its option names):
    the words before the first option name the command (``a|b``: each of the alternatives);
    what follows an option's colon is its value, spaces and all."""
    found = []
    for span in re.findall(r"`(/[^`\n]+)`", text):
        words = span[1:].split()
        first_option = next((i for i, w in enumerate(words) if ":" in w), len(words))
        path = [w.strip("[]").split("|") for w in words[:first_option]]
        options = [w.strip("[]").split(":", 1)[0] for w in words[first_option:] if ":" in w]
        found += [(" ".join(names), options) for names in itertools.product(*path)]
    return found


def unknown_commands(table: Table, text: str) -> list[tuple[str, list[str]]]:
    """The commands ``text`` names that the bot lacks, or names with options they lack."""
    wrong = []
    for name, options in named_commands(text):
        first, *rest = name.split()
        found: Any = table.bot.tree.get_command(first)
        for part in rest:
            found = found.get_command(part) if isinstance(found, app_commands.Group) else None
        known = ({p.display_name for p in found.parameters}
                 if isinstance(found, app_commands.Command) else None)
        if known is None or not set(options) <= known:
            wrong.append((name, options))
    return wrong


def _literal_texts(path: Path) -> list[str]:
    """Every string literal of a module but its docstrings (they speak of the code, not to
    the user), an f-string's placeholders read as "X"."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docstrings = {id(body[0].value) for node in ast.walk(tree)
                  if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef,
                                       ast.AsyncFunctionDef))
                  and (body := node.body) and isinstance(body[0], ast.Expr)}
    texts = []
    for node in ast.walk(tree):
        if id(node) in docstrings:
            continue
        if isinstance(node, ast.JoinedStr):
            texts.append("".join(v.value if isinstance(v, ast.Constant) else "X"
                                 for v in node.values))
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            texts.append(node.value)
    return texts


def shown(reply: Reply) -> str:
    """Every message of the reply, each within Discord's limit, as one text."""
    assert all(len(m.content) <= MESSAGE_LIMIT for m in reply.messages)
    return "\n".join(m.content for m in reply.messages)


async def test_every_command_the_bots_text_names_exists_with_its_options(table: Table) -> None:
    texts = [text for folder in ("bot", "engine") for path in sorted((ROOT / folder).rglob("*.py"))
             for text in _literal_texts(path)]
    # (a command named by a placeholder, `/{command}`, is made at run time: not checked here)
    texts = [text.replace("`/{command}`", "`/X`") for text in texts]
    named = [text for text in texts if named_commands(text.replace("`/X", "`"))]
    assert len(named) > 50, len(named)
    wrong = {f"{cmd} in {text!r}" for text in named
             for cmd in unknown_commands(table, text.replace("`/X", "`"))}
    assert wrong == set(), "\n".join(sorted(wrong))


# -- maps ----------------------------------------------------------------------------------------


async def test_a_saved_map_says_how_to_show_it_and_fight_on_it(table: Table) -> None:
    opened = await table.slash("map new", user=GM, name="Back Room")
    assert opened.modal is not None
    saved = await table.submit(opened.modal, {TEXT_LABEL: "Door @ 0,0\nVault @ 1,0\nDoor -- Vault"},
                               user=GM)
    first = saved.content.split("\n", 1)[0]
    assert first == ("Saved the new map **Back Room** · 2 areas. Show it to the table with "
                     "`/map show`, or fight on it: `/combat start map:Back Room`.")
    edit = await table.slash("map edit", user=GM, name="Back Room")
    assert edit.modal is not None
    edited = await table.submit(edit.modal, {TEXT_LABEL: "Door -- Vault"}, user=GM)
    assert "`/combat start map:Back Room`" in edited.content
    assert unknown_commands(table, saved.content + edited.content) == []


async def test_map_show_in_a_fight_says_who_is_where_and_not_before(table: Table) -> None:
    await start_fight(table, user_of={})
    before = await table.slash("map show", user=ALICE, name="nightclub")
    assert "Who is where" not in before.content and "No AoE effects in play." in before.content
    await add_character(table, "Ana")
    await add_character(table, "Goon", user=GM, npc=True)
    await table.slash("combat add", user=ALICE, character="Ana", area="Entrance")
    await table.slash("combat add", user=GM, character="Goon", area="Dance Floor")
    reply = await table.slash("map show", user=BOB, name="nightclub")
    text = shown(reply)
    assert len(reply.messages) == 1 and not reply.ephemeral
    assert text.endswith("**Who is where:**\n• Dance Floor: Goon\n• Entrance: Ana\n"
                         "No AoE effects in play."), text
    elsewhere = await table.slash("map show", user=BOB, name="manor")
    assert "Who is where" not in elsewhere.content  # not the fight's map


PCS = ("Ana", "Bartholomew the Bold", "Delphine Okonkwo-Reyes", "Gunnar Stormhold",
       "Anastasia Fairweather", "Priya Raghunathan", "Sigrún Halldórsdóttir",
       "Tomás Echeverría", "Wilhelmina Park", "Maximilian Oduya")


async def test_map_show_groups_forty_fighters_by_area(table: Table) -> None:
    for n, name in enumerate(PCS):
        await table.bot.store.characters.add(guild_id=GUILD_ID, owner_id=ALICE.id,
                                             character=Character.new(name, level=50 - n))
    await add_character(table, "Goon", user=GM, npc=True, level=40)
    await add_character(table, "Guard", user=GM, npc=True, level=40)
    await table.slash("character copy", user=GM, character="Goon", count=20)
    await table.slash("character copy", user=GM, character="Guard", count=10)
    await start_fight(table, user_of={})
    for characters, area, user in ((", ".join(PCS[:5]), "Entrance", ALICE),
                                   (", ".join(PCS[5:]), "Alley", ALICE),
                                   ("Goon 1-12", "Dance Floor", GM), ("Goon 13-20", "Bar", GM),
                                   ("Guard 1-10", "Dance Floor", GM)):
        added = await table.slash("combat addmany", user=user, characters=characters,
                                  area=area)
        assert not added.ephemeral, added.content
    fight = await table.bot.fights.fight(CHANNEL_ID)
    assert fight is not None and len(fight.state.fighters) == 40
    text = shown(await table.slash("map show", user=BOB, name="nightclub"))
    where = text[text.index("**Who is where:**"):].splitlines()
    assert where == [
        "**Who is where:**", "• Dance Floor: Goon 1-12, Guard 1-10", "• Bar: Goon 13-20",
        f"• Entrance: {', '.join(PCS[:5])}", f"• Alley: {', '.join(PCS[5:])}",
        "No AoE effects in play.",
    ]


# -- fights --------------------------------------------------------------------------------------


async def test_setting_up_a_fight_says_what_comes_next_until_it_begins(table: Table) -> None:
    await add_character(table, "Ana")
    await add_character(table, "Goon", user=GM, npc=True)
    await add_character(table, "Rat", user=GM, npc=True)
    started = await table.slash("combat start", user=GM, map="Nightclub")
    assert "`/combat add` (several: `/combat addmany`)" in started.answer.content
    alone = await table.slash("combat add", user=ALICE, character="Ana", area="Entrance")
    assert alone.answer.content == (
        "Ana joins the fight for PCs in Entrance.\n-# Next: `/combat add` the other side (a "
        "fight needs two teams), then a GM runs `/combat begin`.")
    both = await table.slash("combat addmany", user=GM, characters="Goon", area="Bar")
    assert both.answer.content == ("Goon joins the fight for NPCs in Bar.\n-# Next: add more "
                                   "with `/combat add`, or a GM runs `/combat begin`.")
    table.dice(3, 4, 6, 2)
    begun = await table.slash("combat begin", user=GM)
    assert "Next:" not in begun.answer.content
    late = await table.slash("combat add", user=GM, character="Rat", area="Bar")
    assert late.answer.content == "Rat joins the fight for NPCs in Bar."  # the fight is on
    assert unknown_commands(table, started.content + alone.content + both.content) == []


async def test_the_recap_names_recovery_and_the_session_when_there_are(table: Table) -> None:
    opened = await table.slash("session start", goal="Get out alive")
    assert not opened.ephemeral, opened.content
    await ana_and_goon_on_the_dance_floor(table)
    hurt = await table.slash("combat set", user=GM, character="Ana", level=30)
    assert not hurt.ephemeral, hurt.content
    ended = await table.slash("combat end", user=GM)
    recap = ended.posted("Fight recap")
    assert recap.content.splitlines()[-1] == (
        "-# Next: PCs recover with **Recover** below (or `/character recover`); "
        "`/session status` shows the session; `/combat start` starts another fight.")
    assert ended.posted("may recover").labels == ["Recover Ana"]
    assert unknown_commands(table, recap.content) == []


# -- characters ----------------------------------------------------------------------------------


async def test_arming_a_character_names_the_panel_until_the_sheet_is_complete(
    table: Table,
) -> None:
    assert "`/character create` makes one" in (await table.slash("character list")).content
    await table.slash("character create", name="Ana")
    good = await table.slash("character ability add", character="Ana",
                             ability="good at lockpicking")
    assert good.content.endswith(" Still to choose: 1 combat ability, items for 5 free slots "
                                 f"{PANEL}.")
    for name, kind in (("Knife", "melee_1h"), ("Pistol", "ranged_1h"), ("Bullets", "ammo"),
                       ("Vest", "armor"), ("Shield", "shield")):
        options = {"location": "torso"} if kind == "armor" else {}
        added = await table.slash("character item add", character="Ana", name=name, kind=kind,
                                  **options)
        assert PANEL in added.content and not added.ephemeral, added.content
    assert added.content.endswith("Still to choose: 1 combat ability, what to hold when a "
                                  f"fight starts {PANEL}.")
    held = await table.slash("character item hold", character="Ana", item="Knife")
    assert held.content.endswith(f"Still to choose: 1 combat ability {PANEL}.")
    gained = await table.slash("character ability add", character="Ana",
                               ability="unarmed.fight")
    assert gained.content == "✨ Ana gains Unarmed Combat: Fight unarmed."  # complete: no hint
    again = await table.slash("character item hold", character="Ana", item="Pistol",
                              hand="left")
    assert again.content == "✋ Ana has Knife in the right hand and Pistol in the left hand."
    assert unknown_commands(table, good.content + held.content) == []
    await table.slash("character create", user=GM, name="Goon", npc=True)
    armed = await table.slash("character item add", user=GM, character="Goon", name="Knife",
                              kind="melee_1h")
    assert not armed.ephemeral and PANEL not in armed.content  # an NPC is the GM's to make


async def test_a_deleted_npc_names_no_new_pc(table: Table) -> None:
    await add_character(table, "Goon", user=GM, npc=True)
    asked = await table.slash("character delete", user=GM, character="Goon")
    done = await table.click(asked.message, "Delete character", user=GM)
    assert done.content == f"🗑️ {GM.mention} deleted **Goon**."


async def test_copies_name_the_command_that_puts_them_in_a_fight(table: Table) -> None:
    await add_character(table, "Goon", user=GM, npc=True)
    copied = await table.slash("character copy", user=GM, character="Goon", count=5)
    assert copied.content.endswith("`/combat addmany characters:Goon 1-5` puts them in a fight.")
    assert unknown_commands(table, copied.content) == []
