"""Who may do what: every command family and button, tried by six people, one test per cell.

The columns:

- **owner**: Alice, whose PC Ana is (and who rolled, and who asked to delete Ana);
- **other player**: Bob, who has a PC of his own (Bea) but no say over Ana;
- **GM by Manage Server** and **GM by role** (a member with the role `/gm role` names);
- **other server**: a GM of another server the bot is on, in that server's channel: this
  server's characters, maps and fights are neither seen nor changed from there (what such a
  GM makes there stays there);
- **DM**: Alice in a direct message with the bot: whatever needs a server says so.

Every cell checks the answer (never "Something went wrong"), and that a refusal is ephemeral
and leaves the database exactly as it was. A cell's code says what is expected:

``ok`` it works; ``no`` refused, saying why; ``gone`` nothing of this server is shown or
changed; ``there`` it works in the other server, and nothing of this server changes; ``dm``
the DM sentence; ``x`` a button pressed from elsewhere changes nothing.
"""

from __future__ import annotations

import contextlib
import copy
import dataclasses
import json
import shutil
import sqlite3
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

from bot.cogs.characters import PASTE_LABEL
from bot.cogs.maps import TEXT_LABEL
from engine.dice import RandomDice
from testbed.harness import (
    ALICE,
    BOB,
    DM_CHANNEL_ID,
    GM,
    GUILD_ID,
    OTHER_GUILD_CHANNEL_ID,
    OTHER_GUILD_ID,
    Message,
    Modal,
    Reply,
    Role,
    Table,
    User,
)

DM_SENTENCE = "This works in a server's channel, not in direct messages."
COLUMNS = ("owner", "other player", "GM by Manage Server", "GM by role", "other server", "DM")
#: Words a refusal uses to say why.
REASONS = ("GM", "Only", "only", "belongs to", "no character in this fight", "Manage Server",
           "their player")

DEN = "Hall -[]- Vault\nHall -- Yard\nHall: lever\nHall @ 0,0\nVault @ 1,0\nYard @ 0,1"


@dataclasses.dataclass
class Ctx:
    """A table set up for one row, and what the row's action needs from it."""

    table: Table
    role_gm: User
    messages: dict[str, Message] = dataclasses.field(default_factory=dict)


@dataclasses.dataclass(frozen=True)
class Who:
    user: User
    guild: int | None
    channel: int | None  # None: where the thing is (this server's fight channel)

    def where(self) -> dict[str, Any]:
        return {"user": self.user, "guild": self.guild,
                **({} if self.channel is None else {"channel": self.channel})}


def who(ctx: Ctx, column: str) -> Who:
    return {
        "owner": Who(ALICE, GUILD_ID, None),
        "other player": Who(BOB, GUILD_ID, None),
        "GM by Manage Server": Who(GM, GUILD_ID, None),
        "GM by role": Who(ctx.role_gm, GUILD_ID, None),
        "other server": Who(GM, OTHER_GUILD_ID, OTHER_GUILD_CHANNEL_ID),
        "DM": Who(ALICE, None, DM_CHANNEL_ID),
    }[column]


# -- set-ups ---------------------------------------------------------------------------------


async def _ok(reply: Awaitable[Reply]) -> Reply:
    done = await reply
    assert done.messages and not done.answer.ephemeral, [m.content for m in done.messages]
    return done


async def characters(table: Table, *, kit_in_hand: bool = False) -> Ctx:
    """Ana (Alice's PC, 40, a knife in hand, a first aid kit, good at dancing), Bea (Bob's),
    Goon (an NPC with a knife), the map Den, and a GM role."""
    role = table.add_role("Game masters")
    await _ok(table.slash("gm role", user=GM, role=role))
    ctx = Ctx(table, User(800_000_000_000_000_007, "rolegm", roles=(role.id,)))
    await _ok(table.slash("character create", name="Ana", level=40))
    for item, kind in (("Knife", "melee_1h"), ("Kit", "first_aid")):
        await _ok(table.slash("character item add", character="Ana", name=item, kind=kind))
    await _ok(table.slash("character item hold", character="Ana", item="Knife", hand="right"))
    if kit_in_hand:
        await _ok(table.slash("character item hold", character="Ana", item="Kit", hand="left"))
    await _ok(table.slash("character ability add", character="Ana", ability="good at dancing"))
    await _ok(table.slash("character create", user=BOB, name="Bea"))
    await _ok(table.slash("character create", user=GM, name="Goon", level=25, npc=True))
    await _ok(table.slash("character item add", user=GM, character="Goon", name="Knife",
                          kind="melee_1h"))
    await _ok(table.slash("character item hold", user=GM, character="Goon", item="Knife"))
    opened = await table.slash("map new", user=GM, name="Den")
    saved = await table.submit(opened.modal, {TEXT_LABEL: DEN}, user=GM)
    assert saved.content.startswith("Saved the new map"), saved.content
    table.bot.dice = RandomDice(1)
    return ctx


