"""Leader (004 "Abilities": Leader), bullet by bullet:

- "**Good** at initiative rolls. If someone else on your team has higher level, they can choose
  to let you roll initiative."
- "You can use an action to attempt to rally your team. Make a roll. On a success anyone on
  your team including you can increase their level to match the roll, but can't exceed their
  max level. You can attempt this only once per combat, whether you succeed or fail."
- "You can use an action to direct someone else on your team to take any action they are able
  to. If they agree, they can do so without using an action of their own. If they disagree, you
  can use your action for something else. Someone cannot benefit from this ability more than
  once per round, nor if they used this ability this round."
- "When you succeed at an initiative roll, even if you didn't win, gain an additional action
  that can be used only to direct others. Requires the prior ability."
"""

from __future__ import annotations

from engine.character import Character, Item
from engine.combat import (
    AllOutDefend,
    Attack,
    Begin,
    ChooseOrder,
    ChooseRoller,
    Combat,
    CriticalChoice,
    Direct,
    Done,
    EndCombat,
    Event,
    GMSet,
    Move,
    Phase,
    PromptKind,
    Rally,
    React,
    RefuseDirection,
    Reroll,
    Surrender,
    render_board,
)
from engine.combat.prompts import SPECS, asked_users
from engine.phrases import english
from tests.engine.combat.helpers import P1, P2, RULES, begin, go, knife, refused, run, setup

LEAD = "leader.good_initiative"
RALLY = "leader.rally"
DIRECT = "leader.direct"
ON_INITIATIVE = "leader.initiative_direct"


def texts(events: tuple[Event, ...]) -> list[str]:
    return [english(e.text) for e in events]


def line(c: Combat, name: str) -> str:
    board = render_board(c, rules=RULES)
    return next(ln for ln in board.splitlines() if ln.startswith(f"{name} ["))


# ---- a higher teammate lets the leader roll initiative -----------------------------------------


def led_pcs(level: int = 30, abilities: tuple[str, ...] = (LEAD,)) -> Combat:
    """Ana (P1's, 50) is the PCs' highest; Kit (P2's, 30, a leader good at initiative) is
    below her; Bob (an NPC, 40) rolls for the NPCs."""
    return setup(
        (knife("Ana", level=50), "Dance Floor", 100),
        (knife("Kit", level=level, abilities=abilities), "Dance Floor", 200),
        (knife("Bob", level=40, npc=True), "Dance Floor", None),
    )


def test_the_highest_level_may_let_the_leader_roll_and_she_is_asked() -> None:
    c, events = run(led_pcs(), Begin())  # no die before the choice
    assert texts(events) == [
        "The fight begins.",
        "Round 1 begins.",
        "Ana has the highest level of PCs (50) and may let a leader roll initiative instead: "
        "Kit.",
    ]
    [asked] = c.waiting_for()
    assert (asked.kind, asked.fighter, asked.team, asked.options) == (
        PromptKind.LEADER_ROLLS, "ana", "PCs", ("Ana", "Kit"))
    assert asked_users(c, asked) == (100,)  # the higher one's player decides, not Kit's
    assert SPECS[PromptKind.LEADER_ROLLS].label("Kit") == "Kit rolls"
    assert SPECS[PromptKind.LEADER_ROLLS].command("Kit", "ana") == ChooseRoller(fighter="Kit")
    assert "Waiting for: Ana (choose who rolls)" in render_board(c, rules=RULES)

    refused(c, ChooseRoller(fighter="Kit"), "only Ana's player \\(or a GM\\)", actor=P2)
    refused(c, ChooseRoller(fighter="Bob"), "Nothing is waiting for NPCs")

    # Ana lets Kit roll: Kit's level, and Kit's good initiative (a re-roll is offered).
    c, events = run(c, ChooseRoller(fighter="kit"), [2, 5, 6, 2], actor=P1)
    assert texts(events) == [
        "Ana lets Kit roll initiative for PCs.",
        "Kit rolls initiative for PCs: 25 (2·5) vs 30 — SUCCESS.",
        "Bob rolls initiative for NPCs: 62 (6·2) vs 40 — FAILURE.",
    ]
    assert [(p.kind, p.fighter) for p in c.waiting_for()] == [(PromptKind.REROLL, "kit")]


