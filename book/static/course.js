// The course website's own script (served from _static/, no network).
// Saved widgets are drawn by the Jupyter widgets html-manager after the page has loaded. A
// picture inside a widget (an ipywidgets Image) gets its description as alt text from the
// widget's tooltip (its title attribute), which chutes_edu's widgets set with every new picture.
(function () {
  "use strict";
  function describe(root) {
    root.querySelectorAll(".jupyter-widgets img:not([alt])").forEach(function (img) {
      var text = img.getAttribute("title") || img.getAttribute("aria-label");
      if (text) { img.setAttribute("alt", text); }
    });
  }
  function start() {
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
})();
