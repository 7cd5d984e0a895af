// The explorers' front end, built by esbuild (package.json pins it): `npm run build`, or
// `npm run dev` to rebuild on every save (`--watch`). For each front end of
// chutes_edu/widgets/front_ends.json it writes, into chutes_edu/widgets/static/:
//   <name>.js       one ES module (what anywidget loads: the explorer's `_esm`), with <name>.js.map
//   <name>.css      its stylesheets, the shared ui/controls.css first (the explorer's `_css`)
// and for the course website, which opens pages from disk and so cannot import ES modules, classic
// scripts (IIFEs), so that a page loads the code of what it shows and nothing else (issue 52):
//   site-<name>.js  the front end alone, publishing its `mount` as window[<global>]; likewise
//                   site-calculator.js (js/site/calculator.js, the exercise pages' calculator)
//   site-maths.js   the board maths the answer boxes judge jumps with (js/site/maths.js)
//   site.js         the runtime that draws what a page asks for with them (js/site/site.js)
//   site.css        every front end's styles, each file once
// (book/lean_pages.py gives each page the scripts of its places.) Each script holds the modules
// it imports, so two explorers on one page share no code: a page shows one or two, and a shared
// chunk would make a page of one explorer load the others' modules.
// Minified with names kept (error messages and stack traces stay readable), with source maps.
// The built files are checked in, so that students, Binder and hubs need no Node; `make lint`
// builds again into a scratch folder and fails on any difference (`--check`).
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import * as esbuild from "esbuild";
import { CALCULATOR_GLOBAL } from "../chutes_edu/widgets/js/site/places.js";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const WIDGETS = path.join(ROOT, "chutes_edu", "widgets");
const JS = path.join(WIDGETS, "js");
const STATIC = path.join(WIDGETS, "static");
const SITE = path.join(JS, "site");
const registry = JSON.parse(readFileSync(path.join(WIDGETS, "front_ends.json"), "utf8"));

const common = {
  bundle: true, minify: true, keepNames: true, sourcemap: "linked", target: "es2020",
  charset: "utf8", legalComments: "none", logLevel: "warning", absWorkingDir: ROOT,
  // the maps name the sources (../js/*.js, shipped beside static/) rather than copy them
  sourcesContent: false,
};

/** The stylesheets `names` of js/, ui/controls.css first, each once, as one CSS entry. */
function cssEntry(names) {
  const unique = [...new Set(["ui/controls.css", ...names])];
  return { contents: unique.map((n) => `@import "./${n}";`).join("\n"), resolveDir: JS,
           sourcefile: "styles.css", loader: "css" };
}

/** [name, entry module under js/, global] of each script of the website that publishes a mount:
 * every front end of the registry, and the board calculator of the exercise pages. */
function siteScripts() {
  const fronts = Object.entries(registry.front_ends).map(([name, spec]) => [name, spec.entry, spec.global]);
  return [...fronts, ["calculator", "site/calculator.js", CALCULATOR_GLOBAL]];
}

/** Every build this script makes, writing into `outdir`. */
function builds(outdir) {
  const all = [];
  for (const [name, spec] of Object.entries(registry.front_ends)) {
    all.push({ ...common, entryPoints: { [name]: path.join(JS, spec.entry) }, format: "esm",
               outdir });
    all.push({ ...common, stdin: cssEntry(spec.styles), outfile: path.join(outdir, `${name}.css`) });
  }
  for (const [name, entry, global] of siteScripts()) {
    // the entry publishes the module's mount: a few lines, written here from the registry
    const contents = `import { mount } from "./${path.relative(SITE, path.join(JS, entry)).replaceAll(path.sep, "/")}";\n`
      + `window[${JSON.stringify(global)}] = Object.freeze({ mount });\n`;
    all.push({ ...common, stdin: { contents, resolveDir: SITE, sourcefile: `site-${name}.js` },
               format: "iife", outfile: path.join(outdir, `site-${name}.js`) });
  }
  for (const name of ["site", "maths"]) {
    const file = name === "site" ? "site.js" : `site-${name}.js`;
    all.push({ ...common, entryPoints: [path.join(SITE, `${name}.js`)], format: "iife",
               outfile: path.join(outdir, file) });
  }
  const styles = Object.values(registry.front_ends).flatMap((spec) => spec.styles);
  all.push({ ...common, stdin: cssEntry(styles), outfile: path.join(outdir, "site.css") });
  return all;
}

async function build(outdir) {
  rmSync(outdir, { recursive: true, force: true });
  await Promise.all(builds(outdir).map((options) => esbuild.build(options)));
}

/** Build into a scratch folder and compare with static/: the names of files that differ. */
async function differences() {
  // a sibling of static/, so that the maps' relative paths to js/ are the same
  const scratch = mkdtempSync(path.join(WIDGETS, ".static-check-"));
  try {
    const fresh = scratch;
    await build(fresh);
    const names = new Set([...readdirSync(fresh), ...safeList(STATIC)]);
    return [...names].sort().filter((n) => {
      try {
        return !readFileSync(path.join(fresh, n)).equals(readFileSync(path.join(STATIC, n)));
      } catch {
        return true;
      }
    });
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

function safeList(folder) {
  try {
    return readdirSync(folder);
  } catch {
    return [];
  }
}

const args = process.argv.slice(2);
if (args.includes("--check")) {
  const stale = await differences();
  if (stale.length) {
    console.error(`chutes_edu/widgets/static/ is not what the front end builds to (${stale.join(", ")}):` +
                  " run `npm run build` and commit the result");
    process.exit(1);
  }
  console.log("chutes_edu/widgets/static/ is up to date with js/");
} else if (args.includes("--watch")) {
  for (const options of builds(STATIC)) {
    const context = await esbuild.context({ ...options, logLevel: "info" });
    await context.watch();
  }
  console.log("watching chutes_edu/widgets/js/ (Ctrl-C to stop); with ANYWIDGET_HMR=1 a running Lab follows");
} else {
  await build(STATIC);
  console.log(`built ${readdirSync(STATIC).length} files into chutes_edu/widgets/static/`);
}
