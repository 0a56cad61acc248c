// The page's router: one HTML shell, a module per page, chosen by the address.
import {problem, put} from "./dom.js";

const ROUTES = [
  [/^\/$/, "lobby"],
  [/^\/play\/([^/]+)$/, "play"],
  [/^\/replay(?:\/([^/]+)(?:\/([^/]*))?)?\/?$/, "replay"],
  [/^\/watch\/?$/, "watch"],
];

export async function route() {
  const main = document.getElementById("app");
  const path = location.pathname;
  for (const [re, name] of ROUTES) {
    const m = path.match(re);
    if (!m) continue;
    for (const a of document.querySelectorAll("header nav a")) {
      const here = a.getAttribute("href") === "/" ? name === "lobby" || name === "play"
        : path.startsWith(a.getAttribute("href"));
      if (here) a.setAttribute("aria-current", "page"); else a.removeAttribute("aria-current");
    }
    try {
      const page = await import(`./pages/${name}.js`);
      await page.show(main, m.slice(1).map((x) => (x == null ? x : decodeURIComponent(x))));
    } catch (err) {
      put(main, problem("This page could not be shown", String(err && err.message || err)));
    }
    return;
  }
  put(main, problem("No such page", `${path} is not a page of this server.`));
}

window.addEventListener("popstate", route);
route();