def test_the_highest_level_may_roll_herself() -> None:
    c = go(led_pcs(), Begin())
    c, events = run(c, ChooseRoller(fighter="Ana"), [3, 4, 6, 2], actor=P1)
    assert texts(events)[:2] == [
        "Ana rolls initiative for PCs.",
        "Ana rolls initiative for PCs: 34 (3·4) vs 50 — SUCCESS.",
    ]
    assert c.waiting_for()[0].kind is PromptKind.CHOOSE_ORDER


def test_nobody_is_asked_without_a_leader_below_the_highest() -> None:
    # Kit without the ability: the highest rolls at once.
    c, events = run(led_pcs(abilities=()), Begin(), [3, 4, 6, 2])
    assert "may let a leader roll" not in " ".join(texts(events))
    assert c.initiative[0].state.fighter == "ana"
    # A leader who is the team's one highest rolls as always.
    c = setup((knife("Kit", level=50, abilities=(LEAD,)), "Dance Floor", 200),
              (knife("Ana", level=30), "Dance Floor", 100),
              (knife("Bob", level=40, npc=True), "Dance Floor", None))
    c = go(c, Begin(), [3, 4, 6, 2])
    assert c.initiative[0].state.fighter == "kit"


def test_a_team_with_a_tie_chooses_among_the_tied_and_its_leaders() -> None:
    c = setup(
        (knife("Ana", level=50), "Dance Floor", 100),
        (knife("Cid", level=50), "Dance Floor", 100),
        (knife("Kit", level=30, abilities=(LEAD,)), "Dance Floor", 200),
        (knife("Bob", level=40, npc=True), "Dance Floor", None),
    )
    c, events = run(c, Begin())
    assert texts(events)[-1] == ("Ana and Cid share the highest level of PCs (50): PCs choose "
                                 "who rolls initiative (or let Kit roll instead).")
    [asked] = c.waiting_for()
    assert (asked.kind, asked.fighter, asked.options) == (
        PromptKind.CHOOSE_ROLLER, None, ("Ana", "Cid", "Kit"))
    c, events = run(c, ChooseRoller(fighter="Kit"), [2, 5, 6, 2], actor=P2)
    assert texts(events)[:2] == ["PCs choose Kit to roll initiative.",
                                 "Kit rolls initiative for PCs: 25 (2·5) vs 30 — SUCCESS."]


def test_an_npc_leader_is_the_gms_choice() -> None:
    c = setup((knife("Ana", level=50), "Dance Floor", 100),
              (knife("Bob", level=40, npc=True), "Dance Floor", None),
              (knife("Boss", level=20, npc=True, abilities=(LEAD,)), "Dance Floor", None))
    c = go(c, Begin())  # no team rolls before every team has its roller
    [asked] = c.waiting_for()
    assert (asked.kind, asked.fighter, asked.options, asked_users(c, asked)) == (
        PromptKind.LEADER_ROLLS, "bob", ("Bob", "Boss"), ())
    refused(c, ChooseRoller(fighter="Boss"), "NPCs: only a GM chooses whether", actor=P1)
    c, events = run(c, ChooseRoller(fighter="Boss"), [3, 4, 1, 5])
    assert texts(events)[:3] == ["Bob lets Boss roll initiative for NPCs.",
                                 "Ana rolls initiative for PCs: 34 (3·4) vs 50 — SUCCESS.",
                                 "Boss rolls initiative for NPCs: 15 (1·5) vs 20 — SUCCESS."]


# ---- rally -------------------------------------------------------------------------------------


def rally_fight(**kit: object) -> Combat:
    """Kit (P2's, 50/60, Rally), Ana (P1's, 20/50) and Lou (P1's, 30/40) for the PCs against
    Bob (an NPC, 30/50); the PCs act first."""
    c = setup(
        (knife("Kit", level=50, max_level=60, abilities=(RALLY,), **kit), "Dance Floor", 200),
        (knife("Ana", level=20), "Dance Floor", 100),
        (knife("Lou", level=30, max_level=40), "Bar", 100),
        (knife("Bob", level=30, npc=True), "Dance Floor", None),
    )
    return begin(c, [3, 4, 6, 2], "PCs")


