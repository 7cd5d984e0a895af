// The explorers' front end, built by esbuild (package.json pins it): `npm run build`, or
// `npm run dev` to rebuild on every save (`--watch`). For each front end of
// chutes_edu/widgets/front_ends.json it writes, into chutes_edu/widgets/static/:
//   <name>.js   one ES module (what anywidget loads: the explorer's `_esm`), with <name>.js.map
//   <name>.css  its stylesheets, the shared ui/controls.css first (the explorer's `_css`)
// and for the course website, which opens pages from disk and so cannot import ES modules:
//   site.js     one classic script of every front end (js/site/site.js), each module once
//   site.css    every front end's styles, each file once
// Minified with names kept (error messages and stack traces stay readable), with source maps.
// The built files are checked in, so that students, Binder and hubs need no Node; `make lint`
// builds again into a scratch folder and fails on any difference (`--check`).
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import * as esbuild from "esbuild";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const WIDGETS = path.join(ROOT, "chutes_edu", "widgets");
const JS = path.join(WIDGETS, "js");
const STATIC = path.join(WIDGETS, "static");
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

/** Every build this script makes, writing into `outdir`. */
function builds(outdir) {
  const all = [];
  for (const [name, spec] of Object.entries(registry.front_ends)) {
    all.push({ ...common, entryPoints: { [name]: path.join(JS, spec.entry) }, format: "esm",
               outdir });
    all.push({ ...common, stdin: cssEntry(spec.styles), outfile: path.join(outdir, `${name}.css`) });
  }
  all.push({ ...common, entryPoints: { site: path.join(JS, "site", "site.js") }, format: "iife", outdir });
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
