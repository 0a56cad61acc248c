// The replay viewer: open a save, a transcript, a results store or a scenario; step forward,
// back or to any decision; each step its own address (/replay/ID/STEP?view=SEAT).
import {api, button, h, heldSeats, problem, put} from "../dom.js";

const GAME = "game-"; // a replay of a game of this server's: game-ID

/** The request options for a replay: a game of the server's is asked with the token of the
 * seat this browser holds in it (its view before the game is over is that seat's alone):
 * the viewed seat's when it holds several, else the first it holds. */
function asking(rid, view = null) {
  const held = rid.startsWith(GAME) ? heldSeats(rid.slice(GAME.length)) : [];
  const pick = held.find((x) => x.seat === view) || held[0];
  return pick ? {headers: {"X-Seat-Token": pick.token}} : {};
}

/** The view to open a replay in: everything for a finished game, else the seat held, else
 * the first seat's (a file) or the public view (a game of the server's). */
function firstView(summary) {
  if (summary.over) return "all";
  const held = summary.id.startsWith(GAME) ? heldSeats(summary.id.slice(GAME.length)) : [];
  const mine = held.find((x) => summary.views.includes(x.seat));
  if (mine) return mine.seat;
  return summary.views.includes(summary.seats[0]) ? summary.seats[0] : "public";
}

function viewLabel(v) {
  if (v === "all") return "everything (game over)";
  if (v === "public") return "public (no hand)";
  return `seat ${v}`;
}
import {renderGame} from "../games/index.js";

function stepUrl(rid, step, view) {
  return `/replay/${encodeURIComponent(rid)}/${step}?view=${encodeURIComponent(view)}`;
}

function go(url) {
  history.pushState(null, "", url);
  window.dispatchEvent(new PopStateEvent("popstate"));
}

async function upload(file, out) {
  put(out, h("p", {class: "loading"}, `Opening ${file.name}…`));
  try {
    const got = await api(`/api/replays?name=${encodeURIComponent(file.name)}`, {method: "POST", body: file});
    if (got.kind === "store") { showStore(out, got); return; }
    go(stepUrl(got.id, 0, firstView(got)));
  } catch (err) {
    put(out, problem(`${file.name} cannot be replayed`, err.message));
  }
}

const PAGE = 100; // games a page of a store's list
// The columns a designer filters a store's games by (each a select of the values there).
const FILTERS = [["mission", "rules"], ["variant", "variant"], ["players", "players"],
  ["difficulty", "difficulty"], ["policy", "policy"], ["outcome", "outcome"]];

function plural(n, word) {
  return `${n.toLocaleString("en")} ${word}${n === 1 ? "" : "s"}`;
}

/** A results store's games: filters by rules, variant, players, difficulty, policy and
 * outcome (each a list of the values in the store), and a page of the games that match. */
