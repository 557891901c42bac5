// The line typed in the composer, read as Discord's client reads it: "/", a command's name
// (a subcommand as "character create"), then its options as name:value, each value quoted
// or running to the next " name:". And an option's value, typed or picked, checked as
// Discord's client checks it before anything is sent: choices, numbers and their range,
// true/false, the server's members, channels and roles.

// A command, or one of its options, as a client set to `locale` shows it: descriptions and
// choices' names in that language where the bot's sync gave them one (names stay as synced:
// the bot localizes none).
function localized(part, locale) {
  const made = { ...part, description: part.description_localizations?.[locale] ?? part.description };
  if (part.choices) {
    made.choices = part.choices.map((c) => ({ ...c, name: c.name_localizations?.[locale] ?? c.name }));
  }
  if (part.options) made.options = part.options.map((o) => localized(o, locale));
  return made;
}

// Every command a person can type (in their client's `locale`), subcommands flattened,
// alphabetically.
export function flatten(commands, locale) {
  const out = [];
  const walk = (path, description, options) => {
    const subs = (options || []).filter((o) => o.type === 1 || o.type === 2);
    if (!subs.length) {
      out.push({ name: path.join(" "), description, options: options || [] });
      return;
    }
    for (const sub of subs) walk([...path, sub.name], sub.description, sub.options);
  };
  for (const command of commands.map((c) => localized(c, locale))) {
    if ((command.type || 1) === 1) walk([command.name], command.description, command.options);
  }
  return out.sort((a, b) => a.name.localeCompare(b.name));
}

// How well a name matches the typed text, Discord's order: the name itself (0), names
// starting with it (1), names with a word starting with it (2), names containing it (3).
function rank(name, wanted) {
  if (name === wanted) return 0;
  if (name.startsWith(wanted)) return 1;
  if (name.includes(` ${wanted}`)) return 2;
  return name.includes(wanted) ? 3 : null;
}

// The commands matching `wanted`, best first (alphabetically within a rank).
export function ranked(commands, wanted) {
  return commands.map((command) => [rank(command.name, wanted), command])
    .filter(([found]) => found !== null)
    .sort(([a], [b]) => a - b)
    .map(([, command]) => command);
}

const KEY = /(?:^|\s)([A-Za-z_][\w-]*):/g;
const QUOTES = { '"': '"', "'": "'", "“": "”" };

/** What a line typed after "/" says: `wanted`, the text to match command names against;
 * `command`, the one it names exactly (else null); `given`, its options as typed (by
 * name); `problems`, what cannot be read (an unknown option, text that is no option). */
