// Art of War on screen: the table (every seat's tokens and hand size), the centre pile, the
// face-up discard pile, the challenge (who, the bet, the stakes, face-down cards as backs),
// your hand with each card's score and power, and bet/raise controls offering only the
// legal amounts.
import {button, clickable, h, words} from "../dom.js";
import {actionPanel, eventLog, outcomeBanner} from "./common.js";

const SHAPES = ["●", "■", "▲", "◆", "★", "✚", "⬟"];

function seatMark(seat) {
  return SHAPES[(Number(seat.slice(1)) - 1) % SHAPES.length];
}

/** A card face: name, score, bonus, powers. */
export function face(picture, name, action, act) {
  const c = picture.cards[name] || {title: words(name), score: "?", text: {}};
  const powers = Object.entries(c.text || {}).filter(([k]) => k !== "rank");
  const el = h("article", {class: "card war-card", "data-card": name},
    h("header", {}, h("span", {class: "title"}, c.title || words(name)), h("span", {class: "score", title: "score"}, String(c.score))),
    h("p", {class: "meta"}, `score ${c.score}${c.bonus ? ` · adds +${c.bonus} from hand` : ""}`),
    powers.length ? h("dl", {}, powers.map(([k, t]) => [h("dt", {}, words(k)), h("dd", {}, t)])) : h("p", {class: "muted"}, "no power"));
  if (action) {
    el.classList.add("playable");
    el.dataset.action = action;
    if (act) clickable(el, action, () => act(action));
    el.append(h("footer", {}, action));
  }
  return el;
}

function back(seat) {
  return h("span", {class: "card-back", title: `${seat}'s card, face down`}, h("span", {class: "back-pattern", "aria-hidden": "true"}), "face down");
}

function seats(state, me) {
  const list = h("ul", {class: "seats"});
  for (const seat of Object.keys(state.tokens)) {
    const alive = state.alive.includes(seat);
    const tags = [];
    if (seat === me) tags.push("you");
    if (seat === state.current) tags.push("turn");
    if (seat === state.deciding) tags.push("deciding");
    if (!alive) tags.push("out");
    list.append(h("li", {class: ["seat", alive ? "" : "dead", seat === state.deciding ? "deciding" : "", seat === me ? "me" : ""], "data-seat": seat},
      h("span", {class: "mark", "aria-hidden": "true"}, seatMark(seat)),
      h("strong", {}, seat),
      h("span", {class: "tokens"}, `${state.tokens[seat]} token${state.tokens[seat] === 1 ? "" : "s"}`),
      h("span", {class: "hand-size"}, `${state.hand_sizes[seat]} card${state.hand_sizes[seat] === 1 ? "" : "s"}`),
      tags.length ? h("span", {class: "tags"}, tags.map((t) => h("em", {class: `tag tag-${t}`}, t))) : null));
  }
  return h("section", {class: "table-seats", "aria-label": "players"}, h("h3", {}, "Players"), list);
}

function challenge(picture, state) {
  const t = state.table;
  if (!t) return h("section", {class: "challenge none"}, h("h3", {}, "Challenge"), h("p", {class: "muted"}, "no challenge on the table"));
  const who = t.defender ? `${t.attacker} challenges ${t.defender}` : `${t.attacker}: ${words(t.kind)}`;
  const rows = Object.entries(t.stakes).map(([seat, stake]) => {
    const card = t.cards[seat];
    const withdrawn = t.withdrawn.includes(seat);
    return h("li", {class: "stake", "data-seat": seat},
      h("strong", {}, `${seatMark(seat)} ${seat}`), ` stakes ${stake}`,
      withdrawn ? h("em", {}, " (withdrawn)") : "",
      card === "?" ? back(seat) : card ? h("span", {class: "shown"}, face(picture, card)) : h("span", {class: "muted"}, " no card yet"),
      (t.added[seat] || []).length ? h("span", {class: "added"}, ` added: ${t.added[seat].map(words).join(", ")}`) : "");
  });
  return h("section", {class: "challenge", "aria-label": "challenge"}, h("h3", {}, "Challenge"),
    h("p", {}, `${words(t.kind)} — ${who}; bet ${t.bet}${t.raise ? `, raised by ${t.raise}` : ""}${t.revealed ? "; cards revealed" : ""}`),
    h("ul", {class: "stakes"}, rows));
}

function piles(picture, state) {
  const discard = Object.entries(state.discard || {});
  return h("section", {class: "piles"},
    h("h3", {}, "Piles"),
    h("p", {}, h("span", {class: "centre"}, `centre pile: ${state.centre} token${state.centre === 1 ? "" : "s"}`),
      ` · deck: ${state.deck} card${state.deck === 1 ? "" : "s"}`, ` · tokens out of play: ${state.out}`),
    h("h4", {}, "Discard pile (face up)"),
    discard.length ? h("ul", {class: "discard"}, discard.map(([n, k]) => h("li", {}, `${words(n)} × ${k}`))) : h("p", {class: "muted"}, "empty"));
}

/** The bet and raise controls: one button per legal amount, nothing else. */
function betting(legal, act) {
  const amounts = (legal || []).filter((a) => /^(bet|raise) /.test(a));
  if (!amounts.length) return null;
  const verb = amounts[0].split(" ")[0];
  return h("section", {class: "betting", "aria-label": `${verb} amounts`}, h("h3", {}, verb === "bet" ? "Bet" : "Raise"),
    h("div", {class: "amounts"}, amounts.map((a) => act ? button(a.split(" ")[2], () => act(a), {"data-action": a, "aria-label": a, class: "amount"})
      : h("span", {class: "amount inert"}, a.split(" ")[2]))));
}

function myHand(picture, state, legal, act, me) {
  const plays = new Map();
  for (const a of legal || []) {
    const w = a.split(" ");
    if ((w[0] === "play" || w[0] === "add" || w[0] === "discard") && w.length === 3 && !plays.has(w[2])) plays.set(w[2], a);
  }
  const box = h("section", {class: "hand-box"});
  const show = (title, names, mine) => {
    const total = names.reduce((n, k) => n + ((picture.cards[k] || {}).score || 0), 0);
    box.append(h("h3", {}, `${title} — ${names.length} card${names.length === 1 ? "" : "s"}, total score ${total}`));
    box.append(names.length ? h("div", {class: "hand"}, names.map((k) => face(picture, k, mine ? plays.get(k) : null, act)))
      : h("p", {class: "muted"}, "no cards"));
  };
  if (state.hands) for (const [seat, names] of Object.entries(state.hands)) show(`${seat}'s hand`, names, false);
  else show(me ? `Your hand (${me})` : "Hand", state.hand || [], true);
  return box;
}

/** The whole screen of a game of Art of War. */
export function render(root, {picture, state, seat, act}) {
  const legal = state.legal || [];
  const me = seat && seat !== "all" ? seat : null;
  const head = h("header", {class: "game-head"}, h("h2", {}, picture.title),
    h("p", {class: "phase-line"}, `Turn ${state.turn} · ${state.current} to play${state.deciding ? ` · ${state.deciding} deciding (${words(state.wait)})` : ""}`));
  const side = h("aside", {class: "side"}, betting(legal, act), actionPanel(legal, act));
  root.replaceChildren(h("div", {class: "game art-of-war"}, head, outcomeBanner(state),
    h("div", {class: "layout"}, h("div", {class: "table"}, seats(state, me), challenge(picture, state), piles(picture, state)), side),
    myHand(picture, state, legal, act, me),
    state.log ? eventLog(state.log, state.new) : null));
}
