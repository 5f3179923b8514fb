// The playground in a real Chromium (Debian's, driven by playwright-core), as a newcomer uses
// it: open the page, type Kayles and run it, share a link, make a syntax error, stop a long
// computation and run another, play a game to its end. Run by ctest (web.browser) after
// web/build.sh; `node tests/browser.mjs [DIST] [--screenshots DIR]`.
// Environment: CHROMIUM (default /usr/bin/chromium), GRUNDY_BIN (the native CLI, to time the
// same work beside the browser: printed, not asserted).
import { chromium } from "playwright-core";
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { serve } from "../serve.mjs";

const web = fileURLToPath(new URL("..", import.meta.url));
const args = process.argv.slice(2);
const shotsAt = args.indexOf("--screenshots");
const shots = shotsAt >= 0 ? args.splice(shotsAt, 2)[1] : null;
const dist = args[0] ?? join(web, "dist");
if (!existsSync(join(dist, "grundy.wasm"))) {
  console.error(`no playground in ${dist}: build it with web/build.sh`);
  process.exit(1);
}

let failures = 0;
async function check(name, f) {
  try {
    await f();
    console.log(`ok   ${name}`);
  } catch (e) {
    failures++;
    console.log(`FAIL ${name}\n     ${String(e.stack ?? e).split("\n").slice(0, 4).join("\n     ")}`);
  }
}
function expect(cond, what) {
  if (!cond) throw new Error(what);
}

const server = await serve(dist, 0);
const base = `http://127.0.0.1:${server.address().port}/`;
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
  args: ["--no-sandbox", "--disable-dev-shm-usage"],
});
const page = await browser.newPage({ viewport: { width: 1280, height: 860 } });
page.on("pageerror", (e) => console.log(`     page error: ${e.message}`));

// Replaces the editor's program by typing it, as a person would.
async function typeProgram(p, text) {
  await p.click(".cm-content");
  await p.keyboard.press("Control+A");
  await p.keyboard.press("Delete");
  for (const line of text.split("\n")) {
    await p.keyboard.type(line);
    await p.keyboard.press("Enter");
    await p.keyboard.press("Home"); // no indentation carried to the next line
    await p.keyboard.press("Shift+Home");
    await p.keyboard.press("Delete");
  }
}
const output = (p) => p.locator("#output").innerText();
async function runAndWait(p) {
  await p.click("#run");
  await p.waitForFunction(() => !document.getElementById("run").disabled, null, { timeout: 60000 });
  return output(p);
}

const kayles = "game Kayles { state n  split [a, n - t - a] for t in 1..2 for a in 0..n-t }\ngrundy(Kayles(10))";

await check("the page opens and gives its first result", async () => {
  const t0 = Date.now();
  await page.goto(base);
  await page.waitForFunction(() => /^ok/.test(document.getElementById("status").textContent), null, { timeout: 20000 });
  const ms = Date.now() - t0;
  const loaded = await page.evaluate(() => document.body.dataset.ready);
  console.log(`     first result ${ms} ms after opening (module ready in ${loaded} ms)`);
  expect((await output(page)).includes("2"), "the opening example printed its values");
  expect((await page.locator("#limits").innerText()).includes("steps per statement"), "the limits are shown");
});

await check("type Kayles, run it, read 2", async () => {
  await typeProgram(page, kayles);
  const out = await runAndWait(page);
  expect(out.trim() === "2", `output was ${JSON.stringify(out)}`);
});

await check("Ctrl-Enter runs, a table is an HTML table and a sequence a plot", async () => {
  await typeProgram(page, `${kayles.split("\n")[0]}\ntable(grundy(Kayles(n)) for n in 0..11)\n[grundy(Kayles(n)) for n in 0..40]`);
  await page.keyboard.press("Control+Enter");
  await page.waitForSelector("#output table.values");
  const cells = await page.locator("#output table.values td").allInnerTexts();
  expect(cells.join(" ") === "0 1 2 3 1 4 3 2 1 4 2 6", `table cells ${cells.join(" ")}`); // ten to a row
  expect((await page.locator("#output table.values tr").count()) === 3, "a header and two rows, as the CLI prints it");
  expect((await page.locator("#output svg.plot").count()) === 2, "a plot for the table and one for the list");
  expect((await page.locator("#output svg.plot circle").count()) === 12 + 41, "a dot per value");
});

