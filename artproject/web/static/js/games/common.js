// What both games' screens share: the list of legal actions as buttons, the event log.
import {button, h, words} from "../dom.js";

/** Every legal action as a button named in the notation, grouped by its verb; those the
 * board already offers (a city, a card, a die) are here too, so a keyboard reaches all. */
export function actionPanel(legal, act, title = "Your move") {
  if (!legal || !legal.length) return null;
  const groups = new Map();
  for (const a of legal) {
    if (!groups.has(a.verb)) groups.set(a.verb, []);
    groups.get(a.verb).push(a);
  }
  const box = h("section", {class: "actions", "aria-label": "legal actions"},
    h("h3", {}, act ? title : "Legal here"));
  for (const [verb, list] of groups) {
    box.append(h("div", {class: "group", role: "group", "aria-label": verb},
      list.map((a) => act ? button(a.text, () => act(a.text), {class: `act verb-${verb}`, "data-action": a.text, title: a.help || null})
        : h("span", {class: "act inert", title: a.help || null}, a.text))));
  }
  return box;
}

/** The events, newest last; the last `fresh` of them (the latest step's) are marked. */
export function eventLog(log, fresh, title = "Events") {
  const list = h("ol", {class: "log", "aria-live": "polite"});
  const firstNew = (log || []).length - (fresh || 0);
  (log || []).forEach((line, i) => list.append(
    h("li", {class: i >= firstNew ? "new" : null}, i >= firstNew ? h("span", {class: "tag"}, "new") : null, words(line))));
  const box = h("section", {class: "events", "aria-label": title}, h("h3", {}, title), list);
  queueMicrotask(() => { list.scrollTop = list.scrollHeight; });
  return box;
}

/** The legal actions keyed by one slot's value (a city, a card, a die): the first of each. */
export function bySlot(legal, slot, verbs) {
  const out = new Map();
  for (const a of legal || []) {
    if (verbs && !verbs.includes(a.verb)) continue;
    const v = a.slots && a.slots[slot];
    if (v == null) continue;
    const key = String(v);
    if (!out.has(key)) out.set(key, a.text);
  }
  return out;
}

/** A seat with its person's name, where one was given: "p2 (Bob)". */
export function named(seat, names) {
  return names && names[seat] ? `${seat} (${names[seat]})` : String(seat ?? "");
}

/** The end of a game: its outcome (a seat that won named as the seats are, `names`). */
export function outcomeBanner(state, names) {
  if (!state.outcome) return null;
  const outcome = names && names[state.outcome] ? named(state.outcome, names) : words(state.outcome);
  return h("p", {class: "outcome", role: "status"}, h("strong", {}, `Game over: ${outcome}`),
    state.reason ? ` — ${state.reason}` : "");
}