def levels(c: Combat) -> dict[str, str]:
    return {f.name: f"{f.character.level}/{f.character.max_level}" for f in c.fighters}


def test_a_successful_rally_raises_the_team_to_the_roll_but_not_past_max() -> None:
    c, events = run(rally_fight(), Rally(fighter="Kit"), [4, 5], actor=P2)
    assert texts(events) == [
        "Kit rallies PCs: 45 (4·5) vs 50 — SUCCESS.",
        "Ana's level rises 20 → 45.",
        "Lou's level rises 30 → 40.",
    ]
    # Kit is above the roll; Bob is not on the team.
    assert levels(c) == {"Kit": "50/60", "Ana": "45/50", "Lou": "40/40", "Bob": "30/50"}
    kit = c.fighter("Kit")
    assert (kit.actions, kit.rallied) == (0, True)
    assert c.phase is Phase.TURN and not c.steps


def test_rally_once_per_combat_whether_it_succeeds_or_fails() -> None:
    c, events = run(rally_fight(), Rally(fighter="Kit"), [7, 2], actor=P2)
    assert texts(events) == ["Kit rallies PCs: 72 (7·2) vs 50 — FAILURE.",
                             "The rally fails; Kit cannot rally again this fight."]
    assert levels(c)["Ana"] == "20/50"
    c = go(c, GMSet(fighter="Kit", actions=1))
    refused(c, Rally(fighter="Kit"), "already attempted a rally this fight", actor=P2)
    # Next round too.
    c = go(go(c, Done(), actor=P1), Done(), [3, 4, 6, 2])
    c = go(c, ChooseOrder(first_team="PCs"))
    assert c.round == 2 and c.fighter("Kit").actions == 1
    refused(c, Rally(fighter="Kit"), "already attempted a rally this fight", actor=P2)


def test_rally_needs_the_ability_an_action_and_the_turn() -> None:
    c = rally_fight()
    refused(c, Rally(fighter="Ana"), "Ana cannot rally: that takes the Leader ability Rally",
            actor=P1)
    refused(c, Rally(fighter="Kit"), "Only their player or a GM", actor=P1)
    c = go(c, GMSet(fighter="Kit", actions=0))
    refused(c, Rally(fighter="Kit"), "no action left", actor=P2)
    c = setup((knife("Kit", level=50, max_level=60, abilities=(RALLY,)), "Dance Floor", 200),
              (knife("Bob", level=30, npc=True), "Dance Floor", None))
    c = begin(c, [3, 4, 6, 2], "NPCs")
    refused(c, Rally(fighter="Kit"), "not Kit's turn", actor=P2)


def test_a_critical_rally_adjusted_to_the_level_raises_the_team_to_it() -> None:
    c, events = run(rally_fight(), Rally(fighter="Kit"), [4, 4], actor=P2)
    assert texts(events) == ["Kit rallies PCs: 44 (4·4) vs 50 — CRITICAL SUCCESS."]
    [asked] = c.waiting_for()
    assert (asked.kind, asked.fighter) == (PromptKind.CRITICAL, "kit")
    assert c.phase is Phase.RESOLUTION
    assert "Waiting for: Kit (critical choice)" in render_board(c, rules=RULES)
    refused(c, CriticalChoice(fighter="Kit", choice="adjust", value=51), "1-50", actor=P2)
    c, events = run(c, CriticalChoice(fighter="Kit", choice="adjust", value=50), actor=P2)
    assert texts(events) == ["Kit adjusts the roll to 50.", "Ana's level rises 20 → 50.",
                             "Lou's level rises 30 → 40."]
    assert c.phase is Phase.TURN


def test_a_rally_of_exactly_the_level_may_adjust_to_the_max_level() -> None:
    c = go(rally_fight(), Rally(fighter="Kit"), [5, 0], actor=P2)  # 50 = Kit's level
    c, events = run(c, CriticalChoice(fighter="Kit", choice="adjust", value=60), actor=P2)
    assert texts(events)[1:] == ["Kit's level rises 50 → 60.", "Ana's level rises 20 → 50.",
                                 "Lou's level rises 30 → 40."]


