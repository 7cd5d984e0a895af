/* The course website's own script (book/static/course.js): boxes that scroll sideways.
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

  function mark() {
    BOXES.forEach(function (entry) {
      document.querySelectorAll(entry[0]).forEach(function (/** @type {HTMLElement} */ box) {
        var scrolls = isScrolling(box);
        box.classList.toggle("course-scrolls", scrolls);
        if (scrolls) {
          box.tabIndex = 0;
          if (entry[1] && (!box.hasAttribute("aria-label") || box.hasAttribute(NAMED))) {
            box.setAttribute("role", "group");
            box.setAttribute("aria-label", entry[1] + ", scrolls sideways");
            box.setAttribute(NAMED, "");
          }
        } else if (box.hasAttribute(NAMED)) {
          box.removeAttribute("role");
          box.removeAttribute("aria-label");
          box.removeAttribute(NAMED);
          box.tabIndex = -1;
        }
      });
    });
  }

  var pending = null;
  function soon() {
    if (pending !== null) clearTimeout(pending);
    pending = setTimeout(function () { pending = null; mark(); }, 150);
  }

  function start() {
    mark();
    window.addEventListener("resize", soon);
    // Fonts change widths: look again once they have loaded.
    if (document.fonts?.ready) document.fonts.ready.then(soon);
    window.addEventListener("load", soon);
  }

  // MathJax typesets the formulas after the page has loaded: this script runs after the page's
  // MathJax configuration and before MathJax itself (deferred), so it can ask MathJax to call it
  // once the page is typeset (before MathJax.startup.promise resolves).
  var config = /** @type {any} */ (window).MathJax;
  if (config && !config.version) {
    config.startup = config.startup || {};
    config.startup.pageReady = function () {
      var mathjax = /** @type {any} */ (window).MathJax;
      return mathjax.startup.defaultPageReady().then(mark);
    };
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
})();
