// @ts-check
// The analysis board page's entry point (a module of its own: the server's policy allows no inline script).
import { start } from "./ctrl.js";

start();
