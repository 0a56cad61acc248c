// Building the page: every text from the server goes in as a text node (textContent),
// never as HTML, so a city called `<script>` shows as those characters.
const SVGNS = "http://www.w3.org/2000/svg";

function fill(el, props, kids) {
  for (const [k, v] of Object.entries(props || {})) {
    if (v == null || v === false) continue;
    if (k === "class") el.setAttribute("class", Array.isArray(v) ? v.filter(Boolean).join(" ") : v);
    else if (k === "text") el.textContent = String(v);
    else if (k.startsWith("on") && typeof v === "function") el.addEventListener(k.slice(2), v);
    else if (k === "dataset") Object.assign(el.dataset, v);
    else el.setAttribute(k, v === true ? "" : String(v));
  }
  for (const kid of kids.flat(Infinity)) {
    if (kid == null || kid === false) continue;
    el.append(kid instanceof Node ? kid : document.createTextNode(String(kid)));
  }
  return el;
}

/** An HTML element: h("p", {class: "x"}, "text", child...). */
export function h(tag, props = {}, ...kids) {
  return fill(document.createElement(tag), props, kids);
}

/** An SVG element, the same way. */
export function s(tag, props = {}, ...kids) {
  return fill(document.createElementNS(SVGNS, tag), props, kids);
}

/** Replace what `el` holds. */
export function put(el, ...kids) {
  el.replaceChildren();
  return fill(el, {}, kids);
}

/** A message box: the page never goes blank on a bad file, link or answer. */
export function problem(title, detail) {
  return h("section", {class: "problem", role: "alert"},
    h("h2", {}, title), detail ? h("pre", {}, detail) : null);
}

/** GET or POST JSON; an answer with `error` (or a failed request) throws its message. */
export async function api(url, options = {}) {
  let res;
  try {
    res = await fetch(url, options);
  } catch (err) {
    throw new Error(`the server cannot be reached (${err.message})`);
  }
  let body = null;
  try { body = await res.json(); } catch { body = null; }
  if (!res.ok || body == null || (body && body.error)) {
    const why = body && (body.message || body.error) ? body.message || body.error : `${res.status} ${res.statusText}`;
    throw new Error(typeof why === "string" ? why : JSON.stringify(why));
  }
  return body;
}

/** A button that does `fn`; its label is its accessible name. */
export function button(label, fn, props = {}) {
  return h("button", {type: "button", ...props, onclick: fn}, label);
}

/** Make an SVG or other element act as a button: focusable, Enter/Space press it. */
export function clickable(el, label, fn) {
  el.setAttribute("role", "button");
  el.setAttribute("tabindex", "0");
  el.setAttribute("aria-label", label);
  el.classList.add("clickable");
  el.addEventListener("click", fn);
  el.addEventListener("keydown", (e) => {
    if (e.key === "Enter" || e.key === " ") { e.preventDefault(); fn(e); }
  });
  return el;
}

/** A word for people from a notation name: mad_monkey -> mad monkey. */
export function words(name) {
  return String(name ?? "").replaceAll("_", " ");
}

/** POST a JSON body (the lobby's API). */
export function post(url, body) {
  return api(url, {method: "POST", headers: {"Content-Type": "application/json"}, body: JSON.stringify(body)});
}

/** The seat this browser holds in a game (its token, kept in this browser only). */
export function heldSeat(gid) {
  try { return JSON.parse(localStorage.getItem(`artproject.seat.${gid}`) || "null"); } catch { return null; }
}

export function holdSeat(gid, joined) {
  localStorage.setItem(`artproject.seat.${gid}`, JSON.stringify({seat: joined.seat, token: joined.token}));
}

export function dropSeat(gid) {
  localStorage.removeItem(`artproject.seat.${gid}`);
}