let link = "";
await check("share a link, open it, read its result", async () => {
  await typeProgram(page, `${kayles.split("\n")[0]}\ngrundy(Kayles(3) + Kayles(4) + Kayles(7))`);
  await page.click("#share");
  // The program is compressed asynchronously: the link appears once that is done (late on a
  // loaded machine).
  await page.waitForFunction(() => /#p=/.test(document.getElementById("share-link").value), null, { timeout: 20000 });
  link = await page.locator("#share-link").inputValue();
  expect(/#p=[A-Za-z0-9_-]+$/.test(link), `link ${link}`);
  const other = await browser.newPage();
  await other.goto(`${link}&run`);
  await other.waitForFunction(() => /^ok/.test(document.getElementById("status").textContent), null, { timeout: 20000 });
  const out = await output(other);
  expect(out.trim() === "0", `shared program printed ${JSON.stringify(out)}`); // 3 xor 1 xor 2
  await other.close();
});

await check("a syntax error is marked on its line", async () => {
  await typeProgram(page, "game B { state n  move n - k for k in 1..3 if k <= n }\ngrundy(B(10))\ngrundy(B(10) +)\ngrundy(B(4))");
  const out = await runAndWait(page);
  expect(out.includes("program.game:3:"), `diagnostic ${out}`);
  await page.waitForSelector(".cm-lintRange-error");
  const line = await page.evaluate(() => {
    const lines = [...document.querySelectorAll(".cm-content .cm-line")];
    return lines.findIndex((l) => l.querySelector(".cm-lintRange-error")) + 1;
  });
  expect(line === 3, `the marker is on line ${line}`);
  expect((await page.locator("#status").innerText()).startsWith("compile error"), "status says compile error");
});

await check("Stop ends a long computation, and the next run works", async () => {
  await typeProgram(page, "sum(n % 7 for n in 0..99999990)"); // some 4 s in a browser
  await page.click("#run");
  await page.waitForTimeout(1500);
  expect(await page.locator("#stop").isEnabled(), "still running after 1.5 s");
  await page.click("#stop");
  const status = await page.locator("#status").innerText();
  expect(status.startsWith("stopped after"), `status ${status}`);
  await typeProgram(page, kayles);
  const out = await runAndWait(page);
  expect(out.trim() === "2", `after stopping, output ${JSON.stringify(out)}`);
});

await check("play Kayles(3) + Kayles(4) to the end with the hints, and win", async () => {
  await typeProgram(page, kayles);
  await runAndWait(page);
  await page.fill(".play-position", "Kayles(3) + Kayles(4)");
  await page.click(".play-start");
  await page.click(".play-hint");
  const over = () => /You win|computer wins|draw/.test(document.querySelector(".play-state").textContent);
  for (let turn = 0; turn < 20; turn++) {
    // The person's turn: the options are buttons again (or the game is over).
    await page.waitForFunction(
      (o) => new Function(`return (${o})()`)() || document.querySelector(".play-options .option:not([disabled])"),
      over.toString());
    if (await page.evaluate((o) => new Function(`return (${o})()`)(), over.toString())) break;
    const good = page.locator(".play-options .option.winning");
    const state = await page.locator(".play-state").innerText();
    expect((await good.count()) > 0, `no winning option shown at: ${state}`);
    const moves = await page.locator(".play-log li").count();
    await good.first().click();
    // The person's move and the computer's answer are logged (or the game ended).
    await page.waitForFunction(
      ([o, n]) => new Function(`return (${o})()`)() || document.querySelectorAll(".play-log li").length >= n + 2,
      [over.toString(), moves]);
  }
  const end = await page.locator(".play-state").innerText();
  expect(end.includes("You win!"), `the game ended: ${end}`);
  expect((await page.locator(".play-log li").count()) >= 3, "the moves are listed");
});

await check("the browser's time beside the CLI's (printed)", async () => {
  const program = "game GG { state n  split [a, n - a] for a in 1..(n - 1) / 2 }\nsum(grundy(GG(n)) for n in 0..100000)";
  await typeProgram(page, program);
  const out = await runAndWait(page);
  const status = await page.locator("#status").innerText();
  const ms = Number(/([0-9.]+) ms/.exec(status)?.[1]);
  expect(out.trim() === "6157260", `sum ${out}`);
  let native = "";
  if (process.env.GRUNDY_BIN) {
    const file = join(mkdtempSync(join(tmpdir(), "grundy-")), "gg.game");
    writeFileSync(file, `${program}\n`);
    const t0 = process.hrtime.bigint();
    execFileSync(process.env.GRUNDY_BIN, ["run", file], { stdio: "ignore" });
    native = `, the CLI ${(Number(process.hrtime.bigint() - t0) / 1e6).toFixed(0)} ms as a whole process`;
  }
  console.log(`     Grundy's game to 10^5: ${ms} ms in the browser${native}`);
});

if (shots) {
  await typeProgram(page, `${kayles.split("\n")[0]}\ngrundy(Kayles(10))\ntable(grundy(Kayles(n)) for n in 0..15)\ngame W { state (a, b)  move (a - k, b) for k in 1..a  move (a, b - k) for k in 1..b  move (a - k, b - k) for k in 1..min(a, b) }\ntable(outcome(W(a, b)) for a in 0..15 for b in 0..15)`);
  await runAndWait(page);
  await page.fill(".play-position", "Kayles(5) + Kayles(2)");
  await page.click(".play-start");
  await page.waitForSelector(".play-options .option");
  await page.screenshot({ path: join(shots, "playground-wide.png"), fullPage: true });
  await page.setViewportSize({ width: 420, height: 900 });
  await page.screenshot({ path: join(shots, "playground-narrow.png"), fullPage: true });
  console.log(`screenshots in ${shots}`);
}

await browser.close();
server.close();
if (failures) {
  console.log(`${failures} browser check(s) failed`);
  process.exit(1);
}
console.log("all browser checks passed");