def test_a_critical_rally_may_take_the_extra_action_instead() -> None:
    c = go(rally_fight(), Rally(fighter="Kit"), [3, 3], actor=P2)
    c, events = run(c, CriticalChoice(fighter="Kit", choice="extra_action"), actor=P2)
    assert texts(events) == ["Kit takes an extra action this round.",
                             "Ana's level rises 20 → 33.", "Lou's level rises 30 → 33."]
    assert c.fighter("Kit").actions == 1


def test_a_rally_critical_failure_loses_the_next_action() -> None:
    c, events = run(rally_fight(), Rally(fighter="Kit"), [9, 9], actor=P2)
    assert texts(events)[1:] == ["Kit rolled a critical failure and loses the next action.",
                                 "The rally fails; Kit cannot rally again this fight."]
    assert c.fighter("Kit").lose_next == 1


def test_a_rally_wakes_the_unconscious_but_not_the_surrendered() -> None:
    c = go(rally_fight(), GMSet(fighter="Ana", level=5))
    c = go(c, Surrender(fighter="Lou"), actor=P1)
    lou = levels(c)["Lou"]
    assert "KO" in line(c, "Ana")
    c, events = run(c, Rally(fighter="Kit"), [4, 5], actor=P2)
    assert texts(events)[1:] == ["Ana's level rises 5 → 45 (conscious again).",
                                 "Turn: NPCs."]  # (she acts next round)
    assert levels(c)["Lou"] == lou  # surrendered: out of the fight
    assert "KO" not in line(c, "Ana")


def test_nobody_below_the_roll() -> None:
    c = go(rally_fight(), GMSet(fighter="Ana", level=50))
    c = go(c, GMSet(fighter="Lou", level=40))
    c, events = run(c, Rally(fighter="Kit"), [1, 5], actor=P2)
    assert texts(events)[1:] == ["Nobody on PCs is below 15: no level rises."]


# ---- rally at the end of combat ("if you haven't attempted it yet") ----------------------------


def won(c: Combat) -> tuple[Combat, tuple[Event, ...]]:
    """Bob knocked out (a GM correction): only the PCs are left standing."""
    return run(c, GMSet(fighter="Bob", level=5))


def test_the_fight_waits_for_the_leaders_rally_at_its_end() -> None:
    c, events = won(rally_fight())
    assert texts(events)[-1] == ("Only PCs are left standing. Before the fight ends, Kit may "
                                 "rally (once per fight).")
    assert c.phase is Phase.ENDING
    [asked] = c.waiting_for()
    assert (asked.kind, asked.fighter, asked.options, asked.user_id) == (
        PromptKind.END_RALLY, "kit", ("rally", "skip"), 200)
    assert SPECS[PromptKind.END_RALLY].command("skip", "kit") == Rally(fighter="kit", skip=True)
    assert "Waiting for: Kit (rally before the end?)" in render_board(c, rules=RULES)
    refused(c, Attack(fighter="Ana", target="Bob"), "The fight is ending", actor=P1)
    refused(c, Rally(fighter="Kit"), "Only their player or a GM", actor=P1)
    refused(c, Rally(fighter="Ana"), "Nothing is waiting for Ana", actor=P1)

    # No action needed (Kit has none left in this state either way).
    c, events = run(go(c, GMSet(fighter="Kit", actions=0)), Rally(fighter="Kit"), [4, 5],
                    actor=P2)
    assert texts(events)[:3] == ["Kit rallies PCs: 45 (4·5) vs 50 — SUCCESS.",
                                 "Ana's level rises 20 → 45.", "Lou's level rises 30 → 40."]
    assert texts(events)[3].startswith("Only PCs are left standing. Combat over after round 1.")
    assert c.phase is Phase.ENDED and levels(c)["Ana"] == "45/50"


def test_the_leader_may_let_the_fight_end_without_rallying() -> None:
    c, _ = won(rally_fight())
    c, events = run(c, Rally(fighter="Kit", skip=True), actor=P2)
    assert texts(events)[0] == "Kit does not rally."
    assert c.phase is Phase.ENDED and levels(c)["Ana"] == "20/50"
    refused(rally_fight(), Rally(fighter="Kit", skip=True), "Only at the end of combat",
            actor=P2)


