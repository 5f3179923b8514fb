// The playground's page: an editor, Run and Stop, the output as the CLI prints it with tables
// and plots beside it, a share link, the examples, and play against the computer. The
// interpreter runs in a worker (worker.js); this thread only draws.
import { EditorView, keymap, lineNumbers, highlightActiveLine } from "@codemirror/view";
import { EditorState } from "@codemirror/state";
import { defaultKeymap, history, historyKeymap } from "@codemirror/commands";
import { syntaxHighlighting, defaultHighlightStyle, bracketMatching } from "@codemirror/language";
import { setDiagnostics, lintGutter } from "@codemirror/lint";
import { grundyLanguage } from "./grundy-mode.js";
import { renderValue } from "./render.js";
import { decodeProgram, encodeProgram } from "./share.js";
import { Play } from "./play.js";

const $ = (id) => document.getElementById(id);
const status = (text) => ($("status").textContent = text);

// ---- the worker ----

let worker = null;
let ready = null; // a promise, resolved when the worker's module is loaded
let nextId = 1;
const pending = new Map();

// The first worker comes from the page's head (index.html), started before this script.
function startWorker() {
  const boot = window.grundyBoot;
  worker = boot?.worker ?? new Worker("worker.js");
  const early = boot?.early ?? [];
  if (boot) window.grundyBoot = { examples: boot.examples };
  ready = new Promise((resolve) => {
    worker.onmessage = (e) => {
      const m = e.data;
      if (m.ready) return resolve(m);
      const p = pending.get(m.id);
      if (!p) return;
      pending.delete(m.id);
      if (m.crash) {
        p.reject(new Error(m.crash));
        restartWorker();
      } else {
        p.resolve(m.result);
      }
    };
    for (const e of early) worker.onmessage(e);
  });
}

function restartWorker() {
  worker.terminate();
  for (const p of pending.values()) p.reject(new Error("stopped"));
  pending.clear();
  startWorker();
}

async function ask(message) {
  await ready;
  const id = nextId++;
  return new Promise((resolve, reject) => {
    pending.set(id, { resolve, reject });
    worker.postMessage({ id, ...message });
  });
}

// ---- the editor ----

const editor = new EditorView({
  parent: $("editor"),
  state: EditorState.create({
    doc: "",
    extensions: [
      lineNumbers(),
      history(),
      highlightActiveLine(),
      bracketMatching(),
      lintGutter(),
      grundyLanguage,
      syntaxHighlighting(defaultHighlightStyle),
      keymap.of([{ key: "Mod-Enter", run: () => (run(), true) }, ...defaultKeymap, ...historyKeymap]),
      EditorView.lineWrapping,
    ],
  }),
});

function setProgram(text) {
  editor.dispatch({ changes: { from: 0, to: editor.state.doc.length, insert: text } });
}
const program = () => editor.state.doc.toString();

// Diagnostics as the CLI prints them (program.game:LINE:COLUMN: error: message), marked in
// the editor: from the caret's column to the end of its word, or the whole line.
function markDiagnostics(err) {
  const doc = editor.state.doc;
  const found = [];
  for (const m of err.matchAll(/^program\.game:(\d+):(\d+): (error|warning): (.*)$/gm)) {
    const lineNo = Math.min(Number(m[1]), doc.lines);
    const line = doc.line(lineNo);
    let from = Math.min(line.from + Number(m[2]) - 1, line.to);
    let to = from;
    while (to < line.to && /\w/.test(doc.sliceString(to, to + 1))) to++;
    if (to === from) {
      to = Math.min(from + 1, line.to);
      if (to === from) [from, to] = [line.from, line.to];
    }
    found.push({ from, to, severity: m[3], message: m[4] });
  }
  editor.dispatch(setDiagnostics(editor.state, found));
  return found.length;
}

// ---- running ----

let running = false;
let startedAt = 0;
let ticker = null;

function setRunning(on) {
  running = on;
  $("run").disabled = on;
  $("stop").disabled = !on;
  clearInterval(ticker);
  if (on) {
    startedAt = performance.now();
    ticker = setInterval(() => status(`running… ${((performance.now() - startedAt) / 1000).toFixed(1)} s`), 100);
  }
}