function showStore(out, store) {
  const games = store.games;
  // a mission stored under two rules (its file edited between sweeps): each game's named
  // with its rules' digest, as `report` names them
  const digests = {};
  for (const g of games) (digests[g.mission] ||= new Set()).add(g.rules);
  const named = (g) => digests[g.mission].size > 1 ? `${g.mission} [rules ${g.rules.slice(0, 6)}]` : g.mission;
  const chosen = {}; // column -> "=" and the value asked for ("" for any)
  const list = h("div", {class: "store-games"});
  let page = 0;
  const draw = () => {
    const hits = games.filter((g) => FILTERS.every(([k]) => !chosen[k] || `=${g[k]}` === chosen[k]));
    const pages = Math.max(1, Math.ceil(hits.length / PAGE));
    page = Math.min(page, pages - 1);
    const shown = hits.slice(page * PAGE, page * PAGE + PAGE);
    const rows = shown.map((g) => h("tr", {},
      h("td", {}, h("a", {href: stepUrl(`${store.id}.${g.index}`, 0, "all")}, `${named(g)} seed ${g.seed}`)),
      h("td", {}, g.variant || "—"), h("td", {}, String(g.players)), h("td", {}, g.difficulty),
      h("td", {}, g.policy), h("td", {}, g.outcome), h("td", {class: "cause"}, g.cause),
      h("td", {}, String(g.rounds)), h("td", {}, String(g.decisions))));
    const turn = (k) => { page = k; draw(); };
    const pager = pages > 1 ? h("nav", {class: "store-pages", "aria-label": "pages of games"},
      button("◀ Previous", () => turn(page - 1), {disabled: page === 0}),
      h("span", {"aria-live": "polite"}, ` Page ${page + 1} of ${pages} `),
      button("Next ▶", () => turn(page + 1), {disabled: page >= pages - 1})) : null;
    put(list,
      h("p", {class: "store-count"}, hits.length === games.length ? `Showing ${shown.length ? page * PAGE + 1 : 0}–${page * PAGE + shown.length} of ${plural(games.length, "game")}`
        : `${plural(hits.length, "game")} match (of ${games.length.toLocaleString("en")}); showing ${shown.length ? page * PAGE + 1 : 0}–${page * PAGE + shown.length}`),
      shown.length ? h("table", {}, h("thead", {}, h("tr", {}, ["game", "variant", "players", "difficulty", "policy", "outcome", "cause", "rounds", "decisions"].map((x) => h("th", {scope: "col"}, x)))),
        h("tbody", {}, rows)) : h("p", {}, "No game matches."), pager);
  };
  const selects = FILTERS.map(([k, label]) => {
    const values = [...new Set(games.map((g) => String(g[k])))].sort((a, b) => a.localeCompare(b, "en", {numeric: true}));
    const sel = h("select", {name: k, "aria-label": label},
      h("option", {value: ""}, "any"), values.map((v) => h("option", {value: `=${v}`}, v === "" ? "(none)" : v)));
    sel.addEventListener("change", () => { chosen[k] = sel.value; page = 0; draw(); });
    return h("label", {}, `${label} `, sel);
  });
  put(out, h("section", {class: "store"}, h("h2", {}, `Results store ${store.name}: ${plural(games.length, "game")}`),
    games.length ? [h("div", {class: "store-filters"}, selects), list] : h("p", {}, "The store holds no games.")));
  if (games.length) draw();
}

function opener(main) {
  const out = h("div", {class: "opened"});
  const input = h("input", {type: "file", id: "replay-file", accept: ".json,.toml,.txt,.db,.sqlite,.sqlite3"});
  input.addEventListener("change", () => { if (input.files[0]) upload(input.files[0], out); });
  const zone = h("label", {class: "drop", for: "replay-file"},
    h("strong", {}, "Choose a file"), " or drop it here: a save (.json, .toml), a transcript (.txt), a scenario (.toml, as `verify` writes it) or a results store (`--store` .db)");
  zone.addEventListener("dragover", (e) => { e.preventDefault(); zone.classList.add("over"); });
  zone.addEventListener("dragleave", () => zone.classList.remove("over"));
  zone.addEventListener("drop", (e) => { e.preventDefault(); zone.classList.remove("over"); if (e.dataTransfer.files[0]) upload(e.dataTransfer.files[0], out); });
  put(main, h("section", {class: "replay-open"}, h("h1", {}, "Replay a game"),
    h("p", {}, "Step through a game decision by decision, with the board as it stood. Each step has its own address to share."),
    zone, input, out));
}

let current = null; // the step on screen: {rid, step, view, steps}

function controls(data) {
  const {id, step, steps, viewer: view} = data;
  const to = (k) => go(stepUrl(id, Math.max(0, Math.min(steps, k)), view));
  const slider = h("input", {type: "range", min: 0, max: steps, value: step, "aria-label": "jump to step", id: "step-slider"});
  slider.addEventListener("change", () => to(Number(slider.value)));
  const views = h("select", {"aria-label": "whose view", id: "view-select"},
    data.views.map((v) => h("option", {value: v, selected: v === view}, viewLabel(v))));
  views.addEventListener("change", () => go(stepUrl(id, step, views.value)));
  return h("nav", {class: "stepper", "aria-label": "steps"},
    button("« First", () => to(0), {disabled: step === 0, "aria-keyshortcuts": "Home"}),
    button("◀ Back", () => to(step - 1), {disabled: step === 0, "aria-keyshortcuts": "ArrowLeft", id: "step-back"}),
    h("span", {class: "where", "aria-live": "polite"}, `Step ${step} of ${steps}`),
    button("Forward ▶", () => to(step + 1), {disabled: step >= steps, "aria-keyshortcuts": "ArrowRight", id: "step-forward"}),
    button("Last »", () => to(steps), {disabled: step >= steps, "aria-keyshortcuts": "End"}),
    slider, h("label", {class: "view-label"}, "View ", views));
}