def test_a_critical_rally_at_the_end_asks_first() -> None:
    c, _ = won(rally_fight())
    c = go(c, Rally(fighter="Kit"), [4, 4], actor=P2)
    assert c.phase is Phase.RESOLUTION
    assert [p.kind for p in c.waiting_for()] == [PromptKind.CRITICAL]
    c = go(c, CriticalChoice(fighter="Kit", choice="adjust", value=50), actor=P2)
    assert c.phase is Phase.ENDED and levels(c)["Ana"] == "50/50"


def test_no_rally_at_the_end_for_who_attempted_one_or_cannot_act() -> None:
    c = go(rally_fight(), Rally(fighter="Kit"), [7, 2], actor=P2)
    c, events = won(c)
    assert c.phase is Phase.ENDED
    assert "may rally" not in " ".join(texts(events))
    c = go(rally_fight(), GMSet(fighter="Kit", level=5))
    c, _ = won(c)
    assert c.phase is Phase.ENDED


def test_the_gm_may_end_it_or_undo_the_end() -> None:
    c, _ = won(rally_fight())
    c, events = run(c, EndCombat())
    assert c.phase is Phase.ENDED and texts(events)[0].startswith("The GM ends the combat.")
    # A correction that puts Bob back on his feet takes the fight back to the turn.
    c, _ = won(rally_fight())
    c = go(c, GMSet(fighter="Bob", level=30))
    assert c.phase is Phase.TURN and c.ending is None and c.acting_team == "PCs"


# ---- direct -----------------------------------------------------------------------------------


def direct_fight(*kit: str) -> Combat:
    """Kit (P2's, 50/70, Direct and whatever ``kit`` adds), Ana (P1's, 40) and Lou (P1's, 30)
    for the PCs against Bob (an NPC, 30); all on the dance floor; the PCs act first."""
    c = setup(
        (knife("Kit", level=50, max_level=70, abilities=(DIRECT, *kit)), "Dance Floor", 200),
        (knife("Ana", level=40), "Dance Floor", 100),
        (knife("Lou", level=30), "Dance Floor", 100),
        (knife("Bob", level=30, npc=True), "Dance Floor", None),
    )
    return begin(c, [3, 4, 6, 2], "PCs")


def test_a_directed_teammate_acts_without_spending_her_own_action() -> None:
    c, events = run(direct_fight(), Direct(fighter="Kit", target="Ana"), actor=P2)
    assert texts(events) == ["Kit directs Ana: Ana may take an action without spending one of "
                             "their own, or refuse."]
    assert c.fighter("Kit").actions == 0 and c.fighter("Ana").actions == 1
    assert line(c, "Ana").endswith("a1 directed")
    directed = [p for p in c.waiting_for() if p.fighter == "ana"]
    assert [(p.kind, p.options, p.user_id) for p in directed] == [
        (PromptKind.DIRECTED, ("refuse",), 100)]
    assert "Ana (directed: act or refuse)" in render_board(c, rules=RULES)

    c, events = run(c, Move(fighter="Ana", to="Bar"), actor=P1)
    assert texts(events)[:2] == ["Ana acts on Kit's direction, keeping their own action.",
                                 "Ana moves from Dance Floor to Bar."]
    c = _no_intercept(c)
    ana = c.fighter("Ana")
    assert (ana.actions, ana.directed, ana.directed_by) == (1, None, "kit")


def test_the_directed_action_works_with_no_action_of_ones_own_left() -> None:
    c = go(direct_fight(), Move(fighter="Ana", to="Bar"), actor=P1)
    c = _no_intercept(c)
    assert c.fighter("Ana").actions == 0
    c = go(c, Direct(fighter="Kit", target="Ana"), actor=P2)
    c, events = run(c, Move(fighter="Ana", to="Dance Floor"), actor=P1)
    assert texts(events)[0] == "Ana acts on Kit's direction, keeping their own action."
    c = _no_intercept(c)
    assert c.fighter("Ana").area == "Dance Floor"
    refused(c, Move(fighter="Ana", to="Bar"), "no action left", actor=P1)


def _no_intercept(c: Combat) -> Combat:
    while c.phase is Phase.REACTION:
        [asked] = [p for p in c.waiting_for() if p.kind is PromptKind.REACT]
        c = go(c, React(fighter=asked.fighter or "", reaction="pass"))
    return c


