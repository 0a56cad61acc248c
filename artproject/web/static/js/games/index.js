// A game's screen by the screen its table names (`screen`: the game's own module, named as
// the game, where it has one, else "generic", generic.js; the server knows which there are):
// the page names no game.
import {problem} from "../dom.js";

const loading = new Map(); // screen -> the promise of its module (one import, awaited by all)
const latest = new WeakMap(); // root -> the number of the last render asked of it

export async function renderGame(root, ctx) {
  const screen = ctx.table && (ctx.table.screen || ctx.table.game);
  if (!/^[a-z0-9-]+$/.test(screen || "")) {
    root.replaceChildren(problem("Unknown game", String(ctx.table && ctx.table.game)));
    return;
  }
  const n = (latest.get(root) || 0) + 1;
  latest.set(root, n);
  if (!loading.has(screen)) loading.set(screen, import(`./${screen}.js`));
  const mod = await loading.get(screen);
  if (latest.get(root) !== n) return; // a newer frame came while the module loaded: it draws
  mod.render(root, ctx);
}
