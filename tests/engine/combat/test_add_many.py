"""Several fighters join in one step (AddFighters): each on AddFighter's terms, all or none,
told in one sentence per team and area."""

from __future__ import annotations

from engine.character import Character
from engine.combat import AddFighter, AddFighters, command_adapter, new_combat
from engine.phrases import english
from tests.engine.combat.helpers import CLUB, P1, refused, run


def joining(name: str, *, npc: bool = True, area: str = "Bar", team: str | None = None,
            owner_id: int | None = None) -> AddFighter:
    return AddFighter(character=Character.new(name, npc=npc), area=area, team=team,
                      owner_id=owner_id)


def test_all_join_in_one_step_one_sentence_per_team() -> None:
    c = new_combat(CLUB)
    cmd = AddFighters(fighters=(joining("Goon 1"), joining("Goon 2"),
                                joining("Ana", npc=False, owner_id=100), joining("Goon 3")))
    c, events = run(c, cmd)
    assert [f.name for f in c.fighters] == ["Goon 1", "Goon 2", "Ana", "Goon 3"]
    assert c.teams == ("NPCs", "PCs")
    assert [english(e.text) for e in events] == [
        "Goon 1-3 join the fight for NPCs in Bar.",
        "Ana joins the fight for PCs in Bar.",
    ]
    assert events[1].fighter == "ana" and events[0].fighter is None
    assert command_adapter.validate_json(command_adapter.dump_json(cmd)) == cmd


def test_one_refused_refuses_them_all() -> None:
    c = new_combat(CLUB)
    refused(c, AddFighters(fighters=(joining("Goon 1"), joining("goon 1"))),
            "goon 1 is already in this combat")
    refused(c, AddFighters(fighters=(joining("Goon 1"), joining("Goon 2", area="Moon"))),
            "no area called 'Moon'")
    refused(c, AddFighters(fighters=(joining("Ana", npc=False, owner_id=100),
                                     joining("Goon"))),
            "Players can add only their own PCs", actor=P1)


def test_a_player_adds_their_own_pcs_together() -> None:
    c = new_combat(CLUB)
    c, events = run(c, AddFighters(fighters=(
        joining("Ana", npc=False, owner_id=100), joining("Bea", npc=False, owner_id=100))),
        actor=P1)
    assert [english(e.text) for e in events] == ["Ana and Bea join the fight for PCs in Bar."]
