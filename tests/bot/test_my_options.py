"""My options on random fights: at every turn, the panel a player (or the GM) is shown offers
exactly what the engine accepts for that fighter, and its targets and moves are the engine's
legal lists; picking one of them applies it. The fights are random but seeded (a failure
names its seed), played to the end or to a step limit through the real buttons."""

from __future__ import annotations

import random

import pytest

from engine.combat import Actor, Attack, Move, legal_moves, legal_targets
from engine.combat.options import OptionGroup, options
from engine.dice import RandomDice
from testbed.harness import ALICE, BOB, CHANNEL_ID, GM, Message, Table, User
from tests.bot.fights import add_character, give_ammo

AREAS = ("Dance Floor", "Bar", "Entrance", "Kitchen", "DJ Booth")
WEAPONS = (("Knife", "melee_1h"), ("Pistol", "ranged_1h"), ("Club", "melee_2h"))
CAST: tuple[tuple[str, User, bool], ...] = (
    ("Ana", ALICE, False), ("Bo", BOB, False), ("Goon", GM, True), ("Rat", GM, True))
PER_MENU = 25  # Discord's limit of options in a select menu


async def _random_fight(table: Table, rng: random.Random) -> None:
    for name, user, npc in CAST:
        weapon = rng.choice(WEAPONS)
        await add_character(table, name, user=user, npc=npc, level=rng.randint(20, 70),
                            weapon=weapon)
        if weapon[1].startswith("ranged"):
            await give_ammo(table, name, user=user)
    await table.slash("combat start", user=GM, map="Nightclub")
    for name, user, _ in CAST:
        added = await table.slash("combat add", user=user, character=name,
                                  area=rng.choice(AREAS))
        assert not added.ephemeral, added.content
    await table.slash("combat begin", user=GM)


def _newest_prompt(table: Table) -> Message | None:
    for m in reversed(table.channel_messages()):
        if m.buttons:
            return m
    return None


async def _check_panel(table: Table, panel: Message, user: User) -> list[str]:
    """The panel's choices are the engine's options for its fighter (each menu cut at 25)."""
    stored = await table.bot.fights.fight(panel.channel_id)
    assert stored is not None
    state, rules = stored.state, table.bot.fights.rules
    name = panel.content.split("**")[1]
    f = state.fighter(name)
    actor = Actor(user_id=user.id, gm=user.gm)
    # The panel leaves out the things noted on the map (for `/item use`: a note may be a
    # remark, "PCs may start here").
    found = tuple(o for o in options(state, f.key, rules, actor)
                  if o.group is not OptionGroup.NOTED)
    offered = [o["value"] for s in panel.selects() if not s["custom_id"].startswith("mo-who")
               for o in s["options"]]
    per_group: dict[str, list[str]] = {}
    for s in panel.selects():
        per_group[s["placeholder"]] = [o["value"] for o in s["options"]]
    assert all(len(values) <= PER_MENU for values in per_group.values())
    if len(found) <= PER_MENU:
        assert sorted(offered) == sorted(o.id for o in found), (name, offered)
    else:
        assert set(offered) <= {o.id for o in found}
    # The engine's legal lists: whom this fighter can attack, where it can move.
    if f.actions or f.directed is not None:
        attacked = {state.fighter(o.command.target).key for o in found
                    if isinstance(o.command, Attack)}
        assert attacked == {state.fighter(t).key for t in legal_targets(state, f.key, rules)}
        moves = {o.command.to for o in found
                 if o.group is OptionGroup.MOVE and isinstance(o.command, Move)
                 and o.command.then is None}
        assert moves == set(legal_moves(state, f.key, rules))
    return offered


async def _turn(table: Table, turn: Message, rng: random.Random) -> None:
    """A player (or the GM) of the acting team opens My options and picks something, or ends
    the turn."""
    stored = await table.bot.fights.fight(turn.channel_id)
    assert stored is not None
    acting = [f for f in stored.state.fighters
              if f.key in {p.fighter for p in stored.state.waiting_for()}
              and f.team == stored.state.acting_team]
    user = next((u for _, u, _ in CAST if acting and u.id == acting[0].owner_id), GM)
    if rng.random() < 0.15:
        await table.click(turn, next(b for b in turn.labels if b.startswith("Done")), user=user)
        return
    panel = (await table.click(turn, "My options", user=user)).message
    assert panel.ephemeral
    offered = await _check_panel(table, panel, user)
    if not offered:
        await table.click(turn, next(b for b in turn.labels if b.startswith("Done")), user=user)
        return
    pick = rng.choice(offered)
    menus = panel.selects()
    index = next(i for i, s in enumerate(menus) if pick in [o["value"] for o in s["options"]])
    chosen = await table.choose(panel, [pick], user=user, index=index)
    # What the engine accepts applies: the panel is brought up to date, the table told.
    assert chosen.kind == "update", chosen.answer.content
    assert any(not m.ephemeral for m in chosen.messages), chosen.answer.content


def _answers(prompt: Message) -> list[str]:
    """What else the fight asks, as buttons the GM may press (never a form)."""
    return [b for b in prompt.labels if b not in ("Adjust", "My options")
            and not b.startswith("Done")]


async def _answer(table: Table, prompt: Message, rng: random.Random) -> None:
    labels = _answers(prompt)
    label = "Resolve now (GM)" if "Resolve now (GM)" in labels else rng.choice(labels)
    await table.click(prompt, label, user=GM)


@pytest.mark.parametrize("seed", range(4))
async def test_my_options_offers_what_the_engine_accepts(table: Table, seed: int) -> None:
    rng = random.Random(seed)
    table.bot.dice = RandomDice(seed)
    await _random_fight(table, rng)
    panels = 0
    for _ in range(40):
        if await table.bot.fights.fight(CHANNEL_ID) is None:
            break  # the fight is over
        prompt = _newest_prompt(table)
        assert prompt is not None, "a fight in progress always shows what it waits for"
        if "My options" in prompt.labels and (not _answers(prompt) or rng.random() < 0.8):
            await _turn(table, prompt, rng)
            panels += 1
        else:
            await _answer(table, prompt, rng)
    assert panels >= 3, f"seed {seed}: only {panels} panels were checked"