async def hurt(table: Table) -> Ctx:
    """Ana at level 30 of 40 (outside any fight)."""
    ctx = await characters(table)
    with contextlib.closing(sqlite3.connect(table.database)) as db, db:
        db.execute("UPDATE characters SET data = json_set(data, '$.level', 30) "
                   "WHERE name = 'Ana'")
    return ctx


async def set_up(table: Table, *, kit_in_hand: bool = False) -> Ctx:
    """A fight on Den, not begun: Ana and Goon in the hall."""
    ctx = await characters(table, kit_in_hand=kit_in_hand)
    await _ok(table.slash("combat start", user=GM, map="Den"))
    await _ok(table.slash("combat add", character="Ana", area="Hall"))
    await _ok(table.slash("combat add", user=GM, character="Goon", area="Hall"))
    return ctx


async def started(table: Table) -> Ctx:
    """A fight on Den, started, nobody in it yet."""
    ctx = await characters(table)
    await _ok(table.slash("combat start", user=GM, map="Den"))
    return ctx


async def pcs_turn(table: Table, *, kit_in_hand: bool = False) -> Ctx:
    """The fight begun, PCs first: Ana may act."""
    ctx = await set_up(table, kit_in_hand=kit_in_hand)
    table.dice(3, 4, 6, 2)  # Ana 34 vs 40 wins initiative; Goon 62 vs 25 fails
    begun = await _ok(table.slash("combat begin", user=GM))
    await _ok(table.click(begun.prompt, "PCs first"))
    table.bot.dice = RandomDice(1)
    return ctx


async def initiative_won(table: Table) -> Ctx:
    """The fight begun: Ana won initiative, her player chooses the order."""
    ctx = await set_up(table)
    table.dice(3, 4, 6, 2)  # Ana 34 vs 40 wins initiative; Goon 62 vs 25 fails
    begun = await _ok(table.slash("combat begin", user=GM))
    ctx.messages["order"] = begun.prompt
    table.bot.dice = RandomDice(1)
    return ctx


async def npcs_tied(table: Table) -> Ctx:
    """The fight begun: Goon and Rat share the NPCs' highest level (25), the GM chooses who
    rolls initiative."""
    ctx = await set_up(table)
    await _ok(table.slash("character create", user=GM, name="Rat", level=25, npc=True))
    await _ok(table.slash("combat add", user=GM, character="Rat", area="Yard"))
    begun = await _ok(table.slash("combat begin", user=GM))
    ctx.messages["roller"] = begun.prompt
    return ctx


async def _leading(table: Table, ability: str, *, leader: str = "Ana", user: User = ALICE,
                   level: int | None = None, begin: bool = True) -> Ctx:
    """A fight on Den with Ana and Goon in the hall and, for the PCs, Bea (Bob's) too;
    ``leader`` (Ana, Bea, or a new PC of Bob's at ``level``) has the Leader ``ability``; begun
    with the PCs first, unless ``begin`` is false."""
    ctx = await characters(table)
    if level is not None:
        await _ok(table.slash("character create", user=user, name=leader, level=level))
    await _ok(table.slash("character ability add", user=user, character=leader,
                          ability=ability))
    await _ok(table.slash("combat start", user=GM, map="Den"))
    await _ok(table.slash("combat add", character="Ana", area="Hall"))
    await _ok(table.slash("combat add", user=GM, character="Goon", area="Hall"))
    await _ok(table.slash("combat add", user=BOB, character="Bea" if level is None else leader,
                          area="Hall"))
    if begin:
        table.dice(3, 4, 6, 2)  # the PCs' highest rolls 34 and wins; Goon 62 vs 25 fails
        begun = await _ok(table.slash("combat begin", user=GM))
        await _ok(table.click(begun.prompt, "PCs first"))
        table.bot.dice = RandomDice(1)
    return ctx


