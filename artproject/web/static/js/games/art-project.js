// The A.R.T. Project on screen: the mission's board (drawn from its table: cities, roads,
// the artwork track), the team's van, health, allies, the clue chain, the battle, your
// hand, and the legal actions as things to click (a city to move to, a card to play, a die
// to reroll; every action also as a button named in the notation).
import {clickable, h, s, words} from "../dom.js";
import {actionPanel, bySlot, eventLog, named, outcomeBanner} from "./common.js";

const SCALE = 8;
const PAD = 72; // room around the outer cities for their names (drawn larger on a phone)
const MARK = {films: "F", sculptures: "S", books: "B", paintings: "P", artifacts: "A", music: "M"};
const SEAT_FILL = ["#d62728", "#1f77b4", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b"];
const RES_MARK = {fuel: "◆", radio: "●", weapon: "▲"};
const CITY_VERBS = ["move", "carry", "fight", "place", "collect", "deploy"];
const TAP_PX = 46; // the least tap area, in CSS pixels: 44 (WCAG 2.5.5) and a margin for rounding
const HIT = 48; // a city's tap area's radius (board units; the drawn circle's is 24): on a phone's
// board a thumb's 44 px and more, but never reaching half-way to the nearest city

const mark = (sym) => MARK[sym] || String(sym || "").slice(0, 1).toUpperCase();
const plural = (n, one, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** The kind of a road as drawn: red (dashed), beige (solid), or grey (a board without threads). */
function roadKind(r) {
  return r.dashed || r.colour === "red" ? "red" : r.colour === "beige" ? "beige" : "grey";
}

/** Each city's tap area's radius: HIT, or less where another city is nearer than twice it. */
function hitRadii(table) {
  const out = {};
  for (const c of table.cities) {
    let near = Infinity;
    for (const o of table.cities) if (o !== c) near = Math.min(near, Math.hypot(o.x - c.x, o.y - c.y) * SCALE);
    out[c.name] = Math.max(24, Math.min(HIT, near / 2 - 1));
  }
  return out;
}

/** The board as SVG: roads (beige solid, red dashed), cities with their symbols, lost
 * cities crossed out, agents, artworks, pawns (numbered discs), the ally pawn (a diamond). */
export function board(table, view, legal, act) {
  const xs = table.cities.map((c) => c.x), ys = table.cities.map((c) => c.y);
  const x0 = Math.min(...xs) * SCALE - PAD, y0 = Math.min(...ys) * SCALE - PAD;
  const w = Math.max((Math.max(...xs) - Math.min(...xs)) * SCALE + 2 * PAD, 420);
  const hgt = (Math.max(...ys) - Math.min(...ys)) * SCALE + 2 * PAD + 20;
  const at = {};
  table.cities.forEach((c) => { at[c.name] = [c.x * SCALE, c.y * SCALE]; });
  const hit = hitRadii(table);
  // a board to tap on is never drawn smaller than makes its least tap area TAP_PX wide: on a
  // narrow phone it is that wide, and scrolls sideways in its frame (.board-wrap)
  const least = TAP_PX / (2 * Math.min(...Object.values(hit)));
  const svg = s("svg", {class: "board", viewBox: `${x0 - (w - ((Math.max(...xs) - Math.min(...xs)) * SCALE + 2 * PAD)) / 2} ${y0} ${w} ${hgt}`,
    role: "group", "aria-label": `${table.title} board`,
    style: act ? `min-width: ${Math.ceil(w * least)}px; min-height: ${Math.ceil(hgt * least)}px` : null});
  svg.append(s("title", {}, `${table.title}: the board`));
  const roads = s("g", {class: "roads"});
  for (const r of table.roads) {
    const [x1, y1] = at[r.from], [x2, y2] = at[r.to];
    const kind = roadKind(r);
    const line = s("line", {x1, y1, x2, y2, class: `road ${kind}`, "data-from": r.from, "data-to": r.to, "data-road": kind});
    const extra = Object.entries(r.attrs || {}).filter(([k]) => k !== "thread" && k !== "style");
    line.append(s("title", {}, `${r.from} – ${r.to}: ${kind === "red" ? "red road (dashed)" : kind === "beige" ? "beige road (solid)" : "road"}`
      + (extra.length ? ` (${extra.map(([k, v]) => `${k} ${v}`).join(", ")})` : "")));
    roads.append(line);
  }
  svg.append(roads);
  const lost = new Set(view ? view.lost : []);
  const artworks = new Set(view ? view.artworks : []);
  const agents = view ? view.agents : {};
  const targets = bySlot(legal, "city", CITY_VERBS);
  const cities = s("g", {class: "cities"});
  for (const c of table.cities) {
    const [x, y] = at[c.name];
    const isLost = lost.has(c.name);
    const g = s("g", {class: `city${isLost ? " lost" : ""}${c.start ? " start" : ""}`, "data-city": c.name});
    g.append(s("circle", {cx: x, cy: y, r: hit[c.name], class: "hit"}));  // (unseen: a thumb's target)
    g.append(s("circle", {cx: x, cy: y, r: 24, class: "spot"}));
    if (c.symbol) g.append(s("text", {x, y: y + 8, class: "symbol", "text-anchor": "middle"}, mark(c.symbol)));
    g.append(s("text", {x, y: y + 44, class: "name", "text-anchor": "middle"}, c.title));
    if (isLost) {
      g.append(s("path", {d: `M ${x - 17} ${y - 17} L ${x + 17} ${y + 17} M ${x + 17} ${y - 17} L ${x - 17} ${y + 17}`, class: "cross"}));
      g.append(s("text", {x, y: y + 60, class: "tagline", "text-anchor": "middle"}, "lost"));
    }
    if (c.start) g.append(s("path", {d: `M ${x + 18} ${y - 20} l 0 -26 l 18 7 l -18 7`, class: "hq-flag"}));
    const n = agents[c.name] || 0;
    if (n) {
      g.append(s("circle", {cx: x - 24, cy: y - 22, r: 13, class: "agents"}));
      g.append(s("text", {x: x - 24, y: y - 17, class: "agents-n", "text-anchor": "middle"}, String(n)));
    }
    if (artworks.has(c.name)) g.append(s("rect", {x: x + 14, y: y + 4, width: 18, height: 18, class: "artwork"}));
    const label = `${c.title}${c.symbol ? `, ${c.symbol}` : ""}${c.start ? ", headquarters (start)" : ""}`
      + `${isLost ? ", lost" : ""}${n ? `, ${plural(n, "agent")}` : ""}${artworks.has(c.name) ? ", an artwork" : ""}`;
    g.append(s("title", {}, label + (c.on_collect ? `; on collect: ${c.on_collect}` : "")));
    const a = targets.get(c.name);
    if (a) {
      g.classList.add("target");
      g.dataset.action = a;
      if (act) clickable(g, a, () => act(a));
    }
    cities.append(g);
  }
  svg.append(cities);
  if (view && view.pawns) {
    const byCity = {};
    for (const [label, city] of Object.entries(view.pawns)) (byCity[city] ||= []).push(label);
    const pawns = s("g", {class: "pawns"});
    for (const [city, labels] of Object.entries(byCity)) {
      if (!at[city]) continue;
      const [x, y] = at[city];
      labels.forEach((label, k) => {
        const px = x - 30 - 20 * k, py = y + 22;
        const carried = (view.carried || []).includes(label);
        const g = s("g", {class: `pawn${label === "ally" ? " ally" : ""}`, "data-pawn": label});
        if (label === "ally") {
          g.append(s("path", {d: `M ${px} ${py - 11} l 11 11 l -11 11 l -11 -11 z`, class: "ally-shape"}));
          g.append(s("text", {x: px, y: py + 5, "text-anchor": "middle", class: "pawn-n"}, "A"));
        } else {
          const i = Number(label.slice(1)) - 1;
          g.append(s("circle", {cx: px, cy: py, r: 10, fill: SEAT_FILL[i % SEAT_FILL.length], class: "pawn-shape"}));
          g.append(s("text", {x: px, y: py + 5, "text-anchor": "middle", class: "pawn-n"}, label.slice(1)));
        }
        if (carried) g.append(s("rect", {x: px - 5, y: py + 12, width: 10, height: 10, class: "artwork"}));
        g.append(s("title", {}, `${label === "ally" ? "the ally pawn" : `pawn ${label}`} in ${city}${carried ? ", carrying an artwork" : ""}`));
        pawns.append(g);
      });
    }
    svg.append(pawns);
  }
  return svg;
}

const ROAD_WORDS = {beige: "beige road (solid)", red: "red road (dashed)", grey: "road"};

/** The board's key: the kinds of road it has (none on a board without roads), the marks, and
 * the artwork symbols of its cities. */
function legend(table) {
  const roads = new Set(table.movement === "anywhere" ? [] : table.roads.map(roadKind));
  const symbols = new Set(table.cities.map((c) => c.symbol).filter(Boolean));
  return h("ul", {class: "legend", "aria-label": "legend"},
    ["beige", "red", "grey"].filter((k) => roads.has(k)).map((k) =>
      h("li", {"data-road": k}, h("span", {class: `key road-${k}`, "aria-hidden": "true"}), ROAD_WORDS[k])),
    h("li", {}, h("span", {class: "key agents-key", "aria-hidden": "true"}, "2"), "agents"),
    h("li", {}, h("span", {class: "key artwork-key", "aria-hidden": "true"}), "artwork"),
    h("li", {}, h("span", {class: "key lost-key", "aria-hidden": "true"}, "✕"), "lost city"),
    h("li", {}, h("span", {class: "key hq-key", "aria-hidden": "true"}, "⚑"), "headquarters"),
    h("li", {}, h("span", {class: "key ally-key", "aria-hidden": "true"}, "◇"), "ally pawn"),
    symbols.size ? h("li", {class: "symbols"}, [...symbols].map((k) => `${mark(k)} ${k}`).join(" · ")) : null);
}

/** The artwork track: each space's threat (as this team meets it: the threat in battle) and
 * ally cost; the spaces filled and the next one. */
function track(table, view) {
  const done = view ? view.track.length : 0;
  const list = h("ol", {class: "track", "aria-label": "artwork track"});
  table.track.forEach((t, i) => {
    const here = view && i === done;
    list.append(h("li", {class: [i < done ? "filled" : "", here ? "next" : ""], "data-space": String(i + 1)},
      h("span", {class: "threat", title: "threat"}, String(t.threat)),
      h("span", {class: "cost"}, `ally ${t.ally_cost}`),
      i < done ? h("span", {class: "got"}, `✓ ${view.track[i]}`) : t.symbol ? h("span", {class: "need"}, t.symbol) : null,
      here ? h("span", {class: "now"}, "next") : null));
  });
  return h("section", {class: "track-box"}, h("h3", {}, "Artwork track: threat, ally cost"), list);
}

/** One mission card with its four sections: cost, agents, gain, clues (its back). */
export function card(c, action, act) {
  const sec = c.sections || {};
  const el = h("article", {class: "card art-card", "data-card": String(c.id)},
    h("header", {}, h("span", {class: "id"}, `card ${c.id}`), c.title ? h("span", {}, c.title) : null),
    h("dl", {},
      h("dt", {}, "cost"), h("dd", {}, sec.cost || "—"),
      h("dt", {}, "agents"), h("dd", {}, sec.agents || "—"),
      h("dt", {}, "gain"), h("dd", {}, sec.gain || "—"),
      h("dt", {}, "clues"), h("dd", {class: "clues"}, (c.clues || []).map((x) => h("span", {class: "clue"}, `${mark(x)} ${x}`)))));
  if (action) {
    el.classList.add("playable");
    el.dataset.action = action;
    if (act) clickable(el, action, () => act(action));
    el.append(h("footer", {}, action));
  }
  return el;
}

function status(table, view) {
  return h("dl", {class: "status"},
    h("dt", {}, "Round"), h("dd", {}, `${view.round}${view.final_round ? " (final round)" : ""}`),
    h("dt", {}, "Phase"), h("dd", {}, `${view.phase}${view.wait ? ` — ${words(view.wait)}` : ""}`),
    h("dt", {}, "Deciding"), h("dd", {}, view.deciding.length ? view.deciding.join(", ") : "—"),
    h("dt", {}, "Threat"), h("dd", {class: "threat-now"}, `${view.threat} in battle`),
    h("dt", {}, "Ally cost"), h("dd", {}, String(view.ally_cost)),
    h("dt", {}, "Allies"), h("dd", {}, plural(view.allies, "ally die", "ally dice")),
    h("dt", {}, "Headquarters"), h("dd", {}, plural(view.hq, "agent")),
    h("dt", {}, "Deck"), h("dd", {}, `${plural(view.deck, "card")}${view.set_aside ? `, ${view.set_aside} set aside` : ""}`),
    h("dt", {}, "Discard"), h("dd", {}, `${plural(view.discard.length, "card")}, face up`));
}

function van(view) {
  return h("section", {class: "van"}, h("h3", {}, "Van"),
    h("ul", {class: "resources"}, Object.entries(view.van).map(([k, n]) => h("li", {class: `res res-${k}`, "data-resource": k},
      h("span", {class: "res-icon", "aria-hidden": "true"}, RES_MARK[k] || "■"),
      h("span", {class: "res-name"}, k), h("strong", {}, String(n))))));
}

function players(view, names) {
  return h("section", {class: "health"}, h("h3", {}, "Players"),
    h("ul", {}, Object.entries(view.health).map(([seat, n], i) => {
      const other = view.hands[seat];
      return h("li", {class: ["seat", seat === view.seat ? "me" : ""], "data-seat": seat},
        h("span", {class: "seat-dot", style: `background:${SEAT_FILL[i % SEAT_FILL.length]}`, "aria-hidden": "true"}, String(i + 1)),
        h("strong", {}, seat), names && names[seat] ? h("span", {class: "name"}, ` ${names[seat]}`) : null,
        seat === view.seat ? " (you)" : "", ` — health ${n}`,
        other ? ` · ${plural(other.size, "card")} in hand` : "",
        other && other.backs.length ? h("span", {class: "backs"}, ` (backs ${other.backs.map((b) => b.map(mark).join("+")).join(", ")})`) : "");
    })));
}

function chain(view, legal, act) {
  const rerolls = bySlot(legal, "card", ["reroll"]);
  const rows = view.chains ? Object.entries(view.chains) : [["team", view.chain]];
  const box = h("section", {class: "chain"}, h("h3", {}, view.chains ? "Clue chains" : "Clue chain"));
  for (const [who, cards] of rows) {
    box.append(h("div", {class: "chain-row"}, view.chains ? h("span", {class: "who"}, `${who}:`) : null,
      cards.length ? cards.map((c) => {
        const a = rerolls.get(String(c.id));
        const el = h("span", {class: "chain-card", "data-card": String(c.id), title: Object.entries(c.sections).map(([k, v]) => `${k}: ${v}`).join("; ")},
          `${c.id} `, h("span", {class: "clue-marks"}, (c.clues || []).map(mark).join("+")));
        if (a) { el.dataset.action = a; if (act) clickable(el, a, () => act(a)); }
        return el;
      }) : h("span", {class: "muted"}, "empty")));
  }
  return box;
}

function battle(view, legal, act) {
  const b = view.battle;
  if (!b) return null;
  const picks = bySlot(legal, "die", ["pick"]);
  return h("section", {class: "battle", "aria-label": "battle"},
    h("h3", {}, `Battle at ${b.city}, led by ${b.leader}`),
    h("p", {}, `strength ${b.strength} against ${b.agents}`),
    h("ul", {class: "dice"}, Object.entries(b.dice || {}).map(([label, v]) => {
      const a = picks.get(label);
      const el = h("li", {class: "die", "data-die": label}, h("span", {class: "pip"}, String(v)), h("span", {class: "die-label"}, label));
      if (a) { el.dataset.action = a; if (act) clickable(el, a, () => act(a)); }
      return el;
    })));
}

/** Your hand (a seat's view), or every hand (everything). */
function hands(view, legal, act, seat) {
  const box = h("section", {class: "hand-box"});
  const plays = bySlot(legal, "card", ["play", "discard", "trade"]);
  const show = (title, cards, mine) => {
    box.append(h("h3", {}, title));
    box.append(cards.length ? h("div", {class: "hand"}, cards.map((c) => card(c, mine ? plays.get(String(c.id)) : null, act)))
      : h("p", {class: "muted"}, "no cards"));
  };
  const all = view.hands_shown ? Object.entries(view.hands_shown) : [];
  if (all.length && all.every(([, cards]) => !cards.length)) box.append(h("p", {class: "muted"}, "No cards in any hand."));
  else for (const [p, cards] of all) show(`${p}'s hand`, cards, true);
  if (!view.hands_shown && view.seat) show(`Your hand (${view.seat})`, view.hand, true);
  return box.childElementCount ? box : null;
}

/** The round, the phase and who decides; after the end, that the game is over and how. */
function phaseLine(view, names) {
  if (view.outcome) return `Round ${view.round} · game over: the team ${words(view.outcome)}`;
  return `Round ${view.round} · ${view.phase}${view.wait ? ` · ${words(view.wait)}` : ""}`
    + `${view.deciding.length ? ` · deciding: ${view.deciding.map((x) => named(x, names)).join(", ")}` : ""}`;
}

/** The whole screen of a game of The A.R.T. Project. */
export function render(root, {table, view, legal, events, eventsNew, seat, act, names}) {
  legal = legal || [];
  const head = h("header", {class: "game-head"}, h("h2", {}, table.title),
    view ? h("p", {class: "phase-line"}, phaseLine(view, names)) : null);
  const main = h("div", {class: "board-wrap"}, board(table, view, legal, act),
    table.movement === "anywhere" ? h("p", {class: "muted"}, "On this board a pawn moves to any city, paying the movement cost: it has no roads.") : null,
    legend(table), track(table, view));
  const side = h("aside", {class: "side"});
  if (view) {
    side.append(status(table, view), van(view), players(view, names), chain(view, legal, act));
    const bt = battle(view, legal, act);
    if (bt) side.append(bt);
    const ap = actionPanel(legal, act, seat && seat !== "all" ? `Your move (${seat})` : "Your move");
    if (ap) side.append(ap);
  }
  root.replaceChildren(h("div", {class: "game art-project"}, head, view ? outcomeBanner(view) : null,
    h("div", {class: ["layout", side.childElementCount ? "" : "no-side"]}, main, side),
    view ? hands(view, legal, act, seat) : null,
    events ? eventLog(events, eventsNew) : null));
}
