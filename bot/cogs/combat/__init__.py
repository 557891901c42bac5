"""Fights in a channel, as a package along the rulebook's and the bot's seams:

- :mod:`.fights` — the session as the fight's buttons and autocompletes reach it;
- :mod:`.session` — the one path every fight command takes (lock, load once, apply, one
  transaction), timers, start-up;
- :mod:`.presenter` — the board, the prompt, the recap and the Recovery offers, shown outside
  the lock;
- :mod:`.views` — the prompt's buttons (menus when they are many, one answer for many
  questions alike when they do not fit) and the Adjust form, with short ids;
- :mod:`.one_by_one` — answering one of many questions alike on its own, in a panel;
- :mod:`.turn` — a team's turn: who may act (pinged once), Done, and the My options panel;
- :mod:`.turn_deadline` — a turn past its deadline: the GM pinged once, Extend and End;
  :mod:`.extend` — `/combat extend by:`, a turn extended by a typed duration;
- :mod:`.pace` — a fight's pace as `/combat start` and `/combat settings` take it;
- :mod:`.remind_setting` — when the late are reminded (`/combat settings remind:`);
  :mod:`.reminders` — the reminders themselves, in the channel or by direct message;
- :mod:`.answered` — what a prompt says once it asks no more, and a step's news;
- :mod:`.acting` — who acts (`as:`) and the autocomplete of every fight option;
- :mod:`.actions` — the players' commands; :mod:`.fight` — the `/combat` group;
- :mod:`.orders` — a fighter's standing orders, set from a panel (`/combat orders`);
- :mod:`.recap` — the recap after a fight, and its log as a file;
- :mod:`.recovery` — the Recovery offer after a fight;
- :mod:`.catchup` — `/combat catchup` and the turn line's Catch up: what happened since a
  player's fighter last acted, folded (:mod:`.log_fold`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.cogs.combat.actions import ActionsCog
from bot.cogs.combat.catchup import CatchUpButton, catch_up_command
from bot.cogs.combat.extend import extend_command
from bot.cogs.combat.fight import FightCog
from bot.cogs.combat.one_by_one import OneByOneMenu, PanelButton, PanelMenu
from bot.cogs.combat.orders import OrdersFighterMenu, OrdersMenu
from bot.cogs.combat.recap import LogFileButton
from bot.cogs.combat.recovery import RecoverButton
from bot.cogs.combat.session import FightSession
from bot.cogs.combat.turn import FighterMenu, OptionsMenu, TurnButton
from bot.cogs.combat.turn_deadline import DeadlineButton
from bot.cogs.combat.views import ADJUST_MODAL_ID, CombatButton, CombatMenu, TogetherButton

if TYPE_CHECKING:
    from bot.host import Host

__all__ = ["FightSession"]


async def setup(bot: Host) -> None:
    """Put the fight session in the bot's place for fights (see :mod:`bot.host`): from then
    on every cog reads fights through it, and the fights' buttons reach it there."""
    session = bot.fights = FightSession(bot)
    bot.add_dynamic_items(CombatButton, CombatMenu, TogetherButton, RecoverButton,
                          LogFileButton, TurnButton, OptionsMenu, FighterMenu, OneByOneMenu,
                          PanelButton, PanelMenu, CatchUpButton, DeadlineButton,
                          OrdersMenu, OrdersFighterMenu)
    fight = FightCog(session)
    fight.combat.add_command(catch_up_command())
    fight.combat.add_command(extend_command())
    bot.answers_form(ADJUST_MODAL_ID, fight.adjust_submitted)
    await bot.add_cog(fight)
    await bot.add_cog(ActionsCog(session))
