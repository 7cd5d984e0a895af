/* The course website's own script (book/static/course.js): display formulas (drawn when the site
   was built, book/lean_pages.py) fitted to a narrow screen, and boxes that scroll sideways.
   A display formula, a matrix, a code cell or its output wider than the screen scrolls inside its
   own box; once it does, the box shows a shadow at the edge that has more (course.css) and becomes
   a Tab stop named for what it holds, so that a keyboard can scroll it too (WCAG 2.1.1, 1.4.10). */
(function () {
  "use strict";
  // [where, its name once it scrolls (null: it has a name of its own)]
  /** @type {[string, string | null][]} */
  var BOXES = [
    ["div.math > mjx-container", "Formula"],
    ["span.math", "Formula"],
    [".chutes-math", null],                 // a matrix: a region named by its entries already
    [".cell_output pre", "Output"],
    [".cell_output > .output", "Output"],
    [".cell_input pre, div.highlight pre", "Code"],
  ];
  var NAMED = "data-course-scroll-name";

  /** The width of the line a box sits on: its nearest ancestor that is not inline. */
  function lineWidth(/** @type {Element} */ box) {
    for (var el = box.parentElement; el; el = el.parentElement) {
      if (getComputedStyle(el).display.indexOf("inline") !== 0) return el.clientWidth;
    }
    return document.documentElement.clientWidth;
  }

  /** Does the box hold more than it shows? An inline formula shows all it holds (its italic
      letters may lean out of its box by a few pixels) unless it is longer than the line. */
  function isScrolling(/** @type {Element} */ box) {
    if (box.matches("span.math")) return box.scrollWidth > lineWidth(box) + 1;
    return box.scrollWidth > box.clientWidth + 1;
  }

  /** Mark each box that scrolls (a Tab stop, named), and unmark one that no longer does: every
      box measured first, then every box changed, so that the page is laid out once. */
  function mark() {
    /** @type {[Element, string | null, boolean][]} */
    var seen = [];
    BOXES.forEach(function (entry) {
      document.querySelectorAll(/** @type {string} */ (entry[0])).forEach(function (box) {
        seen.push([box, entry[1], isScrolling(box)]);
      });
    });
    seen.forEach(function (item) {
      var box = /** @type {HTMLElement} */ (item[0]), name = item[1], scrolls = item[2];
      box.classList.toggle("course-scrolls", scrolls);
      if (scrolls) {
        box.tabIndex = 0;
        if (name && (!box.hasAttribute("aria-label") || box.hasAttribute(NAMED))) {
          box.setAttribute("role", "group");
          box.setAttribute("aria-label", name + ", scrolls sideways");
          box.setAttribute(NAMED, "");
        }
      } else if (box.hasAttribute(NAMED)) {
        box.removeAttribute("role");
        box.removeAttribute("aria-label");
        box.removeAttribute(NAMED);
        box.tabIndex = -1;
      }
    });
  }

  /** @type {ReturnType<typeof setTimeout> | null} */
  var pending = null;
  function soon() {
    if (pending !== null) clearTimeout(pending);
    pending = setTimeout(function () { pending = null; refit(); }, 150);
  }

  // ---- The theme's header sticks to the top of the window (its height differs by width): a
  // widget's own sticky part (the board editor's expected length) sticks below it, at
  // --chutes-sticky-top (board_editor.css).
  function stickyTop() {
    var bottom = 0;
    document.querySelectorAll(".bd-header, .bd-header-article").forEach(function (el) {
      var style = getComputedStyle(el);
      if (style.position !== "sticky" && style.position !== "fixed") return;
      if (style.display === "none") return;
      var top = parseFloat(style.top);
      bottom = Math.max(bottom, (Number.isNaN(top) ? 0 : top) + el.getBoundingClientRect().height);
    });
    document.documentElement.style.setProperty("--chutes-sticky-top", Math.ceil(bottom) + "px");
  }

  function start() {
    stickyTop();
    window.addEventListener("resize", stickyTop);
    refit();
    window.addEventListener("resize", soon);
    // Fonts change widths: look again once they have loaded.
    if (document.fonts?.ready) document.fonts.ready.then(soon);
    window.addEventListener("load", soon);
  }

  // ---- Display formulas wider than the text column (a phone): MathJax 3 cannot break a
  // formula across lines (its automatic line breaking came back only in MathJax 4), so a display
  // formula that does not fit is drawn smaller, its letters down to MIN_SCALE of the text's (a
  // TeX em, 1000 units of its SVG's viewBox, against the text's font size: MathJax's SVG sizes a
  // formula by the text's ex height, so at the text's font size its em is larger than the
  // text's); one still too wide at that size scrolls in its box (mark, above).
  var MIN_SCALE = 0.7;

  /** Pixels of a TeX em per pixel of the formula box's font size (1 if it has no SVG). */
  function emPerFont(/** @type {HTMLElement} */ el) {
    var svg = el.querySelector("svg");
    var box = svg?.viewBox?.baseVal;
    var size = parseFloat(getComputedStyle(el).fontSize);
    if (!svg || !box?.width || !size) return 1;
    return svg.getBoundingClientRect().width / (box.width / 1000) / size;
  }
  var FIT = "data-course-fit";

  /** Fit each display formula to its box: all set back to their own size, all measured, then
      all drawn smaller where needed (the page laid out once per pass, not once per formula).
      An SVG formula is sized in ex, which a browser rounds to whole pixels: a formula drawn
      smaller may still be a little too wide, so those are measured again, up to FIT_PASSES. */
  var FIT_PASSES = 4;
  function fit() {
    var boxes = Array.prototype.slice.call(document.querySelectorAll("div.math > mjx-container"));
    boxes.forEach(function (/** @type {HTMLElement} */ el) {
      if (!el.hasAttribute(FIT)) el.setAttribute(FIT, el.style.fontSize || "");
      el.style.fontSize = el.getAttribute(FIT) || "";
    });
    /** @type {(number | null)[]} */
    var floors = boxes.map(function (/** @type {HTMLElement} */ el) {
      if (el.clientWidth === 0 || el.scrollWidth <= el.clientWidth + 1) return null;
      var size = parseFloat(getComputedStyle(el).fontSize);
      var text = el.parentElement ? parseFloat(getComputedStyle(el.parentElement).fontSize) : size;
      return Math.min((MIN_SCALE * text) / emPerFont(el), size);
    });
    for (var pass = 0; pass < FIT_PASSES; pass++) {
      var sizes = boxes.map(function (/** @type {HTMLElement} */ el, /** @type {number} */ i) {
        var floor = floors[i];
        if (floor === null || el.scrollWidth <= el.clientWidth + 1) return null;
        var size = parseFloat(getComputedStyle(el).fontSize);
        if (size <= floor) return null;
        var shrink = (el.clientWidth - 2) / el.scrollWidth;
        return Math.max(floor, size * Math.min(shrink, pass === 0 ? 1 : 0.95));
      });
      if (sizes.every(function (s) { return s === null; })) break;
      boxes.forEach(function (/** @type {HTMLElement} */ el, /** @type {number} */ i) {
        var size = sizes[i];
        if (size !== null) el.style.fontSize = size.toFixed(2) + "px";
      });
    }
  }

  function refit() {
    fit();
    mark();
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
})();
