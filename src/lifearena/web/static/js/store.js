// @ts-check
// One store for a page's state: get, set (a shallow merge) and subscribe. The page's state
// lives here, not in module globals, so a render reads one object and a test can build one.

/**
 * @template {object} T
 * @typedef {{
 *   get(): T,
 *   set(patch: Partial<T> | ((state: T) => Partial<T>)): T,
 *   subscribe(listener: (state: T, previous: T) => void): () => void
 * }} Store
 */

/**
 * A store holding `initial`; `set` merges a patch (or the patch a function of the state
 * returns) into a new state object and tells every subscriber, in the order they came.
 *
 * const store = createStore({ n: 1 }); store.set({ n: 2 }); store.get().n === 2
 * @template {object} T
 * @param {T} initial
 * @returns {Store<T>}
 */
export function createStore(initial) {
  let state = initial;
  /** @type {Set<(state: T, previous: T) => void>} */
  const listeners = new Set();
  return {
    get: () => state,
    set(patch) {
      const previous = state;
      const change = typeof patch === "function" ? patch(state) : patch;
      state = { ...state, ...change };
      for (const listener of [...listeners]) listener(state, previous);
      return state;
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => { listeners.delete(listener); };
    },
  };
}
