/* The course website's formulas, drawn when the site is built (book/build.py runs this once per
   build): MathJax 3's TeX input and SVG output in Node, from the `mathjax` package the site already
   pins (book/package.json), with MathJax's assistive MathML kept beside each drawing, so that a
   screen reader reads the formula (the drawing is aria-hidden) and a printed PDF tags it with its
   words. The reader's browser loads no MathJax and typesets nothing.

   stdin:  {"pages": [[[tex, display], ...], ...]}  the TeX of each page's formulas, in order
   stdout: {"css": "...", "pages": [{"formulas": ["<mjx-container ...>", ...], "errors": [...]},
            ...]}
   Each formula's SVG holds the glyphs it uses (MathJax's local font cache, its ids numbered per
   formula); book/lean_pages.py's shared_glyphs then keeps each glyph once per page. `css` is
   MathJax's stylesheet for the lot. */
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);

async function readStdin() {
  const chunks = [];
  for await (const chunk of process.stdin) chunks.push(chunk);
  return Buffer.concat(chunks).toString("utf8");
}

const request = JSON.parse(await readStdin());
const MathJax = await require("mathjax").init({
  loader: { load: ["input/tex-full", "output/svg", "a11y/assistive-mml"] },
  tex: { inlineMath: [["\\(", "\\)"]], processEscapes: true },
  svg: { fontCache: "local" },
  options: { enableAssistiveMml: true },
  startup: { typeset: false },
});
const adaptor = MathJax.startup.adaptor;

const pages = [];
for (const formulas of request.pages) {
  const out = [];
  const errors = [];
  for (const [tex, display] of formulas) {
    const node = await MathJax.tex2svgPromise(tex, { display: Boolean(display) });
    const html = adaptor.outerHTML(node);
    if (html.includes("data-mjx-error") || html.includes("<mjx-merror")) errors.push(tex);
    out.push(html);
  }
  pages.push({ formulas: out, errors });
}
const css = adaptor.textContent(MathJax.svgStylesheet());
process.stdout.write(JSON.stringify({ css, pages }));
