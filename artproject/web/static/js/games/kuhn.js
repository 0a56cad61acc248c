// Kuhn poker on screen: the deck (lowest first), the ante and the bet, each seat's stake and
// card (face down until the showdown, your own face up), the pot, and the legal actions.
import {h, words} from "../dom.js";
import {actionPanel, eventLog, outcomeBanner} from "./common.js";

function card(name, seat) {
  if (name === "?") return h("span", {class: "card-back", "data-back": seat, title: `${seat}'s card, face down`}, "face down");
  if (!name) return h("span", {class: "muted"}, "no card yet");
  return h("span", {class: "card kuhn-card", "data-card": name}, words(name));
}

/** The whole screen of a hand of Kuhn poker. */
export function render(root, {table, view, legal, events, eventsNew, seat, act, names}) {
  legal = legal || [];
  const head = h("header", {class: "game-head"}, h("h2", {}, table.title),
    h("p", {class: "phase-line"}, `pot ${view.pot}${view.deciding.length ? ` · deciding: ${view.deciding.join(", ")} (${words(view.wait)})` : ""}`));
  const rules = h("section", {class: "kuhn-rules", "aria-label": "rules"}, h("h3", {}, "Rules"),
    h("p", {}, `ante ${table.ante} · bet ${table.bet}`),
    h("ol", {class: "deck", "aria-label": "the deck, lowest first"}, table.cards.map((c) => h("li", {"data-card": c}, words(c)))));
  const seats = h("ul", {class: "seats"}, view.seats.map((s) => h("li",
    {class: ["seat", s.folded ? "dead" : "", s.seat === view.seat ? "me" : ""], "data-seat": s.seat},
    h("strong", {}, s.seat), names && names[s.seat] ? h("span", {class: "name"}, ` ${names[s.seat]}`) : null,
    h("span", {class: "stake"}, ` ${s.stake} in`), s.folded ? h("em", {}, " (folded)") : "",
    " ", card(s.seat === view.seat && view.card ? view.card : s.card, s.seat))));
  const side = h("aside", {class: "side"}, actionPanel(legal, act, seat && seat !== "all" ? `Your move (${seat})` : "Your move"));
  root.replaceChildren(h("div", {class: "game kuhn"}, head, outcomeBanner(view, names),
    h("div", {class: ["layout", side.childElementCount ? "" : "no-side"]},
      h("div", {class: "table"}, h("section", {class: "table-seats", "aria-label": "players"}, h("h3", {}, "Players"), seats), rules), side),
    events ? eventLog(events, eventsNew) : null));
}
