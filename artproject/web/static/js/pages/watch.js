// `artproject serve --watch FILE`: the mission's board, drawn again on every save; an error in
// the file shown as `check` prints it.
import {api, h, problem, put} from "../dom.js";
import {renderGame} from "../games/index.js";

let socket = null;
let lastGood = null; // the last version that drew a board: shown, dimmed, under errors

async function draw(main) {
  let data;
  try {
    data = await api("/api/watch");
  } catch (err) {
    put(main, problem("Nothing to watch", err.message),
      h("p", {}, "Start the server with ", h("code", {}, "artproject serve --watch my-mission.toml"), " and this page shows the board, redrawn each time you save the file."));
    return false;
  }
  const when = new Date().toLocaleTimeString();
  const head = h("header", {class: "watch-head"}, h("h1", {}, "Watching ", h("code", {}, data.file)),
    h("p", {class: "muted", role: "status"}, `version ${data.version}, read at ${when}; redrawn when the file is saved`));
  const body = [head];
  if (data.errors.length) {
    body.push(h("section", {class: "problem check-errors", role: "alert"},
      h("h2", {}, `${data.errors.length} error${data.errors.length === 1 ? "" : "s"} in the file`),
      data.errors.map((e) => h("pre", {class: "check-error"}, e))));
  }
  if (data.warnings.length) {
    body.push(h("section", {class: "warnings"}, h("h2", {}, "Warnings"), data.warnings.map((w) => h("pre", {}, w))));
  }
  if (data.note) body.push(h("p", {}, data.note));
  const board = h("div", {class: "watch-board"});
  body.push(board);
  put(main, ...body);
  let shown = data.table ? data : null;
  if (shown) lastGood = data;
  else if (data.errors.length && lastGood && lastGood.file === data.file) {
    shown = lastGood;
    board.classList.add("stale");
    board.before(h("p", {class: "muted stale-note"}, `The board as it was at version ${lastGood.version}, the last without errors:`));
  }
  if (shown) {
    // the board as set up: no hand, no move, no events yet
    await renderGame(board, {table: shown.table, view: shown.view, legal: [], events: null, seat: null, act: null});
  }
  return true;
}

export async function show(main) {
  const ok = await draw(main);
  if (socket) socket.close();
  if (!ok) return;
  const proto = location.protocol === "https:" ? "wss" : "ws";
  socket = new WebSocket(`${proto}://${location.host}/api/watch/socket`);
  socket.addEventListener("message", () => { if (location.pathname.startsWith("/watch")) draw(main); });
}
