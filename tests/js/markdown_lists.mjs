// Reads [{"where": ..., "source": ...}, ...] (JSON) on stdin and prints, as JSON, every numbered
// list that JupyterLab's Markdown parser (marked, as pinned in package.json) would make of a cell
// and that the author cannot have meant: a list that does not start at 1, or that has an empty item.
// A wrapped line that begins with a year and a dot ("  1960.") is such a list.
import { marked } from "marked";

function* lists(tokens) {
  for (const token of tokens ?? []) {
    if (token.type === "list") yield token;
    for (const child of [token.tokens, token.items].filter(Boolean)) yield* lists(child);
  }
}

const cells = JSON.parse(await new Promise((resolve) => {
  let text = "";
  process.stdin.on("data", (chunk) => { text += chunk; });
  process.stdin.on("end", () => resolve(text));
}));
const problems = [];
for (const { where, source } of cells) {
  for (const list of lists(marked.lexer(source))) {
    if (!list.ordered) continue;
    const empty = list.items.some((item) => item.text.trim() === "");
    if ((list.start !== 1 && list.start !== "") || empty) {
      problems.push({ where, start: list.start, line: list.raw.split("\n")[0].trim() });
    }
  }
}
console.log(JSON.stringify(problems));
