"""The pages of `/help`, in the order Previous and Next go through them: each page's text in
one place, as whole sentences, short enough to read on a phone (well within Discord's 2,000
characters). Every command the bot has is named on some page (``tests/bot/test_help.py``
walks the command tree)."""

from __future__ import annotations

from dataclasses import dataclass

from bot.i18n import N_

__all__ = ["FOOTER", "PAGES", "HelpPage", "page_named"]


@dataclass(frozen=True)
class HelpPage:
    """A page: its key (the `topic:` choice's value and its buttons' id), the name it is
    picked by and its buttons are labelled with, and its text (both ``N_`` literals, said in
    the reader's language)."""

    key: str
    name: str
    text: str


START = HelpPage("start", N_("Start here"), N_("""**New here?**
**Players**
1. Make your character with `/character create`: a form, then a panel for its abilities \
and items. `/sheet` shows it to the table.
2. Join the session with `/session join`: when its goal is met, everyone in it advances. \
Where a GM started a fight, put your character in with `/combat add`.
3. In a fight, your team's turn pings you. Press **My options** to see what your character \
may do, or type `/attack`. When you are attacked, press **Defend**, **Counterattack** or \
**Pass** before the dice are rolled.
**GMs** (Manage Server, or the GM role: `/gm role`)
1. Pick a map: `/map list` shows the built-in ones, and `/map new` writes your own.
2. Make NPCs with `/character create npc:True`, and open a session with `/session start`.
3. Start a fight in a channel with `/combat start map:`, `/combat add` your NPCs (players \
add their PCs), then `/combat begin` rolls initiative."""))

DICE = HelpPage("dice", N_("Dice"), N_("""**Rolling dice**
`/roll level:` rolls d100 against a level: a roll at or under it succeeds. Without \
`level:`, it rolls against your character's level.
With `good:True` your character is good at it: you may re-roll the tens, the ones or both, \
once, with the buttons under the roll. `ability:` names one of your character's "good at …" \
abilities, which makes the roll good too.
`against:` rolls for the other side too, at its level, and names the winner. `note:` says \
what the roll is for. `as:` names which of your characters rolls (a GM may name any).
A critical success offers an extra action or an adjusted result. Only the roller may press \
the buttons, and they keep working after a restart.
`/roll` works in a direct message with me as well."""))

CHARACTERS = HelpPage("characters", N_("Characters"), N_("""**Characters**
`/character create` makes your PC; a GM adds `npc:True` to make an NPC. \
`/character panel` then chooses what it still lacks: abilities, items and what it holds.
`/sheet` shows a sheet to the table, and `/character list` lists this server's characters.
`/character describe` gives a character a concept and a description, \
`/character rename` a new name, and `/character delete` asks before it deletes.
Items: `/character item add|remove` and `/character item hold|stow` (in hand or put \
away). Non-combat items: `/character gear add|remove`. Abilities: \
`/character ability add|remove`.
After a fight, `/character recover` sets the level back to its max and erases the wounds \
(■ stays). When a session's goal is met, `/character advance` raises the max level by one.
GMs make numbered NPC copies (Goon 1, Goon 2…) with `/character copy count:`.
For another server, `/character export` gives a character as text, and \
`/character import` takes it back."""))

MAPS = HelpPage("maps", N_("Maps and sessions"), N_("""**Maps**
`/map list` shows the built-in maps and this server's own. `/map show name:` draws one for \
the table; in a fight's channel, as the fight has it.
GMs write a map with `/map new`, change it with `/map edit` and delete it with \
`/map delete`. `/map export` gives a map's text, to copy or change.
**Sessions**
A session is play towards a goal the players agreed on. `/session start goal:` opens one; \
each player adds their PC with `/session join`, and its players may reword the goal with \
`/session goal`.
`/session status` shows the goal, its PCs and its fights. A GM may `/session warn` that \
the goal looks out of reach, and ends the session with `/session end achieved:`. When the \
goal was achieved, every PC in it advances."""))

