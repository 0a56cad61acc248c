// A game in play: one WebSocket to the server (docs/server.md), the seat's view redrawn
// after every change, its legal actions as things to click. The seat's token stays in this
// browser (localStorage), never in the address; the address names the seat (`?seat=p2`),
// as a browser may hold several seats of one game.
import {api, button, dropSeat, h, heldSeat, heldSeats, holdSeat, keepName, keptName, post, problem, put, seatUrl} from "../dom.js";
import {renderGame} from "../games/index.js";

let session = null; // the connection on screen
const REFUSAL_SHOWN_MS = 8000; // a refusal's notice stays this long unless another tap replaces it
// a refusal's code in a player's words (docs/server.md's table; the server's message follows)
const REFUSED = {
  stale: "the game moved on before your move arrived: choose again",
  illegal: "the rules do not allow it now",
  foreign: "that is another seat's to decide",
  "game-over": "the game is over",
  "not-started": "the game has not started",
};

class Session {
  constructor(main, gid, held) {
    this.main = main;
    this.gid = gid;
    this.held = held; // {seat, token} or null: a spectator
    this.events = [];
    this.fresh = 0;
    this.count = 0;
    this.closed = false;
    this.welcomed = false; // the connection now open has had its welcome
    this.outbox = null; // the move clicked and not yet answered (ack or error)
    this.head = h("div", {class: "play-head"});
    // what became of a tap (sent, waiting for the connection, refused): a toast at the foot
    // of the screen, where a phone's thumb is, never at the top of a long page; read out
    // by screen readers (a refusal, role=alert, at once)
    this.notice = h("div", {class: "notice", role: "status", "aria-live": "polite"});
    this.noticeKind = null; // "refused" stays until the next tap or a while; others until a frame
    this.noticeTimer = null;
    this.board = h("div", {class: "play-board"});
    put(main, this.head, this.notice, this.board);
    this.connect();
  }

  connect() {
    const proto = location.protocol === "https:" ? "wss" : "ws";
    this.ws = new WebSocket(`${proto}://${location.host}/ws/games/${encodeURIComponent(this.gid)}`);
    this.ws.addEventListener("open", () => {
      this.ws.send(JSON.stringify(this.held ? {type: "hello", token: this.held.token} : {type: "hello", spectate: true}));
    });
    this.ws.addEventListener("message", (e) => this.receive(JSON.parse(e.data)));
    this.ws.addEventListener("close", (e) => this.lost(e));
  }

  close() {
    this.closed = true;
    if (this.ws) this.ws.close();
  }

  lost(e) {
    this.welcomed = false;
    if (this.closed) return;
    // the end of this page's game for this browser: said in the page, where the game was
    if (e.code === 4401) {
      dropSeat(this.gid, this.held.seat);
      this.fail(problem("This seat is no longer yours", "Its token was not accepted (the seat was left). Join a seat again from the lobby."));
      return;
    }
    if (e.code === 4404) { this.noGame(); return; }
    if (e.code === 4403) { this.fail(problem("Refused", "This page's origin may not use the server.")); return; }
    this.say(h("p", {class: "warn"}, "The connection was lost; connecting again…",
      this.outbox ? ` Your move ${this.outbox.action} will be sent once it is back.` : ""), "waiting");
    setTimeout(() => { if (!this.closed) this.connect(); }, 1000);
  }

  say(node, kind = "info") {
    clearTimeout(this.noticeTimer);
    this.noticeKind = kind;
    this.notice.className = `notice notice-${kind}`;
    put(this.notice, node);
    if (kind === "refused") this.noticeTimer = setTimeout(() => this.unsay(), REFUSAL_SHOWN_MS);
  }

  fail(node) {
    this.unsay();
    put(this.board, node);
  }

  /** The game named is not on the server: said in the page (its error frame, then the
   * close that follows it, each say it: whichever comes first, the page is the same). */
  noGame() {
    this.fail(problem("No such game", `There is no game ${this.gid} on this server.`));
  }

