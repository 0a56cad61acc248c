// A game's screen by the game's name in its picture: the page names no game.
import {problem} from "../dom.js";

const loaded = new Map();

export async function renderGame(root, ctx) {
  const game = ctx.table && ctx.table.game;
  if (!/^[a-z0-9-]+$/.test(game || "")) {
    root.replaceChildren(problem("Unknown game", String(game)));
    return;
  }
  if (!loaded.has(game)) loaded.set(game, await import(`./${game}.js`));
  loaded.get(game).render(root, ctx);
}
