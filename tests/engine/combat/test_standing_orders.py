"""Standing orders (``engine.combat.actions.orders``, rules note 60): set by a fighter's player
or a GM, followed only when a reaction window closes on time without the fighter's answer,
marked "(standing order)"; an order the window would not take then is skipped, and said."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.character import Character, Item
from engine.combat import (
    AoE,
    AoEChoice,
    Attack,
    CloseWindow,
    Combat,
    React,
    SetOrder,
    apply,
)
from engine.combat.actions.orders import order_choices, order_of, order_words
from engine.combat.actions.window import close_window
from engine.combat.context import Context
from engine.combat.order_values import Situation, StandingOrder
from engine.combat.step_values import AoEAction, AttackAction, MoveAction, Reactor
from engine.dice import RandomDice, ScriptedDice
from engine.phrases import english
from tests.engine.abilities.test_aoe import blast_fight
from tests.engine.combat.helpers import (
    GM,
    P1,
    P2,
    RULES,
    begin,
    duel,
    go,
    knife,
    move_window,
    refused,
    setup,
    texts,
)

DEADLINE = 45.0  # every window below opens at 0 with the fight's 45 seconds


def shield_bearer(name: str = "Ana", *, holding: bool = True) -> Character:
    """A knife in the right hand and a riot shield in the left (or in the pack)."""
    return Character(
        name=name, level=50, max_level=50,
        items=(Item(name="Knife", kind="melee_1h"), Item(name="Riot shield", kind="shield")),
        right_hand=0, left_hand=1 if holding else None,
    )


def close(c: Combat, *, by_timeout: bool = True, now: float = DEADLINE
          ) -> tuple[Combat, list[str]]:
    """The window closed (on time, or by the GM now) by its handler alone: the fight as the
    window left it, before the dice that follow, and what was said."""
    ctx = Context(actor=GM, dice=ScriptedDice([]), rules=RULES, now=now)
    return close_window(c, CloseWindow(by_timeout=by_timeout), ctx), texts(tuple(ctx.events))


def answers(c: Combat) -> dict[str, str | None]:
    """The answers kept on the window's step."""
    step = c.step
    if isinstance(step, AoEAction):
        return {t.fighter: t.answer for t in step.targets}
    assert isinstance(step, AttackAction | MoveAction)
    return {r.fighter: r.answer for r in step.reactors}


def goon_attacks_ana(ana: Character, *, ordered: SetOrder | None = None) -> Combat:
    """Goon (an NPC) attacks Ana (P2's) with a knife in the Entrance: Ana is asked."""
    c = duel(knife("Goon", npc=True), ana, att_team_first="NPCs")
    if ordered is not None:
        c = go(c, ordered, actor=P2)
    return go(c, Attack(fighter="Goon", target="Ana"))


def _order(reaction: str, item: str | None = None, fighter: str = "Ana",
           situation: Situation = Situation.ATTACKED) -> SetOrder:
    return SetOrder(fighter=fighter, situation=situation, reaction=reaction,  # type: ignore[arg-type]
                    item=item)


# ---- followed --------------------------------------------------------------------------------


def test_an_order_to_defend_with_the_shield_is_followed_when_time_is_up() -> None:
    c = goon_attacks_ana(shield_bearer(), ordered=_order("defend", "riot shield"))
    closed, said = close(c)
    assert said[:2] == ["The reaction window closes: time is up.",
                        "Ana defends (standing order)."], said
    assert answers(closed) == {"ana": "defend"}
    assert closed.fighter("Ana").actions == 0  # the Defend spent Ana's action, as any Defend
    played, events = apply(c, CloseWindow(by_timeout=True), actor=GM, dice=RandomDice(7),
                           rules=RULES, now=DEADLINE)
    assert "Ana defends (standing order)." in texts(events)  # the fight then goes on
    assert played.step is None or not played.step.window_open


def test_an_order_is_not_followed_before_time_is_up() -> None:
    c = goon_attacks_ana(shield_bearer(), ordered=_order("defend", "Riot shield"))
    refused(c, CloseWindow(by_timeout=True), "still open for 5 more seconds", now=40.0)


def test_a_gm_who_resolves_the_window_now_follows_no_order() -> None:
    c = goon_attacks_ana(shield_bearer(), ordered=_order("defend"))
    closed, said = close(c, by_timeout=False, now=1.0)
    assert said[0] == "The reaction window closes: the GM resolves it now."
    assert not any("standing order" in s for s in said), said
    assert answers(closed) == {"ana": "pass"}


def test_an_order_to_counterattack_is_followed_with_the_weapon_the_window_found() -> None:
    c = goon_attacks_ana(knife("Ana"), ordered=_order("counterattack"))
    closed, said = close(c)
    assert "Ana counterattacks with Knife (standing order)." in said, said
    assert answers(closed) == {"ana": "counterattack"}


# ---- skipped, and said -----------------------------------------------------------------------


def test_an_order_to_defend_with_a_shield_not_in_hand_is_skipped_and_said() -> None:
    c = goon_attacks_ana(shield_bearer(holding=False), ordered=_order("defend", "Riot shield"))
    closed, said = close(c)
    assert said[:2] == [
        "The reaction window closes: time is up.",
        "Ana's standing order to defend with Riot shield is skipped: no Riot shield in a "
        "usable hand."], said
    assert answers(closed) == {"ana": "pass"}
    assert closed.fighter("Ana").actions == 1