async def ana_rallies(table: Table) -> Ctx:
    """PCs first; Ana may rally."""
    return await _leading(table, "leader.rally")


async def ana_directs(table: Table) -> Ctx:
    """PCs first; Ana may direct Bea."""
    return await _leading(table, "leader.direct")


async def ana_directed(table: Table) -> Ctx:
    """PCs first; Bea directed Ana: Ana's player may refuse."""
    ctx = await _leading(table, "leader.direct", leader="Bea", user=BOB)
    directed = await _ok(table.slash("direct", user=BOB, who="Ana"))
    ctx.messages["directed"] = directed.prompt
    return ctx


async def leader_below(table: Table) -> Ctx:
    """Begun: Ana (40) is the PCs' highest and may let Cal (Bob's, 30, a leader) roll."""
    ctx = await _leading(table, "leader.good_initiative", leader="Cal", user=BOB, level=30,
                         begin=False)
    begun = await _ok(table.slash("combat begin", user=GM))
    ctx.messages["leader"] = begun.prompt
    return ctx


async def kit_in_hand(table: Table) -> Ctx:
    """PCs first, Ana with a knife and a first aid kit in hand, and a \\ on her torso for it
    to treat."""
    ctx = await pcs_turn(table, kit_in_hand=True)
    await _ok(table.slash("combat set", user=GM, character="Ana", location="torso",
                          marks="\\"))
    return ctx


async def kit_on_floor(table: Table) -> Ctx:
    """PCs first, Ana dropped her first aid kit (dropping is free)."""
    ctx = await kit_in_hand(table)
    await _ok(table.slash("item drop", item="Kit"))
    return ctx


async def hands_panel(table: Table) -> Ctx:
    """PCs first; Alice opened Ana's hands panel (just for her) and picked the kit for the
    left hand: Apply would take it."""
    ctx = await pcs_turn(table)
    panel = (await table.slash("item hands")).answer
    assert panel.ephemeral and panel.content.startswith("**Ana's hands**"), panel.content
    picked = await table._interact(3, _pick_data(panel, "Left", "Left hand: Kit"), user=ALICE,
                                   channel=panel.channel_id, message=table.messages[panel.id])
    assert picked.kind == "update", [m.content for m in picked.messages]
    ctx.messages["hands"] = table.message(panel.id)
    return ctx


def _pick_data(message: Message, hand: str, label: str) -> dict[str, Any]:
    """What Discord sends when ``label`` is picked in the menu of ``hand`` on ``message``."""
    select = next(s for s in message.selects() if s["placeholder"].startswith(hand))
    value = next(o["value"] for o in select["options"] if o["label"] == label)
    return {"custom_id": select["custom_id"], "component_type": 3, "values": [value]}


async def npcs_turn(table: Table) -> Ctx:
    ctx = await set_up(table)
    table.dice(8, 0, 2, 0)  # Ana 80 fails; Goon 20 wins initiative
    begun = await _ok(table.slash("combat begin", user=GM))
    await _ok(table.click(begun.prompt, "NPCs first", user=GM))
    table.bot.dice = RandomDice(1)
    return ctx


async def goon_attacks(table: Table) -> Ctx:
    """Goon attacks Ana: Ana may defend, counterattack or pass; the GM may resolve now."""
    ctx = await npcs_turn(table)
    declared = await _ok(table.slash("attack", user=GM, target="Ana", **{"as": "Goon"}))
    ctx.messages["window"] = declared.prompt
    return ctx


async def goon_moves(table: Table) -> Ctx:
    """Goon leaves the hall: Ana may intercept."""
    ctx = await npcs_turn(table)
    moved = await _ok(table.slash("move", user=GM, to="Yard", **{"as": "Goon"}))
    assert "Intercept" in moved.prompt.labels, moved.prompt.labels
    return ctx


