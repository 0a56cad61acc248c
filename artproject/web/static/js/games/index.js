// A game's screen by the game's name in its table: the page names no game.
import {problem} from "../dom.js";

const loading = new Map(); // game -> the promise of its module (one import, awaited by all)
const latest = new WeakMap(); // root -> the number of the last render asked of it

export async function renderGame(root, ctx) {
  const game = ctx.table && ctx.table.game;
  if (!/^[a-z0-9-]+$/.test(game || "")) {
    root.replaceChildren(problem("Unknown game", String(game)));
    return;
  }
  const n = (latest.get(root) || 0) + 1;
  latest.set(root, n);
  if (!loading.has(game)) loading.set(game, import(`./${game}.js`));
  const mod = await loading.get(game);
  if (latest.get(root) !== n) return; // a newer frame came while the module loaded: it draws
  mod.render(root, ctx);
}
