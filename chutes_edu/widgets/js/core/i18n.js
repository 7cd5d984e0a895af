// @ts-check
/**
 * The explorers' words in the student's language, as `chutes_edu.i18n` gives the library's.
 *
 * An explorer writes its words in English, each through `t("average of {n} trials", {n: ...})`,
 * and `translator(language)` looks them up in the catalog of that language: `js/core/messages_<language>.js`,
 * the entries of `locale/<language>/LC_MESSAGES/chutes_edu.po` that the front end uses, written
 * by `tools/translations.py build` (never by hand) and bundled into each explorer by esbuild.
 * A word with no translation, and English itself, stay English. The language comes from the
 * widget's `language` trait (Python sets it from `chutes_edu.i18n.language()`), or, on a page
 * that mounts an explorer with no kernel and no saved language, from the page's own
 * `<html lang>` (`pageLanguage`).
 *
 * `{name}` placeholders are filled from `values` after the lookup, so a translation may put them
 * in another order.
 *
 * A sentence made elsewhere, already filled in (a refusal in the library's words: the board
 * maths throws the same English as `chutes_edu.board`, which a parity test holds equal), is
 * said back by `t(sentence)` too: when it is no entry of its own, it is matched against the
 * catalog's patterns (`{what} must be a whole number, not {value}`: the library's refusals and
 * the sentences named by `said`, never the templates of `t` alone, whose short ones such as
 * "{a} to {b}" would match anything), and the first that matches the whole sentence gives its
 * translation, the matched pieces put back in (each said back in its turn, so that a refusal
 * quoting another one is Spanish throughout).
 *
 * @module i18n
 */
import es from "./messages_es.js";

/** @type {Record<string, {messages: Record<string, string>, patterns?: string[]}>} */
const CATALOGS = { es };

/**
 * @typedef {(message: string, values?: Record<string, string | number>) => string} Translate
 */

/** @type {Map<string, Array<{pattern: RegExp, names: string[], said: string, size: number}>>} */
const PATTERNS = new Map();

/** The catalog's patterns (its entries said back: see `said`), as whole-sentence patterns
 * (longest entry first). */
function patterns(/** @type {string} */ code, /** @type {Record<string, string>} */ messages) {
  let found = PATTERNS.get(code);
  if (found) return found;
  found = [];
  const named = CATALOGS[code]?.patterns ?? Object.keys(messages);
  for (const english of named) {
    if (!Object.hasOwn(messages, english)) continue;
    const said = messages[english];
    const names = [...english.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
    if (!names.length) continue;
    const source = english.split(/\{\w+\}/).map((piece) =>
      piece.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("([\\s\\S]+?)");
    found.push({ pattern: new RegExp(`^${source}$`), names, said, size: english.length });
  }
  found.sort((a, b) => b.size - a.size);      // stable: the catalog's order among equals
  PATTERNS.set(code, found);
  return found;
}

/** `words` with `{name}` filled from `values`. */
function fill(/** @type {string} */ words, /** @type {Record<string, string | number>} */ values) {
  return words.replace(/\{(\w+)\}/g, (whole, name) =>
    Object.hasOwn(values, name) ? String(values[name]) : whole);
}

/**
 * A sentence that the page's maths writes in English, filled in (a picture's title, a
 * refusal), named as a pattern that `t` says back: `said("after {turns} turns: {p} finished")`
 * returns its argument, and `tools/translations.py` puts it in the catalog as it does `t`'s.
 * @param {string} pattern
 * @returns {string}
 */
export function said(pattern) {
  return pattern;
}

/**
 * The function that says an English message in `language` ("en", "es"; unknown: English).
 * @param {string | undefined | null} language
 * @returns {Translate}
 */
export function translator(language) {
  const code = String(language ?? "").slice(0, 2).toLowerCase();
  const messages = CATALOGS[code]?.messages ?? {};
  /** @type {(sentence: string, depth: number) => string} */
  const sayBack = (sentence, depth) => {
    if (Object.hasOwn(messages, sentence)) return messages[sentence];
    if (depth > 3 || !sentence) return sentence;
    for (const { pattern, names, said } of patterns(code, messages)) {
      const m = pattern.exec(sentence);
      if (!m) continue;
      /** @type {Record<string, string>} */
      const values = {};
      names.forEach((name, i) => { values[name] = sayBack(m[i + 1], depth + 1); });
      return fill(said, values);
    }
    return sentence;
  };
  return (message, values = {}) => {
    if (Object.hasOwn(messages, message)) return fill(messages[message], values);
    if (Object.keys(values).length || !Object.keys(messages).length) return fill(message, values);
    return sayBack(message, 0);
  };
}