def test_an_order_the_window_does_not_offer_is_skipped_with_the_windows_reason() -> None:
    # Goon shoots from the bar: a Counterattack needs the attacker in Ana's area.
    pistol_goon = Character(name="Goon", npc=True, level=50, max_level=50,
                            items=(Item(name="Pistol", kind="ranged_1h"),
                                   Item(name="Bullets", kind="ammo")), right_hand=0)
    c = setup((knife("Ana"), "Dance Floor", 200), (pistol_goon, "Bar", None))
    c = begin(c, [3, 2, 6, 1], "NPCs")
    c = go(c, _order("counterattack"), actor=P2)
    c = go(c, Attack(fighter="Goon", target="Ana"))
    closed, said = close(c)
    assert ("Ana's standing order to counterattack is skipped: Ana cannot counterattack here; "
            "the choices are defend, pass.") in said, said
    assert answers(closed) == {"ana": "pass"}


# ---- never in place of an answer ---------------------------------------------------------------


def test_an_answer_given_is_kept_and_only_the_silent_follow_their_orders() -> None:
    c = move_window()  # Goon and Rat (NPCs) may intercept Ana
    for npc in ("Goon", "Rat"):
        c = go(c, _order("intercept", fighter=npc, situation=Situation.MOVED_PAST))
    c = go(c, React(fighter="Goon", reaction="pass"))
    closed, said = close(c)
    assert "Rat intercepts with Knife (standing order)." in said, said
    assert not any(s.startswith("Goon") for s in said[1:]), said
    assert answers(closed) == {"goon": "pass", "rat": "intercept"}


def test_a_blast_target_defends_by_its_order() -> None:
    c = blast_fight()
    c = go(c, _order("defend", fighter="Rat", situation=Situation.BLAST))
    c = go(c, AoE(fighter="You", area="Dance Floor"), [4, 2], actor=P1)
    c = go(c, AoEChoice(fighter="You", option="tens"), actor=P1)
    closed, said = close(c)
    assert "Rat defends against the blast (standing order)." in said, said
    assert answers(closed)["rat"] == "defend"


# ---- setting them ---------------------------------------------------------------------------


def test_a_player_sets_and_clears_their_own_fighters_orders_only() -> None:
    c = duel(knife("Goon", npc=True), shield_bearer(), att_team_first="NPCs")
    c = go(c, _order("defend", "riot SHIELD"), actor=P2)
    assert order_of(c, "ana", Situation.ATTACKED) == StandingOrder(
        fighter="ana", situation=Situation.ATTACKED, reaction="defend", item="Riot shield")
    refused(c, _order("pass"), "Only their player or a GM", actor=P1)
    refused(c, _order("pass", fighter="Goon"), "Only a GM", actor=P2)
    c = go(c, _order("counterattack", fighter="Goon"))  # the GM, for an NPC
    c = go(c, SetOrder(fighter="Ana", situation=Situation.ATTACKED), actor=P2)
    assert order_of(c, "ana", Situation.ATTACKED) is None
    assert order_of(c, "goon", Situation.ATTACKED) is not None


def test_an_order_the_situation_does_not_allow_is_refused() -> None:
    c = duel(knife("Goon", npc=True), shield_bearer(), att_team_first="NPCs")
    refused(c, _order("intercept"), "When attacked, a standing order may be: defend, "
            "counterattack, pass", actor=P2)
    refused(c, _order("defend", "Riot shield", situation=Situation.BLAST),
            "shields give nothing against a blast", actor=P2)
    refused(c, _order("defend", "Buckler"), "Ana has no shield called 'Buckler'", actor=P2)


def test_the_choices_are_what_the_fighter_could_do() -> None:
    ana = shield_bearer()
    f = duel(knife("Goon", npc=True), ana, att_team_first="NPCs").fighter("Ana")
    assert [english(order_words(o)) for o in order_choices(f, Situation.ATTACKED, RULES)] == [
        "defend with Riot shield", "defend", "counterattack", "pass"]
    assert [english(order_words(o)) for o in order_choices(f, Situation.MOVED_PAST, RULES)] == [
        "intercept", "pass"]
    assert [english(order_words(o)) for o in order_choices(f, Situation.BLAST, RULES)] == [
        "defend", "pass"]
    bare = Character(name="Bea", level=50, max_level=50)
    g = setup((bare, "Entrance", 200)).fighter("Bea")
    assert [english(order_words(o)) for o in order_choices(g, Situation.ATTACKED, RULES)] == [
        "defend", "pass"]


# ---- an order never makes an answer the window would refuse -------------------------------------


@settings(max_examples=40, deadline=None)
@given(
    reaction=st.sampled_from(["defend", "counterattack", "pass"]),
    with_shield=st.booleans(),
    holding=st.booleans(),
    ranged=st.booleans(),
)
def test_an_order_is_followed_only_as_an_answer_the_window_takes(
        reaction: str, with_shield: bool, holding: bool, ranged: bool) -> None:
    goon = Character(name="Goon", npc=True, level=50, max_level=50,
                     items=(Item(name="Pistol", kind="ranged_1h"),
                            Item(name="Bullets", kind="ammo")), right_hand=0)
    if not ranged:
        goon = knife("Goon", npc=True)
    c = setup((shield_bearer(holding=holding), "Dance Floor", 200),
              (goon, "Bar" if ranged else "Dance Floor", None))
    c = begin(c, [3, 2, 6, 1], "NPCs")
    item = "Riot shield" if with_shield and reaction == "defend" else None
    c = go(c, _order(reaction, item), actor=P2)
    c = go(c, Attack(fighter="Goon", target="Ana"))
    step = c.step
    assert isinstance(step, AttackAction)
    reactor: Reactor = step.reactors[0]
    closed, said = close(c)
    answer = answers(closed)["ana"]
    followed = any(s.endswith("(standing order).") for s in said)
    skipped = any("standing order" in s and "is skipped" in s for s in said)
    assert followed != skipped or reaction == "pass"
    if followed:
        assert answer == reaction
        assert reaction == "pass" or reaction in reactor.options
        assert item is None or holding
    else:
        assert answer == "pass"


