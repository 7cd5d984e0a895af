/* The website's stylesheet without the rules no page can use (book/lean_pages.py runs this once
   per build, over each page's bundled stylesheet): PurgeCSS (npm, pinned in book/package.json)
   keeps a rule when every class, id and element its selector names occurs in some page of the
   site or in some script the site serves (a script may add a class: the theme's menus, Bootstrap's
   states, the explorers), and drops the others (Font Awesome's thousands of icon classes, Bootstrap
   components the theme never shows), with the @keyframes and @font-face no kept rule uses.
   The course's own stylesheets are marked, in the bundle, to be kept whole.

   stdin:  {"content": [{"raw": "...", "extension": "html" | "js"}, ...], "css": ["...", ...]}
   stdout: {"css": ["...", ...]}   each stylesheet pruned, in order */
import { PurgeCSS } from "purgecss";

async function readStdin() {
  const chunks = [];
  for await (const chunk of process.stdin) chunks.push(chunk);
  return Buffer.concat(chunks).toString("utf8");
}

const request = JSON.parse(await readStdin());
const pruned = [];
for (const raw of request.css) {
  const [result] = await new PurgeCSS().purge({
    content: request.content,
    css: [{ raw }],
    keyframes: true,
    fontFace: true,
    variables: false, // a custom property may be read by a script or an inline style
  });
  pruned.push(result.css);
}
process.stdout.write(JSON.stringify({ css: pruned }));
