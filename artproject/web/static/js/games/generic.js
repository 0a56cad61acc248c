// The screen of a game without one of its own (the server names it in the table's `screen`:
// artproject/web/static/js/games/<game>.js where the game has one, else this): its title and
// whose move, the view the page receives and the game's fixed table (its rules' picture),
// each as names and values, the legal actions as buttons, the events.
import {h, words} from "../dom.js";
import {actionPanel, eventLog, outcomeBanner} from "./common.js";

const NOT_TABLE = new Set(["game", "title", "screen"]); // (the head shows them)
const NOT_VIEW = new Set(["game", "legal", "outcome", "reason"]); // (the head, the banner, the buttons)

function plain(v) {
  return v === null || typeof v !== "object";
}

/** A value as text (a list of plain values joined), or as a list or names and values. */
function value(v, depth) {
  if (v === null || v === undefined || v === "") return h("span", {class: "muted"}, "none");
  if (Array.isArray(v)) {
    if (!v.length) return h("span", {class: "muted"}, "none");
    if (v.every(plain)) return v.map(String).join(", ");
    return h("ol", {}, v.map((x) => h("li", {}, value(x, depth + 1))));
  }
  if (typeof v === "object") return depth > 6 ? JSON.stringify(v) : facts(v, null, depth + 1);
  return String(v);
}

/** An object's names and values, as a definition list (those in `skip` left out). */
function facts(obj, skip, depth = 0) {
  const list = h("dl", {class: "facts"});
  for (const [k, v] of Object.entries(obj || {})) {
    if (skip && skip.has(k)) continue;
    list.append(h("dt", {}, words(k)), h("dd", {"data-key": k}, value(v, depth)));
  }
  return list;
}

/** The whole screen of a game of any game. */
export function render(root, {table, view, legal, events, eventsNew, seat, act, names}) {
  legal = legal || [];
  view = view || {};
  const deciding = [].concat(view.deciding || []).filter(Boolean);
  const head = h("header", {class: "game-head"}, h("h2", {}, table.title || words(table.game)),
    h("p", {class: "phase-line"}, deciding.length ? `deciding: ${deciding.join(", ")}${view.wait ? ` (${words(view.wait)})` : ""}` : ""));
  const now = h("section", {class: "generic-view", "aria-label": "the game now"}, h("h3", {}, "Now"), facts(view, NOT_VIEW));
  const fixed = h("section", {class: "generic-table", "aria-label": "the table"}, h("h3", {}, "Table"), facts(table, NOT_TABLE));
  const side = h("aside", {class: "side"}, actionPanel(legal, act, seat && seat !== "all" ? `Your move (${seat})` : "Your move"));
  root.replaceChildren(h("div", {class: ["game", "generic"], "data-game": table.game}, head, outcomeBanner(view, names),
    h("div", {class: ["layout", side.childElementCount ? "" : "no-side"]}, h("div", {class: "table"}, now, fixed), side),
    events ? eventLog(events, eventsNew) : null));
}
