"""Secrets for the GM: a fight that hides its NPCs' levels and wounds from the players, as the
table sees it through the real commands and buttons."""

from __future__ import annotations

import re
from typing import Any

from testbed.harness import ALICE, BOB, GM, Message, Reply, Table, User
from tests.bot.fights import add_character, start_fight

#: Goon's level (47, its max) and after Ana's hit (44), Rat's level (48), and what would say
#: where Goon's marks are (Ana's own marks are no secret): none of these may reach a player.
LEAKS = re.compile(r"\b(47|44|48)\b|Marked 3|Erased|became X|erased\.|Goon's torso|torso \\")


class Watched:
    """The table, keeping every message a player can see: everything posted in the channel,
    every answer that is not ephemeral, and every ephemeral answer to a player."""

    def __init__(self, table: Table) -> None:
        self.table = table
        self.seen: list[Message] = []
        self.before = {m.id for m in table.channel_messages()}

    def _keep(self, reply: Reply, user: User) -> Reply:
        self.seen += [m for m in reply.messages if not (m.ephemeral and user.gm)]
        return reply

    async def slash(self, command: str, *, user: User = ALICE, **options: Any) -> Reply:
        return self._keep(await self.table.slash(command, user=user, **options), user)

    async def click(self, message: Message, label: str, *, user: User = ALICE) -> Reply:
        return self._keep(await self.table.click(message, label, user=user), user)

    def leaks(self) -> list[str]:
        posted = [m for m in self.table.channel_messages() if m.id not in self.before]
        shown = [*self.seen, *posted]
        return [text for m in shown for text in (m.content, *m.labels) if LEAKS.search(text)]


def _board(table: Table) -> Message:
    """The fight's board as it reads now."""
    return next(m for m in table.channel_messages() if m.content.startswith("```text\nRound"))


async def _hidden_fight(table: Table) -> Watched:
    """Ana (Alice's PC, 40, a knife), Goon (an NPC at 47, a knife) and Rat (an NPC at 48,
    holding a first aid kit), all on the dance floor, in a fight that hides the NPCs'
    figures; the NPCs win round 1's initiative and go first."""
    await add_character(table, "Ana", level=40)
    await add_character(table, "Goon", user=GM, level=47, npc=True)
    await add_character(table, "Rat", user=GM, level=48, npc=True, weapon=("Kit", "first_aid"))
    watched = Watched(table)  # the NPCs were made before (elsewhere, say): the fight starts
    started = await watched.slash("combat start", user=GM, map="Nightclub", hide_npcs=True)
    assert "how hurt each NPC looks, not its level and wounds" in started.answer.content
    await start_fight_here(watched)
    return watched


async def start_fight_here(watched: Watched) -> None:
    for name, user in (("Ana", ALICE), ("Goon", GM), ("Rat", GM)):
        added = await watched.slash("combat add", user=user, character=name, area="Dance Floor")
        assert not added.ephemeral, added.content
    watched.table.dice(8, 0, 2, 0)  # Ana fails 80 (PCs roll first); Rat rolls 20 for the NPCs
    begun = await watched.slash("combat begin", user=GM)
    assert "Rat rolls initiative for NPCs: 20 (2·0) — SUCCESS." in begun.answer.content
    await watched.click(begun.prompt, "NPCs first", user=GM)


