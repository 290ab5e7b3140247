// The two-colour Life step of lifearena.life, ported to JavaScript for the sandbox page.
//
// A rule is its table: table[(state * 9 + n1) * 9 + n2] is the next state of a cell in
// `state` (0 empty, 1, 2) with n1 / n2 neighbours of colour 1 / 2; the value 3 is a fair coin,
// decided exactly as lifearena.life.coin does (SplitMix64 finaliser twice, counter-based on
// (seed, generation, y * width + x)), so the page and the engine agree cell for cell.
// Grids are Uint8Array of height * width cells, row by row. Outside a bounded grid is empty.
// An ES module: the sandbox page imports it, and node runs it in the tests.
export const COIN = 3;
const MASK64 = (1n << 64n) - 1n;
const GENERATION_MULTIPLIER = 0x9E3779B97F4A7C15n;
const INDEX_MULTIPLIER = 0xD1B54A32D192ED03n;
const MIX_1 = 0xBF58476D1CE4E5B9n;
const MIX_2 = 0x94D049BB133111EBn;

function mix(z) {
  z = ((z ^ (z >> 30n)) * MIX_1) & MASK64;
  z = ((z ^ (z >> 27n)) * MIX_2) & MASK64;
  return z ^ (z >> 31n);
}

// The generation half of the coin hash, computed once per generation.
export function coinStart(seed, generation) {
  const s = BigInt.asUintN(64, BigInt(seed));
  return mix(s ^ ((BigInt(generation) * GENERATION_MULTIPLIER) & MASK64));
}

// The colour (1 or 2) of a coin birth at cell `index`, given coinStart(seed, generation).
export function coinColour(start, index) {
  const z = mix(start ^ ((BigInt(index) * INDEX_MULTIPLIER) & MASK64));
  return 1 + Number(z >> 63n);
}

// One generation: read `cells`, write `out` (both Uint8Array(height * width)).
export function step(cells, out, height, width, table, torus, seed, generation) {
  let start = null;
  for (let y = 0; y < height; y++) {
    const up = y > 0 ? y - 1 : (torus ? height - 1 : -1);
    const down = y < height - 1 ? y + 1 : (torus ? 0 : -1);
    const rowU = up * width, rowC = y * width, rowD = down * width;
    for (let x = 0; x < width; x++) {
      const left = x > 0 ? x - 1 : (torus ? width - 1 : -1);
      const right = x < width - 1 ? x + 1 : (torus ? 0 : -1);
      let n1 = 0, n2 = 0, v;
      if (up >= 0) {
        if (left >= 0) { v = cells[rowU + left]; n1 += v & 1; n2 += v >> 1; }
        v = cells[rowU + x]; n1 += v & 1; n2 += v >> 1;
        if (right >= 0) { v = cells[rowU + right]; n1 += v & 1; n2 += v >> 1; }
      }
      if (left >= 0) { v = cells[rowC + left]; n1 += v & 1; n2 += v >> 1; }
      if (right >= 0) { v = cells[rowC + right]; n1 += v & 1; n2 += v >> 1; }
      if (down >= 0) {
        if (left >= 0) { v = cells[rowD + left]; n1 += v & 1; n2 += v >> 1; }
        v = cells[rowD + x]; n1 += v & 1; n2 += v >> 1;
        if (right >= 0) { v = cells[rowD + right]; n1 += v & 1; n2 += v >> 1; }
      }
      let next = table[(cells[rowC + x] * 9 + n1) * 9 + n2];
      if (next === COIN) {
        if (start === null) start = coinStart(seed, generation);
        next = coinColour(start, rowC + x);
      }
      out[rowC + x] = next;
    }
  }
  return out;
}

// Cells of colour 1 and of colour 2.
export function population(cells) {
  let p1 = 0, p2 = 0;
  for (let i = 0; i < cells.length; i++) {
    if (cells[i] === 1) p1++; else if (cells[i] === 2) p2++;
  }
  return [p1, p2];
}

// `generations` steps from generation `generation`; returns the last grid (a new array).
export function evolve(cells, height, width, table, torus, seed, generation, generations) {
  let a = Uint8Array.from(cells), b = new Uint8Array(cells.length);
  for (let g = 0; g < generations; g++) {
    step(a, b, height, width, table, torus, seed, generation + g);
    [a, b] = [b, a];
  }
  return a;
}

