// Bundles the page into DIR (web/build.sh has put grundy.js and grundy.wasm there): the
// editor and the worker with esbuild, the examples (examples/*.game) and the tutorial's
// programs (docs/tutorial.md, one entry per section) as examples.json.
import { build } from "esbuild";
import { copyFile, readFile, readdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const web = fileURLToPath(new URL(".", import.meta.url));
const root = join(web, "..");
const dist = process.argv[2] ?? join(web, "dist");

await build({
  entryPoints: { main: join(web, "src/main.js"), worker: join(web, "src/worker.js") },
  outdir: dist,
  bundle: true,
  minify: true,
  format: "iife",
  target: "chrome100",
  logLevel: "warning",
});
for (const f of ["index.html", "style.css"]) await copyFile(join(web, f), join(dist, f));

const examples = [];
for (const f of (await readdir(join(root, "examples"))).filter((f) => f.endsWith(".game")).sort()) {
  examples.push({ name: f.replace(/\.game$/, ""), source: await readFile(join(root, "examples", f), "utf8") });
}
// The tutorial: a section's programs (its ``` blocks, not its ```text output) together.
function programs(section) {
  const blocks = [];
  let open = null; // the fence's language while inside a block
  let lines = [];
  for (const line of section.split("\n")) {
    const fence = /^```(\S*)\s*$/.exec(line);
    if (!fence) {
      if (open !== null) lines.push(line);
    } else if (open === null) {
      open = fence[1];
      lines = [];
    } else {
      if (open === "") blocks.push(lines.join("\n"));
      open = null;
    }
  }
  return blocks;
}
const tutorial = await readFile(join(root, "docs/tutorial.md"), "utf8");
for (const section of tutorial.split(/^## /m).slice(1)) {
  const title = section.slice(0, section.indexOf("\n")).trim();
  const blocks = programs(section);
  if (blocks.length > 0) examples.push({ name: `tutorial ${title}`, source: `${blocks.join("\n\n")}\n` });
}
await writeFile(join(dist, "examples.json"), JSON.stringify(examples));
console.log(`page: ${examples.length} examples, into ${dist}`);
