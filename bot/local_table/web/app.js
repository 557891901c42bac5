// The local table: one Discord server in a browser. It reads what the chosen person sees
// (/table/state, then the feed's websocket) and acts as them through the server's people.

import { names, tick } from "./markdown.js";
import { el, messageNode, modalNode } from "./messages.js";
import { Composer } from "./composer.js";
import { icon } from "./icons.js";
import { askedOf } from "./asked.js";

const $ = (selector) => document.querySelector(selector);
const state = {
  me: localStorage.getItem("unhex.me"), members: [], roles: {}, channels: new Map(),
  messages: new Map(), commands: [], current: null, socket: null,
  locale: "en-US", guildLocale: "en-US", locales: [],
};
let composer = null;
const EPHEMERAL = 1 << 6;
const LOADING = 1 << 7;
// What an action says when the server is not there (fetch's own words are "Failed to fetch").
const STOPPED = "The local table stopped. Start it again with make run (or python -m bot play):"
  + " this page reconnects by itself when it is back.";

// -- talking to the server ----------------------------------------------------------------

async function post(route, body) {
  let response;
  try {
    response = await fetch(`/table/${route}`, {
      method: "POST", headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ as: state.me, ...body }),
    });
  } catch {
    offline(true);
    throw new Error(STOPPED);
  }
  const answer = await response.json().catch(() => ({ error: response.statusText }));
  if (!response.ok) throw new Error(answer.error || response.statusText);
  return answer;
}

// What the bot answered: a form to fill in, or nothing within 3 s (said as Discord says it);
// its message, the answer to what this person did, is brought into view.
function answered(result, near) {
  if (result.answered === "modal") showModal(result.modal, result.token);
  else if (result.answered === null) notice("The application did not respond", near);
  if (result.message) awaitReply(result.message);
}

function notice(text, near) {
  const node = el("div", { class: "notice", role: "status" }, icon("warning"), ` ${text}`);
  (near?.closest?.(".message") || $("#messages")).append(node);
  setTimeout(() => node.remove(), 6000);
}

async function busy(node, work) {
  node?.classList.add("busy");
  if (node) node.disabled = true;
  try {
    return await work();
  } catch (error) {
    notice(error.message, node);
  } finally {
    node?.classList.remove("busy");
    if (node && document.contains(node)) node.disabled = false;
  }
}

const actions = {
  press: (message, part, node) => busy(node, async () =>
    answered(await post("press", { message: message.id, custom_id: part.custom_id }), node)),
  pick: (message, part, values, node) => busy(node, async () =>
    answered(await post("pick", {
      message: message.id, custom_id: part.custom_id, component_type: part.type, values,
    }), node)),
  showPins,
};

function showModal(modal, token) {
  const close = () => overlay.remove();
  const overlay = modalNode(modal, async (fields) => {
    close();
    await busy(null, async () => answered(await post("submit", { token, fields })));
  }, close);
  document.body.append(overlay);
  overlay.querySelector("input, textarea, select")?.focus();
}

const table = {
  state,
  channelName: () => state.channels.get(state.current)?.name || "",
  async slash(command, options) {
    const sending = el("div", { class: "sending" }, `Sending /${command}…`);
    $("#messages").append(sending);
    scrollDown(true);
    try {
      answered(await post("slash", { channel: state.current, command, options }));
    } catch (error) {
      notice(error.message);
    } finally {
      sending.remove();
    }
  },
  say: (content) => post("say", { channel: state.current, content }),  // as the person chosen
  async autocomplete(command, focused, options) {
    try {
      const result = await post("autocomplete", { channel: state.current, command, focused, options });
      return result.choices || [];
    } catch {
      return [];
    }
  },
};

// -- what the page shows ------------------------------------------------------------------

function scrollDown(force) {
  const box = $("#messages");
  if (force || nearBottom()) box.scrollTop = box.scrollHeight;
}

/** Whether the channel is read at its newest messages (measured before one is added). */
function nearBottom() {
  const box = $("#messages");
  return box.scrollHeight - box.scrollTop - box.clientHeight < 200;
}

/** ``node`` scrolled into the channel's view: all of it when it fits, else its top. */
function reveal(node) {
  const box = $("#messages").getBoundingClientRect();
  const shownAt = node.getBoundingClientRect();
  let by = 0;
  if (shownAt.height > box.height || shownAt.top < box.top) by = shownAt.top - box.top;
  else if (shownAt.bottom > box.bottom) by = shownAt.bottom - box.bottom;
  $("#messages").scrollTop += by;
}

