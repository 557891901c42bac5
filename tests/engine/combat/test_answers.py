"""Several answers at once (``Answers``): the GM answering every Goon caught in a blast alike
gets exactly what answering them one by one gets, and one answer refused refuses them all."""

from __future__ import annotations

from engine.combat import Answers, AoE, AoEChoice, Combat, PromptKind, command_adapter
from tests.engine.abilities.test_aoe import blast_fight
from tests.engine.combat.helpers import P1, go, kinds, refused, run, texts


def _caught() -> Combat:
    c = go(blast_fight(), AoE(fighter="You", area="dance floor"), [4, 2], actor=P1)
    return go(c, AoEChoice(fighter="You", option="tens"), actor=P1)  # Goon, Rat, Moe


def test_answers_together_are_the_answers_one_by_one() -> None:
    one_by_one = _caught()
    one_by_one = go(one_by_one, AoEChoice(fighter="Goon", option="defend"))
    one_by_one = go(one_by_one, AoEChoice(fighter="Rat", option="pass"))
    one_by_one, said_apart = run(one_by_one, AoEChoice(fighter="Moe", option="pass"), [5, 0])
    together, said = run(_caught(), Answers(answers=(
        AoEChoice(fighter="Goon", option="defend"), AoEChoice(fighter="Rat", option="pass"),
        AoEChoice(fighter="Moe", option="pass"))), [5, 0])
    assert together == one_by_one
    assert "Goon's Defend (50) beats 42: no damage." in texts(said)
    assert texts(said)[-len(said_apart):] == texts(said_apart)
    assert kinds(together) == [(PromptKind.AOE_PLACE, "rat"), (PromptKind.AOE_PLACE, "moe")]


def test_one_answer_refused_refuses_them_all() -> None:
    c = _caught()
    refused(c, Answers(answers=(AoEChoice(fighter="Goon", option="pass"),
                                AoEChoice(fighter="Cy", option="pass"))), "Cy")
    refused(c, Answers(answers=(AoEChoice(fighter="Goon", option="pass"),)), "Only", actor=P1)
    nested = Answers(answers=(Answers(answers=(AoEChoice(fighter="Goon", option="pass"),)),))
    refused(c, nested, "do not nest")
    assert kinds(c) == [(PromptKind.AOE_DEFEND, k) for k in ("goon", "rat", "moe")]


def test_answers_are_logged_and_read_back() -> None:
    answers = Answers(answers=(AoEChoice(fighter="Goon", option="defend"),
                               AoEChoice(fighter="Rat", option="pass")))
    assert command_adapter.validate_json(command_adapter.dump_json(answers)) == answers
