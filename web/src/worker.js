// The interpreter's thread: the page never waits on a computation, and Stop ends one by
// ending this worker (the page starts a fresh one). Messages in: {id, run: source} or
// {id, play: request}; out: {ready, ms, limits}, {id, result}, or {id, crash} when the module
// itself failed (a trap: the page then starts a fresh worker).
/* global importScripts, createGrundy */
importScripts("grundy.js");

const started = performance.now();
let api = null;
const queue = [];

function handle(msg) {
  try {
    const result = msg.run !== undefined ? api.run(msg.run, "program.game") : api.call(JSON.stringify(msg.play));
    self.postMessage({ id: msg.id, result: JSON.parse(result) });
  } catch (e) {
    // A RangeError (the browser's stack) or an abort: the module's state is lost.
    const deep = e instanceof RangeError;
    self.postMessage({
      id: msg.id,
      crash: deep
        ? "the computation nested too deeply for the browser's stack (the command-line grundy allows more)"
        : String(e && e.message ? e.message : e),
    });
  }
}

createGrundy().then((M) => {
  api = {
    run: M.cwrap("grundy_run", "string", ["string", "string"]),
    call: M.cwrap("grundy_call", "string", ["string"]),
  };
  const limits = JSON.parse(api.call('{"limits": true}'));
  self.postMessage({ ready: true, ms: performance.now() - started, limits });
  while (queue.length) handle(queue.shift());
});

self.onmessage = (e) => {
  if (api) handle(e.data);
  else queue.push(e.data);
};
