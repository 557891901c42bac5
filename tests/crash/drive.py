"""Scripted fights that :mod:`tests.crash.test_sigkill` kills with SIGKILL and starts again.

Run as ``python -m tests.crash.drive DATABASE --journal FILE --fights N --seed S`` from the
project's root. The process starts the real bot (:class:`testbed.harness.Table`) on ``DATABASE``
(a SQLite file's path or a PostgreSQL URL, as ``UNHEX_DATABASE`` takes) and plays
``N`` fights, one after the other, in the same channel: Ana<i> (Alice's PC) against Goon<i>
(the GM's NPC), knives drawn, on the nightclub's dance floor. It can be killed at any moment
and started again: each action is chosen from what the database holds now (which characters
exist, which fight is running and what it waits for), never from a list of what was already
done, so a new process carries on from the first action not yet applied.

Discord's side lives in the process (the harness fakes the HTTP API), so it is kept in the
file ``FILE``: every message the bot creates or edits is
appended before the bot hears back, as Discord keeps a message once it has answered. A new
process loads it, so the bot edits the board it posted before a crash and the driver presses
buttons on the prompts it finds in the channel, like players would.

Each action's die faces come from a generator seeded by the seed and the action's key (the
fight and the step it makes), so trying an action again after a crash rolls the same dice.
The fight's clock is fixed far in the future: reaction windows never close by themselves.

What the driver writes on stdout, one line each, unbuffered:

- ``BOOT <pid>``: about to start the bot (start-up shows again what a crash cut short);
- ``PROMPT ok|none|missing|unexpected <detail>``, ``BOARD ok|stale|missing <detail>`` and
  ``STALE <n>``: what the channel shows once start-up is over, against the newest fight:
  ``PROMPT ok`` when the newest message with buttons has exactly the buttons the fight waits
  for, ``none`` when it waits for no button and none is offered; ``STALE`` counts older
  messages whose fight buttons are still pressable;
- ``READY``: start-up checked, actions follow;
- ``SEND <key> <expect>`` before an action, ``ACK <key> <hash> <expect>`` the moment the
  bot's answer to it arrives (the interaction's response: what "acknowledged" means), where
  ``key`` is ``<combat id>:<step>`` for a fight step (the step is the fight's version after
  it, and its place in ``combat_log``) or a name for setting up (``create:Ana1``...),
  ``hash`` the first 16 hex digits of the answer's SHA-256 and ``expect`` (JSON) the fields
  the logged command must have;
- ``FINISHED`` when all ``N`` fights are over; ``ERROR <what>`` (exit status 2) when the bot
  refused an action or the fight went somewhere the script cannot follow.
"""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import itertools
import json
import os
import random
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import testbed.harness as harness
from bot.cogs.combat.layout import prompt_message
from bot.cogs.combat.views import code, fighter_index
from bot.store.values import StoredCombat
from data import load_rules
from engine.character import Character
from engine.combat import Combat, Phase, PromptKind, legal_targets, render_board
from engine.combat.prompts import SPECS as PROMPT_SPECS
from engine.dice import RandomDice
from testbed.harness import ALICE, CHANNEL_ID, EPHEMERAL, GM, GUILD_ID, Message, Reply, Table, User
from tests.rows import AsyncReader

#: The fight's clock: far in the future, so no reaction window closes by itself.
NOW = 4_000_000_000.0
AREA = "Dance Floor"
RULES = load_rules()


@dataclass(frozen=True)
class Spec:
    base: str
    user: User
    npc: bool
    items: tuple[tuple[str, str, str | None], ...]  # name, kind, armor location
    abilities: tuple[str, ...]


SPECS = (
    Spec("Ana", ALICE, False, (("Knife", "melee_1h", None),),
         ("melee_1h.good_attack", "melee_1h.precise_attack")),
    Spec("Goon", GM, True, (("Knife", "melee_1h", None), ("Vest", "armor", "torso")),
         ("melee_1h.good_reactions",)),
)
LEVEL = 70


def say(*parts: str) -> None:
    """One line on stdout in one write, so a kill never leaves half of it."""
    os.write(1, (" ".join(parts) + "\n").encode())


