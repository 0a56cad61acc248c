// What both games' screens share: the list of legal actions as buttons, the event log.
import {button, h, words} from "../dom.js";

/** Every legal action as a button named in the notation, grouped by its verb; those the
 * board already offers (a city, a card, a die) are here too, so a keyboard reaches all. */
export function actionPanel(legal, act, title = "Your move") {
  if (!legal || !legal.length) return null;
  const groups = new Map();
  for (const a of legal) {
    const verb = a.split(" ")[0];
    if (!groups.has(verb)) groups.set(verb, []);
    groups.get(verb).push(a);
  }
  const box = h("section", {class: "actions", "aria-label": "legal actions"},
    h("h3", {}, act ? title : "Legal here"));
  for (const [verb, list] of groups) {
    box.append(h("div", {class: "group", role: "group", "aria-label": verb},
      list.map((a) => act ? button(a, () => act(a), {class: `act verb-${verb}`, "data-action": a})
        : h("span", {class: "act inert"}, a))));
  }
  return box;
}

/** The events, newest last; `fresh` (those of the latest step) are marked. */
export function eventLog(log, fresh, title = "Events") {
  const list = h("ol", {class: "log", "aria-live": "polite"});
  const firstNew = (log || []).length - (fresh || []).length;
  (log || []).forEach((line, i) => list.append(
    h("li", {class: i >= firstNew ? "new" : null}, i >= firstNew ? h("span", {class: "tag"}, "new") : null, words(line))));
  const box = h("section", {class: "events", "aria-label": title}, h("h3", {}, title), list);
  queueMicrotask(() => { list.scrollTop = list.scrollHeight; });
  return box;
}

/** A map seat -> the actions of `legal` whose words contain `token` at `pos`. */
export function actionsWith(legal, verb, test) {
  return (legal || []).filter((a) => {
    const w = a.split(" ");
    return w[0] === verb && test(w);
  });
}

export function outcomeBanner(state) {
  if (!state.outcome) return null;
  return h("p", {class: "outcome", role: "status"}, h("strong", {}, `Game over: ${words(state.outcome)}`),
    state.reason ? ` — ${state.reason}` : "");
}
