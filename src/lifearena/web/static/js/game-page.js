// @ts-check
// The game page's entry: the page itself is js/game/ (lichess's ui/round shape): ctrl.js
// (the controller: the store and every send), view/*.js (pure views of the store),
// socket-handlers.js (a handler per socket message), boot.js (the document's wiring). The
// server decides legality and explains every refusal; the page never names a game.
import { boot } from "./game/boot.js";
import "./me.js"; // the header about you, and your turn in other games

boot();