// The output, statement by statement: each printed value's text (the bridge says where it
// ends), a table as an HTML table, a sequence or grid with a plot beside its text.
function showResult(r) {
  const out = $("output");
  out.replaceChildren();
  const bytes = new TextEncoder().encode(r.out);
  const decode = (a, b) => new TextDecoder().decode(bytes.subarray(a, b));
  let at = 0;
  for (const v of r.values) {
    const block = document.createElement("div");
    block.className = "block";
    block.dataset.line = v.line;
    const text = decode(at, v.end);
    at = v.end;
    const pictures = renderValue(v.value);
    if (!pictures.replacesText) {
      const pre = document.createElement("pre");
      pre.textContent = text;
      block.append(pre);
    }
    block.append(...pictures.nodes);
    out.append(block);
  }
  if (at < bytes.length) {
    const pre = document.createElement("pre");
    pre.textContent = decode(at, bytes.length);
    out.append(pre);
  }
  if (r.err) {
    const pre = document.createElement("pre");
    pre.className = "diagnostic";
    pre.textContent = r.err;
    out.append(pre);
  }
}

async function run() {
  if (running) return;
  const source = program();
  setRunning(true);
  markDiagnostics("");
  try {
    const r = await ask({ run: source });
    setRunning(false);
    showResult(r);
    markDiagnostics(r.err);
    const verdict = { 0: "ok", 1: "an assert failed", 65: "compile error", 70: "runtime error" }[r.code] ?? `exit ${r.code}`;
    status(`${verdict} · ${(r.seconds * 1000).toFixed(r.seconds < 0.01 ? 1 : 0)} ms`);
    play.refresh();
  } catch (e) {
    setRunning(false);
    const pre = document.createElement("pre");
    pre.className = "diagnostic";
    pre.textContent = e.message === "stopped" ? $("status").textContent : `error: ${e.message}`;
    $("output").replaceChildren(pre);
    if (e.message !== "stopped") status("failed"); // Stop has said when it stopped
  }
}

function stop() {
  if (!running) return;
  const seconds = ((performance.now() - startedAt) / 1000).toFixed(1);
  restartWorker();
  setRunning(false);
  status(`stopped after ${seconds} s`);
  play.refresh(); // the session it played in went with the worker
}

// ---- examples, sharing ----

async function loadExamples() {
  const list = await (window.grundyBoot?.examples ?? fetch("examples.json").then((r) => r.json()));
  const menu = $("examples");
  for (const [i, ex] of list.entries()) {
    const o = document.createElement("option");
    o.value = String(i);
    o.textContent = ex.name;
    menu.append(o);
  }
  menu.onchange = () => {
    if (menu.value === "") return;
    setProgram(list[Number(menu.value)].source);
    menu.value = "";
    run();
  };
  return list;
}

async function share() {
  const link = `${location.origin}${location.pathname}#${await encodeProgram(program())}`;
  window.history.replaceState(null, "", link);
  $("share-link").value = link;
  $("share-link").hidden = false;
  $("share-link").select();
  try {
    await navigator.clipboard.writeText(link);
    status("link copied");
  } catch {
    status("link below");
  }
}

// ---- play ----

const play = new Play($("play"), ask);

// ---- start ----

$("run").onclick = run;
$("stop").onclick = stop;
$("share").onclick = share;
startWorker();
ready.then((m) => {
  document.body.dataset.ready = `${Math.round(m.ms)}`;
  const l = m.limits;
  const n = (x) => Number(x).toLocaleString("en-US");
  $("limits").textContent =
    `Limits (as the CLI's --max-steps, --max-states, --max-rows, --max-memory, --max-depth): ` +
    `${n(l.max_steps)} steps per statement, ${n(l.max_states)} states, ${n(l.max_rows)} table rows, ` +
    `${n(l.max_memory_mb)} MB of memory, calls nested ${n(l.max_depth)} deep.`;
});

(async () => {
  const examples = loadExamples();
  const shared = await decodeProgram(location.hash);
  if (shared) {
    setProgram(shared.source);
    if (shared.run) run();
  } else {
    const list = await examples;
    setProgram((list.find((e) => e.name === "kayles") ?? list[0]).source);
    run();
  }
})();