function decisions(data) {
  const list = h("ol", {class: "decisions"});
  data.decisions.forEach((label, i) => {
    const k = i + 1;
    list.append(h("li", {}, h("span", {class: "n"}, `${k}.`), " ",
      h("a", {href: stepUrl(data.id, k, data.viewer), "aria-current": k === data.step ? "step" : null}, label)));
  });
  const box = h("details", {class: "decision-list", open: true}, h("summary", {}, `All ${data.decisions.length} decisions`), list);
  queueMicrotask(() => {  // the current decision in sight, without scrolling the page
    const cur = list.querySelector("[aria-current]");
    if (cur) list.scrollTop = cur.offsetTop - list.offsetTop - list.clientHeight / 2;
  });
  return box;
}

let asked = 0; // the number of the last step asked for: an older answer is not drawn

async function showStep(main, rid, stepText) {
  const view = new URLSearchParams(location.search).get("view") || (rid.startsWith(GAME) ? "public" : "p1");
  const n = ++asked;
  if (!current) put(main, h("p", {class: "loading"}, "Loading the step…"));
  let data;
  try {
    data = await api(`/api/replays/${encodeURIComponent(rid)}/${encodeURIComponent(stepText)}?view=${encodeURIComponent(view)}`, asking(rid, view));
    if (n !== asked) return;
  } catch (err) {
    if (n !== asked) return;
    const open = !/is not open on this server|there is no game/.test(err.message);
    put(main, problem("This step cannot be shown", err.message),
      h("p", {}, open ? [h("a", {href: stepUrl(rid, 0, view)}, "Go to the start of this replay"), " · "] : null,
        h("a", {href: "/replay"}, "Open a file to replay")));
    return;
  }
  current = data;
  document.title = `${data.title}: step ${data.step} — artproject`;
  const board = h("div", {class: "replay-board"});
  const led = h("section", {class: "led", "aria-label": "what led here"},
    data.step === 0 ? h("p", {}, h("strong", {}, "The start"), " — set-up, before the first decision")
      : h("p", {}, h("strong", {}, `Decision ${data.step}: `), h("code", {class: "led-action"}, data.led)),
    data.events_new ? h("ul", {class: "led-events", "aria-label": "what followed"}, data.events.slice(data.events.length - data.events_new).map((e) => h("li", {}, e))) : null);
  put(main, h("div", {class: "replay"},
    h("header", {class: "replay-head"}, h("h1", {}, data.title), controls(data)),
    led, board, decisions(data)));
  await renderGame(board, {table: data.table, view: data.view, legal: data.legal, events: data.events,
    eventsNew: data.events_new, seat: data.viewer, act: null, names: data.names || null});
}

/** The step the address asks for: ahead of the one on screen while it loads, so that keys
 * pressed quickly each count (the step on screen's when the address names none). */
function addressed() {
  const m = /\/(\d+)$/.exec(location.pathname);
  return m ? Number(m[1]) : current.step;
}

function keys(e) {
  if (!current || e.target.closest("input, select, textarea")) return;
  const at = addressed();
  const map = {ArrowLeft: at - 1, ArrowRight: at + 1, Home: 0, End: current.steps};
  if (!(e.key in map)) return;
  const k = Math.max(0, Math.min(current.steps, map[e.key]));
  if (k === at) return;
  e.preventDefault();
  go(stepUrl(current.id, k, current.viewer));
}

let bound = false;
export async function show(main, [rid, step]) {
  if (!bound) { document.addEventListener("keydown", keys); bound = true; }
  if (!rid) { current = null; opener(main); return; }
  if (step) { await showStep(main, rid, step); return; }
  // no step: the replay's start, in the view that fits it (a store: the list of its games)
  try {
    const got = await api(`/api/replays/${encodeURIComponent(rid)}`, asking(rid));
    if (got.kind === "store") { current = null; put(main, h("h1", {}, "Replay a game"), h("div", {class: "opened"})); showStore(main.querySelector(".opened"), got); return; }
    history.replaceState(null, "", stepUrl(rid, 0, firstView(got)));
  } catch (err) {
    put(main, problem("This replay cannot be shown", err.message), h("p", {}, h("a", {href: "/replay"}, "Open a file to replay")));
    return;
  }
  await showStep(main, rid, "0");
}