async def all_out_offered(table: Table) -> Ctx:
    """Ana with a shield in hand and All-Out Defend; the NPCs to act first, nobody has acted:
    Ana is offered All-Out Defend."""
    ctx = await characters(table)
    await _ok(table.slash("character item add", character="Ana", name="Shield", kind="shield"))
    await _ok(table.slash("character item hold", character="Ana", item="Shield", hand="left"))
    await _ok(table.slash("character ability add", character="Ana",
                          ability="shield.all_out_defend"))
    await _ok(table.slash("combat start", user=GM, map="Den"))
    await _ok(table.slash("combat add", character="Ana", area="Hall"))
    await _ok(table.slash("combat add", user=GM, character="Goon", area="Hall"))
    table.dice(8, 0, 2, 0)  # Ana 80 fails; Goon 20 wins initiative
    begun = await _ok(table.slash("combat begin", user=GM))
    ordered = await _ok(table.click(begun.prompt, "NPCs first", user=GM))
    assert ordered.prompt.labels[-1:] == ["All-Out Defend"], ordered.prompt.labels
    ctx.messages["allout"] = ordered.prompt
    table.bot.dice = RandomDice(1)
    return ctx


async def ana_hits(table: Table) -> Ctx:
    """Ana hit Goon: her player chooses which die is damage."""
    ctx = await pcs_turn(table)
    declared = await _ok(table.slash("attack", target="Goon"))
    table.dice(3, 5)  # 35 vs 40: a hit
    passed = await _ok(table.click(declared.prompt, "Pass", user=GM))
    ctx.messages["dice"] = passed.prompt
    assert "5 damage · 3: right leg" in passed.prompt.labels, passed.prompt.labels
    return ctx


async def fight_over(table: Table) -> Ctx:
    """The fight ended with Ana hurt: she is offered Recovery."""
    ctx = await pcs_turn(table)
    await _ok(table.slash("combat set", user=GM, character="Ana", level=30))
    ended = await _ok(table.slash("combat end", user=GM))
    ctx.messages["recover"] = ended.posted("may recover")
    ctx.messages["recap"] = ended.posted("Fight recap")
    return ctx


async def delete_asked(table: Table) -> Ctx:
    ctx = await characters(table)
    ctx.messages["delete"] = (await _ok(table.slash("character delete", character="Ana"))).answer
    return ctx


async def map_delete_asked(table: Table) -> Ctx:
    ctx = await characters(table)
    asked = await _ok(table.slash("map delete", user=GM, name="Den"))
    ctx.messages["delete"] = asked.answer
    return ctx


async def rolled(table: Table) -> Ctx:
    ctx = await characters(table)
    table.dice(5, 6)
    ctx.messages["roll"] = (await _ok(table.slash("roll", level=40, good=True))).answer
    return ctx


# -- what each row does --------------------------------------------------------------------------

Do = Callable[[Ctx, Who], Awaitable[Reply]]


def slash(command: str, **options: Any) -> Do:
    return lambda ctx, w: ctx.table.slash(command, **w.where(), **options)


def press(message: str, label: str) -> Do:
    """Press ``label`` on a message of the set-up; from elsewhere, a press sent from there."""

    def do(ctx: Ctx, w: Who) -> Awaitable[Reply]:
        shown = ctx.table.message(ctx.messages[message].id)
        return ctx.table.press(shown.button(label).custom_id, message=shown, user=w.user,
                               channel=w.channel, guild=w.guild)

    return do


def pick(message: str, hand: str, label: str) -> Do:
    """Pick ``label`` in the menu of ``hand`` on a message of the set-up; from elsewhere, a
    pick sent from there."""

    def do(ctx: Ctx, w: Who) -> Awaitable[Reply]:
        shown = ctx.table.message(ctx.messages[message].id)
        return ctx.table._interact(
            3, _pick_data(shown, hand, label), user=w.user, guild=w.guild,
            channel=shown.channel_id if w.channel is None else w.channel, message=shown.raw)

    return do


def form(command: str, label: str, text: str, **options: Any) -> Do:
    """Open the form ``command`` shows and submit ``text`` in it; when the form is refused,
    that refusal is the answer."""

    async def do(ctx: Ctx, w: Who) -> Reply:
        opened = await ctx.table.slash(command, **w.where(), **options)
        if opened.modal is None:
            return opened
        where = {} if w.channel is None else {"channel": w.channel}
        return await ctx.table.submit(opened.modal, {label: text}, user=w.user, guild=w.guild,
                                      **where)

    return do


