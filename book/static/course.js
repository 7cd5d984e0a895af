/* The course website's own script (book/static/course.js): the maths typeset in batches, display
   formulas fitted to a narrow screen, and boxes that scroll sideways.
   A display formula, a matrix, a code cell or its output wider than the screen scrolls inside its
   own box; once it does, the box shows a shadow at the edge that has more (course.css) and becomes
   a Tab stop named for what it holds, so that a keyboard can scroll it too (WCAG 2.1.1, 1.4.10). */
(function () {
  "use strict";
  // [where, its name once it scrolls (null: it has a name of its own)]
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
      document.querySelectorAll(entry[0]).forEach(function (box) {
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

  var pending = null;
  var typesetting = false;             // the boxes are marked after the last batch anyway
  function soon() {
    if (typesetting) return;
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
    // With MathJax on the page, the boxes are marked once the maths is typeset (pageReady).
    if (!/** @type {any} */ (window).MathJax) mark();
    window.addEventListener("resize", soon);
    // Fonts change widths: look again once they have loaded.
    if (document.fonts?.ready) document.fonts.ready.then(soon);
    window.addEventListener("load", soon);
  }

  // ---- Display formulas wider than the text column (a phone): MathJax 3.2 cannot break a
  // formula across lines (its automatic line breaking came back only in MathJax 4), so a display
  // formula that does not fit is drawn smaller, down to MIN_SCALE of its size; one still too wide
  // at that size scrolls in its box (mark, above).
  var MIN_SCALE = 0.7;
  var FIT = "data-course-fit";

  /** Fit each display formula to its box: all set back to their own size, all measured, then
      all drawn smaller where needed (the page laid out once, not once per formula). */
  function fit() {
    var boxes = Array.prototype.slice.call(document.querySelectorAll("div.math > mjx-container"));
    boxes.forEach(function (/** @type {HTMLElement} */ el) {
      if (!el.hasAttribute(FIT)) el.setAttribute(FIT, el.style.fontSize || "");
      el.style.fontSize = el.getAttribute(FIT) || "";
    });
    var sizes = boxes.map(function (/** @type {HTMLElement} */ el) {
      if (el.clientWidth === 0 || el.scrollWidth <= el.clientWidth + 1) return null;
      var size = parseFloat(getComputedStyle(el).fontSize);
      return size * Math.max(MIN_SCALE, (el.clientWidth - 2) / el.scrollWidth);
    });
    boxes.forEach(function (/** @type {HTMLElement} */ el, /** @type {number} */ i) {
      if (sizes[i] !== null) el.style.fontSize = sizes[i].toFixed(2) + "px";
    });
  }

  function refit() {
    fit();
    mark();
  }

  // ---- MathJax typesets in batches, the formulas in view first, each batch a task of its own
  // (one typeset of a whole lesson held the page for 0.4 to 3.2 s). MathJax's own typeset of the
  // page at start-up is off (startup.typeset); the page's pageReady typesets the formulas' boxes
  // (MyST's span.math and div.math, and outputs holding TeX) a batch at a time, doubled after a
  // batch that took under half of BATCH_MS and halved after one over it; MathJax.startup.promise resolves after the
  // last batch. This script runs after the page's MathJax configuration and before MathJax
  // itself (deferred), so it can set both.
  var BATCH_MS = 100;
  var MAX_BATCH = 32;
  var TEX = /\\\(|\\\[|\$/;

  /** The boxes to typeset, those in view first, then in the order of the page. */
  function mathBoxes() {
    var found = Array.prototype.slice.call(document.querySelectorAll(
      "span.math, div.math, .cell_output .output_area, .cell_output .output.text_html"));
    var boxes = found.filter(function (/** @type {Element} */ el) {
      if (!el.matches(".math") && !TEX.test(el.textContent || "")) return false;
      for (var up = el.parentElement; up; up = up.parentElement) {
        if (found.indexOf(up) >= 0) return false;          // typeset with the box around it
      }
      return true;
    });
    var height = window.innerHeight;
    var seen = boxes.filter(function (/** @type {Element} */ el) {
      var r = el.getBoundingClientRect();
      return r.bottom >= 0 && r.top <= height;
    });
    return seen.concat(boxes.filter(function (el) { return seen.indexOf(el) < 0; }));
  }

  /** A mark on the page's performance timeline (where the browser keeps one). */
  function mark_(/** @type {string} */ name) {
    if (window.performance && performance.mark) performance.mark(name);
  }

  /** Typeset `boxes` in batches, each in a task of its own; resolves after the last. */
  function typesetInBatches(/** @type {any} */ mathjax, /** @type {Element[]} */ boxes) {
    var size = 2;
    return new Promise(function (resolve, reject) {
      function next() {
        if (boxes.length === 0) {
          mark_("course-typeset-end");
          resolve(null);
          return;
        }
        var batch = boxes.splice(0, size);
        var start = performance.now();
        mathjax.typesetPromise(batch).then(function () {
          // Each batch costs the page a fixed time (MathJax adds its styles: the page's styles
          // are worked out again) and a time per formula: twice as many after a quick batch,
          // half as many after a slow one.
          var took = performance.now() - start;
          if (took < BATCH_MS / 2) size = Math.min(2 * size, MAX_BATCH);
          else if (took > BATCH_MS) size = Math.max(1, Math.floor(size / 2));
          setTimeout(next, 0);
        }, reject);
      }
      mark_("course-typeset-start");       // for benchmarks/bench_site.py
      setTimeout(next, 0);                 // MathJax's start-up is a task of its own
    });
  }

  var config = /** @type {any} */ (window).MathJax;
  if (config && !config.version) {
    config.startup = config.startup || {};
    config.startup.typeset = false;
    config.startup.pageReady = function () {
      var mathjax = /** @type {any} */ (window).MathJax;
      typesetting = true;
      var done = function () {
        typesetting = false;
        refit();
      };
      return mathjax.startup.defaultPageReady()
        .then(function () { return typesetInBatches(mathjax, mathBoxes()); })
        .then(done, function (/** @type {unknown} */ error) {
          done();
          throw error;
        });
    };
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
})();
