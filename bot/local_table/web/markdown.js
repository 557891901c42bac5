// The Markdown the bot writes, as Discord's client shows it. Discord parses a message with
// simple-markdown's rules (its own for spoilers, strike, subtext, headings, quotes and
// code blocks), so this is a small parser of the same kind: at each point the first rule
// that matches takes its text, and bold, italics, underline, strike and spoilers nest.
// A backslash before any character that is not a letter, digit or space shows that
// character (so discord.utils.escape_markdown's `\\` is one backslash); nothing inside
// `code` or a ```code block``` is Markdown. Mentions show as names, <t:…:R> timestamps
// keep counting (tick()).

const escape = (text) => text.replace(/[&<>"']/g, (c) => ({
  "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;",
})[c]);

// Who a mention names: set by the page from the server's members, roles and channels.
export const names = { users: new Map(), roles: new Map(), channels: new Map() };

const STAMP_STYLES = {
  t: { timeStyle: "short" }, T: { timeStyle: "medium" }, d: { dateStyle: "short" },
  D: { dateStyle: "long" }, f: { dateStyle: "long", timeStyle: "short" },
  F: { dateStyle: "full", timeStyle: "short" },
};

// A <t:…:R> as Discord's client says it in the reader's language: the largest unit that has
// passed whole, counted down as it goes ("in 2 days", "in 1 day", "in 23 hours"…).
const RELATIVE = new Intl.RelativeTimeFormat(undefined, { numeric: "always" });
const UNITS = [["year", 31536000], ["month", 2592000], ["day", 86400], ["hour", 3600],
  ["minute", 60], ["second", 1]];

export function relative(seconds, now = Date.now() / 1000) {
  const delta = seconds - now;
  const span = Math.abs(delta);
  const [unit, size] = UNITS.find(([, length]) => span >= length) || UNITS[UNITS.length - 1];
  const count = Math.floor(span / size);
  return RELATIVE.format(delta < 0 ? -count : count, unit);
}

function stamp(seconds, style) {
  const when = new Date(seconds * 1000);
  const text = style === "R" ? relative(seconds)
    : when.toLocaleString(undefined, STAMP_STYLES[style] || STAMP_STYLES.f);
  return `<time class="stamp" data-t="${seconds}" data-f="${style}" `
    + `title="${escape(when.toLocaleString())}">${escape(text)}</time>`;
}

// Counting down: every <t:…:R> on the page says how long now (the page calls it every
// second, so a deadline days away keeps counting while the page stays open).
export function tick(root = document, now = Date.now() / 1000) {
  for (const node of root.querySelectorAll("time.stamp[data-f=R]")) {
    node.textContent = relative(Number(node.dataset.t), now);
  }
}

const mention = (text) => `<span class="mention">${escape(text)}</span>`;
const link = (url, inner) =>
  `<a href="${escape(url)}" target="_blank" rel="noopener">${inner}</a>`;

// Inside an emphasis: an escaped character, or any character but a backslash.
const BODY = String.raw`(?:\\[\s\S]|[^\\])+?`;
const STRONG = new RegExp(String.raw`^\*\*(${BODY})\*\*(?!\*)`);
const UNDERLINE = new RegExp(String.raw`^__(${BODY})__(?!_)`);
// simple-markdown's italics: `_` only closing before a non-word character (so not inside
// snake_case), `*` opening before a non-space and not closed by a `*` of a `**`.
const ITALIC = new RegExp(String.raw`^\b_((?:__|\\[\s\S]|[^\\_])+?)_\b`
  + String.raw`|^\*(?=\S)((?:\*\*|\\[\s\S]|\s+(?:\\[\s\S]|[^\s*\\]|\*\*)|[^\s*\\])+?)\*(?!\*)`);

// `**`, `__` and `*`/`_` may all match at one point: the longest wins, italics before bold
// before underline on a tie (simple-markdown's order), so ***both*** is bold italics.
function emphasis(source) {
  const found = [[ITALIC, "em"], [STRONG, "strong"], [UNDERLINE, "u"]]
    .map(([regex, tag]) => [regex.exec(source), tag]).filter(([capture]) => capture);
  if (!found.length) return null;
  const [capture, tag] = found.reduce((best, next) =>
    next[0][0].length > best[0][0].length ? next : best);
  return Object.assign(capture, { tag, inner: capture[1] ?? capture[2] });
}

// What an emphasis, a link or a list item holds: no quotes, headings or lists.
const inner = (state) => ({ ...state, blocks: false });

const rule = (regex, html, when = () => true) => ({
  match: (source, state) => (when(state) ? regex.exec(source) : null), html,
});
const notInLink = (state) => !state.inLink;