  unsay() {
    clearTimeout(this.noticeTimer);
    this.noticeKind = null;
    this.notice.className = "notice";
    put(this.notice);
  }

  receive(msg) {
    if (msg.type === "welcome") {
      this.table = msg.table;
      this.seats = msg.seats;
      this.events = msg.events;
      this.fresh = 0;
      this.status = msg.status;
      this.welcomed = true;
      this.frame(msg);
      if (this.outbox) this.send(this.outbox);  // the same id: applied once, even if it was
    } else if (msg.type === "state") {
      if (msg.events_from !== this.events.length) { this.ws.send(JSON.stringify({type: "sync"})); return; }
      this.events = this.events.concat(msg.events);
      this.fresh = msg.events.length;
      this.status = msg.status;
      this.frame(msg);
    } else if (msg.type === "seats") {
      this.seats = msg.seats;
      this.draw();  // (the head, and the board's panels, which name the seats too)
    } else if (msg.type === "error") {
      this.outbox = null;
      if (msg.code === "no-such-game") { this.noGame(); return; }
      const why = REFUSED[msg.code];
      this.say(problem(`Refused: ${msg.code}${why ? ` — ${why}` : ""}`, msg.message), "refused");
      this.draw();
    } else if (msg.type === "ack") {
      if (!this.outbox || msg.id === this.outbox.id) this.outbox = null;
    }
  }

  frame(msg) {
    this.version = msg.version;
    this.view = msg.view;
    this.legal = msg.legal;
    // (a move on its way keeps its notice; a refusal stays a while, to be read)
    if (!this.outbox && this.noticeKind !== "refused") this.unsay();
    this.draw();
  }

  act(text) {
    if (this.outbox) return;  // one move at a time: the last one is not answered yet
    this.count += 1;
    this.outbox = {type: "move", id: `${Date.now().toString(36)}-${this.count}`, action: text, version: this.version};
    this.send(this.outbox);
  }

  /** Send a move now if the connection is up, else say it waits for the connection (it is
   * sent, with its id, on the next welcome). */
  send(move) {
    if (this.welcomed && this.ws.readyState === WebSocket.OPEN) {
      this.ws.send(JSON.stringify(move));
      this.say(h("p", {}, `Sent: ${move.action}`), "sent");
    } else {
      this.say(h("p", {class: "warn"}, `Not connected: ${move.action} will be sent once the connection is back; connecting again…`), "waiting");
    }
  }

  drawHead() {
    if (!this.table) return;  // nothing is known of the game before its welcome
    const seat = this.held ? this.held.seat : null;
    const others = seat ? heldSeats(this.gid).filter((x) => x.seat !== seat) : [];
    const open = (this.seats || []).filter((x) => x.kind === "person" && !x.taken);
    put(this.head,
      h("p", {class: "who"}, seat ? h("strong", {}, `You are ${seat}`) : h("strong", {}, "Watching as a spectator"),
        ` · game ${this.gid} · ${this.status}`, this.version != null ? ` · move ${this.version}` : "",
        // the last event as this seat saw it (its events), never the action as played
        this.events.length ? ` · last: ${this.events[this.events.length - 1]}` : ""),
      h("ul", {class: "seat-list", "aria-label": "seats"}, (this.seats || []).map((x) => h("li", {"data-seat": x.seat},
        h("strong", {}, x.seat), ` ${x.kind === "bot" ? `bot ${x.bot}` : x.name || "person"}`,
        x.kind === "person" ? (x.taken ? (x.connected ? " (here)" : " (away)") : " (open)") : ""))),
      open.length && this.status === "waiting" ? h("p", {class: "waiting"}, `Waiting for ${open.map((x) => x.seat).join(", ")} to join: share this page's address.`) : null,
      others.length ? h("p", {class: "other-seats"}, "You hold here too: ", others.map((x) =>
        h("a", {href: seatUrl(this.gid, x.seat), class: "switch-seat"}, `Switch to your seat ${x.seat}`))) : null,
      // a finished game's seat is no one's to leave or take: its page stays, to look back on
      seat && this.status !== "over" ? button("Leave this seat", () => this.leave(), {class: "secondary"}) : null);
  }

