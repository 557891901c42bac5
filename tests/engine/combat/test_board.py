"""004 "Maps" ("make the consequences of positioning unambiguous"): the board as text."""

from __future__ import annotations

from engine.combat import (
    Attack,
    render_board,
)
from tests.engine.combat.helpers import (
    P1,
    RULES,
    duel,
    go,
    knife,
)


def test_render_board_fits() -> None:
    c = duel(knife("Ana"), knife("Goon", npc=True))
    c = go(c, Attack(fighter="Ana", target="Goon"), actor=P1)
    board = render_board(c, rules=RULES)
    assert len(board) <= 1990
    assert board.startswith("Round 1 · reaction · PCs acting")
    assert "Waiting for: Goon (react)" in board
    assert "Ana [PCs] Entrance 50/50 a0\n" in board
