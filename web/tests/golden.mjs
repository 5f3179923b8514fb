// The golden programs (examples/, tests/cases, tests/stdlib, tests/tutorial,
// tests/diagnostics) run through the WebAssembly module under Node: the same stdout, stderr and
// exit code as the CLI's .expected, .stderr and .exit files. Programs that import files by
// path are left out (the page has no file system), and so are those run with flags or a subcommand
// (NAME.flags, NAME.command), those not in UTF-8, and the few whose diagnostics name a limit the page sets lower (web/Bridge.cpp). `node tests/golden.mjs [DIST]`.
import { createRequire } from "node:module";
import { existsSync, readFileSync, readdirSync } from "node:fs";
import { basename, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const web = fileURLToPath(new URL("..", import.meta.url));
const root = join(web, "..");
const dist = resolve(process.argv[2] ?? join(web, "dist"));
// grundy.js is a classic script that sets module.exports (web/ is "type": "module").
const require = createRequire(import.meta.url);
const module = { exports: {} };
new Function("module", "exports", "require", "__dirname", readFileSync(join(dist, "grundy.js"), "utf8"))(
  module, module.exports, require, dist);
const createGrundy = module.exports;
const M = await createGrundy({ wasmBinary: readFileSync(join(dist, "grundy.wasm")) });
const run = M.cwrap("grundy_run", "string", ["string", "string"]);

const read = (f, otherwise) => (existsSync(f) ? readFileSync(f, "utf8") : otherwise);
let passed = 0, skipped = 0;
const failed = [], deep = [];
for (const dir of ["examples", "tests/cases", "tests/stdlib", "tests/tutorial", "tests/diagnostics"]) {
  for (const f of readdirSync(join(root, dir)).filter((f) => f.endsWith(".game")).sort()) {
    const path = join(root, dir, f);
    const bytes = readFileSync(path);
    const source = bytes.toString("utf8");
    const stem = path.replace(/\.game$/, "");
    const err = read(`${stem}.stderr`, "");
    // Left out: file imports, flags or a subcommand (NAME.flags, NAME.command), limits the page
    // sets lower, and bytes that are not UTF-8 (text in a browser always is).
    const cli = existsSync(`${stem}.flags`) || existsSync(`${stem}.command`);
    if (/^\s*import\s+"/m.test(source) || cli || /--max-(depth|memory)/.test(err) || !Buffer.from(source).equals(bytes)) {
      skipped++;
      continue;
    }
    let r;
    try {
      r = JSON.parse(run(source, basename(path)));
    } catch (e) {
      r = { out: "", err: `the module failed: ${String(e).slice(0, 200)}`, code: -1 };
    }
    const want = { out: read(`${stem}.expected`, ""), err, code: Number(read(`${stem}.exit`, "0").trim()) };
    if (r.out === want.out && r.err === want.err && r.code === want.code) {
      passed++;
    } else if (/nested deeper than 500|Maximum call stack/.test(r.err)) {
      deep.push(`${dir}/${f}`); // recursion the CLI's stack holds and a browser's does not
    } else {
      failed.push({ file: `${dir}/${f}`, r, want });
    }
  }
}
// The tutorial's sections as the page's menu offers them (build-page.mjs): each runs clean.
const menu = JSON.parse(readFileSync(join(dist, "examples.json"), "utf8"));
let sections = 0;
for (const ex of menu.filter((e) => e.name.startsWith("tutorial "))) {
  const r = JSON.parse(run(ex.source, "program.game"));
  sections++;
  if (r.code !== 0) failed.push({ file: `examples.json: ${ex.name}`, r, want: { out: r.out, err: "", code: 0 } });
}
if (sections < 10) failed.push({ file: "examples.json", r: { out: "", err: `${sections} tutorial sections`, code: 0 }, want: { out: "", err: "at least 10", code: 0 } });

for (const { file, r, want } of failed) {
  console.log(`FAIL ${file}: exit ${r.code} (want ${want.code})`);
  const first = (a, b) => {
    let i = 0;
    while (i < a.length && a[i] === b[i]) i++;
    return i;
  };
  for (const k of ["out", "err"]) {
    if (r[k] === want[k]) continue;
    const i = first(r[k], want[k]);
    console.log(`  ${k} differs at ${i}: got ${JSON.stringify(r[k].slice(i, i + 160))}`);
    console.log(`  ${" ".repeat(k.length)}             want ${JSON.stringify(want[k].slice(i, i + 160))}`);
  }
}
console.log(`${passed} golden programs agree in WebAssembly and ${sections} tutorial sections run; ${failed.length} differ, ${skipped} left out,`);
console.log(`${deep.length} nest deeper than a browser's stack allows (${deep.join(", ")})`);
process.exit(failed.length ? 1 : 0);
