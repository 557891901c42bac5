"""A whole fight on the nightclub, three rounds to the last NPC down, through slash commands
and buttons with scripted dice. The transcript of everything the table sees is compared with
``transcripts/whole_fight.txt``: a change in what players read shows up as a diff there.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from testbed.harness import ALICE, BOB, GM, Reply, Table, User
from testbed.pseudo import watching

pytestmark = pytest.mark.both_engines

GOLDEN = Path(__file__).parent / "transcripts" / "whole_fight.txt"
NAMES = {ALICE.id: "alice", BOB.id: "bob", GM.id: "gm"}


class Transcript:
    """What each user did and what the bot showed in answer, in order."""

    def __init__(self, table: Table) -> None:
        self.table = table
        self.lines: list[str] = []
        self.seen: dict[int, str] = {}  # message id -> content as last recorded

    def _record(self, what: str, user: User, reply: Reply) -> Reply:
        self.lines.append(f"> {NAMES[user.id]}: {what}")
        for m in reply.messages:
            edited = m.id in self.seen
            if edited and self.seen[m.id] == m.content and not m.buttons:
                continue  # an older prompt losing its buttons: nothing new to read
            self.seen[m.id] = m.content
            text = m.content
            for user_id, name in NAMES.items():
                text = text.replace(f"<@{user_id}>", f"@{name}")
            lines = text.splitlines()
            if text.startswith("```text\nRound"):  # the board: its fighters and who is next
                lines = _board_text(lines)
                tag = " board, edited" if edited else " board"
            else:
                tag = " (only you)" if m.ephemeral else (" edits" if edited else "")
            self.lines.append(f"[bot{tag}]")
            self.lines.extend(f"  {line}" for line in lines)
            if m.buttons:
                self.lines.append("  " + " ".join(f"[{b.label}]" for b in m.buttons))
        return reply

    async def slash(self, command: str, user: User = ALICE, **options: Any) -> Reply:
        shown = " ".join(f"{k}:{v}" for k, v in options.items())
        reply = await self.table.slash(command, user=user, **options)
        return self._record(f"/{command} {shown}".strip(), user, reply)

    async def click(self, reply: Reply, label: str, user: User = ALICE) -> Reply:
        return self._record(f"presses {label}", user,
                            await self.table.click(reply.prompt, label, user=user))

    def text(self) -> str:
        return "\n".join(self.lines) + "\n"


def _board_text(lines: list[str]) -> list[str]:
    """The board without its map drawing (tested on its own elsewhere): the fighters, who is
    where, and what the fight waits for."""
    body = lines[1:-1]
    start = next((i for i, line in enumerate(body) if "┌" in line or line.startswith("-- move")),
                 len(body) - 1)
    after = next((i for i, line in enumerate(body) if line == "Who is where:"
                  or line.startswith(("Waiting for:", "The fight is over."))), len(body))
    return [*body[:start], "(map)", *body[after:]]


async def _setup(table: Table) -> None:
    gear = {
        "Ana": (ALICE, 40, False, [("Knife", "melee_1h")]),
        "Bram": (BOB, 35, False, [("Rifle", "ranged_2h"), ("Bullets", "ammo")]),
        "Goon": (GM, 15, True, [("Knife", "melee_1h")]),
        "Rat": (GM, 20, True, [("Pistol", "ranged_1h"), ("Bullets", "ammo")]),
    }
    for name, (user, level, npc, items) in gear.items():
        options: dict[str, Any] = {"level": level, **({"npc": True} if npc else {})}
        made = await table.slash("character create", user=user, name=name, **options)
        assert not made.ephemeral, made.content
        for item, kind in items:
            added = await table.slash("character item add", user=user, character=name,
                                      name=item, kind=kind)
            assert not added.ephemeral, added.content
        held = await table.slash("character item hold", user=user, character=name,
                                 item=items[0][0])
        assert not held.ephemeral, held.content


async def test_a_whole_fight_on_the_nightclub(table: Table) -> None:
    await _setup(table)
    cog = table.bot.fights
    assert cog is not None
    cog.clock = lambda: 1_800_000_000.0  # reaction deadlines print the same every run
    t = Transcript(table)
    await t.slash("combat start", GM, map="Nightclub")
    for name, area, user in (("Ana", "Dance Floor", ALICE), ("Bram", "Entrance", BOB),
                             ("Goon", "Dance Floor", GM), ("Rat", "Bar", GM)):
        await t.slash("combat add", user, character=name, area=area)

    # Round 1: Ana (40) rolls 34 for the PCs, Rat (20) 62 for the NPCs. The PCs win and let
    # the NPCs go first, to react to them.
    table.dice(3, 4, 6, 2)
    begun = await t.slash("combat begin", GM)
    await t.click(begun, "NPCs first", ALICE)

    attack = await t.slash("attack", GM, target="Ana", **{"as": "Goon"})
    await t.click(attack, "Counterattack", BOB)  # not Bob's to press
    table.dice(1, 2, 3, 2)  # Goon 12 hits; Ana's counterattack 32 hits too
    both = await t.click(attack, "Counterattack", ALICE)
    goon_hits = await t.click(both, "2 damage · 1: left leg", GM)
    await t.click(goon_hits, "3 damage · 2: right leg", ALICE)

    moving = await t.slash("move", GM, to="Dance Floor", **{"as": "Rat"})
    table.dice(1, 7)  # Bram intercepts with 17: no cover against an intercept
    intercepted = await t.click(moving, "Intercept", BOB)
    stopped = await t.click(intercepted, "7 damage · 1: left leg", BOB)  # Rat's leg is full
    # Everyone has acted: round 2. Ana (38) rolls 10, Rat (13) rolls 56.
    table.dice(1, 0, 5, 6)
    round_two = await t.click(stopped, "Stop in Bar", BOB)
    await t.click(round_two, "PCs first", ALICE)

    shot = await t.slash("attack", BOB, target="Rat")  # range 2; Rat has cover at the bar
    table.dice(2, 9, 1, 5)  # Bram 29 hits; Rat's Defend 15 fails against his level 13
    defended = await t.click(shot, "Defend", GM)
    await t.click(defended, "2 damage · 9: head", GM)  # the target chooses: cover

    attack = await t.slash("attack", ALICE, target="Goon")
    table.dice(1, 8)
    passed = await t.click(attack, "Pass", GM)
    # Goon drops to 4: unconscious. Nobody can act: round 3, Ana 20, Rat 70.
    table.dice(2, 0, 7, 0)
    round_three = await t.click(passed, "8 damage · 1: left leg", ALICE)
    await t.click(round_three, "PCs first", ALICE)

    shot = await t.slash("attack", BOB, target="Rat")
    table.dice(3, 4)
    passed = await t.click(shot, "Pass", GM)
    await t.click(passed, "3 damage · 4: torso", GM)  # Rat drops to 8: the fight is over

    await t.slash("sheet", BOB, character="Rat")

    text = t.text()
    # (a pseudo-locale run's transcript, its lines longer, is no golden to review)
    if (not GOLDEN.exists() or GOLDEN.read_text() != text) and watching() is None:
        GOLDEN.with_suffix(".new").write_text(text)
    assert GOLDEN.exists(), f"no golden transcript yet: review {GOLDEN.with_suffix('.new')}"
    assert text == GOLDEN.read_text(), f"the transcript changed: diff {GOLDEN} with .new"
