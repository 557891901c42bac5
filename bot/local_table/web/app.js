// The local table: one Discord server in a browser. It reads what the chosen person sees
// (/table/state, then the feed's websocket) and acts as them through the server's people.

import { names, tick } from "./markdown.js";
import { el, messageNode, modalNode } from "./messages.js";
import { Composer } from "./composer.js";

const $ = (selector) => document.querySelector(selector);
const state = {
  me: localStorage.getItem("unhex.me"), members: [], roles: {}, channels: new Map(),
  messages: new Map(), commands: [], current: null, socket: null,
};
let composer = null;

// -- talking to the server ----------------------------------------------------------------

async function post(route, body) {
  const response = await fetch(`/table/${route}`, {
    method: "POST", headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ as: state.me, ...body }),
  });
  const answer = await response.json().catch(() => ({ error: response.statusText }));
  if (!response.ok) throw new Error(answer.error || response.statusText);
  return answer;
}

// What the bot answered: a form to fill in, or nothing within 3 s (said as Discord says it).
function answered(result, near) {
  if (result.answered === "modal") showModal(result.modal, result.token);
  else if (result.answered === null) notice("The application did not respond", near);
}

function notice(text, near) {
  const node = el("div", { class: "notice", role: "status" }, `⚠ ${text}`);
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
  if (force || box.scrollHeight - box.scrollTop - box.clientHeight < 200) box.scrollTop = box.scrollHeight;
}

function renderSidebar() {
  const list = $("#channels");
  list.replaceChildren();
  const all = [...state.channels.values()];
  for (const channel of all.filter((c) => !c.parent_id)) {
    list.append(channelItem(channel, "#"));
    for (const thread of all.filter((c) => c.parent_id === channel.id && !c.thread_metadata?.archived)) {
      list.append(channelItem(thread, "🧵", "thread"));
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
  $("#channel-mark").textContent = channel?.parent_id ? "🧵" : "#";
  renderSidebar();
  const box = $("#messages");
  box.replaceChildren(...[...state.messages.values()].filter((m) => m.channel_id === id)
    .map((m) => messageNode(m, actions, state)));
  if (!box.children.length) box.append(el("div", { class: "empty" }, `This is the start of #${channel?.name}.`));
  composer = new Composer($("#composer"), table);
  $("#pins").hidden = true;
  scrollDown(true);
}

function pinnedCopy(message) {
  const node = messageNode(message, actions, state);
  node.removeAttribute("id");  // the channel's own node keeps the id the feed updates
  return node;
}

function showPins() {
  const panel = $("#pins");
  const pinned = [...state.messages.values()].filter((m) => m.channel_id === state.current && m.pinned);
  panel.replaceChildren(el("h3", {}, "Pinned messages"),
    ...(pinned.length ? pinned.reverse().map((m) => pinnedCopy(m))
      : [el("div", { class: "empty" }, "This channel doesn't have any pinned messages... yet.")]));
  panel.hidden = !panel.hidden;
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
    if (data.channel_id !== state.current) return;
    const old = shown(data.id);
    const made = messageNode(data, actions, state);
    if (old) old.replaceWith(made);
    else {
      $("#messages .empty")?.remove();
      $("#messages").append(made);
    }
    scrollDown(false);
  } else if (change.kind === "message_delete") {
    state.messages.delete(data.id);
    shown(data.id)?.remove();
  } else if (change.kind === "pins_update") {
    const message = state.messages.get(data.message_id);
    if (message) apply({ kind: "message_update", data: { ...message, pinned: data.pinned } });
  } else {  // a thread or channel made or changed
    state.channels.set(data.id, data);
    names.channels.set(data.id, data.name);
    renderSidebar();
  }
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
// on from an index it no longer has.
let reloaded = 0;
function reload() {
  setTimeout(() => {
    reloaded = Date.now();
    load().catch(reload);
  }, Math.max(0, reloaded + 1000 - Date.now()));
}

async function load() {
  const answer = await (await fetch(`/table/state?as=${state.me || ""}`)).json();
  if (!answer.members.some((m) => m.id === state.me)) state.me = answer.members[0].id;
  Object.assign(state, {
    members: answer.members, roles: answer.roles, commands: answer.commands, since: answer.since,
    channels: new Map(answer.channels.map((c) => [c.id, c])),
    messages: new Map(answer.messages.map((m) => [m.id, m])),
  });
  names.users = new Map(answer.members.map((m) => [m.id, m.name]));
  names.users.set(answer.app_id, "Unhex");
  names.roles = new Map(Object.entries(answer.roles));
  names.channels = new Map(answer.channels.map((c) => [c.id, c.name]));
  $("#guild-name").textContent = answer.guild.name;
  renderWho();
  const wanted = location.hash.slice(1) || localStorage.getItem("unhex.channel");
  openChannel(state.channels.has(wanted) ? wanted : answer.channels[0].id);
  follow(answer.since);
  if (!answer.commands.length) setTimeout(load, 1000);  // the bot is still syncing them
  document.body.dataset.ready = "true";
}

function renderWho() {
  const select = $("#who");
  select.replaceChildren(...state.members.map((m) => el("option", {
    value: m.id, selected: m.id === state.me ? "" : null,
  }, m.gm ? `${m.name} (GM)` : m.name)));
  const me = state.members.find((m) => m.id === state.me);
  $("#me").textContent = me ? `${me.name}${me.gm ? " · GM" : " · player"}` : "";
}

// -- a newcomer's first visit ---------------------------------------------------------------

async function example(step, button) {
  await busy(button, async () => {
    $("#welcome-status").textContent = step === "characters"
      ? "alice, bob and the GM are typing their /character commands…" : "The GM starts the fight…";
    const result = await post("example", { step });
    $("#welcome-status").textContent = `Done: ${result.done.length} commands, as typed in the channels.`;
    if (step === "characters") {
      $("#welcome").dataset.step = "fight";
    } else {
      localStorage.setItem("unhex.welcomed", "yes");
      $("#welcome").hidden = true;
      const fight = [...state.channels.values()].find((c) => c.name === "fight");
      openChannel(fight.id);
    }
  });
}

function setUp() {
  $("#who").addEventListener("change", (event) => {
    state.me = event.target.value;
    localStorage.setItem("unhex.me", state.me);
    load();
  });
  $("#menu").addEventListener("click", () => document.body.classList.toggle("sidebar-open"));
  $("#show-pins").addEventListener("click", showPins);
  $("#help").addEventListener("click", () => { $("#welcome").hidden = false; });
  $("#example-characters").addEventListener("click", (e) => example("characters", e.target));
  $("#example-fight").addEventListener("click", (e) => example("fight", e.target));
  $("#welcome-close").addEventListener("click", () => {
    localStorage.setItem("unhex.welcomed", "yes");
    $("#welcome").hidden = true;
  });
  $("#welcome").hidden = localStorage.getItem("unhex.welcomed") === "yes";
  setInterval(() => tick(), 1000);
  load();
}

setUp();