export function read(line, commands) {
  const body = line.replace(/^\//, "").replace(/^\s+/, "");
  const lower = body.toLowerCase();
  const command = commands.filter((c) => lower === c.name || lower.startsWith(`${c.name} `))
    .sort((a, b) => b.name.length - a.name.length)[0] || null;
  if (!command) {
    const head = body.search(KEY);
    const wanted = (head < 0 ? body : body.slice(0, head)).trim().toLowerCase();
    return { wanted, command: null, given: {}, problems: [] };
  }
  const problems = [];
  const given = options(body.slice(command.name.length), command, problems);
  return { wanted: command.name, command, given, problems };
}

// `rest` split at each " name:" of the command's options; a quoted value may hold anything.
function options(rest, command, problems) {
  const declared = new Map(command.options.map((o) => [o.name.toLowerCase(), o]));
  const given = {};
  let option = null;
  let from = 0;
  let quotedTo = 0;
  const close = (end) => {
    const raw = rest.slice(from, end).trim();
    if (option) given[option.name] = unquote(raw);
    else if (raw && !problems.length) {
      problems.push(`Type each option of /${command.name} as name:value (“${raw}” is not one);`
        + ` its options: ${names(command)}`);
    }
  };
  KEY.lastIndex = 0;
  for (let match = KEY.exec(rest); match; match = KEY.exec(rest)) {
    if (match.index < quotedTo) continue;
    const named = declared.get(match[1].toLowerCase());
    if (!named && option && option.type === 3) continue;  // "note:at noon: the bridge"
    close(match.index);
    from = KEY.lastIndex;
    option = named || null;
    if (!named) problems.push(`/${command.name} has no option ${match[1]}; its options: ${names(command)}`);
    else if (named.name in given) problems.push(`${named.name} is given twice`);
    const closing = QUOTES[rest[from]];
    if (closing) {
      const end = rest.indexOf(closing, from + 1);
      quotedTo = end < 0 ? rest.length : end + 1;
    }
  }
  close(rest.length);
  return given;
}

function unquote(raw) {
  const closing = QUOTES[raw[0]];
  return closing && raw.length > 1 && raw.endsWith(closing) ? raw.slice(1, -1) : raw;
}

function names(command) {
  return command.options.length ? command.options.map((o) => o.name).join(", ") : "none";
}

// -- an option's value ------------------------------------------------------------------

function range(option) {
  const { min_value: min, max_value: max } = option;
  if (min !== undefined && max !== undefined) return ` from ${min} to ${max}`;
  if (min !== undefined) return ` of at least ${min}`;
  return max !== undefined ? ` of at most ${max}` : "";
}

function listed(items) {
  return items.length > 12 ? `${items.slice(0, 12).join(", ")}, …` : items.join(", ");
}

/** What `option` accepts, said to a person ("a whole number from 1 to 99"). */
export function accepts(option, state) {
  if (option.choices) return `one of: ${listed(option.choices.map((c) => c.name))}`;
  switch (option.type) {
    case 4: return `a whole number${range(option)}`;
    case 10: return `a number${range(option)}`;
    case 5: return "true or false";
    case 6: return `a member: ${listed(state.members.map((m) => m.name))}`;
    case 7: return `a channel: ${listed([...state.channels.values()].map((c) => `#${c.name}`))}`;
    case 8: return `a role: ${listed(Object.values(state.roles))}`;
    default:
      return option.max_length ? `text of at most ${option.max_length} characters` : "text";
  }
}

const TRUE = ["true", "yes", "1", "on"];
const FALSE = ["false", "no", "0", "off"];

function number(option, text) {
  const whole = option.type === 4;
  if (!(whole ? /^[-+]?\d+$/ : /^[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/i).test(text)) return undefined;
  const value = Number(text);
  const { min_value: min, max_value: max } = option;
  if ((min !== undefined && value < min) || (max !== undefined && value > max)) return undefined;
  return value;
}

// The value as the command's data carries it (a member by name, a channel or role by id).
function valueOf(option, text, state) {
  const lower = text.toLowerCase();
  if (option.choices) {
    const found = option.choices.find((c) => c.name.toLowerCase() === lower
      || String(c.value).toLowerCase() === lower);
    return found?.value;
  }
  switch (option.type) {
    case 4: case 10: return number(option, text);
    case 5: return TRUE.includes(lower) ? true : FALSE.includes(lower) ? false : undefined;
    case 6: {
      const bare = lower.replace(/^@/, "");
      return state.members.find((m) => m.name.toLowerCase() === bare || m.id === bare)?.name;
    }
    case 7: {
      const bare = lower.replace(/^#/, "");
      return [...state.channels.values()].find((c) => c.name.toLowerCase() === bare
        || c.id === bare)?.id;
    }
    case 8: {
      const bare = lower.replace(/^@/, "");
      return Object.entries(state.roles).find(([id, name]) => name.toLowerCase() === bare
        || id === bare)?.[0];
    }
    default: {
      const { min_length: least, max_length: most } = option;
      const fits = (least === undefined || text.length >= least)
        && (most === undefined || text.length <= most);
      return fits ? text : undefined;
    }
  }
}

/** `raw` (typed, or a field's value) for `option`: `{}` when empty, else `{ value }` as the
 * command's data carries it, or `{ error }` naming the option and what it accepts. */
export function convert(option, raw, state) {
  const text = String(raw ?? "").trim();
  if (text === "") return {};
  const value = valueOf(option, text, state);
  if (value !== undefined) return { value };
  return { error: `${option.name} takes ${accepts(option, state)}; “${text}” is not one` };
}