def test_refusing_gives_the_leader_the_action_back() -> None:
    c = go(direct_fight(), Direct(fighter="Kit", target="Ana"), actor=P2)
    refused(c, RefuseDirection(fighter="Ana"), "Only their player or a GM", actor=P2)
    c, events = run(c, RefuseDirection(fighter="Ana"), actor=P1)
    assert texts(events) == ["Ana refuses Kit's direction: Kit keeps the action."]
    assert c.fighter("Kit").actions == 1 and c.fighter("Ana").directed is None
    # She did not benefit: she can still be directed this round.
    c = go(c, Direct(fighter="Kit", target="Ana"), actor=P2)
    assert c.fighter("Ana").directed is not None
    assert SPECS[PromptKind.DIRECTED].command("refuse", "ana") == RefuseDirection(fighter="ana")


def test_a_direction_nobody_took_lapses_at_the_end_of_the_turn() -> None:
    c = go(direct_fight(), Direct(fighter="Kit", target="Ana"), actor=P2)
    c, events = run(c, Done(), actor=P1)
    assert texts(events)[:2] == ["PCs are done.",
                                 "Ana did not act on Kit's direction: Kit keeps the action."]
    assert c.fighter("Kit").actions == 1  # to react with on the NPCs' turn


def test_once_per_round_and_not_for_who_directed() -> None:
    c = setup(
        (knife("Kit", level=50, max_level=60, abilities=(DIRECT,)), "Dance Floor", 200),
        (knife("Lea", level=45, max_level=60, abilities=(DIRECT,)), "Dance Floor", 200),
        (knife("Ana", level=40), "Dance Floor", 100),
        (knife("Bob", level=30, npc=True), "Dance Floor", None),
    )
    c = begin(c, [3, 4, 6, 2], "PCs")
    c = go(c, Direct(fighter="Kit", target="Ana"), actor=P2)
    refused(c, Direct(fighter="Lea", target="Ana"), "already has a direction waiting", actor=P2)
    refused(c, Direct(fighter="Lea", target="Kit"), "Kit directed someone this round", actor=P2)
    c = go(c, Move(fighter="Ana", to="Bar"), actor=P1)
    c = _no_intercept(c)
    refused(c, Direct(fighter="Lea", target="Ana"), "already acted on a direction this round",
            actor=P2)
    refused(c, Direct(fighter="Kit", target="Lea"), "no action left", actor=P2)  # it went to Ana

    # The other way round: a leader who took a direction cannot direct that round.
    c = begin(setup(
        (knife("Kit", level=50, max_level=60, abilities=(DIRECT,)), "Dance Floor", 200),
        (knife("Lea", level=45, max_level=60, abilities=(DIRECT,)), "Dance Floor", 200),
        (knife("Ana", level=40), "Dance Floor", 100),
        (knife("Bob", level=30, npc=True), "Dance Floor", None),
    ), [3, 4, 6, 2], "PCs")
    c = go(c, Direct(fighter="Kit", target="Lea"), actor=P2)
    refused(c, Direct(fighter="Lea", target="Ana"), "has a direction waiting from someone else",
            actor=P2)
    c = _no_intercept(go(c, Move(fighter="Lea", to="Bar"), actor=P2))
    refused(c, Direct(fighter="Lea", target="Ana"), "acted on a direction this round, so they "
            "cannot direct", actor=P2)


def test_direct_needs_the_ability_a_teammate_and_the_turn() -> None:
    c = direct_fight()
    refused(c, Direct(fighter="Ana", target="Lou"), "takes the Leader ability Direct",
            actor=P1)
    refused(c, Direct(fighter="Kit", target="Kit"), "cannot direct themselves", actor=P2)
    refused(c, Direct(fighter="Kit", target="Bob"), "Bob is not on Kit's team", actor=P2)
    refused(c, Direct(fighter="Kit", target="Ana"), "Only their player or a GM", actor=P1)
    c = go(c, GMSet(fighter="Ana", level=5))
    refused(c, Direct(fighter="Kit", target="Ana"), "Ana cannot act", actor=P2)


