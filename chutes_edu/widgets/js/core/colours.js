/**
 * The editor's colours: viridis for the expected turns (matplotlib's, at 9 even stops,
 * interpolated linearly), black or white text on each (whichever contrasts more: WCAG's relative
 * luminance, at least 4.58:1 on every viridis colour), and draw_board's colours for ladders,
 * chutes, traps and jump sources. Pure functions: Node tests them.
 *
 * @module editor_colours
 */

// Viridis at 9 even stops (matplotlib's), interpolated linearly.
const VIRIDIS = ["#440154", "#472d7b", "#3b528b", "#2c728e", "#21918c", "#28ae80", "#5ec962",
  "#addc30", "#fde725"].map((hex) => [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16)));

/** A viridis colour for t in [0, 1], as [r, g, b]. */
export function viridis(/** @type {number} */ t) {
  const x = Math.max(0, Math.min(1, Number.isFinite(t) ? t : 0)) * (VIRIDIS.length - 1);
  const i = Math.min(Math.floor(x), VIRIDIS.length - 2);
  const f = x - i;
  return VIRIDIS[i].map((c, k) => Math.round(c + f * (VIRIDIS[i + 1][k] - c)));
}

/** WCAG relative luminance of [r, g, b]. */
export function luminance(/** @type {number[]} */ rgb) {
  const [r, g, b] = rgb.map((c) => {
    const s = c / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** Black or white text, whichever contrasts more with [r, g, b] (at least 4.58:1 always). */
export function textOn(/** @type {number[]} */ rgb) {
  const l = luminance(rgb);
  return (l + 0.05) / 0.05 >= 1.05 / (l + 0.05) ? "#000000" : "#ffffff";
}

export const hex = (/** @type {number[]} */ rgb) => `#${rgb.map((c) => c.toString(16).padStart(2, "0")).join("")}`;

export const LADDER = "#0072B2";
export const CHUTE = "#D55E00";
export const TRAP = "#8B0000";
export const SOURCE_GREY = [217, 217, 217];    // draw_board's grey for squares without a value ("0.85")
export const FOCUS = "#1a4e8a";