// The answers to what this person did, by message id, until when they are brought into view
// as they come or change (a "thinking" answer: until its words arrive).
const REPLY_MS = 15_000;
const awaited = new Map();

function awaitReply(id) {
  for (const [old, until] of awaited) if (until < Date.now()) awaited.delete(old);
  awaited.set(id, Date.now() + REPLY_MS);
  const node = shown(id);
  if (node) reveal(node);
}

/** Whether ``message`` answers what this person did: an answer only they see, or awaited. */
function isReply(message) {
  const flags = Number(message.flags || 0);
  if (flags & EPHEMERAL) return true;
  const until = awaited.get(message.id);
  if (until === undefined) return false;
  if (flags & LOADING) awaited.set(message.id, Date.now() + REPLY_MS);
  else if (Date.now() > until) awaited.delete(message.id);
  return until >= Date.now() || Boolean(flags & LOADING);
}

function renderSidebar() {
  const list = $("#channels");
  list.replaceChildren();
  const all = [...state.channels.values()];
  for (const channel of all.filter((c) => !c.parent_id)) {
    list.append(channelItem(channel, "#"));
    for (const thread of all.filter((c) => c.parent_id === channel.id && !c.thread_metadata?.archived)) {
      list.append(channelItem(thread, icon("thread"), "thread"));
    }
  }
}

function channelItem(channel, mark, kind = "channel") {
  return el("li", {},
    el("button", {
      class: `channel ${kind}${channel.id === state.current ? " current" : ""}`,
      "data-channel": channel.name, onclick: () => openChannel(channel.id),
    }, el("span", { class: "mark" }, mark), channel.name));
}

function openChannel(id) {
  state.current = id;
  localStorage.setItem("unhex.channel", id);
  history.replaceState(null, "", `#${id}`);
  document.body.classList.remove("sidebar-open");
  const channel = state.channels.get(id);
  $("#channel-name").textContent = channel?.name || "";
  $("#channel-mark").replaceChildren(channel?.parent_id ? icon("thread") : "#");
  renderSidebar();
  const box = $("#messages");
  box.replaceChildren(...[...state.messages.values()].filter((m) => m.channel_id === id)
    .map((m) => messageNode(m, actions, state)));
  if (!box.children.length) box.append(el("div", { class: "empty" }, `This is the start of #${channel?.name}.`));
  composer = new Composer($("#composer"), table);
  $("#pins").hidden = true;
  scrollDown(true);
}

// -- the pinned messages: a panel beside the channel, kept as the channel changes -----------

function pinnedCopy(message) {
  const node = messageNode(message, actions, state);
  node.removeAttribute("id");  // the channel's own node keeps the id the feed updates
  return node;
}

function renderPins() {
  const panel = $("#pins");
  const scrolled = panel.scrollTop;
  const pinned = [...state.messages.values()].filter((m) => m.channel_id === state.current && m.pinned);
  panel.replaceChildren(el("h3", {}, "Pinned messages"),
    ...(pinned.length ? pinned.reverse().map((m) => pinnedCopy(m))
      : [el("div", { class: "empty" }, "This channel doesn't have any pinned messages... yet.")]));
  panel.scrollTop = scrolled;
}

function showPins(open = true) {
  $("#pins").hidden = !open;
  if (open) renderPins();
}

// -- live: the feed ---------------------------------------------------------------------------

/** A message as the channel shows it (the pins panel shows copies, without ids). */
function shown(id) {
  return $("#messages").querySelector(`#m${id}`);
}

function apply(change) {
  const data = change.data;
  if (change.kind === "message_create" || change.kind === "message_update") {
    state.messages.set(data.id, data);
    renderAsked();
    if (data.channel_id !== state.current) return;
    showMessage(data);
  } else if (change.kind === "message_delete") {
    state.messages.delete(data.id);
    shown(data.id)?.remove();
    renderAsked();
    if (!$("#pins").hidden) renderPins();
  } else if (change.kind === "pins_update") {
    const message = state.messages.get(data.message_id);
    if (message) apply({ kind: "message_update", data: { ...message, pinned: data.pinned } });
  } else {  // a thread or channel made or changed
    state.channels.set(data.id, data);
    names.channels.set(data.id, data.name);
    renderSidebar();
  }
}