def import_form(text: str) -> Do:
    """The import form's submit: it is answered from its id and text alone, so it can also
    be sent from where the form was never opened."""

    def do(ctx: Ctx, w: Who) -> Awaitable[Reply]:
        opened = Modal("character-import:0123abcd", "Import a character", {PASTE_LABEL: "p"})
        where = {} if w.channel is None else {"channel": w.channel}
        return ctx.table.submit(opened, {PASTE_LABEL: text}, user=w.user, guild=w.guild,
                                **where)

    return do


def public(reply: Reply) -> bool:
    return bool(reply.messages) and not reply.answer.ephemeral


def modal(reply: Reply) -> bool:
    return reply.modal is not None


def private(*shown: str) -> Callable[[Reply], bool]:
    """An answer just for the asker that shows ``shown``."""
    return lambda reply: bool(reply.messages) and reply.answer.ephemeral and all(
        s in reply.content for s in shown)


def private_file(*shown: str) -> Callable[[Reply], bool]:
    """An answer just for the asker with a text file that shows ``shown``."""
    return lambda reply: private()(reply) and any(
        all(s in text for s in shown) for text in reply.answer.files.values())


def redrawn(reply: Reply) -> bool:
    return reply.kind == "update" and bool(reply.messages)


def saved_privately(reply: Reply) -> bool:
    return bool(reply.messages) and reply.content.startswith("Saved the new map")


@dataclasses.dataclass(frozen=True)
class Row:
    name: str
    setup: Callable[[Table], Awaitable[Ctx]]
    do: Do
    expected: str  # one code per column, see the module docstring
    works: Callable[[Reply], bool] = public
    #: What must not be shown from elsewhere (another server, a DM).
    leaks: tuple[str, ...] = ("```", "PC of <@", "40/40", "Hall")


CHANGE = "ok no ok ok gone dm"  # the owner or a GM changes a PC
GM_ONLY = "no no ok ok gone dm"
READ = "ok ok ok ok gone dm"
PRESS = "ok no ok ok x x"
GM_PRESS = "no no ok ok x x"
NEW_CHARACTER = json.dumps({"schema_version": 1, "name": "Cal", "level": 30, "max_level": 30})

