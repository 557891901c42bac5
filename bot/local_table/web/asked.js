// Whom the table waits for, read as a player reads Discord: the bot's messages whose buttons
// or menus still answer (a fight's live prompt, a Recovery offer) ask the people they mention
// ("Ana (@alice)"), and the GM where they name a question the GM answers ("Goon (GM)").

const EPHEMERAL = 1 << 6;
const ANSWERING = [2, 3, 5, 6, 7, 8];  // a button, or a select menu of any kind
const LINK = 5;  // a link button opens a page: it answers nothing

function answers(message) {
  return (message.components || []).some((row) => (row.components || [row]).some((part) =>
    ANSWERING.includes(part.type) && !part.disabled && !(part.type === 2 && part.style === LINK)));
}

/** The ids of the members ``messages`` (the channel's, as the person sees them) wait for. */
export function askedOf(messages, members) {
  const asked = new Set();
  for (const message of messages) {
    if (!message.author?.bot || Number(message.flags || 0) & EPHEMERAL || !answers(message)) continue;
    const content = message.content || "";
    for (const [, id] of content.matchAll(/<@!?(\d+)>/g)) asked.add(id);
    if (/\(GM\)/.test(content)) {
      for (const member of members) if (member.gm) asked.add(member.id);
    }
  }
  return asked;
}