def test_a_directed_attack_is_one_like_any_other() -> None:
    c = go(direct_fight(), Direct(fighter="Kit", target="Ana"), actor=P2)
    c, events = run(c, Attack(fighter="Ana", target="Bob"), actor=P1)
    assert texts(events)[:2] == ["Ana acts on Kit's direction, keeping their own action.",
                                 "Ana attacks Bob with Knife."]
    assert c.phase is Phase.REACTION and c.fighter("Ana").actions == 1


# ---- direct on initiative ----------------------------------------------------------------------


def initiative_leader() -> Combat:
    """Kit (P2's, 50/70: good initiative, Direct, Direct on initiative) and Ana (P1's, 40) for
    the PCs against Bob (an NPC, 45)."""
    return setup(
        (knife("Kit", level=50, max_level=70, abilities=(LEAD, DIRECT, ON_INITIATIVE)),
         "Dance Floor", 200),
        (knife("Ana", level=40), "Dance Floor", 100),
        (knife("Bob", level=45, npc=True), "Dance Floor", None),
    )


def test_a_successful_initiative_roll_gives_an_action_only_to_direct_even_when_lost() -> None:
    c = go(initiative_leader(), Begin(), [3, 4, 4, 2])  # Kit 34, Bob 42: Bob wins
    c, events = run(c, Reroll(fighter="Kit", which="keep"), actor=P2)
    assert texts(events) == [
        "Kit keeps the roll.",
        "Kit succeeded at initiative: an extra action this round that can only direct others.",
        "NPCs win initiative and choose which team goes first.",
    ]
    kit = c.fighter("Kit")
    assert (kit.actions, kit.direct_actions) == (1, 1)
    c = go(c, ChooseOrder(first_team="PCs"))
    assert line(c, "Kit").endswith("a1 d1")
    # The extra action goes first, so Kit keeps the one to act with; it can do nothing else.
    c = go(c, Direct(fighter="Kit", target="Ana"), actor=P2)
    kit = c.fighter("Kit")
    assert (kit.actions, kit.direct_actions) == (1, 0)
    c = go(c, Attack(fighter="Kit", target="Bob"), actor=P2)
    assert c.fighter("Kit").actions == 0


def test_the_action_only_to_direct_cannot_attack_and_keeps_the_turn_only_while_useful() -> None:
    c = go(initiative_leader(), Begin(), [3, 4, 6, 2])
    c = go(c, Reroll(fighter="Kit", which="keep"), actor=P2)
    c = go(c, ChooseOrder(first_team="PCs"))
    c = go(c, Move(fighter="Kit", to="Bar"), actor=P2)
    c = _no_intercept(c)
    refused(c, Attack(fighter="Kit", target="Bob"), "no action left", actor=P2)
    assert c.acting_team == "PCs"  # Kit can still direct Ana
    c = go(c, Move(fighter="Ana", to="Bar"), actor=P1)
    c = _no_intercept(c)
    # Ana's action is spent but a direction would give her one: the turn waits for Kit.
    assert c.acting_team == "PCs" and [p.fighter for p in c.waiting_for()] == ["kit"]
    c = go(c, Direct(fighter="Kit", target="Ana"), actor=P2)
    c, events = run(c, RefuseDirection(fighter="Ana"), actor=P1)
    assert c.fighter("Kit").direct_actions == 1  # the refused direction's action comes back
    c, events = run(c, Done(), actor=P2)
    assert "Turn: NPCs." in texts(events)


def test_a_failed_initiative_roll_gives_nothing() -> None:
    c = go(initiative_leader(), Begin(), [8, 1, 4, 2])
    c, events = run(c, Reroll(fighter="Kit", which="keep"), actor=P2)
    assert not any("only direct" in t for t in texts(events))
    assert c.fighter("Kit").direct_actions == 0


def test_the_action_to_direct_lasts_the_round() -> None:
    c = go(initiative_leader(), Begin(), [3, 4, 6, 2])
    c = go(c, Reroll(fighter="Kit", which="keep"), actor=P2)
    c = go(c, ChooseOrder(first_team="NPCs"))
    c = go(c, Done())
    assert c.acting_team == "PCs" and c.fighter("Kit").direct_actions == 1
    c = go(c, Done(), actor=P1, faces=[8, 1, 6, 2])
    assert c.round == 2 and c.fighter("Kit").direct_actions == 0