async def test_no_player_ever_sees_a_hidden_npc_s_level_or_marks(table: Table) -> None:
    watched = await _hidden_fight(table)
    # Goon attacks Ana: its roll is told without the level it was rolled against.
    declared = await watched.slash("attack", user=GM, target="Ana", **{"as": "Goon"})
    table.dice(2, 4)
    rolled = await watched.click(declared.posted("may react"), "Pass", user=ALICE)
    assert "Goon attacks Ana with Knife: 24 (2·4) — SUCCESS." in rolled.answer.content
    hit = await watched.click(rolled.prompt, "4 damage · 2: right leg", user=GM)
    assert "Ana takes 4 damage to the right leg: level 40 → 36." in hit.answer.content  # a PC
    await watched.slash("done", user=GM)  # Rat keeps its kit for later

    # Ana hits Goon (it has no action left to react): the damage without its level and marks;
    # the round ends and Rat rolls round 2's initiative first (the NPCs had it).
    table.dice(3, 5)
    attacked = await watched.slash("attack", target="Goon")
    assert "Ana attacks Goon with Knife: 35 (3·5) vs 36 — SUCCESS." in attacked.answer.content
    table.dice(2, 0, 8, 0)
    damaged = await watched.click(attacked.prompt, "3 damage · 5: torso")
    assert "Goon takes 3 damage to the torso." in damaged.answer.content
    new_round = damaged.posted("Round 1 ends.")  # the round's end: at the bottom
    assert "Rat rolls initiative for NPCs: 20 (2·0) — SUCCESS." in new_round.content
    board = _board(table)
    assert "Goon [NPCs] Dance Floor hurt" in board.content, board.content
    assert "Rat [NPCs] Dance Floor unhurt" in board.content
    assert "Ana [PCs] Dance Floor 36/40" in board.content
    await watched.click(damaged.prompt, "NPCs first", user=GM)

    # Rat gives Goon first aid: which marks it erases is the GM's pick, out of the players' sight.
    table.dice(1, 2)
    aided = await watched.slash("firstaid", user=GM, target="Goon", **{"as": "Rat"})
    assert "Rat gives first aid to Goon with Kit (used up): 12 (1·2) — SUCCESS." in (
        aided.answer.content)
    dice = await watched.click(aided.prompt, "2 boxes · 1 more location", user=GM)
    asked = dice.prompt
    assert "Goon (GM)" in asked.content and asked.labels == ["Choose (GM)"]
    peeked = await watched.click(asked, "Choose (GM)", user=ALICE)
    assert peeked.ephemeral and "Only a GM sees these choices" in peeked.content
    for _ in range(2):
        live = next(m for m in reversed(table.channel_messages()) if "Choose (GM)" in m.labels)
        shown = await table.click(live, "Choose (GM)", user=GM)  # (kept: the same question)
        assert shown.ephemeral and shown.message.labels == ["Torso", "Done"]
        assert "Level 44/47" in shown.content  # the GM sees Goon's wounds
        erased = await watched.click(shown.message, "Torso", user=GM)
        assert not erased.answer.ephemeral
        assert "Goon's wounds: one mark chosen." in erased.answer.content
    assert "First aid on Goon is done." in erased.answer.content

    # What each one asks to see.
    gm_board = await table.slash("combat status", user=GM)
    assert gm_board.ephemeral and "Goon [NPCs] Dance Floor 44/47" in gm_board.content
    gm_sheet = await table.slash("combat status", user=GM, character="Goon")
    assert "Level 44/47" in gm_sheet.content and "X" in gm_sheet.content
    board = await watched.slash("combat status", user=BOB)
    assert "Goon [NPCs] Dance Floor hurt" in board.content, board.content
    looks = await watched.slash("combat status", character="Goon")
    assert looks.ephemeral and "Looks hurt" in looks.content, looks.content
    mine = await watched.slash("combat status", character="Ana")
    assert "Level 36/40" in mine.content  # a PC's own sheet is no secret
    log = await watched.slash("combat log")
    assert "Goon attacks Ana with Knife: 24 (2·4) — SUCCESS." in log.content, log.content
    gm_log = await table.slash("combat log", user=GM)
    assert "24 (2·4) vs 47" in gm_log.content and "level 47 → 44" in gm_log.content
    sheet = await watched.slash("sheet", character="Goon")
    assert sheet.ephemeral and "GM keeps its level and wounds hidden: it looks hurt" in (
        sheet.content)
    gm_sheet = await table.slash("sheet", user=GM, character="Goon")
    assert gm_sheet.ephemeral and "44/47" in gm_sheet.content
    assert await watched.table.autocomplete("attack", "target") == ["Goon", "Rat"]

    ended = await watched.slash("combat end", user=GM)
    assert "Goon (NPCs): hurt." in ended.answer.content
    recap = next(m for m in table.channel_messages() if m.content.startswith("🏁"))
    assert "Ana (PCs): dealt 3, took 4" in recap.content, recap.content
    assert "Goon (NPCs): dealt 4, looks hurt" in recap.content  # not the 3 it took
    assert "Rat (NPCs): dealt 0, looks unhurt" in recap.content
    asked = await watched.click(recap, "Log file", user=BOB)
    [log_file] = asked.message.files.values()
    assert "Goon takes 3 damage to the torso." in log_file.splitlines()
    assert not LEAKS.search(log_file), log_file
    gm_asked = await table.click(recap, "Log file", user=GM)
    [gm_file] = gm_asked.message.files.values()
    assert "Goon takes 3 damage to the torso: level 47 → 44. Marked 3 on the torso." in gm_file
    assert watched.leaks() == []


async def test_the_gm_hides_the_npcs_figures_during_a_fight_and_shows_them_again(
        table: Table) -> None:
    await add_character(table, "Ana", level=40)
    await add_character(table, "Goon", user=GM, level=37, npc=True)
    await start_fight(table, ("Ana", "Dance Floor"), ("Goon", "Bar"), user_of={"Ana": ALICE})
    board = _board(table)
    assert "Goon [NPCs] Bar 37/37" in board.content
    nothing = await table.slash("combat settings", user=GM)
    assert nothing.ephemeral and "Say what to change" in nothing.content
    refused = await table.slash("combat settings", user=ALICE, hide_npcs=True)
    assert refused.ephemeral
    hidden = await table.slash("combat settings", user=GM, hide_npcs=True)
    assert not hidden.ephemeral
    assert "how hurt each NPC looks, not its level and wounds" in hidden.answer.content
    assert "Goon [NPCs] Bar unhurt" in _board(table).content
    both = await table.slash("combat settings", user=GM, reaction="60s", hide_npcs=False)
    assert "Reactions now wait 1 minute. Everyone now sees the NPCs' levels and wounds." in (
        both.answer.content)
    assert "Goon [NPCs] Bar 37/37" in _board(table).content
    looks = await table.slash("combat status", character="Goon")
    assert "Level 37/37" in looks.content


async def test_a_gm_rolling_as_a_hidden_npc_rolls_for_their_eyes_only(table: Table) -> None:
    await add_character(table, "Ana", level=40)
    await add_character(table, "Goon", user=GM, level=37, npc=True)
    await table.slash("combat start", user=GM, map="Nightclub", hide_npcs=True)
    for name, user in (("Ana", ALICE), ("Goon", GM)):
        await table.slash("combat add", user=user, character=name, area="Dance Floor")
    table.dice(5, 5)
    secret = await table.slash("roll", user=GM, **{"as": "Goon"})
    assert secret.ephemeral
    assert "37" in secret.content  # the GM sees the level rolled against
    table.dice(5, 5)
    public = await table.slash("roll", user=ALICE, **{"as": "Ana"})
    assert not public.ephemeral  # a PC's roll is the table's, as ever
    refused = await table.slash("roll", user=ALICE, **{"as": "Goon"})
    assert refused.ephemeral and "37" not in refused.content