// Everywhere in a message, tried in this order.
const INLINE = [
  rule(/^```(?:([a-z0-9_+\-.#]+?)\n)?\n*([^\n][\s\S]*?)\n*```\n?/i,
    (c) => `<pre class="codeblock"><code>${escape(c[2])}</code></pre>`),
  rule(/^\\([^0-9A-Za-z\s])/u, (c) => escape(c[1])),
  rule(/^<(https?:\/\/[^\s>]+)>/, (c) => link(c[1], escape(c[1])), notInLink),
  rule(/^https?:\/\/[^\s<]+[^<.,:;"')\]\s]/, (c) => link(c[0], escape(c[0])), notInLink),
  // [text](https://…): a masked link, to http(s) only.
  rule(new RegExp(String.raw`^\[((?:\[[^\]]*\]|[^\[\]]|\](?=[^\[]*\]))*)\]`
      + String.raw`\(\s*<?(https?:\/\/(?:\([^)]*\)|[^\s\\)]|\\.)*?)>?\s*\)`),
    (c, state) => link(c[2], parse(c[1], { ...inner(state), inLink: true })), notInLink),
  rule(/^<@!?(\d+)>/, (c) => mention(`@${names.users.get(c[1]) || "unknown-user"}`)),
  rule(/^<@&(\d+)>/, (c) => mention(`@${names.roles.get(c[1]) || "unknown-role"}`)),
  rule(/^<#(\d+)>/, (c) => mention(`#${names.channels.get(c[1]) || "unknown"}`)),
  rule(/^<\/([\w -]+):\d+>/, (c) => mention(`/${c[1]}`)),
  rule(/^<t:(-?\d+)(?::([tTdDfFR]))?>/, (c) => stamp(Number(c[1]), c[2] || "f")),
  { match: emphasis,
    html: (c, state) => `<${c.tag}>${parse(c.inner, inner(state))}</${c.tag}>` },
  rule(new RegExp(String.raw`^~~(${BODY})~~(?!_)`),
    (c, state) => `<s>${parse(c[1], inner(state))}</s>`),
  rule(new RegExp(String.raw`^\|\|(${BODY})\|\|`),
    (c, state) => `<span class="spoiler">${parse(c[1], inner(state))}</span>`),
  // `` `x` `` shows `x`: one space is dropped next to a backtick at either end.
  rule(/^(`+)([\s\S]*?[^`])\1(?!`)/,
    (c) => `<code>${escape(c[2].replace(/^ (?= *`)|(` *) $/g, "$1"))}</code>`),
  rule(/^\n/, () => "<br>"),
  // Plain text up to the next character that may start a rule (or a URL's scheme).
  rule(/^[\s\S]+?(?=[^0-9A-Za-z\s\u00c0-\uffff]|\n|\w+:\S|$)/, (c) => escape(c[0])),
];

const listLine = /^( *)([-*]|\d{1,9}\.) +(\S[^\n]*)$/;

// A run of list lines: a bullet or a number each, deeper when indented; numbered items
// count on from the first one's number, as Discord's ordered lists do.
function list(capture, state) {
  const counts = [];
  let depth = -1;
  return capture[0].replace(/\n$/, "").split("\n").map((text) => {
    const [, indent, marker, body] = listLine.exec(text);
    depth = Math.min(indent.length >> 1, depth + 1);
    counts.length = depth + 1;
    const number = /\d/.test(marker) ? (counts[depth] ?? Number.parseInt(marker, 10) - 1) + 1
      : undefined;
    counts[depth] = number;
    const bullet = number === undefined ? "•" : `${number}.`;
    return `<div class="li" style="--depth:${depth}">${bullet} ${parse(body, inner(state))}</div>`;
  }).join("");
}

function quote(capture, state) {
  const whole = /^ *>>> /.test(capture[0]);
  const body = whole ? capture[0].replace(/^ *>>> ?/, "")
    : capture[0].replace(/^ *> ?/gm, "").replace(/\n$/, "");
  return `<blockquote>${parse(body, { ...state, inQuote: true, lineStart: true })}</blockquote>`;
}

// Only at the start of a line (of the message, or of a quote).
const BLOCK = [
  rule(/^( *>>> ([\s\S]*))|^( *>(?!>>) ([^\n]*(\n *>(?!>>) [^\n]*)*\n?))/, quote,
    (state) => !state.inQuote),
  rule(/^(#{1,3}) +(\S[^\n]*)(?:\n|$)/,
    (c, state) => `<div class="h${c[1].length}">${parse(c[2], inner(state))}</div>`),
  rule(/^-# +(\S[^\n]*)(?:\n|$)/,
    (c, state) => `<div class="subtext">${parse(c[1], inner(state))}</div>`),
  rule(/^(?: *(?:[-*]|\d{1,9}\.) +\S[^\n]*(?:\n|$))+/, list),
];

function parse(source, state) {
  let out = "";
  let rest = source;
  let lineStart = state.lineStart;
  while (rest) {
    const rules = state.blocks && lineStart ? BLOCK.concat(INLINE) : INLINE;
    for (const { match, html } of rules) {
      const capture = match(rest, state);
      if (!capture || !capture[0]) continue;
      out += html(capture, state);
      rest = rest.slice(capture[0].length);
      lineStart = capture[0].endsWith("\n");
      break;
    }
  }
  return out;
}

export function render(source) {
  const text = String(source || "").replace(/^\n+|\s+$/g, "");
  return parse(text, { blocks: true, lineStart: true, inQuote: false, inLink: false });
}