FIGHTS = HelpPage("fights", N_("A fight"), N_("""**Running an Unhex fight**
1. A GM picks the map with `/combat start map:` (with `thread:True`, the fight gets a \
thread of its own).
2. `/combat add character: area: [team:]` puts a character on the map; players add their \
own PC. `/combat addmany` puts several in at once.
3. A GM rolls initiative with `/combat begin`; the winner picks the order of the teams with \
the buttons, or with `/combat order teams:`.
4. Your team's turn pings you, and each character acts once. **My options** lists what \
yours may do, as menus; or type `/attack`, `/move`, `/door`, `/firstaid` or \
`/item hold|stow|pickup|use` (`/item drop` is free).
5. `/item hands` sets both hands in one action (without options: a menu per hand). With \
Speed, `/move to: then:` rolls to move twice. `/aoe area:` uses the AoE weapon in your \
hands on an area.
6. A leader may `/rally` (once a fight, or when it is won), or `/direct who:` a teammate, \
who then acts without spending an action of their own (or presses **Refuse the \
direction**).
7. **Done** (`/done`) ends your team's turn.
`/combat status` shows everyone and their wounds. `/combat log` lists what happened \
(`file:True`: all of it, as a file). At the end comes a recap with a **Log file** \
button."""))

REACTING = HelpPage("reacting", N_("Reacting"), N_("""**Reacting**
Attacks and moves open a reaction window: press **Defend**, **Counterattack**, \
**Intercept** or **Pass** before the dice are rolled, or type `/defend`, `/counterattack` \
or `/intercept`.
A reaction spends your action for the round, as acting does: react, and you cannot act.
A counterattack or an intercept can be less-lethal: its own button, or `lethal:False`.
With Shield, **Defend Ana** (`/defend for:Ana`) defends someone in your area, and \
**All-Out Defend** (`/alloutdefend`) is offered after initiative, before anyone acts.
Then whoever decides presses the buttons for re-rolls, criticals and which die is damage.
You may `/surrender` any time before the dice are rolled."""))

BY_POST = HelpPage("by_post", N_("Fights by post"), N_("""**Fights by post**
A fight may wait hours or days for its players. A GM sets its pace with \
`/combat start pace:` or `/combat settings pace:`: `live`, or `by post`, where a reaction \
waits 24 hours and a team's turn 48.
`reaction:` and `turn:` take durations as you type them: `45s`, `10m`, `12h`, `2d` or \
`1h30m`, up to 14 days (`turn:none` means no deadline). Every deadline shows in your own \
time zone.
At a turn's deadline the GM is pinged, and may act for whoever is late, extend the turn or \
end it; with `turn_end:auto` the turn ends by itself. `/combat extend by:` gives a turn \
more time.
Whoever the fight waits for is reminded once, and only they are pinged (`remind:` sets \
when). With `/settings reminders where:` you choose to be reminded in the fight's channel \
or by direct message.
`/combat orders` sets what your character does when it is asked to react while you are \
away; a GM sets the NPCs' orders the same way.
Back after a while? `/combat catchup` shows you alone what happened since your character \
last acted."""))

GM_TOOLS = HelpPage("gm", N_("GM tools"), N_("""**GM tools**
GMs are the members with Manage Server, and those with the role set by `/gm role` (without \
a role, it clears it).
In a fight, `/combat undo` takes back the last command. `/combat set character:` corrects \
a level, an area, the actions left, a location's marks, or whether the character is hidden. \
`/combat remove` takes a character out, and `/combat end` ends the fight.
`as:` names the NPC who acts; left out, it is the one the fight waits on.
`/combat settings` changes the pace, when the late are reminded, and `hide_npcs:` (the \
players then see how hurt each NPC looks, not its level and wounds).
`/combat extend by:` gives the team whose turn it is more time, such as `12h`.
`/settings language` sets the language the bot speaks in this server's channels; commands \
and options keep their English names in every language, so players can copy each other's.
For many NPCs, `/character copy` makes numbered copies, and `/combat addmany characters:` \
puts them in together ("Goon 1-5")."""))

#: The pages, in the order the buttons go through them; the first is `/help`'s own.
PAGES: tuple[HelpPage, ...] = (START, DICE, CHARACTERS, MAPS, FIGHTS, REACTING, BY_POST,
                               GM_TOOLS)

#: Under every page: where it is, and how to reach the others.
FOOTER = N_("-# Page {number} of {count}. The buttons go to the other pages, and "
            "`/help topic:` opens any of them.")


def page_named(key: str) -> HelpPage:
    """The page of ``key`` (the first page for a key it does not know)."""
    return next((page for page in PAGES if page.key == key), PAGES[0])
