"""What a reaction window's answers say: each answer as a clause the table reads (whoever
decided it is said around it), and why a ranged reaction's ammo refuses the damage asked for.
Sentences numbered copies answer alike count ``COPIES``, so "Goon 1-3 do not defend" folds
(``engine.combat.alike``)."""

from __future__ import annotations

from engine.combat.actions.weapon_words import weapon_said
from engine.combat.alike import COPIES
from engine.combat.model import Combat, Fighter
from engine.combat.step_values import AoEAction, AttackAction, MoveAction, Reactor, Weapon
from engine.phrases import Phrase, phrase, plural_phrase

__all__ = ["ammo_refusal", "answer_said", "counter_said", "defend_said", "intercept_said",
           "not_defending"]


def answer_said(c: Combat, f: Fighter, step: AttackAction | MoveAction | AoEAction,
                reactor: Reactor, reaction: str, weapon: Weapon | None, lethal: bool) -> Phrase:
    """``f``'s answer to a window (its ``reaction``), as a clause: who decided is said around
    it (``Context.decided_sentence``)."""
    if isinstance(step, MoveAction):
        return intercept_said(f, reaction, weapon, lethal)
    if isinstance(step, AoEAction):
        return (plural_phrase("{name} defends against the blast",
                              "{name} defend against the blast", COPIES, name=f.name, copies=1)
                if reaction == "defend" else not_defending(f))
    if reaction == "pass":
        return plural_phrase("{name} does not react", "{name} do not react", COPIES,
                             name=f.name, copies=1)
    if reaction == "defend":
        return defend_said(c, f, step, reactor)
    return counter_said(f, weapon, lethal)


def ammo_refusal(f: Fighter, verb: str, weapon: Weapon, lethal: bool) -> Phrase:
    """Why a ranged reaction cannot deal the sort of damage asked for: its ammo is of the other
    sort (004 "Less-lethal": "a separate ammo slot dedicated to that effect")."""
    label = weapon_said(weapon)
    if verb == "counterattack":
        if lethal:
            return phrase("{name} has only less-lethal ammo left for {weapon}: the counterattack "
                          "can only be less-lethal.", name=f.name, weapon=label)
        return phrase("{name} has no less-lethal ammo: a less-lethal counterattack with {weapon} "
                      "needs a less-lethal ammo slot (a melee weapon needs none).", name=f.name,
                      weapon=label)
    if lethal:
        return phrase("{name} has only less-lethal ammo left for {weapon}: the intercept can only "
                      "be less-lethal.", name=f.name, weapon=label)
    return phrase("{name} has no less-lethal ammo: a less-lethal intercept with {weapon} needs a "
                  "less-lethal ammo slot (a melee weapon needs none).", name=f.name, weapon=label)


def not_defending(f: Fighter) -> Phrase:
    """"Goon 1 does not defend", which numbered copies fold into "Goon 1-3 do not defend"."""
    return plural_phrase("{name} does not defend", "{name} do not defend", COPIES, name=f.name,
                         copies=1)


def intercept_said(f: Fighter, reaction: str, weapon: Weapon | None, lethal: bool) -> Phrase:
    """What an Intercept's answer says (numbered copies answering alike fold into one line)."""
    if reaction == "pass":
        return plural_phrase("{name} does not intercept", "{name} do not intercept", COPIES,
                             name=f.name, copies=1)
    label = weapon_said(weapon)
    if lethal:
        return plural_phrase("{name} intercepts with {weapon}", "{name} intercept with {weapon}",
                             COPIES, name=f.name, weapon=label, copies=1)
    return plural_phrase("{name} intercepts with {weapon} (less-lethal)",
                         "{name} intercept with {weapon} (less-lethal)", COPIES, name=f.name,
                         weapon=label, copies=1)


def defend_said(c: Combat, f: Fighter, a: AttackAction, reactor: Reactor) -> Phrase:
    if f.key == a.target:
        if reactor.free:
            return phrase("{name} defends (no action spent)", name=f.name)
        return phrase("{name} defends", name=f.name)
    target = c.fighter(a.target).name
    if reactor.free:
        return phrase("{name} defends {target} (no action spent)", name=f.name, target=target)
    return phrase("{name} defends {target}", name=f.name, target=target)


def counter_said(f: Fighter, weapon: Weapon | None, lethal: bool) -> Phrase:
    if weapon is None:
        if lethal:
            return phrase("{name} counterattacks", name=f.name)
        return phrase("{name} counterattacks (less-lethal)", name=f.name)
    label = weapon_said(weapon)
    if lethal:
        return phrase("{name} counterattacks with {weapon}", name=f.name, weapon=label)
    return phrase("{name} counterattacks with {weapon} (less-lethal)", name=f.name,
                  weapon=label)
