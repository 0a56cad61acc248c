// Art of War on screen: the table (every seat's tokens and hand size), the centre pile, the
// face-up discard pile, the challenge (who, the bet, the stakes, face-down cards as backs),
// your hand with each card's score and power, and bet/raise controls offering only the
// legal amounts.
import {button, clickable, h, words} from "../dom.js";
import {actionPanel, bySlot, eventLog, named, outcomeBanner} from "./common.js";

const SHAPES = ["●", "■", "▲", "◆", "★", "✚", "⬟"];
const plural = (n, one, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

function seatMark(seat) {
  return SHAPES[(Number(String(seat).slice(1)) - 1) % SHAPES.length];
}

function kinds(table) {
  return Object.fromEntries(table.cards.map((c) => [c.name, c]));
}

/** A card face: its title, score, power and what it does (in words where its file gives
 * them, else its other sections as written). */
export function face(c, action, act) {
  const other = c.says ? [] : Object.entries(c.sections || {}).filter(([k]) => k !== "rank");
  const el = h("article", {class: "card war-card", "data-card": c.name},
    h("header", {}, h("span", {class: "title"}, c.title || words(c.name)), h("span", {class: "score", title: "score"}, String(c.score))),
    h("p", {class: "meta"}, c.says ? `score ${c.score}` : `score ${c.score} · power ${c.power}`),
    c.says ? h("p", {class: "says"}, c.says) : null,
    other.length ? h("dl", {}, other.map(([k, t]) => [h("dt", {}, words(k)), h("dd", {}, t)])) : null);
  if (action) {
    el.classList.add("playable");
    el.dataset.action = action;
    if (act) clickable(el, action, () => act(action));
    el.append(h("footer", {}, action));
  }
  return el;
}

function back(seat) {
  return h("span", {class: "card-back", "data-back": seat, title: `${seat}'s card, face down`}, "face down");
}

function seats(view, names) {
  const list = h("ul", {class: "seats"});
  for (const st of view.seats) {
    const seat = st.seat;
    const tags = [];
    if (seat === view.seat) tags.push("you");
    if (seat === view.current && !view.outcome) tags.push("turn");  // (no one's turn after the end)
    if (view.deciding.includes(seat)) tags.push("deciding");
    if (!st.alive) tags.push("out");
    const place = view.standing ? view.standing.find((x) => x.player === seat) : null;
    list.append(h("li", {class: ["seat", st.alive ? "" : "dead", view.deciding.includes(seat) ? "deciding" : "", seat === view.seat ? "me" : ""], "data-seat": seat},
      h("span", {class: "mark", "aria-hidden": "true"}, seatMark(seat)),
      h("strong", {}, seat), names && names[seat] ? h("span", {class: "name"}, names[seat]) : null,
      h("span", {class: "tokens"}, plural(st.tokens, "token")),
      h("span", {class: "hand-size"}, `${plural(st.hand_size, "card")} in hand`),
      place ? h("span", {class: "place"}, `place ${place.place}${place.won ? " — winner" : ""}`) : null,
      tags.length ? h("span", {class: "tags"}, tags.map((t) => h("em", {class: `tag tag-${t}`}, t))) : null));
  }
  return h("section", {class: "table-seats", "aria-label": "players"}, h("h3", {}, "Players"), list);
}

function challenge(cards, view) {
  const t = view.table;
  if (!t) return h("section", {class: "challenge none"}, h("h3", {}, "Challenge"), h("p", {class: "muted"}, "no challenge on the table"));
  const who = t.defender ? `${t.attacker} challenges ${t.defender}` : `${t.attacker} leads`;
  const rows = Object.entries(t.stakes).map(([seat, stake]) => {
    const name = t.cards[seat];
    return h("li", {class: "stake", "data-seat": seat},
      h("strong", {}, `${seatMark(seat)} ${seat}`), ` stakes ${stake}`,
      t.withdrawn.includes(seat) ? h("em", {}, " (withdrawn)") : "",
      name === "?" ? back(seat) : name ? face(cards[name] || {name, title: words(name), score: "?", power: "?"})
        : h("span", {class: "muted"}, "no card yet"),
      (t.added[seat] || []).length ? h("span", {class: "added"}, `added: ${t.added[seat].map(words).join(", ")}`) : "");
  });
  return h("section", {class: "challenge", "aria-label": "challenge"}, h("h3", {}, "Challenge"),
    h("p", {}, `${words(t.kind)}: ${who}; bet ${t.bet}${t.raise ? `, raised by ${t.raise}` : ""}${t.revealed ? "; cards revealed" : ""}`),
    h("ul", {class: "stakes"}, rows));
}

function piles(view) {
  const discard = Object.entries(view.discard || {});
  return h("section", {class: "piles"},
    h("h3", {}, "Piles"),
    h("p", {}, h("span", {class: "centre"}, `centre pile: ${plural(view.centre, "token")}`),
      ` · deck: ${plural(view.deck, "card")} · out of play: ${plural(view.out, "token")}`),
    h("h4", {}, "Discard pile (face up)"),
    discard.length ? h("ul", {class: "discard"}, discard.map(([n, k]) => h("li", {}, `${words(n)} × ${k}`))) : h("p", {class: "muted"}, "empty"));
}

/** The bet and raise controls: one button per legal amount, nothing else. */
function betting(legal, act) {
  const box = h("section", {class: "betting"});
  for (const verb of ["bet", "raise"]) {
    const list = (legal || []).filter((a) => a.verb === verb);
    if (!list.length) continue;
    box.append(h("h3", {}, verb === "bet" ? "Bet (tokens)" : "Raise (tokens)"),
      h("div", {class: "amounts", role: "group", "aria-label": `${verb} amounts`},
        list.map((a) => act ? button(String(a.slots.tokens), () => act(a.text), {"data-action": a.text, "aria-label": a.text, class: "amount"})
          : h("span", {class: "amount inert"}, String(a.slots.tokens)))));
  }
  return box.childElementCount ? box : null;
}

function hands(view, legal, act) {
  const plays = bySlot(legal, "card", ["play", "add", "discard"]);
  const box = h("section", {class: "hand-box"});
  const show = (title, cards, mine) => {
    const total = cards.reduce((n, c) => n + (c.score || 0), 0);
    box.append(h("h3", {}, `${title}: ${plural(cards.length, "card")}, scores total ${total}`));
    box.append(cards.length ? h("div", {class: "hand"}, cards.map((c) => face(c, mine ? plays.get(c.name) : null, act)))
      : h("p", {class: "muted"}, "no cards"));
  };
  if (view.hands_shown) for (const [seat, cards] of Object.entries(view.hands_shown)) show(`${seat}'s hand`, cards, true);
  else if (view.seat) show(`Your hand (${view.seat})`, view.hand, true);
  return box.childElementCount ? box : null;
}

/** The deck's make-up (the rules' picture, which every player knows): shown to a viewer with
 * no hand, such as the watcher of a rules or card file. */
function deckKinds(table, view) {
  if (view.seat || view.hands_shown) return null;
  return h("section", {class: "deck-kinds", "aria-label": "the deck"},
    h("h3", {}, `The deck: ${plural(table.cards.reduce((n, c) => n + c.count, 0), "card")}`),
    h("ul", {}, table.cards.map((c) => h("li", {"data-kind": c.name},
      h("strong", {}, c.title || words(c.name)), ` × ${c.count} · score ${c.score} · power ${c.power}`))));
}

/** Whose move it is; after the end, that the game is over and who won. */
function phaseLine(view, names) {
  if (view.outcome) {
    const won = view.outcome === "draw" ? "a draw" : `${named(view.outcome, names)} won`;
    return `Game over after turn ${view.turn}: ${won}`;
  }
  return `Turn ${view.turn} · ${named(view.current, names)} to play`
    + `${view.deciding.length ? ` · deciding: ${view.deciding.join(", ")} (${words(view.wait)})` : ""}`;
}

/** The whole screen of a game of Art of War. */
export function render(root, {table, view, legal, events, eventsNew, seat, act, names}) {
  legal = legal || [];
  const cards = kinds(table);
  const head = h("header", {class: "game-head"}, h("h2", {}, table.title),
    h("p", {class: "phase-line"}, phaseLine(view, names)));
  const side = h("aside", {class: "side"}, betting(legal, act),
    actionPanel(legal, act, seat && seat !== "all" ? `Your move (${seat})` : "Your move"));
  root.replaceChildren(h("div", {class: "game art-of-war"}, head, outcomeBanner(view, names),
    h("div", {class: ["layout", side.childElementCount ? "" : "no-side"]}, h("div", {class: "table"}, seats(view, names), challenge(cards, view), piles(view)), side),
    hands(view, legal, act), deckKinds(table, view),
    events ? eventLog(events, eventsNew) : null));
}
