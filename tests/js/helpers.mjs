// Shared by the unit tests: the static modules' folder and the captured server views.
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
export const STATIC = join(here, "..", "..", "src", "lifearena", "web", "static");
/** The views tests/js/make_fixtures.py captured from the server, by case name. */
export const VIEWS = JSON.parse(readFileSync(join(here, "fixtures", "views.json"), "utf8"));

/** A module of static/js by its path under that folder. */
export function load(path) { return import(new URL(`file://${join(STATIC, "js", path)}`).href); }

/** Every node of a picture tree, depth first. */
export function nodes(tree) {
  const all = [tree];
  for (const child of tree.children || []) all.push(...nodes(child));
  return all;
}
