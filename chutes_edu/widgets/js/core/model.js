/**
 * A tiny stand-in for a widget model, for a page with no widget manager (the course website):
 * the same `get`, `set`, `on`, `off` and `save_changes` as an anywidget model.
 *
 * @module editor_model
 */

/**
 * A tiny stand-in for a widget model, for a page with no widget manager: `get`, `set`, `on`,
 * `off`, `save_changes` (which tells the `change:<name>` listeners), `send` (ignored).
 * @param {Record<string, any>} values
 */
export function createModel(values) {
  const data = { ...values };
  /** @type {Map<string, Set<Function>>} */
  const listeners = new Map();
  let changed = new Set();
  const fire = (/** @type {string} */ name) => {
    for (const f of [...(listeners.get(`change:${name}`) ?? [])]) f();
  };
  return {
    get: (/** @type {string} */ name) => data[name],
    set(/** @type {string} */ name, /** @type {any} */ value) {
      if (data[name] !== value) changed.add(name);
      data[name] = value;
    },
    save_changes() {
      const names = changed;
      changed = new Set();
      for (const name of names) fire(name);
    },
    on(/** @type {string} */ event, /** @type {Function} */ f) {
      if (!listeners.has(event)) listeners.set(event, new Set());
      listeners.get(event)?.add(f);
    },
    off(/** @type {string} */ event, /** @type {Function} */ f) {
      listeners.get(event)?.delete(f);
    },
    send() {},
  };
}