  async leave() {
    const seat = this.held.seat;
    if (this.status === "playing" && !window.confirm(`Leave your seat ${seat}? The game waits for `
      + `someone to join ${seat} and decide what ${seat} decides; you come back only by joining it again, if it is still open.`)) return;
    try {
      await post(`/api/games/${encodeURIComponent(this.gid)}/leave`, {token: this.held.token});
    } catch (err) {
      this.say(problem("Could not leave", err.message), "refused");
      return;
    }
    dropSeat(this.gid, this.held.seat);
    this.close();
    history.pushState(null, "", "/");
    window.dispatchEvent(new PopStateEvent("popstate"));
  }

  draw() {
    this.drawHead();
    if (!this.view || !this.table) return;
    const seat = this.held ? this.held.seat : null;
    document.title = `${this.table.title}${seat ? ` — ${seat}` : ""} — artproject`;
    renderGame(this.board, {table: this.table, view: this.view, legal: this.legal, events: this.events,
      eventsNew: this.fresh, seat, names: seatNames(this.seats), act: seat && this.status !== "over" ? (a) => this.act(a) : null});
  }
}

/** Each seat's name, where its person gave one: {p1: "Ann"}. */
function seatNames(seats) {
  return Object.fromEntries((seats || []).filter((x) => x.kind === "person" && x.name).map((x) => [x.seat, x.name]));
}

async function chooser(main, gid) {
  let game;
  try {
    game = await api(`/api/games/${encodeURIComponent(gid)}`);
  } catch (err) {
    put(main, problem("No such game", err.message), h("p", {}, h("a", {href: "/"}, "Back to the lobby")));
    return;
  }
  const over = game.status === "over";
  const open = over ? [] : game.seats.filter((x) => x.kind === "person" && !x.taken);
  const held = heldSeats(gid);  // several (hot-seat), or not the one the address named
  const name = h("input", {type: "text", maxlength: 40, placeholder: "your name (optional)", "aria-label": "your name", value: keptName()});
  put(main, h("h1", {}, `${game.title}${game.board ? ` — ${game.board}` : ""}`),
    h("p", {}, `${game.players} players · ${game.status}`),
    held.length ? h("p", {class: "held-seats"}, held.map((x) =>
      h("a", {href: seatUrl(gid, x.seat), class: "resume", "data-seat": x.seat}, `Back to your seat ${x.seat}`))) : null,
    open.length ? h("section", {}, h("h2", {}, "Take a seat"), name,
      open.map((x) => button(`Join ${x.seat}`, async () => {
        try {
          if (name.value) keepName(name.value);
          const joined = await post(`/api/games/${encodeURIComponent(gid)}/join`, {seat: x.seat, name: name.value});
          holdSeat(gid, joined);
          history.replaceState(null, "", seatUrl(gid, joined.seat));
          show(main, [gid]);
        } catch (err) { put(main, problem("Could not join", err.message)); }
      }, {class: "join", "data-seat": x.seat}))) : h("p", {}, over ? "The game is over: its seats are no one's to take." : "Every seat is taken."),
    h("p", {}, h("a", {href: `/play/${encodeURIComponent(gid)}?spectate=1`}, over ? "See its end" : "Watch as a spectator"),
      over ? [" · ", h("a", {href: `/replay/game-${encodeURIComponent(gid)}`, class: "replay-link"}, "Replay it")] : null));
}

export async function show(main, [gid]) {
  if (session) { session.close(); session = null; }
  const asked = new URLSearchParams(location.search);
  const spectate = asked.has("spectate");
  const held = heldSeat(gid, asked.get("seat"));  // the seat named, or the only one held
  if (!held && !spectate) { await chooser(main, gid); return; }
  session = new Session(main, gid, spectate ? null : held);
}

window.addEventListener("popstate", () => {
  if (session && !location.pathname.startsWith("/play/")) { session.close(); session = null; }
});