# ---- with Shield's All-Out Defend ----------------------------------------------------------------


def test_an_all_out_defender_is_not_directed_and_a_direction_is_the_rounds_first_action() -> None:
    shield = Character(name="Bea", level=40, max_level=60, abilities=("shield.all_out_defend",),
                       items=(Item(name="Riot shield", kind="shield"),), left_hand=0)
    c = begin(setup(
        (knife("Kit", level=50, max_level=60, abilities=(DIRECT,)), "Dance Floor", 200),
        (shield, "Dance Floor", 100),
        (knife("Ana", level=30), "Dance Floor", 100),
        (knife("Bob", level=30, npc=True), "Dance Floor", None),
    ), [3, 4, 6, 2], "PCs")
    declared = go(c, AllOutDefend(fighter="Bea"), actor=P1)
    refused(declared, Direct(fighter="Kit", target="Bea"), "Bea is all-out defending", actor=P2)
    directed = go(c, Direct(fighter="Kit", target="Ana"), actor=P2)
    refused(directed, AllOutDefend(fighter="Bea"), "before any action of the round", actor=P1)


def test_a_directed_attack_cancelled_by_a_surrender_gives_the_direction_back() -> None:
    # 004 "Surrender": the attack does not take effect and what was spent on it comes back:
    # the direction, not an action of Ana's own.
    c = setup(
        (knife("Kit", level=50, abilities=(DIRECT,)), "Dance Floor", 200),
        (knife("Ana", level=40), "Dance Floor", 100),
        (knife("Bob", level=30, npc=True), "Dance Floor", None),
        (knife("Rat", level=30, npc=True), "Dance Floor", None),
    )
    c = go(begin(c, [3, 4, 6, 2], "PCs"), Direct(fighter="Kit", target="Ana"), actor=P2)
    c = go(c, Attack(fighter="Ana", target="Bob"), actor=P1)
    c, events = run(c, Surrender(fighter="Bob"))
    assert "Ana's attack does not take effect; Kit's direction waits on Ana again." in texts(
        events)
    ana = c.fighter("Ana")
    assert (ana.actions, ana.spent, ana.directed_by) == (1, 0, None)
    assert ana.directed is not None and ana.directed.by == "kit"
    assert line(c, "Ana").endswith("a1 directed")
    # She acts on it again, and her own action is still hers after that.
    c, events = run(c, Move(fighter="Ana", to="Bar"), actor=P1)
    assert texts(events)[0] == "Ana acts on Kit's direction, keeping their own action."
    c = _no_intercept(c)
    assert c.fighter("Ana").actions == 1
    refused(c, Direct(fighter="Kit", target="Ana"), "no action left", actor=P2)


def test_a_direction_a_surrendered_mover_acted_on_goes_back_to_the_leader() -> None:
    # Ana moves on Kit's direction and surrenders before the Intercept's dice: the move does not
    # take effect, and she cannot act on the direction again, so Kit has the action back.
    c = go(direct_fight(), Direct(fighter="Kit", target="Ana"), actor=P2)
    c = go(c, Move(fighter="Ana", to="Bar"), actor=P1)
    c, events = run(c, Surrender(fighter="Ana"), actor=P1)
    assert texts(events)[:2] == ["Ana's move does not take effect.",
                                 "Ana cannot act on Kit's direction: Kit keeps the action."]
    ana = c.fighter("Ana")
    assert (ana.actions, ana.directed) == (0, None)
    assert c.fighter("Kit").actions == 1 and line(c, "Kit").endswith("a1")
    c = go(c, Attack(fighter="Kit", target="Bob"), actor=P2)  # in time to use it this turn
    assert c.phase is Phase.REACTION


def test_a_directed_fighter_who_surrenders_gives_the_leader_the_action_back() -> None:
    c = go(direct_fight(), Direct(fighter="Kit", target="Ana"), actor=P2)
    c, events = run(c, Surrender(fighter="Ana"), actor=P1)
    assert texts(events)[0] == "Ana cannot act on Kit's direction: Kit keeps the action."
    assert c.fighter("Kit").actions == 1 and c.fighter("Ana").directed is None
