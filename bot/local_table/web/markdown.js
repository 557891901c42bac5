// The Markdown the bot writes, as Discord's client shows it: code blocks, `-#` small text,
// headings, quotes, lists, **bold**, *italics*, __underline__, ~~strike~~, `code`,
// [links](url), mentions as names and <t:…:R> timestamps (kept counting by tick()).

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

export function relative(seconds) {
  const now = Date.now() / 1000;
  const delta = Math.round(seconds - now);
  const span = Math.abs(delta);
  const [size, unit] = span < 60 ? [span, "second"] : span < 3600 ? [Math.round(span / 60), "minute"]
    : span < 86400 ? [Math.round(span / 3600), "hour"] : [Math.round(span / 86400), "day"];
  const words = `${size} ${unit}${size === 1 ? "" : "s"}`;
  return delta >= 0 ? `in ${words}` : `${words} ago`;
}

function stamp(seconds, style) {
  const when = new Date(seconds * 1000);
  const text = style === "R" ? relative(seconds)
    : when.toLocaleString(undefined, STAMP_STYLES[style] || STAMP_STYLES.f);
  return `<time class="stamp" data-t="${seconds}" data-f="${style}" `
    + `title="${escape(when.toLocaleString())}">${escape(text)}</time>`;
}

// Counting down: every <t:…:R> on the page says how long now.
export function tick(root = document) {
  for (const node of root.querySelectorAll("time.stamp[data-f=R]")) {
    node.textContent = relative(Number(node.dataset.t));
  }
}

function mentions(html) {
  return html
    .replace(/&lt;@!?(\d+)&gt;/g, (_, id) =>
      `<span class="mention">@${escape(names.users.get(id) || "unknown-user")}</span>`)
    .replace(/&lt;@&amp;(\d+)&gt;/g, (_, id) =>
      `<span class="mention">@${escape(names.roles.get(id) || "unknown-role")}</span>`)
    .replace(/&lt;#(\d+)&gt;/g, (_, id) =>
      `<span class="mention">#${escape(names.channels.get(id) || "unknown")}</span>`)
    .replace(/&lt;\/([\w -]+):\d+&gt;/g, (_, name) => `<span class="mention">/${name}</span>`)
    .replace(/&lt;t:(-?\d+)(?::([tTdDfFR]))?&gt;/g, (_, t, style) => stamp(Number(t), style || "f"));
}

function inline(text) {
  // Code spans first: nothing inside them is Markdown.
  return text.split(/(`+[^`]*?`+)/).map((piece) => {
    if (/^`+[^`]*`+$/.test(piece) && piece.length > 1) {
      return `<code>${escape(piece.replace(/^`+|`+$/g, ""))}</code>`;
    }
    let html = mentions(escape(piece));
    html = html
      .replace(/\*\*\*(.+?)\*\*\*/g, "<strong><em>$1</em></strong>")
      .replace(/\*\*(.+?)\*\*/g, "<strong>$1</strong>")
      .replace(/__(.+?)__/g, "<u>$1</u>")
      .replace(/(^|[^\w*])\*(?!\s)(.+?)\*(?!\w)/g, "$1<em>$2</em>")
      .replace(/(^|[^\w])_(?!\s)(.+?)_(?!\w)/g, "$1<em>$2</em>")
      .replace(/~~(.+?)~~/g, "<s>$1</s>")
      .replace(/\|\|(.+?)\|\|/g, '<span class="spoiler">$1</span>')
      .replace(/\[([^\]]+)\]\((https?:\/\/[^\s)]+)\)/g,
        '<a href="$2" target="_blank" rel="noopener">$1</a>');
    return html;
  }).join("");
}

function line(text) {
  let match;
  if ((match = /^-# (.*)$/.exec(text))) return `<div class="subtext">${inline(match[1])}</div>`;
  if ((match = /^(#{1,3}) (.*)$/.exec(text))) {
    return `<div class="h${match[1].length}">${inline(match[2])}</div>`;
  }
  if ((match = /^>>> ?(.*)$/.exec(text)) || (match = /^> ?(.*)$/.exec(text))) {
    return `<blockquote>${inline(match[1])}</blockquote>`;
  }
  if ((match = /^(\s*)[-*] (.*)$/.exec(text))) {
    return `<div class="li" style="--depth:${match[1].length >> 1}">• ${inline(match[2])}</div>`;
  }
  return `<div>${inline(text) || "&nbsp;"}</div>`;
}

export function render(source) {
  const out = [];
  const parts = String(source || "").split(/```/);
  parts.forEach((part, index) => {
    if (index % 2 === 1 && index < parts.length - 1) {
      const body = part.replace(/^[\w+-]*\n/, "").replace(/\n$/, "");
      out.push(`<pre class="codeblock"><code>${escape(body)}</code></pre>`);
      return;
    }
    const text = index % 2 === 1 ? "```" + part : part;
    const lines = text.replace(/^\n|\n$/g, "").split("\n");
    if (text.trim() === "") return;
    out.push(...lines.map(line));
  });
  return out.join("");
}