ROWS = (
    # /roll and its buttons: only the roller decides a roll.
    Row("/roll", characters, slash("roll", level=40), "ok ok ok ok ok ok"),
    Row("roll button Keep", rolled, press("roll", "Keep"), "ok no no no no ok"),
    # /character
    Row("/character create (a PC)", characters, slash("character create", name="Cal"),
        "ok ok ok ok there dm"),
    Row("/character create (an NPC)", characters,
        slash("character create", name="Rat", npc=True), "no no ok ok there dm"),
    Row("/character rename", characters,
        slash("character rename", character="Ana", new_name="Anna"), CHANGE),
    Row("/character delete", characters, slash("character delete", character="Ana"), CHANGE),
    Row("delete button Delete character", delete_asked, press("delete", "Delete character"),
        PRESS),
    Row("delete button Keep character", delete_asked, press("delete", "Keep character"),
        PRESS),
    Row("/character item add", characters,
        slash("character item add", character="Ana", name="Rope", kind="melee_1h"), CHANGE),
    Row("/character item remove", characters,
        slash("character item remove", character="Ana", item="2"), CHANGE),
    Row("/character item hold", characters,
        slash("character item hold", character="Ana", item="Kit", hand="left"), CHANGE),
    Row("/character item stow", characters,
        slash("character item stow", character="Ana"), CHANGE),
    Row("/character ability add", characters,
        slash("character ability add", character="Ana", ability="first_aid.good"), CHANGE),
    Row("/character ability remove", characters,
        slash("character ability remove", character="Ana", ability="good at dancing"), CHANGE),
    Row("/character advance", characters, slash("character advance", character="Ana"),
        CHANGE),
    Row("/character recover", hurt, slash("character recover", character="Ana"), CHANGE),
    Row("/character export", characters, slash("character export", character="Ana"), READ,
        works=private('"name": "Ana"')),
    Row("/character import", characters, slash("character import"), "ok ok ok ok ok dm",
        works=modal),
    Row("/character import form", characters, import_form(NEW_CHARACTER),
        "ok ok ok ok there dm"),
    Row("/character list", characters, slash("character list"), READ,
        works=private("**Ana**", "PC of <@"), leaks=("Ana",)),
    Row("/sheet", characters, slash("sheet", character="Ana"), READ),
    # /map
    Row("/map new", characters, slash("map new", name="Keep"), "no no ok ok there dm",
        works=modal),
    Row("/map new form", characters, form("map new", TEXT_LABEL, "A -- B", name="Keep"),
        "no no ok ok there dm", works=saved_privately),
    Row("/map edit", characters, slash("map edit", name="Den"), GM_ONLY, works=modal),
    Row("/map edit form", characters,
        form("map edit", TEXT_LABEL, DEN + "\nYard: well", name="Den"), GM_ONLY,
        works=lambda r: bool(r.messages) and r.content.startswith("Saved your changes")),
    Row("/map delete", characters, slash("map delete", name="Den"), GM_ONLY),
    Row("map delete button Delete map", map_delete_asked, press("delete", "Delete map"),
        GM_PRESS),
    Row("map delete button Keep map", map_delete_asked, press("delete", "Keep map"),
        GM_PRESS),
    Row("/map show", characters, slash("map show", name="Den"), "ok ok ok ok gone gone"),
    Row("/map export", characters, slash("map export", name="Den"), "ok ok ok ok gone gone",
        works=private("Hall -[]- Vault")),
    Row("/map list", characters, slash("map list"), "ok ok ok ok gone gone",
        works=private("Den"), leaks=("Den",)),
    # /combat
    Row("/combat start", characters, slash("combat start", map="Den"), GM_ONLY),
    Row("/combat start on a built-in map", characters, slash("combat start", map="Manor"),
        "no no ok ok there dm"),
    Row("/combat add", started, slash("combat add", character="Ana", area="Hall"), CHANGE),
    Row("/combat remove", set_up, slash("combat remove", character="Ana"), CHANGE),
    Row("/combat begin", set_up, slash("combat begin"), GM_ONLY),
    Row("/combat order", initiative_won, slash("combat order", teams="NPCs, PCs"), CHANGE),
    Row("/combat status", pcs_turn, slash("combat status"), READ,
        works=private("Ana", "Goon")),
    Row("/combat status character", pcs_turn, slash("combat status", character="Ana"), READ,
        works=private("Ana")),
    Row("/combat log", pcs_turn, slash("combat log"), READ, works=private("Ana")),
    Row("/combat log file", pcs_turn, slash("combat log", file=True), READ,
        works=private_file("Ana joins the fight")),
    Row("/combat end", pcs_turn, slash("combat end"), GM_ONLY),
    Row("/combat undo", pcs_turn, slash("combat undo"), GM_ONLY),
    Row("/combat set", pcs_turn, slash("combat set", character="Ana", level=30), GM_ONLY),
    Row("/combat settings", pcs_turn, slash("combat settings", reaction="60s"), GM_ONLY),
    # the fight's actions, for Ana
    Row("/attack", pcs_turn, slash("attack", target="Goon", **{"as": "Ana"}), CHANGE),
    Row("/move", pcs_turn, slash("move", to="Yard", **{"as": "Ana"}), CHANGE),
    Row("/door", pcs_turn, slash("door", area="Vault", open=True, **{"as": "Ana"}), CHANGE),
    Row("/firstaid", kit_in_hand, slash("firstaid", target="Ana", **{"as": "Ana"}), CHANGE),
    Row("/item hold", pcs_turn, slash("item hold", item="Kit", hand="left", **{"as": "Ana"}),
        CHANGE),
    Row("/item stow", pcs_turn, slash("item stow", hand="right", **{"as": "Ana"}), CHANGE),
    Row("/item pickup", kit_on_floor, slash("item pickup", item="Kit", **{"as": "Ana"}),
        CHANGE),
    Row("/item hands", pcs_turn,
        slash("item hands", right="Kit", left="Knife", **{"as": "Ana"}), CHANGE),
    Row("/item hands (the panel)", pcs_turn, slash("item hands", **{"as": "Ana"}), CHANGE,
        works=private("Ana's hands")),
    Row("/item drop", pcs_turn, slash("item drop", item="Knife", **{"as": "Ana"}), CHANGE),
    Row("/item use", pcs_turn, slash("item use", what="lever", **{"as": "Ana"}), CHANGE),
    Row("/defend", goon_attacks, slash("defend", **{"as": "Ana"}), CHANGE),
    Row("/counterattack", goon_attacks, slash("counterattack", **{"as": "Ana"}), CHANGE),
    Row("/intercept", goon_moves, slash("intercept", **{"as": "Ana"}), CHANGE),
    Row("/rally", ana_rallies, slash("rally", **{"as": "Ana"}), CHANGE),
    Row("/direct", ana_directs, slash("direct", who="Bea", **{"as": "Ana"}), CHANGE),
    Row("/alloutdefend", all_out_offered, slash("alloutdefend", **{"as": "Ana"}), CHANGE),
    Row("/done", pcs_turn, slash("done", **{"as": "Ana"}), CHANGE),
    Row("/surrender", pcs_turn, slash("surrender", **{"as": "Ana"}), CHANGE),
    # the fight's buttons
    Row("order button NPCs first", initiative_won, press("order", "NPCs first"), PRESS),
    Row("roller button Rat rolls", npcs_tied, press("roller", "Rat rolls"), GM_PRESS),
    Row("leader button Cal rolls", leader_below, press("leader", "Cal rolls"), PRESS),
    Row("directed button Refuse the direction", ana_directed,
        press("directed", "Refuse the direction"), PRESS),
    Row("reaction button Defend", goon_attacks, press("window", "Defend"), PRESS),
    Row("reaction button Pass", goon_attacks, press("window", "Pass"), PRESS),
    Row("GM button Resolve now", goon_attacks, press("window", "Resolve now (GM)"), GM_PRESS),
    Row("All-Out Defend button", all_out_offered, press("allout", "All-Out Defend"), PRESS),
    Row("damage die button", ana_hits, press("dice", "5 damage · 3: right leg"), PRESS),
    Row("Recover button", fight_over, press("recover", "Recover Ana"), PRESS),
    Row("Log file button", fight_over, press("recap", "Log file"), "ok ok ok ok x x",
        works=private_file("Ana joins the fight", "The GM ends the combat.")),
    Row("hands panel menu", hands_panel, pick("hands", "Right", "Right hand: Kit"), PRESS,
        works=redrawn),
    Row("hands panel button Apply", hands_panel, press("hands", "Apply (one action)"), PRESS),
    # /gm role: Manage Server only, not the role itself.
    Row("/gm role", characters, lambda ctx, w: ctx.table.slash(
        "gm role", **w.where(), role=ctx.table.roles[0]), "no no ok no there dm"),
    Row("/gm role (clear)", characters, slash("gm role"), "no no ok no gone dm"),
)


