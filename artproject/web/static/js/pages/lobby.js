// The lobby: create a game of either game (each seat a person or a bot), join an open seat,
// watch a game as a spectator, replay a finished one (docs/server.md's lobby API).
import {api, button, h, heldSeats, holdSeat, keepName, keptName, post, problem, put, seatUrl} from "../dom.js";

function go(url) {
  history.pushState(null, "", url);
  window.dispatchEvent(new PopStateEvent("popstate"));
}

async function join(gid, seat, name) {
  if (name) keepName(name);
  const joined = await post(`/api/games/${encodeURIComponent(gid)}/join`, seat ? {seat, name} : {name});
  holdSeat(gid, joined);  // beside any other seat of this game held here: none is lost
  go(seatUrl(gid, joined.seat));
}

function field(label, control) {
  const id = `f-${label.replace(/\W+/g, "-").toLowerCase()}`;
  control.id = id;
  return h("div", {class: "form-row"}, h("label", {for: id}, label), control);
}

/** The name box: the name a seat is taken under, whether by creating a game or joining one
 * from the list (kept in this browser for the next time). */
function nameBox() {
  const you = h("input", {type: "text", name: "you", maxlength: 40, placeholder: "your name (optional)", autocomplete: "nickname", value: keptName()});
  you.addEventListener("change", () => keepName(you.value));
  return you;
}

function creator(catalog, out, you) {
  const form = h("form", {class: "create", "aria-label": "new game"});
  const games = h("select", {name: "game"}, catalog.games.map((g) => h("option", {value: g.game}, g.title)));
  const players = h("input", {type: "number", name: "players", min: 1, max: 7, value: 2, inputmode: "numeric"});
  const options = h("div", {class: "options"});
  const seats = h("fieldset", {class: "seat-kinds"});
  const render = () => {
    const g = catalog.games.find((x) => x.game === games.value);
    players.min = g.players[0]; players.max = g.players[1];
    const n = Math.max(g.players[0], Math.min(g.players[1], Number(players.value) || g.players[0]));
    players.value = n;
    const was = Object.fromEntries([...options.querySelectorAll("select")].map((x) => [x.name, x.value]));
    const ticked = new Set([...options.querySelectorAll("input[name=variant]:checked")].map((x) => x.value));
    put(options, ...Object.entries(g.options).map(([key, o]) => field(key[0].toUpperCase() + key.slice(1),
      h("select", {name: key}, o.values.map((v) => h("option", {value: v, selected: v === (o.values.includes(was[key]) ? was[key] : o.default)}, v))))),
    g.variants.length ? h("fieldset", {class: "variants"}, h("legend", {}, "Variants (house rules)"),
      g.variants.map((v) => h("label", {class: "check"}, h("input", {type: "checkbox", name: "variant", value: v, checked: ticked.has(v)}), ` ${v}`))) : null);
    const old = [...seats.querySelectorAll("select")].map((x) => x.value);
    put(seats, h("legend", {}, "Seats"), Array.from({length: n}, (_, i) => field(`Seat p${i + 1}`,
      h("select", {name: `seat${i}`}, h("option", {value: "person"}, i === 0 ? "person (you)" : "person"),
        g.bots.map((b) => h("option", {value: `bot:${b}`, selected: old[i] ? old[i] === `bot:${b}` : i > 0 && b === "heuristic"}, `bot: ${b}`))))));
  };
  games.addEventListener("change", render);
  players.addEventListener("change", render);
  form.append(h("h2", {}, "New game"), field("Game", games), field("Players", players), options, seats,
    h("div", {class: "form-row"}, h("button", {type: "submit", id: "create-game"}, "Create and take a seat")));
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    const body = {game: games.value, seats: [...seats.querySelectorAll("select")].map((x) => x.value)};
    for (const sel of options.querySelectorAll("select")) body[sel.name] = sel.value;
    body.variants = [...options.querySelectorAll("input[name=variant]:checked")].map((x) => x.value);
    try {
      const game = await post("/api/games", body);
      const mine = game.seats.find((x) => x.kind === "person");
      if (mine) await join(game.id, mine.seat, you.value);  // (the name box above both lists)
      else go(`/play/${encodeURIComponent(game.id)}?spectate=1`);  // bots alone: watch them
    } catch (err) {
      put(out, problem("The game could not be created", err.message));
    }
  });
  render();
  return form;
}

/** A game of the list: the way back to each seat held here, a seat to join (joined under the
 * name typed above), Watch; a finished game's seats are no one's to take: Replay instead. */
function gameLine(g, you, out) {
  const over = g.status === "over";
  const open = over ? [] : g.seats.filter((x) => x.kind === "person" && !x.taken);
  const held = heldSeats(g.id);  // each seat this browser holds (hot-seat: maybe several)
  const title = `${g.title}${g.board ? ` — ${g.board}` : ""}${g.difficulty ? `, ${g.difficulty}` : ""}${g.name ? ` “${g.name}”` : ""}`;
  return h("li", {"data-game": g.id},
    h("strong", {}, title), h("span", {class: "muted"}, ` ${g.players} players · ${g.status} · ${g.moves} moves`),
    held.map((x) => h("a", {href: seatUrl(g.id, x.seat), class: "resume", "data-seat": x.seat}, `Back to your seat ${x.seat}`)),
    open.map((x) => button(`Join ${x.seat}`, () => join(g.id, x.seat, you.value).catch((err) =>
      put(out, problem(`Could not join ${x.seat}`, err.message))), {class: "join", "data-seat": x.seat})),
    h("a", {href: `/play/${encodeURIComponent(g.id)}?spectate=1`}, over ? "Watch the end" : "Watch"),
    over ? h("a", {href: `/replay/game-${encodeURIComponent(g.id)}`, class: "replay-link"}, "Replay") : null);
}

export async function show(main) {
  const out = h("div", {class: "lobby-messages"});
  let catalog, games;
  try {
    [catalog, games] = await Promise.all([api("/api/catalog"), api("/api/games?all=1")]);
  } catch (err) {
    put(main, h("h1", {}, "artproject"), problem("The lobby is not available", err.message),
      h("p", {}, "The replay viewer and the mission watcher work without it: ", h("a", {href: "/replay"}, "replay a game"), "."));
    return;
  }
  document.title = "artproject — play";
  const live = games.games.filter((g) => g.status !== "over");
  const over = games.games.filter((g) => g.status === "over");
  const you = nameBox();
  const line = (g) => gameLine(g, you, out);
  you.id = "f-your-name";
  put(main, h("h1", {}, "Play"), out,
    h("div", {class: "form-row your-name"}, h("label", {for: you.id}, "Your name"), you,
      h("span", {class: "muted"}, "for a game you create or a seat you join")),
    h("div", {class: "lobby"},
      h("section", {}, creator(catalog, out, you)),
      h("section", {}, h("h2", {}, "Games"),
        live.length ? h("ul", {class: "games-list"}, live.map(line)) : h("p", {class: "muted"}, "No game is being played: create one."),
        over.length ? h("details", {}, h("summary", {}, `${over.length} finished game${over.length === 1 ? "" : "s"}`),
          h("ul", {class: "games-list"}, over.map(line))) : null)));
}
