import {h, put} from "../dom.js";

export async function show(main) {
  put(main, h("h1", {}, "artproject"), h("p", {}, "Play, watch and replay games."));
}
