/* The course website's own script (book/static/course.js): boxes that scroll sideways.
   A display formula, a matrix, a code cell or its output wider than the screen scrolls inside its
   own box; once it does, the box shows a shadow at the edge that has more (course.css) and becomes
   a Tab stop named for what it holds, so that a keyboard can scroll it too (WCAG 2.1.1, 1.4.10).
   (A display formula too wide for a phone is first drawn smaller, down to 70% of the text's
   letters, by its own stylesheet rules: book/lean_pages.py and course.css, no script.)

   Whether a box scrolls is a measurement, and measuring hundreds of boxes at once (Lesson 11 has
   over 300) made the browser lay the whole page out in one long task while it loaded. So a box is
   measured as it nears the screen (an IntersectionObserver, whose callback comes after the
   browser's own layout), and the rest a few at a time while the page is idle, so that a keyboard
   finds every scrolling box a Tab stop soon after the page has loaded without any long task. When
   every box has been measured, <html> has data-course-measured (what a test waits for).
   The theme's own script did the same for code and tables, measuring all of them at load and
   again after every change to the page (an explorer drawn): book/lean_pages.py leaves it out. */
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
    ["pre", "Code"],
    [".pst-scrollable-table-container", "Table"],
  ];
  var NAMED = "data-course-scroll-name";
  var MEASURED = "data-course-measured";
  var NEAR = "100% 0px";       // how far off the screen a box is measured as it comes
  var SLICE_MS = 8;            // the idle measuring's work per task, well under a long task (50 ms)
  var BATCH = 8;               // boxes measured together (one layout), then changed together

  /** @type {Map<Element, string | null>} each box and its name */
  var names = new Map();

  /** The width of the line a box sits on: its nearest ancestor that is not inline. */
  function lineWidth(/** @type {Element} */ box) {
    for (var el = box.parentElement; el; el = el.parentElement) {
      if (getComputedStyle(el).display.indexOf("inline") !== 0) return el.clientWidth;
    }
    return document.documentElement.clientWidth;
  }

  /** Does the box hold more than it shows, sideways (or, an output, downwards)? An inline
      formula shows all it holds (its italic letters may lean out of its box by a few pixels)
      unless it is longer than the line. */
  function isScrolling(/** @type {Element} */ box) {
    if (box.matches("span.math")) return box.scrollWidth > lineWidth(box) + 1;
    return box.scrollWidth > box.clientWidth + 1 || box.scrollHeight > box.clientHeight + 1;
  }

  /** Mark each of ``boxes`` that scrolls (a Tab stop, named), and unmark one that no longer does:
      every box measured first, then every box changed, so that the page is laid out once. */
  function mark(/** @type {Element[]} */ boxes) {
    var scrolls = boxes.map(isScrolling);
    boxes.forEach(function (el, i) {
      var box = /** @type {HTMLElement} */ (el), name = names.get(el);
      var was = box.classList.contains("course-scrolls");
      if (was === scrolls[i] && !(was && name && !box.hasAttribute(NAMED))) return;
      box.classList.toggle("course-scrolls", scrolls[i]);
      if (scrolls[i]) {
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

  /** @type {Set<Element>} boxes not measured since the page was laid out at its width */
  var stale = new Set();
  /** @type {Set<Element>} boxes near the screen now */
  var near = new Set();
  var idle = false;

  /** Measure those of ``boxes`` still stale; say so on <html> once none is. */
  function measure(/** @type {Element[]} */ boxes) {
    var due = boxes.filter(function (box) { return stale.delete(box); });
    if (due.length) mark(due);
    if (!stale.size) document.documentElement.setAttribute(MEASURED, "");
  }

  /** @param {(deadline: {timeRemaining: () => number}) => void} work */
  function whenIdle(work) {
    var ric = /** @type {any} */ (window).requestIdleCallback;
    if (typeof ric === "function") ric(work, { timeout: 2000 });
    else setTimeout(function () {
      var end = performance.now() + SLICE_MS;
      work({ timeRemaining: function () { return end - performance.now(); } });
    }, 50);
  }

  /** Measure the stale boxes far from the screen, a batch at a time, in idle moments. */
  function measureRest() {
    if (idle || !stale.size) return;
    idle = true;
    whenIdle(function slice(deadline) {
      var end = performance.now() + Math.min(SLICE_MS, Math.max(1, deadline.timeRemaining()));
      var queue = Array.from(stale);
      for (var at = 0; at < queue.length && performance.now() < end; at += BATCH) {
        measure(queue.slice(at, at + BATCH));
      }
      if (stale.size) whenIdle(slice);
      else idle = false;
    });
  }

  // A box that comes near the screen is measured (again) then: a hint opened, a box scrolled to.
  /** @type {IntersectionObserver | null} */
  var watcher = typeof IntersectionObserver === "function" ? new IntersectionObserver(
    function (entries) {
      /** @type {Element[]} */
      var coming = [];
      entries.forEach(function (entry) {
        if (entry.isIntersecting) {
          near.add(entry.target);
          stale.add(entry.target);
          coming.push(entry.target);
        } else {
          near.delete(entry.target);
        }
      });
      measure(coming);
      measureRest();          // the others after the first look at those near the screen
    }, { rootMargin: NEAR }) : null;

  /** Every box stale again (the page's width changed: a box may scroll now, or no longer):
      those near the screen measured at once, the others when idle (or as they come). */
  function again() {
    names.forEach(function (_name, box) { stale.add(box); });
    if (stale.size) document.documentElement.removeAttribute(MEASURED);
    measure(Array.from(near));
    measureRest();
  }

  var width = 0;
  /** @type {ReturnType<typeof setTimeout> | null} */
  var pending = null;
  /** After a change of the window's width (not of its height: a phone's address bar). */
  function soon() {
    if (window.innerWidth === width) return;
    if (pending !== null) clearTimeout(pending);
    pending = setTimeout(function () {
      pending = null;
      width = window.innerWidth;
      again();
    }, 150);
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
    width = window.innerWidth;
    BOXES.forEach(function (entry) {
      document.querySelectorAll(/** @type {string} */ (entry[0])).forEach(function (box) {
        if (!names.has(box)) names.set(box, entry[1]);
      });
    });
    names.forEach(function (_name, box) { stale.add(box); });
    if (watcher) {
      var seen = watcher;
      names.forEach(function (_name, box) { seen.observe(box); });
    }
    measure([]);
    if (!watcher) measureRest();
    // Only a page with a board editor uses it: setting a property of <html> restyles the page.
    if (document.querySelector(".chutes-board-editor-mount")) {
      stickyTop();
      window.addEventListener("resize", stickyTop);
    }
    window.addEventListener("resize", soon);
    // Web fonts change widths: once they have loaded, every box is looked at again.
    if (document.fonts && document.fonts.status !== "loaded") {
      document.fonts.ready.then(function () { width = 0; soon(); });
    }
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
})();
