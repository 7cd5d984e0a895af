// The course website's own script (served from _static/, no network).
(function () {
  "use strict";

  // Saved widgets are drawn by the Jupyter widgets html-manager after the page has loaded. Its
  // controls typeset their labels with MathJax 2's MathJax.Hub.Queue; the site serves MathJax 3,
  // so that call is answered with MathJax 3's typesetPromise.
  function bridgeMathJax() {
    var mj = window.MathJax;
    if (!mj || mj.Hub) { return; }
    mj.Hub = {
      Queue: function (job) {
        if (!Array.isArray(job) || job[0] !== "Typeset" || !job[2]) { return; }
        var ready = mj.startup && mj.startup.promise ? mj.startup.promise : Promise.resolve();
        ready.then(function () {
          return mj.typesetPromise ? mj.typesetPromise([job[2]]) : null;
        }).catch(function () { /* a label left in TeX is better than a broken widget */ });
      }
    };
  }

  // A picture inside a widget (an ipywidgets Image) gets its description as alt text from the
  // widget's tooltip (its title attribute), which chutes_edu's widgets set with every new picture.
  function describe(root) {
    root.querySelectorAll(".jupyter-widgets img:not([alt])").forEach(function (img) {
      var text = img.getAttribute("title") || img.getAttribute("aria-label");
      if (text) { img.setAttribute("alt", text); }
    });
  }

  function start() {
    bridgeMathJax();
    describe(document);
    new MutationObserver(function () { describe(document); })
      .observe(document.body, { childList: true, subtree: true, attributes: true,
                                attributeFilter: ["title"] });
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
  window.addEventListener("load", bridgeMathJax);
})();