# -- the cells -------------------------------------------------------------------------------


def dump(path: Path, *, guild: int | None = None) -> dict[str, list[tuple[Any, ...]]]:
    """Every row of every table; with ``guild``, only the rows of tables that belong to one
    server, of that server."""
    with contextlib.closing(sqlite3.connect(path)) as db:
        tables = [r[0] for r in db.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")]
        found = {}
        for t in tables:
            columns = [c[1] for c in db.execute(f"PRAGMA table_info({t})")]
            if guild is None:
                found[t] = db.execute(f"SELECT * FROM {t} ORDER BY rowid").fetchall()
            elif "guild_id" in columns:
                found[t] = db.execute(f"SELECT * FROM {t} WHERE guild_id = ? ORDER BY rowid",
                                      (guild,)).fetchall()
        return found


CELLS = [pytest.param(row, column, id=f"{row.name} | {column}")
         for row in ROWS for column in COLUMNS]


@dataclasses.dataclass(frozen=True)
class _Built:
    template: Path
    messages: dict[int, dict[str, Any]]
    roles: tuple[Role, ...]
    role_gm: User
    named: dict[str, int]


#: Each set-up is played once; every cell starts a fresh bot on a copy of its database.
_BUILT: dict[str, _Built] = {}


async def _build(setup: Callable[[Table], Awaitable[Ctx]], folder: Path) -> _Built:
    table = await Table(folder / "setup.sqlite3").start()
    try:
        ctx = await setup(table)
        template = folder / "template.sqlite3"
        with contextlib.closing(sqlite3.connect(table.database)) as src, \
                contextlib.closing(sqlite3.connect(template)) as dst:
            src.backup(dst)
        return _Built(template, copy.deepcopy(table.messages), tuple(table.roles), ctx.role_gm,
                      {name: m.id for name, m in ctx.messages.items()})
    finally:
        await table.bot.fights.close()
        await table.stop()


@pytest.fixture
async def prepare(tmp_path: Path, tmp_path_factory: pytest.TempPathFactory
                  ) -> AsyncIterator[Callable[[Row], Awaitable[Ctx]]]:
    tables: list[Table] = []

    async def prepared(row: Row) -> Ctx:
        key = row.setup.__name__
        if key not in _BUILT:
            _BUILT[key] = await _build(row.setup, tmp_path_factory.mktemp(key))
        built = _BUILT[key]
        shutil.copy(built.template, tmp_path / "unhex.sqlite3")
        table = Table(tmp_path / "unhex.sqlite3")
        table.roles = list(built.roles)
        table.messages = copy.deepcopy(built.messages)
        tables.append(await table.start())
        table.bot.dice = RandomDice(1)
        return Ctx(table, built.role_gm,
                   {name: table.message(i) for name, i in built.named.items()})

    yield prepared
    for table in tables:
        await table.bot.fights.close()
        await table.stop()


def test_every_row_has_a_code_per_column() -> None:
    for row in ROWS:
        codes = row.expected.split()
        assert len(codes) == len(COLUMNS), row.name
        assert set(codes) <= {"ok", "no", "gone", "there", "dm", "x"}, row.name


@pytest.mark.parametrize(("row", "column"), CELLS)
async def test_cell(prepare: Callable[[Row], Awaitable[Ctx]], row: Row, column: str) -> None:
    ctx = await prepare(row)
    table = ctx.table
    w = who(ctx, column)
    expected = row.expected.split()[COLUMNS.index(column)]
    before = dump(table.database)
    here_before = dump(table.database, guild=GUILD_ID)
    reply = await row.do(ctx, w)
    shown = [m.content for m in reply.messages]
    assert reply.messages or reply.modal, f"no answer (kind {reply.kind})"
    assert not any("Something went wrong" in s for s in shown), shown
    if expected == "ok":
        assert row.works(reply), shown
        return
    if expected == "there":
        assert row.works(reply), shown
        assert dump(table.database, guild=GUILD_ID) == here_before, "changed this server"
        return
    assert reply.modal is None, f"opened a form: {reply.modal}"
    assert all(m.ephemeral for m in reply.messages), shown
    assert dump(table.database) == before, f"refused but changed something: {shown}"
    text = "\n".join(shown)
    if expected == "no":
        assert any(r in text for r in REASONS), f"no reason given: {shown}"
    elif expected == "gone":
        leaked = [s for s in row.leaks if s in text]
        assert not leaked, f"shows {leaked} from another place: {shown}"
    elif expected == "dm":
        assert DM_SENTENCE in text, shown


AUTOCOMPLETE = [
    ("sheet", "character"), ("character rename", "character"), ("character export", "character"),
    ("character item remove", "item"), ("map show", "name"), ("map edit", "name"),
    ("combat start", "map"), ("combat add", "character"), ("combat add", "area"),
    ("combat status", "character"), ("attack", "target"), ("attack", "as"), ("move", "to"),
    ("item use", "what"),
]


@pytest.mark.parametrize("column", ["other server", "DM"])
@pytest.mark.parametrize(("command", "option"), AUTOCOMPLETE)
async def test_autocomplete_offers_nothing_of_this_server_from_elsewhere(
    prepare: Callable[[Row], Awaitable[Ctx]], command: str, option: str, column: str
) -> None:
    ctx = await prepare(Row("a fight", pcs_turn, slash("sheet"), READ))
    w = who(ctx, column)
    extra = {"character": "Ana"} if option == "item" else {}
    where = {"user": w.user, "guild": w.guild, "channel": w.channel}
    offered = await ctx.table.autocomplete(command, option, **where, **extra)
    here = await ctx.table.autocomplete(command, option, user=ALICE, **extra)
    assert here, f"nothing offered here either: the test would prove nothing ({command})"
    this_server = {"Ana", "Goon", "Bea", "Den", "Den (built-in)", "Hall", "Yard", "Knife", "Kit",
                   "lever"}
    shown = {name.split(". ", 1)[-1].split(" (")[0] for name in offered}
    assert not shown & this_server, offered