/** ``message`` drawn in the channel (new, or in its old place): an answer to this person
 * brought into view; another followed only when the channel was read at its newest. */
function showMessage(message) {
  const following = nearBottom();
  const old = shown(message.id);
  const made = messageNode(message, actions, state);
  if (old) old.replaceWith(made);
  else {
    $("#messages .empty")?.remove();
    $("#messages").append(made);
  }
  if (isReply(message)) reveal(made);
  else if (following) scrollDown(true);
  if (!$("#pins").hidden) renderPins();
}

function follow(since) {
  state.socket?.close();
  const socket = new WebSocket(`ws://${location.host}/localdiscord/feed/ws?since=${since}&as=${state.me}`);
  state.socket = socket;
  socket.addEventListener("message", (event) => {
    const change = JSON.parse(event.data);
    state.since = change.index + 1;
    apply(change);
    document.body.dataset.feed = state.since;
  });
  socket.addEventListener("close", () => {
    if (state.socket === socket) reload();
  });
}

// The connection dropped: the server may have restarted, its feed begun anew, so read what
// is there again (at once, then at most once a second until it answers) rather than follow
// on from an index it no longer has; meanwhile the page says how to start it again.
let reloaded = 0;
function reload() {
  setTimeout(() => {
    reloaded = Date.now();
    load().catch(() => {
      offline(true);
      reload();
    });
  }, Math.max(0, reloaded + 1000 - Date.now()));
}

function offline(down) {
  $("#offline").hidden = !down;
}

async function load() {
  const answer = await (await fetch(`/table/state?as=${state.me || ""}`)).json();
  if (!answer.members.some((m) => m.id === state.me)) state.me = answer.members[0].id;
  Object.assign(state, {
    members: answer.members, roles: answer.roles, commands: answer.commands, since: answer.since,
    locale: answer.locale, guildLocale: answer.guild_locale, locales: answer.locales,
    channels: new Map(answer.channels.map((c) => [c.id, c])),
    messages: new Map(answer.messages.map((m) => [m.id, m])),
  });
  names.users = new Map(answer.members.map((m) => [m.id, m.name]));
  names.users.set(answer.app_id, "Unhex");
  names.roles = new Map(Object.entries(answer.roles));
  names.channels = new Map(answer.channels.map((c) => [c.id, c.name]));
  $("#guild-name").textContent = answer.guild.name;
  offline(false);
  welcomeIfEmpty(answer.messages);
  renderWho();
  const wanted = location.hash.slice(1) || localStorage.getItem("unhex.channel");
  openChannel(state.channels.has(wanted) ? wanted : answer.channels[0].id);
  follow(answer.since);
  if (!answer.commands.length) setTimeout(load, 1000);  // the bot is still syncing them
  Object.assign(document.body.dataset, { locale: state.locale, guildLocale: state.guildLocale });
  document.body.dataset.ready = "true";
}

function renderWho() {
  const select = $("#who");
  select.replaceChildren(...state.members.map((m) => el("option", {
    value: m.id, selected: m.id === state.me ? "" : null,
  }, m.gm ? `${m.name} (GM)` : m.name)));
  const me = state.members.find((m) => m.id === state.me);
  $("#me").textContent = me ? `${me.name}${me.gm ? " · GM" : " · player"}` : "";
  renderLanguages(me);
  renderAsked();
}

// The languages the bot's commands are localized into (and the default), each by its own
// name: this person's client's, and (for who may manage the server) the server's preferred.
function renderLanguages(me) {
  const offered = (chosen) => state.locales.map((l) => el("option", {
    value: l.code, selected: l.code === chosen ? "" : null,
  }, l.name));
  $("#language").replaceChildren(...offered(state.locale));
  $("#server-language").replaceChildren(...offered(state.guildLocale));
  $("#server-language-box").hidden = !me?.gm;
}

async function speak(route, select) {
  await busy(select, async () => {
    const answer = await post(route, { locale: select.value });
    if (route === "locale") state.locale = answer.locale;
    else state.guildLocale = answer.guild_locale;
    Object.assign(document.body.dataset, { locale: state.locale, guildLocale: state.guildLocale });
  });
  renderLanguages(state.members.find((m) => m.id === state.me));  // refused: as it was
}

