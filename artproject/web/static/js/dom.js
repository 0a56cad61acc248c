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

// The seats this browser holds: each seat's token under a key of its own,
// `artproject.seat.<game>.<seat>` = {seat, token}, kept in this browser only. One browser may
// hold several seats of a game (friends taking turns on one laptop); joining one never loses
// another's token, which is the only way back to that seat. A page before that kept one
// seat a game, under `artproject.seat.<game>`: it is read still, as one seat held.
const SEATS = "artproject.seat.";

function readSeat(key) {
  try {
    const got = JSON.parse(localStorage.getItem(key) || "null");
    return got && typeof got.seat === "string" && typeof got.token === "string" ? {seat: got.seat, token: got.token} : null;
  } catch { return null; }
}

const seatOrder = (a, b) => (Number(a.seat.slice(1)) - Number(b.seat.slice(1))) || a.seat.localeCompare(b.seat);

/** Every seat this browser holds in a game, [{seat, token}] in seat order. */
export function heldSeats(gid) {
  const held = new Map();
  const prefix = `${SEATS}${gid}.`;
  for (let i = 0; i < localStorage.length; i++) {
    const key = localStorage.key(i);
    const got = key && key.startsWith(prefix) ? readSeat(key) : null;
    if (got && key === prefix + got.seat) held.set(got.seat, got);
  }
  const older = readSeat(`${SEATS}${gid}`);
  if (older && !held.has(older.seat)) held.set(older.seat, older);
  return [...held.values()].sort(seatOrder);
}

/** The seat this browser holds in a game: `seat`'s, or (none named) the only one it holds;
 * null when it holds none of them, or several and none is named. */
export function heldSeat(gid, seat = null) {
  const held = heldSeats(gid);
  if (seat != null) return held.find((x) => x.seat === seat) || null;
  return held.length === 1 ? held[0] : null;
}

/** Keep a seat just joined ({seat, token}, the join's answer) beside any others held. */
export function holdSeat(gid, joined) {
  localStorage.setItem(`${SEATS}${gid}.${joined.seat}`, JSON.stringify({seat: joined.seat, token: joined.token}));
  const older = readSeat(`${SEATS}${gid}`);
  if (older && older.seat === joined.seat) localStorage.removeItem(`${SEATS}${gid}`);  // superseded
}

/** Forget one seat held (left, or its token refused): the others stay. */
export function dropSeat(gid, seat) {
  localStorage.removeItem(`${SEATS}${gid}.${seat}`);
  const older = readSeat(`${SEATS}${gid}`);
  if (older && older.seat === seat) localStorage.removeItem(`${SEATS}${gid}`);
}

// The name this browser's person last gave (the lobby's name box): offered again next time.
const NAME = "artproject.name";

/** The name kept in this browser ("" when none). */
export function keptName() {
  try { return String(localStorage.getItem(NAME) || "").slice(0, 40); } catch { return ""; }
}

/** Keep the name typed for the next time ("" forgets it). */
export function keepName(name) {
  try { if (name) localStorage.setItem(NAME, name); else localStorage.removeItem(NAME); } catch { /* private mode: not kept */ }
}

/** The address of a game from one seat held in this browser. */
export function seatUrl(gid, seat) {
  return `/play/${encodeURIComponent(gid)}?seat=${encodeURIComponent(seat)}`;
}
