// The A.R.T. Project on screen: the mission's board (drawn from its data), the artwork
// track, the team's resources and health, the clue chain, the battle, your hand, and the
// legal actions as things to click (a city to move to, a card to play, a die to reroll).
import {clickable, h, s, words} from "../dom.js";
import {actionPanel, eventLog, outcomeBanner} from "./common.js";

const SCALE = 8;
const PAD = 56;
const MARK = {films: "F", sculptures: "S", books: "B", paintings: "P", artifacts: "A", music: "M"};
const SEAT_FILL = ["#d62728", "#1f77b4", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#555555"];

const mark = (sym) => MARK[sym] || String(sym || "").slice(0, 1).toUpperCase();

function pawnLabel(i, players) {
  return i < players ? `p${i + 1}` : "ally";
}

function seatCount(state) {
  return (state.health || []).length || 1;
}

/** The board as SVG: roads (beige solid, red dashed), cities with their symbols, lost cities
 * crossed out, agents, artworks, pawns (numbered), the ally pawn (a diamond). */
export function board(picture, state, legal, act, me) {
  const xs = picture.cities.map((c) => c.x), ys = picture.cities.map((c) => c.y);
  const x0 = Math.min(...xs) * SCALE - PAD, y0 = Math.min(...ys) * SCALE - PAD;
  const w = (Math.max(...xs) - Math.min(...xs)) * SCALE + 2 * PAD;
  const hgt = (Math.max(...ys) - Math.min(...ys)) * SCALE + 2 * PAD + 24;
  const at = {};
  picture.cities.forEach((c) => { at[c.name] = [c.x * SCALE, c.y * SCALE]; });
  const svg = s("svg", {class: "board", viewBox: `${x0} ${y0} ${w} ${hgt}`, role: "group",
    "aria-label": `${picture.title} board`});
  svg.append(s("title", {}, `${picture.title}: the board`));
  const roads = s("g", {class: "roads"});
  for (const r of picture.roads) {
    const [x1, y1] = at[r.from], [x2, y2] = at[r.to];
    const red = r.thread === "red" || r.style === "dashed";
    const line = s("line", {x1, y1, x2, y2, class: `road ${red ? "red" : "beige"}`,
      "data-from": r.from, "data-to": r.to});
    line.append(s("title", {}, `${r.from} – ${r.to}: ${red ? "red road (dashed)" : "beige road"}`
      + (Object.keys(r.attrs).length ? ` (${Object.entries(r.attrs).map(([k, v]) => `${k} ${v}`).join(", ")})` : "")));
    roads.append(line);
  }
  svg.append(roads);
  const lost = new Set(state ? state.lost || [] : []);
  const artworks = new Set(state ? state.artworks || [] : []);
  const agents = state ? state.agents || {} : {};
  const moves = {};
  for (const a of legal || []) {
    const w = a.split(" ");
    if ((w[0] === "move" || w[0] === "carry" || w[0] === "fight" || w[0] === "place"
      || w[0] === "collect" || w[0] === "deploy") && w.length >= 2) {
      const city = w[w.length - 1];
      (moves[city] ||= []).push(a);
    }
  }
  const cities = s("g", {class: "cities"});
  for (const c of picture.cities) {
    const [x, y] = at[c.name];
    const isLost = lost.has(c.name);
    const g = s("g", {class: `city${isLost ? " lost" : ""}${c.start ? " start" : ""}`, "data-city": c.name});
    g.append(s("circle", {cx: x, cy: y, r: 22, class: "spot"}));
    if (c.symbol) g.append(s("text", {x, y: y + 7, class: "symbol", "text-anchor": "middle"}, mark(c.symbol)));
    g.append(s("text", {x, y: y + 40, class: "name", "text-anchor": "middle"}, c.title));
    if (isLost) {
      g.append(s("path", {d: `M ${x - 16} ${y - 16} L ${x + 16} ${y + 16} M ${x + 16} ${y - 16} L ${x - 16} ${y + 16}`, class: "cross"}));
      g.append(s("text", {x, y: y + 54, class: "tagline", "text-anchor": "middle"}, "lost"));
    }
    if (c.start) g.append(s("path", {d: `M ${x + 16} ${y - 18} l 0 -24 l 17 7 l -17 7`, class: "hq-flag"}));
    const n = agents[c.name] || 0;
    if (n) {
      g.append(s("circle", {cx: x - 22, cy: y - 22, r: 12, class: "agents"}));
      g.append(s("text", {x: x - 22, y: y - 17, class: "agents-n", "text-anchor": "middle"}, String(n)));
    }
    if (artworks.has(c.name)) g.append(s("rect", {x: x + 12, y: y + 6, width: 16, height: 16, class: "artwork"}));
    const label = `${c.title}${c.symbol ? `, ${words(c.symbol)}` : ""}${c.start ? ", headquarters" : ""}`
      + `${isLost ? ", lost" : ""}${n ? `, ${n} agent${n > 1 ? "s" : ""}` : ""}${artworks.has(c.name) ? ", an artwork" : ""}`;
    g.append(s("title", {}, label + (c.effect ? `; on collect: ${c.effect}` : "")));
    const here = (moves[c.name] || []).filter((a) => !me || me === "all" || a.split(" ")[1] === me || a.split(" ").length === 2);
    const mine = here.length ? here : moves[c.name] || [];
    if (act && mine.length) {
      g.classList.add("target");
      clickable(g, mine[0], () => act(mine[0]));
      g.dataset.action = mine[0];
    } else if (mine.length) {
      g.classList.add("target");
    }
    cities.append(g);
  }
  svg.append(cities);
  if (state && state.pawns) {
    const players = seatCount(state);
    const byCity = {};
    const list = Array.isArray(state.pawns) ? state.pawns.map((c, i) => [pawnLabel(i, players), c])
      : Object.entries(state.pawns);
    list.forEach(([label, city]) => { (byCity[city] ||= []).push(label); });
    const pawns = s("g", {class: "pawns"});
    for (const [city, labels] of Object.entries(byCity)) {
      if (!at[city]) continue;
      const [x, y] = at[city];
      labels.forEach((label, k) => {
        const px = x - 7 * (labels.length - 1) + 14 * k, py = y - 36;
        const carried = (state.carried || []).includes(label);
        const g = s("g", {class: `pawn ${label === "ally" ? "ally" : ""}`, "data-pawn": label});
        if (label === "ally") {
          g.append(s("path", {d: `M ${px} ${py - 10} l 10 10 l -10 10 l -10 -10 z`, class: "ally-shape"}));
          g.append(s("text", {x: px, y: py + 4, "text-anchor": "middle", class: "pawn-n"}, "A"));
        } else {
          const i = Number(label.slice(1)) - 1;
          g.append(s("circle", {cx: px, cy: py, r: 9, fill: SEAT_FILL[i % SEAT_FILL.length], class: "pawn-shape"}));
          g.append(s("text", {x: px, y: py + 4, "text-anchor": "middle", class: "pawn-n"}, label.slice(1)));
        }
        if (carried) g.append(s("rect", {x: px - 4, y: py + 10, width: 8, height: 8, class: "artwork"}));
        g.append(s("title", {}, `${label === "ally" ? "the ally pawn" : `pawn ${label}`} in ${city}${carried ? ", carrying an artwork" : ""}`));
        pawns.append(g);
      });
    }
    svg.append(pawns);
  }
  return svg;
}

function legend() {
  return h("ul", {class: "legend", "aria-label": "legend"},
    h("li", {}, h("span", {class: "key road-beige", "aria-hidden": "true"}), "beige road (solid)"),
    h("li", {}, h("span", {class: "key road-red", "aria-hidden": "true"}), "red road (dashed)"),
    h("li", {}, h("span", {class: "key agents-key", "aria-hidden": "true"}, "2"), "agents"),
    h("li", {}, h("span", {class: "key artwork-key", "aria-hidden": "true"}), "artwork"),
    h("li", {}, h("span", {class: "key lost-key", "aria-hidden": "true"}, "✕"), "lost city"),
    h("li", {}, h("span", {class: "key hq-key", "aria-hidden": "true"}, "⚑"), "headquarters / start"),
    h("li", {}, Object.entries(MARK).map(([k, v]) => `${v} ${k}`).join(" · ")));
}

/** The artwork track: each space's threat (as the team meets it) and ally cost. */
function track(picture, state) {
  const extra = state ? (picture.threat_by_players || [])[seatCount(state) - 1] || 0 : 0;
  const done = state ? (state.track || []).length : 0;
  const list = h("ol", {class: "track", "aria-label": "artwork track"});
  picture.track.forEach((t, i) => {
    const here = i === done;
    list.append(h("li", {class: [i < done ? "filled" : "", here ? "next" : ""]},
      h("span", {class: "threat"}, String(t.threat + extra)),
      h("span", {class: "cost"}, `ally ${t.ally_cost}`),
      i < done ? h("span", {class: "got"}, `✓ ${words(state.track[i])}`) : t.symbol ? h("span", {class: "need"}, words(t.symbol)) : null,
      here ? h("span", {class: "now"}, "next") : null));
  });
  return h("section", {class: "track-box"}, h("h3", {}, "Artwork track: threat, ally cost"), list);
}

/** One mission card with its four sections: cost, agents, gain, clues (the back). */
export function card(picture, id, action, act) {
  const c = picture.cards[String(id)] || {title: `card ${id}`, sections: {}, clues: []};
  const sec = c.sections || {};
  const el = h("article", {class: "card art-card", "data-card": String(id)},
    h("header", {}, h("span", {class: "id"}, `#${id}`), c.title && c.title !== String(id) ? ` ${c.title}` : ""),
    h("dl", {},
      h("dt", {}, "cost"), h("dd", {}, sec.cost || "—"),
      h("dt", {}, "agents"), h("dd", {}, sec.agents || "—"),
      h("dt", {}, "gain"), h("dd", {}, sec.gain || "—"),
      h("dt", {}, "clues"), h("dd", {class: "clues"}, (c.clues || []).map((x) => h("span", {class: "clue"}, `${mark(x)} ${x}`)))));
  if (action) {
    el.classList.add("playable");
    if (act) clickable(el, action, () => act(action));
    el.dataset.action = action;
    el.append(h("footer", {}, action));
  }
  return el;
}

function status(picture, state, legal, act) {
  const players = seatCount(state);
  const van = Object.entries(state.van || {});
  const rows = h("dl", {class: "status"},
    h("dt", {}, "Round"), h("dd", {}, `${state.round}${state.final_round ? " (final round)" : ""}`),
    h("dt", {}, "Phase"), h("dd", {}, `${state.phase}${state.wait ? ` — ${words(state.wait)}` : ""}`),
    h("dt", {}, "Threat"), h("dd", {class: "threat-now"}, `${state.threat} (as fought)`),
    h("dt", {}, "Ally cost"), h("dd", {}, String(state.ally_cost)),
    h("dt", {}, "Allies"), h("dd", {}, `${state.allies} ally ${state.allies === 1 ? "die" : "dice"}`),
    h("dt", {}, "Headquarters"), h("dd", {}, `${state.hq} agent${state.hq === 1 ? "" : "s"}`),
    h("dt", {}, "Deck"), h("dd", {}, `${state.deck} card${state.deck === 1 ? "" : "s"}${state.set_aside ? `, ${state.set_aside} set aside` : ""}`),
    h("dt", {}, "Discard"), h("dd", {}, `${(state.discard || []).length} face up`));
  const vanBox = h("section", {class: "van"}, h("h3", {}, "Van"),
    h("ul", {class: "resources"}, van.map(([k, n]) => h("li", {class: `res res-${k}`},
      h("span", {class: "res-icon", "aria-hidden": "true"}, {fuel: "⛽", radio: "📻", weapon: "⚔"}[k] || "◆"),
      h("span", {class: "res-name"}, k), h("strong", {}, String(n))))));
  const health = h("section", {class: "health"}, h("h3", {}, "Players"),
    h("ul", {}, (state.health || []).map((n, i) => {
      const seat = `p${i + 1}`;
      const size = state.hand_sizes && seat in state.hand_sizes ? state.hand_sizes[seat] : null;
      const backs = state.hand_backs && state.hand_backs[seat];
      return h("li", {class: "seat", "data-seat": seat},
        h("span", {class: "seat-dot", style: `background:${SEAT_FILL[i % SEAT_FILL.length]}`, "aria-hidden": "true"}, String(i + 1)),
        h("strong", {}, seat), ` health ${n}`,
        size != null ? ` · ${size} card${size === 1 ? "" : "s"} in hand` : "",
        backs && backs.length ? h("span", {class: "backs"}, ` (backs: ${backs.map((b) => b.map(mark).join("+")).join(", ")})`) : "");
    })));
  const chains = state.chains || (state.chain ? {team: state.chain} : {});
  const chainBox = h("section", {class: "chain"}, h("h3", {}, "Clue chain"));
  const rerolls = new Map((legal || []).filter((a) => a.startsWith("reroll ")).map((a) => [a.split(" ")[1], a]));
  for (const [who, ids] of Array.isArray(chains) ? chains.map((c, i) => [`p${i + 1}`, c]) : Object.entries(chains)) {
    chainBox.append(h("div", {class: "chain-row"}, Object.keys(chains).length > 1 ? h("span", {class: "who"}, who) : null,
      ids.length ? ids.map((id) => {
        const c = picture.cards[String(id)] || {clues: []};
        const a = rerolls.get(String(id));
        const el = h("span", {class: "chain-card", "data-card": String(id)}, `#${id} `, (c.clues || []).map(mark).join("+"));
        if (a && act) clickable(el, a, () => act(a));
        if (a) el.dataset.action = a;
        return el;
      }) : h("span", {class: "muted"}, "empty")));
  }
  return h("div", {class: "side-status"}, rows, vanBox, health, chainBox);
}

function battle(state, legal, act) {
  const b = state.battle;
  if (!b) return null;
  const picks = new Map((legal || []).filter((a) => a.startsWith("pick ")).map((a) => [a.split(" ")[1], a]));
  return h("section", {class: "battle", "aria-label": "battle"},
    h("h3", {}, `Battle at ${words(b.city)}, led by ${b.leader}`),
    h("p", {}, `strength ${b.strength} against ${b.agents} (agents + threat)`),
    h("ul", {class: "dice"}, Object.entries(b.dice || {}).map(([label, v]) => {
      const a = picks.get(label);
      const el = h("li", {class: "die", "data-die": label}, h("span", {class: "pip"}, String(v)), h("span", {class: "die-label"}, label));
      if (a && act) clickable(el, a, () => act(a));
      if (a) el.dataset.action = a;
      return el;
    })));
}

/** Your hand (a seat's view), or every hand (everything). */
function hands(picture, state, legal, act, me) {
  const box = h("section", {class: "hand-box"});
  const plays = new Map();
  for (const a of legal || []) {
    const w = a.split(" ");
    if ((w[0] === "play" || w[0] === "discard" || w[0] === "trade") && w.length >= 2) plays.set(w[w.length - 1], plays.get(w[w.length - 1]) || a);
  }
  const show = (title, ids) => {
    box.append(h("h3", {}, title));
    box.append(ids.length ? h("div", {class: "hand"}, ids.map((id) => card(picture, id, plays.get(String(id)), act)))
      : h("p", {class: "muted"}, "no cards"));
  };
  if (state.hands) for (const [seat, ids] of Object.entries(state.hands)) show(`${seat}'s hand`, ids);
  else show(me ? `Your hand (${me})` : "Hand", state.hand || []);
  return box;
}

/** The whole screen of a game of The A.R.T. Project. */
export function render(root, {picture, state, seat, act}) {
  const legal = state ? state.legal || [] : [];
  const head = h("header", {class: "game-head"}, h("h2", {}, picture.title),
    state ? h("p", {class: "phase-line"}, `Round ${state.round} · ${state.phase}${state.wait ? ` · waiting: ${words(state.wait)}` : ""}`) : null);
  const main = h("div", {class: "board-wrap"}, board(picture, state, legal, act, seat), legend(), track(picture, state));
  const side = h("aside", {class: "side"});
  if (state) {
    side.append(status(picture, state, legal, act));
    const bt = battle(state, legal, act);
    if (bt) side.append(bt);
    const ap = actionPanel(legal, act);
    if (ap) side.append(ap);
  }
  root.replaceChildren(h("div", {class: "game art-project"}, head, state ? outcomeBanner(state) : null,
    h("div", {class: "layout"}, main, side),
    state ? hands(picture, state, legal, act, seat) : null,
    state && state.log ? eventLog(state.log, state.new) : null));
}