function be(id) {
  state.me = id;
  localStorage.setItem("unhex.me", state.me);
  load();
}

// Whom the table waits for (its live prompts ask them), marked in "Who you are": one person
// playing the whole table sees whom to be next; ☰ on a phone shows a dot when it is not them.
function renderAsked() {
  const asked = askedOf(state.messages.values(), state.members);
  for (const option of $("#who").options) option.classList.toggle("asked", asked.has(option.value));
  const waited = state.members.filter((m) => asked.has(m.id));
  $("#asked").replaceChildren(...(waited.length ? [el("span", { class: "hint" }, "Waiting for"),
    ...waited.map((m) => el("button", {
      class: `member asked${m.id === state.me ? " me" : ""}`, "data-member": m.name,
      title: m.id === state.me ? "You" : `Be ${m.name}`, onclick: () => be(m.id),
    }, icon("waiting"), ` ${m.name}`))] : []));
  $("#menu").classList.toggle("asking", waited.some((m) => m.id !== state.me));
}

// -- a newcomer's first visit ---------------------------------------------------------------

// The card shows by itself to a table where nothing was said yet (on the first reading of
// it), unless closed in this browser before; ? brings it back.
let welcomeDecided = false;
function welcomeIfEmpty(messages) {
  if (welcomeDecided) return;
  welcomeDecided = true;
  $("#welcome").hidden = messages.length > 0 || localStorage.getItem("unhex.welcomed") === "yes";
}

const listed = (names) => (names.length < 2 ? names.join("")
  : `${names.slice(0, -1).join(", ")} and ${names[names.length - 1]}`);

/** What a step of the example did, as the bot answered each command. */
function told(result) {
  const sent = result.accepted.length + result.refused.length;
  const lines = [];
  if (sent) lines.push(`The bot accepted ${result.accepted.length} of ${sent} commands.`);
  if (result.kept.length) lines.push(`Already there, left as they were: ${listed(result.kept)}.`);
  if (!sent) lines.push("Nothing to do.");
  return el("div", { class: "told" }, lines.join(" "),
    result.refused.length ? el("ul", { class: "refused" }, result.refused.map((r) => el("li", {},
      el("code", {}, r.command), ` refused: ${r.answer}`))) : null);
}

async function example(step, button) {
  await busy(button, async () => {
    $("#welcome-status").textContent = step === "characters"
      ? "alice, bob and the GM are typing their /character commands…" : "The GM starts the fight…";
    const result = await post("example", { step });
    $("#welcome-status").replaceChildren(told(result));
    if (step === "characters") {
      $("#welcome").dataset.step = "fight";
    } else if (result.accepted.length && !result.refused.length) {  // else: why not, told
      localStorage.setItem("unhex.welcomed", "yes");
      $("#welcome").hidden = true;
      const fight = [...state.channels.values()].find((c) => c.name === "fight");
      openChannel(fight.id);
    }
  });
}

function openWelcome() {
  $("#welcome").dataset.step = "characters";
  $("#welcome-status").replaceChildren();
  $("#welcome").hidden = false;
}

function setUp() {
  for (const node of document.querySelectorAll("[data-icon]")) node.replaceChildren(icon(node.dataset.icon));
  $("#who").addEventListener("change", (event) => be(event.target.value));
  $("#language").addEventListener("change", (event) => speak("locale", event.target));
  $("#server-language").addEventListener("change", (event) => speak("guild_locale", event.target));
  $("#menu").addEventListener("click", (event) => {
    event.stopPropagation();
    document.body.classList.toggle("sidebar-open");
  });
  // On a phone the channels cover the menu button: a tap beside them closes them.
  $("main").addEventListener("click", () => document.body.classList.remove("sidebar-open"));
  $("#show-pins").addEventListener("click", () => showPins($("#pins").hidden));
  $("#help").addEventListener("click", openWelcome);
  $("#example-characters").addEventListener("click", (e) => example("characters", e.currentTarget));
  $("#example-fight").addEventListener("click", (e) => example("fight", e.currentTarget));
  $("#welcome-close").addEventListener("click", () => {
    localStorage.setItem("unhex.welcomed", "yes");
    $("#welcome").hidden = true;
  });
  setInterval(() => tick(), 1000);
  load().catch(() => {
    offline(true);
    reload();
  });
}

setUp();
