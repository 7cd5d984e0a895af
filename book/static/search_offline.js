/* The search page's excerpts from the words shipped with the search index (book/search_text.py
   writes them into _static/search_text.js, loaded before this on search.html only). Sphinx's
   searchtools.js fetches each result's page to cut an excerpt from it, which a website opened
   from disk (file://) may not do: each excerpt failed, with an error in the console. Here a fetch
   of one of the site's pages that the words cover is answered from them, as a page holding only
   its article's sections and their words (what searchtools.js reads: [role="main"], or the
   section a result names); any other fetch goes out as it would. */
(function () {
  "use strict";
  /** @typedef {[string, (string | Place)[]]} Place  [id, its words and named places, in order] */
  var send = window.fetch ? window.fetch.bind(window) : null;
  if (!send) return;

  /** The page a URL names, as the search index names it ("lessons/01_waiting_for_heads"), or
      null if it is no page of this site. */
  function pageName(/** @type {string} */ address) {
    var root = new URL(document.documentElement.dataset.content_root || "./", document.baseURI);
    var url = new URL(address, document.baseURI);
    if (url.protocol !== root.protocol || url.host !== root.host) return null;
    if (url.pathname.indexOf(root.pathname) !== 0) return null;
    return decodeURIComponent(url.pathname.slice(root.pathname.length)).replace(/\.html$/, "");
  }

  /** A page of the words: each section or named place an element with its id. */
  function asPage(/** @type {Place} */ tree) {
    var main = document.createElement("div");
    main.setAttribute("role", "main");
    /** @param {HTMLElement} parent @param {Place} node */
    function add(parent, node) {
      var here = parent;
      if (node[0]) {
        here = document.createElement("div");
        here.id = node[0];
        parent.appendChild(here);
      }
      node[1].forEach(function (part) {
        if (typeof part === "string") here.appendChild(document.createTextNode(part + " "));
        else add(here, part);
      });
    }
    add(main, tree);
    return "<!DOCTYPE html><html><body>" + main.outerHTML + "</body></html>";
  }

  /** @type {typeof window.fetch} */
  window.fetch = function (input, init) {
    /** @type {Record<string, Place> | undefined} */
    var words = /** @type {any} */ (window).CourseSearchText;
    var address = typeof input === "string" ? input
      : input instanceof URL ? input.href : input.url;
    var name = words ? pageName(address) : null;
    if (words && name !== null && Object.hasOwn(words, name)) {
      return Promise.resolve(new Response(asPage(words[name]),
        { headers: { "Content-Type": "text/html; charset=utf-8" } }));
    }
    return /** @type {typeof window.fetch} */ (send)(input, init);
  };
})();
