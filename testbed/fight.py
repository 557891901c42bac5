"""A scripted Unhex fight: two characters trading blows for as many rounds as a benchmark
needs, every step a slash command or a button pressed on the table."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from testbed.harness import ALICE, CHANNEL_ID, GM, Reply, Table, User

__all__ = ["REACTION_SECONDS", "Fight"]

#: Reaction windows wait this long in scripted fights, so no window closes by itself mid-run.
REACTION_SECONDS = 600

Step = Callable[[], Awaitable[Reply]]


class Fight:
    """Ana (Alice's PC) and Goon (the GM's NPC), level 99, knives, on the nightclub's dance
    floor, in one channel. A round is six actions, each a slash command or a button:

    1. ``attack``: Alice ``/attack target:Goon`` — a reaction window opens for Goon;
    2. ``pass``: the GM presses Pass — Ana hits (dice 1·5) and chooses which die is damage;
    3. ``damage``: Alice presses "1 damage · 5: torso" — Goon takes 1 on the torso;
    4. the GM ``/attack`` as Goon — Ana has no action left to react: the dice roll at once;
    5. the GM presses the damage button — both sides are spent: round n+1's initiative;
    6. the GM presses "PCs first".

    Every ``heal_every`` rounds two more actions (``/combat set``) put both back at full
    health, so the fight can last as long as a bench needs.
    """

    STEPS = ("attack", "pass", "damage", "npc attack", "npc damage", "order")
    DAMAGE = "1 damage · 5: torso"

    def __init__(self, table: Table, channel: int = CHANNEL_ID, *, heal_every: int = 4,
                 pc: str = "Ana", npc: str = "Goon") -> None:
        self.table = table
        self.pc, self.npc = pc, npc  # a character fights in one fight at a time
        self.channel = channel
        self.heal_every = heal_every
        self.round = 1
        self.prompt: Any = None
        self.actions = 0  # fight actions so far (every one saved by the bot)

    @staticmethod
    async def characters(table: Table, pc: str = "Ana", npc_name: str = "Goon") -> None:
        for name, user, npc in ((pc, ALICE, False), (npc_name, GM, True)):
            options: dict[str, Any] = {"npc": True} if npc else {}
            for command, extra in (("character create", {"name": name, "level": 99, **options}),
                                   ("character item add", {"character": name, "name": "Knife",
                                                           "kind": "melee_1h"}),
                                   ("character item hold", {"character": name,
                                                            "item": "Knife"})):
                done = await table.slash(command, user=user, **extra)
                assert not done.ephemeral, done.content

    async def _slash(self, command: str, user: User, **options: Any) -> Reply:
        reply = await self.table.slash(command, user=user, channel=self.channel, **options)
        assert not reply.ephemeral, f"/{command}: {reply.content}"
        self.actions += 1
        return reply

    async def _click(self, label: str, user: User) -> Reply:
        reply = await self.table.click(self.prompt, label, user=user)
        assert not reply.ephemeral, f"{label}: {reply.content}"
        self.actions += 1
        return reply

    async def start(self) -> None:
        """Start, place both, roll initiative; round 1 with the PCs acting."""
        await self._slash("combat start", GM, map="Nightclub",
                          reaction=f"{REACTION_SECONDS}s")
        await self._slash("combat add", ALICE, character=self.pc, area="Dance Floor")
        await self._slash("combat add", GM, character=self.npc, area="Dance Floor")
        self.table.dice(3, 4, 6, 2)  # the NPCs win initiative: the GM picks the order
        self.prompt = (await self._slash("combat begin", GM)).prompt
        await self._click("PCs first", GM)

    def steps(self) -> list[tuple[str, Step]]:
        """This round's actions, in order, as (name, a callable that runs it)."""
        table = self.table

        async def attack() -> Reply:
            reply = await self._slash("attack", ALICE, target=self.npc)
            self.prompt = reply.prompt
            return reply

        async def pass_() -> Reply:
            table.dice(1, 5)
            reply = await self._click("Pass", GM)
            self.prompt = reply.prompt
            return reply

        async def damage() -> Reply:
            return await self._click(self.DAMAGE, ALICE)

        async def npc_attack() -> Reply:
            table.dice(1, 5)
            reply = await self._slash("attack", GM, target=self.pc, **{"as": self.npc})
            self.prompt = reply.prompt
            return reply

        async def npc_damage() -> Reply:
            table.dice(3, 4, 6, 2)  # round n+1's initiative: the NPCs win again
            reply = await self._click(self.DAMAGE, GM)
            self.prompt = reply.prompt
            return reply

        async def order() -> Reply:
            reply = await self._click("PCs first", GM)
            self.round += 1
            return reply

        return list(zip(self.STEPS, (attack, pass_, damage, npc_attack, npc_damage, order),
                        strict=True))

    async def heal_if_due(self) -> None:
        """Both back to 99 with a clean torso, every ``heal_every`` rounds."""
        if self.round % self.heal_every == 0:
            for name in (self.pc, self.npc):
                await self._slash("combat set", GM, character=name, level=99,
                                  location="torso", marks="none")

    async def play_round(self) -> None:
        for _, step in self.steps():
            await step()
        await self.heal_if_due()