def digest(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def logged_part(answer: str) -> str:
    """An answer without the question it answered (quoted above it, when a press answered on
    the prompt) nor the line under what happened that says what to do next ("-# Next: …"):
    the log keeps what happened only. "" for a prompt that kept only its question (a step that
    is all news says it in a message of its own, below)."""
    lines = answer.split("\n")
    while lines and lines[0].startswith("> "):
        lines.pop(0)
    if len(lines) > 1 and lines[-1].startswith("-# Next:"):
        lines.pop()
    return "\n".join(lines)


def load_journal(path: Path) -> dict[int, dict[str, Any]]:
    """Every message as it was last written, in the order they were first posted."""
    messages: dict[int, dict[str, Any]] = {}
    if not path.exists():
        return messages
    for line in path.read_text().splitlines():
        try:
            raw = json.loads(line)
        except json.JSONDecodeError:  # the last line, cut short by a kill
            continue
        messages[int(raw["id"])] = raw
    return messages


class KeptTable(Table):
    """A :class:`Table` whose Discord outlives the process: messages go to a journal."""

    def __init__(self, database: str, journal: Path,
                 settings: dict[str, Any] | None = None) -> None:
        super().__init__(database, settings=settings)
        self.journal_path = journal
        #: The channels this process wrote a message in (posted or edited).
        self.written_channels: set[int] = set()
        self.messages.update(load_journal(journal))
        self._nonces.update({(int(raw["channel_id"]), raw["nonce"]): int(raw["id"])
                             for raw in self.messages.values() if raw.get("nonce")})
        if self.messages:  # new ids must not reuse those Discord already gave out
            harness._ids = itertools.count(max(self.messages) + 1_000)
        self._journal = os.open(journal, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
        self.acking: Step | None = None

    def reload(self) -> None:
        """Take in what other processes wrote to Discord since (they share the journal)."""
        self.messages.update(load_journal(self.journal_path))

    def _record(self, raw: dict[str, Any], reply: Reply | None = None) -> None:
        self.written_channels.add(int(raw["channel_id"]))
        if not int(raw.get("flags") or 0) & EPHEMERAL:
            os.write(self._journal, (json.dumps(raw) + "\n").encode())
        super()._record(raw, reply)
        target = reply or self._current
        step = self.acking
        if step is not None and target is not None and target is self._current:
            # The interaction's first message that tells what happened is its answer.
            answer = target.messages[-1]
            told = logged_part(answer.content)
            if answer.ephemeral or told:
                self.acking = None
            if told and not answer.ephemeral:
                say("ACK", step.key, digest(told), json.dumps(step.expect))

    async def press(self, message: Message, custom_id: str, user: User) -> Reply:
        """Press the button ``custom_id`` on ``message`` as it is now."""
        data = {"custom_id": custom_id, "component_type": 2}
        return await self._interact(3, data, user=user, channel=message.channel_id,
                                    message=self.messages[message.id])


@dataclass(frozen=True)
class Step:
    """One action: a slash command or a button, and what its log entry must say."""

    key: str
    user: User
    slash: str | None = None
    options: dict[str, Any] = field(default_factory=dict)
    button: str | None = None  # a custom id of the fight's newest version
    expect: dict[str, Any] | None = None
    combat: tuple[int, int] | None = None  # (combat id, version before) for a fight step


class Stuck(Exception):
    pass


def _user_for(user_id: int | None) -> User:
    return ALICE if user_id == ALICE.id else GM


def _names(fight: int) -> list[str]:
    return [f"{spec.base}{fight}" for spec in SPECS]


async def setup_step(db: AsyncReader, fight: int) -> Step | None:
    """The next thing to do to the sheets of fight ``fight``'s characters, if any."""
    for spec in SPECS:
        name = f"{spec.base}{fight}"
        rows = await db("SELECT data FROM characters WHERE guild_id = ? AND name = ?",
                        GUILD_ID, name)
        if not rows:
            options: dict[str, Any] = {"name": name, "level": LEVEL}
            if spec.npc:
                options["npc"] = True
            return Step(f"create:{name}", spec.user, "character create", options)
        sheet = Character.model_validate_json(rows[0][0])
        have = {item.name for item in sheet.items}
        for item, kind, location in spec.items:
            if item not in have:
                options = {"character": name, "name": item, "kind": kind}
                if location is not None:
                    options["location"] = location
                return Step(f"item:{name}:{item}", spec.user, "character item add", options)
        if sheet.right_hand is None and sheet.left_hand is None:
            return Step(f"hold:{name}", spec.user, "character item hold",
                        {"character": name, "item": spec.items[0][0]})
        for ability in spec.abilities:
            if ability not in sheet.abilities:
                return Step(f"ability:{name}:{ability}", spec.user, "character ability add",
                            {"character": name, "ability": ability})
    return None


async def next_step(db: AsyncReader, fights: int, seed: int) -> Step | None:
    """What to do now, from what the database holds; ``None`` when every fight is over."""
    combats = await db("SELECT id, state, version, active FROM combats WHERE channel_id = ? "
                       "ORDER BY id", CHANNEL_ID)
    for fight in range(1, fights + 1):
        if fight <= len(combats):
            combat_id, state, version, active = combats[fight - 1]
            if active:
                return fight_step(fight, combat_id, Combat.model_validate_json(state), version,
                                  seed)
            continue
        step = await setup_step(db, fight)
        if step is not None:
            return step
        return Step(f"start:{fight}", GM, "combat start", {"map": "Nightclub"})
    return None


def fight_step(fight: int, combat_id: int, state: Combat, version: int, seed: int) -> Step:
    """The script's move in the fight as it is: the same state always gives the same move."""
    key = f"{combat_id}:{version + 1}"
    rng = random.Random(f"{seed}:{key}:choice")
    base = {"key": key, "combat": (combat_id, version)}
    if state.phase is Phase.SETUP:
        present = {f.name for f in state.fighters}
        for spec, name in zip(SPECS, _names(fight), strict=True):
            if name not in present:
                return Step(user=spec.user, slash="combat add",
                            options={"character": name, "area": AREA},
                            expect={"kind": "add_fighter", "area": AREA}, **base)
        return Step(user=GM, slash="combat begin", expect={"kind": "begin"}, **base)
    prompts = state.waiting_for()
    asked = [p for p in prompts if p.kind is not PromptKind.ACT]
    if asked:
        prompt = asked[0]
        fighter = fighter_index(state, prompt.fighter)
        if prompt.kind is PromptKind.REACT and rng.random() < 0.15:
            return Step(user=GM, button=f"cb:{combat_id}:{version}:resolve::",
                        expect={"kind": "close_window", "by_timeout": False}, **base)
        options = list(prompt.options)
        if prompt.kind is PromptKind.CRITICAL:
            options = ["extra_action"]  # Adjust opens a form; the crash test keeps to buttons
        option = rng.choice(options)
        index = prompt.options.index(option)
        button = f"cb:{combat_id}:{version}:{prompt.kind.value}:{index}:{fighter}"
        return Step(user=_user_for(prompt.user_id), button=button,
                    expect=_expected(prompt.kind, prompt.fighter, option), **base)
    acting = [p for p in prompts if p.kind is PromptKind.ACT]
    if not acting:
        raise Stuck(f"the fight waits for nothing in phase {state.phase.value}")
    me = state.fighter(acting[0].fighter or "")
    user = _user_for(me.owner_id)
    targets = legal_targets(state, me.key, RULES)
    if not targets or rng.random() < 0.1:
        return Step(user=user, slash="done", options={"as": me.name},
                    expect={"kind": "done"}, **base)
    target = state.fighter(targets[0]).name
    return Step(user=user, slash="attack", options={"target": target, "as": me.name},
                expect={"kind": "attack", "fighter": me.key, "target": target}, **base)


def _expected(kind: PromptKind, fighter: str | None, option: str) -> dict[str, Any]:
    match kind:
        case PromptKind.CHOOSE_ORDER:
            return {"kind": "choose_order", "first_team": option}
        case PromptKind.CHOOSE_NEXT:
            return {"kind": "choose_order", "order": [option]}
        case PromptKind.CHOOSE_ROLLER:
            return {"kind": "choose_roller", "fighter": option}
        case PromptKind.REACT:  # a lethal or a less-lethal button: the spec's own command
            return PROMPT_SPECS[kind].command(option, fighter or "").model_dump(mode="json")
        case PromptKind.REROLL:
            return {"kind": "reroll", "fighter": fighter, "which": option}
        case PromptKind.CRITICAL:
            return {"kind": "critical_choice", "fighter": fighter, "choice": option}
        case PromptKind.CHOOSE_DICE:
            return {"kind": "choose_dice", "fighter": fighter, "damage": option}
        case PromptKind.MODIFIER:
            return {"kind": "modifier", "fighter": fighter, "use": option}
        case PromptKind.ARMOR:
            return {"kind": "armor", "fighter": fighter, "use": option == "use"}
    raise Stuck(f"the script does not answer {kind.value} prompts")


def fight_buttons(message: Message) -> list[str]:
    return [b.custom_id for b in message.buttons if b.custom_id.startswith("cb:")
            and not b.disabled]


async def report_channel(table: KeptTable, db: AsyncReader) -> None:
    """Say whether the channel shows what the newest fight waits for (after start-up)."""
    rows = await db("SELECT id FROM combats WHERE channel_id = ? ORDER BY id DESC LIMIT 1",
                    CHANNEL_ID)
    messages = table.channel_messages()
    live = [m for m in messages if fight_buttons(m)]
    if not rows:
        say("PROMPT", "none", "(no fight yet)")
        say("BOARD", "ok", "(no fight yet)")
        say("STALE", str(len(live)))
        return
    stored = await table.bot.store.combats.get(rows[0][0])
    assert stored is not None
    current = f"cb:{stored.id}:{stored.version}:"
    wanted = _wanted_buttons(stored)
    newest = fight_buttons(live[-1]) if live else []
    if wanted:
        verdict = "ok" if sorted(newest) == wanted else "missing"
        say("PROMPT", verdict, f"v{stored.version}", json.dumps({"want": wanted,
                                                                  "newest": newest}))
    elif any(b.startswith(current) for m in live for b in fight_buttons(m)):
        say("PROMPT", "unexpected", f"v{stored.version}", json.dumps(newest))
    else:
        say("PROMPT", "none", f"v{stored.version}")
    stale = [m for m in live if not all(b.startswith(current) for b in fight_buttons(m))]
    say("STALE", str(len(stale)), json.dumps([fight_buttons(m)[0] for m in stale]))
    board = code(render_board(stored.state, rules=RULES))
    if stored.board_message_id is None or stored.board_message_id not in table.messages:
        say("BOARD", "missing", str(stored.board_message_id))
    elif table.message(stored.board_message_id).content != board:
        say("BOARD", "stale", f"v{stored.version}")
    else:
        say("BOARD", "ok", f"v{stored.version}")


def _wanted_buttons(stored: StoredCombat) -> list[str]:
    _, view, _ = prompt_message(stored)
    if view is None or not stored.active:
        return []
    ids = [str(getattr(item, "custom_id", "")) for item in view.children]
    return sorted(i for i in ids if i.startswith("cb:"))


async def perform(table: KeptTable, db: AsyncReader, step: Step, seed: int) -> None:
    say("SEND", step.key, json.dumps(step.expect))
    table.bot.dice = RandomDice(int(digest(f"{seed}:{step.key}:dice"), 16))
    table.acking = step
    if step.button is not None:
        pressable = [m for m in table.channel_messages()
                     if step.button in fight_buttons(m)]
        if not pressable:
            raise Stuck(f"no message in the channel has the button {step.button}")
        reply = await table.press(pressable[-1], step.button, step.user)
    else:
        assert step.slash is not None
        reply = await table.slash(step.slash, user=step.user, **step.options)
    table.acking = None
    if not reply.messages or reply.answer.ephemeral:
        text = reply.answer.content if reply.messages else f"no answer ({reply.kind})"
        raise Stuck(f"{step.key} was refused: {text}")
    if step.combat is not None:
        combat_id, before = step.combat
        ((after,),) = await db("SELECT version FROM combats WHERE id = ?", combat_id)
        if after != before + 1:
            raise Stuck(f"{step.key}: the fight went from version {before} to {after}")


async def main(database: str, journal: Path, fights: int, seed: int) -> int:
    db = AsyncReader(database)  # every read sees the newest commit
    say("BOOT", str(os.getpid()))
    table = KeptTable(database, journal)
    await table.start()
    table.bot.fights.clock = lambda: NOW
    await report_channel(table, db)
    say("READY")
    try:
        while (step := await next_step(db, fights, seed)) is not None:
            await perform(table, db, step, seed)
    except Stuck as stuck:
        say("ERROR", str(stuck))
        return 2
    finally:
        await table.stop()
        await db.close()
    say("FINISHED")
    return 0


def run() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("database", help="a SQLite file's path or a PostgreSQL URL")
    parser.add_argument("--journal", type=Path, required=True,
                        help="the file that keeps Discord's messages across kills")
    parser.add_argument("--fights", type=int, default=1)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    sys.exit(asyncio.run(main(args.database, args.journal, args.fights, args.seed)))


if __name__ == "__main__":
    run()
