// What the page draws of a printed value (its JSON, as --format json writes it): a table as
// an HTML table, a sequence of integers as a plot, a grid of integers or outcomes as a heat
// map, the pictures plot(FILE, ...) draws in the CLI.
const SVG = "http://www.w3.org/2000/svg";

function el(tag, attrs = {}, text) {
  const e = tag === "svg" || attrs.svg ? document.createElementNS(SVG, tag) : document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) if (k !== "svg") e.setAttribute(k, v);
  if (text !== undefined) e.textContent = text;
  return e;
}
const svgEl = (tag, attrs = {}, text) => el(tag, { ...attrs, svg: true }, text);

const isTable = (v) => v && typeof v === "object" && !Array.isArray(v) && Array.isArray(v.cells);
const isInt = (x) => Number.isInteger(x);
const show = (x) => (x === null ? "" : typeof x === "object" ? (x.position ?? JSON.stringify(x)) : String(x));

// A table of one column over consecutive integers (a sequence), as the CLI lays it out: ten
// values to a row, each in the column of its last digit, the row's first index on its left.
function sequenceTable(t) {
  const table = el("table", { class: "values sequence" });
  const head = el("tr");
  head.append(el("th", {}, t.row));
  for (let d = 0; d < 10; d++) head.append(el("th", {}, String(d)));
  table.append(head);
  const first = t.rows[0], last = t.rows[t.rows.length - 1];
  for (let base = Math.floor(first / 10) * 10; base <= last; base += 10) {
    const tr = el("tr");
    tr.append(el("th", {}, String(base)));
    for (let n = base; n < base + 10 && n <= last; n++) tr.append(el("td", {}, n < first ? "" : show(t.cells[n - first][0])));
    table.append(tr);
  }
  return table;
}

function htmlTable(t) {
  const consecutive = t.rows.every((r, i) => isInt(r) && r === t.rows[0] + i);
  if (!t.column && t.rows.length > 10 && t.rows[0] >= 0 && consecutive) return sequenceTable(t);
  const table = el("table", { class: "values" });
  const head = el("tr");
  head.append(el("th", {}, t.column ? `${t.row}\\${t.column}` : t.row));
  for (const c of t.columns) head.append(el("th", {}, show(c)));
  table.append(head);
  t.rows.forEach((r, i) => {
    const tr = el("tr");
    tr.append(el("th", {}, show(r)));
    for (const cell of t.cells[i]) tr.append(el("td", {}, show(cell)));
    table.append(tr);
  });
  return table;
}

// A sequence: dots joined by a thin line when there are few, a line alone when many.
function sequencePlot(xs, ys, label) {
  const W = 520, H = 180, L = 40, B = 24, T = 8, R = 8;
  const [x0, x1] = [xs[0], xs[xs.length - 1]];
  const ymax = Math.max(1, ...ys), ymin = Math.min(0, ...ys);
  const px = (x) => L + ((x - x0) / Math.max(1, x1 - x0)) * (W - L - R);
  const py = (y) => T + (1 - (y - ymin) / Math.max(1, ymax - ymin)) * (H - T - B);
  const svg = svgEl("svg", { class: "plot sequence", viewBox: `0 0 ${W} ${H}`, width: W, height: H, role: "img" });
  svg.append(svgEl("title", {}, label));
  svg.append(svgEl("line", { x1: L, y1: H - B, x2: W - R, y2: H - B, class: "axis" }));
  svg.append(svgEl("line", { x1: L, y1: T, x2: L, y2: H - B, class: "axis" }));
  for (const y of [ymin, ymax]) svg.append(svgEl("text", { x: L - 4, y: py(y) + 4, class: "tick", "text-anchor": "end" }, String(y)));
  for (const x of [x0, x1]) svg.append(svgEl("text", { x: px(x), y: H - 6, class: "tick", "text-anchor": "middle" }, String(x)));
  const points = xs.map((x, i) => `${px(x).toFixed(1)},${py(ys[i]).toFixed(1)}`).join(" ");
  svg.append(svgEl("polyline", { points, class: "series" }));
  if (xs.length <= 200) {
    xs.forEach((x, i) => svg.append(svgEl("circle", { cx: px(x), cy: py(ys[i]), r: 2.5, class: "dot" })));
  }
  return svg;
}

// Viridis, by a few of its stops.
const VIRIDIS = ["#440154", "#414487", "#2a788e", "#22a884", "#7ad151", "#fde725"];
function viridis(t) {
  const x = Math.max(0, Math.min(1, t)) * (VIRIDIS.length - 1);
  const i = Math.min(Math.floor(x), VIRIDIS.length - 2), f = x - i;
  const a = VIRIDIS[i], b = VIRIDIS[i + 1];
  const ch = (s, k) => parseInt(s.slice(1 + 2 * k, 3 + 2 * k), 16);
  const mix = [0, 1, 2].map((k) => Math.round(ch(a, k) + f * (ch(b, k) - ch(a, k))));
  return `rgb(${mix.join(",")})`;
}
const OUTCOME = { P: "#1b2a49", N: "#f2e8cf", D: "#9a9a9a" };

// A grid: a cell per value, coloured by value (outcomes P, N, D in three colours).
function heatMap(t) {
  const rows = t.rows.length, cols = t.columns.length;
  const cell = Math.max(3, Math.min(28, Math.floor(420 / Math.max(rows, cols))));
  const L = 34, T = 18, legend = 22;
  const W = Math.max(L + cols * cell + 8, 260), H = T + rows * cell + 8 + legend;
  const values = t.cells.flat().filter((x) => x !== null);
  const outcomes = values.every((x) => x in OUTCOME);
  const max = outcomes ? 1 : Math.max(1, ...values);
  const svg = svgEl("svg", { class: "plot grid", viewBox: `0 0 ${W} ${H}`, width: W, height: H, role: "img" });
  svg.append(svgEl("title", {}, `${t.row} down, ${t.column} across`));
  t.cells.forEach((row, i) =>
    row.forEach((x, j) => {
      if (x === null) return;
      const fill = outcomes ? OUTCOME[x] : viridis(x / max);
      const r = svgEl("rect", { x: L + j * cell, y: T + i * cell, width: cell, height: cell, fill, class: "cell" });
      r.dataset.value = String(x);
      r.append(svgEl("title", {}, `${t.row} = ${show(t.rows[i])}, ${t.column} = ${show(t.columns[j])}: ${x}`));
      svg.append(r);
    }),
  );
  // Row and column numbers at each end, and the legend: the outcomes, or 0 .. the largest value.
  const y0 = T + rows * cell;
  svg.append(svgEl("text", { x: L - 4, y: T + cell / 2 + 4, class: "tick", "text-anchor": "end" }, show(t.rows[0])));
  svg.append(svgEl("text", { x: L - 4, y: y0 - cell / 2 + 4, class: "tick", "text-anchor": "end" }, show(t.rows[rows - 1])));
  svg.append(svgEl("text", { x: L + cell / 2, y: T - 4, class: "tick", "text-anchor": "middle" }, show(t.columns[0])));
  svg.append(svgEl("text", { x: L + (cols - 0.5) * cell, y: T - 4, class: "tick", "text-anchor": "middle" }, show(t.columns[cols - 1])));
  const keys = outcomes ? Object.keys(OUTCOME).filter((k) => values.includes(k)) : [0, max];
  keys.forEach((k, i) => {
    const x = L + i * 70;
    svg.append(svgEl("rect", { x, y: y0 + 8, width: 12, height: 12, fill: outcomes ? OUTCOME[k] : viridis(k / max), stroke: "#888" }));
    svg.append(svgEl("text", { x: x + 16, y: y0 + 18, class: "tick" }, String(k)));
  });
  svg.append(svgEl("text", { x: L + keys.length * 70, y: y0 + 18, class: "tick" }, `${t.row} down, ${t.column} across`));
  return svg;
}

// {nodes, replacesText}: what to show for the value v, and whether it stands for its text.
export function renderValue(v) {
  if (isTable(v)) {
    const nodes = [htmlTable(v)];
    const cells = v.cells.flat().filter((x) => x !== null);
    if (!v.column && v.rows.length >= 8 && v.rows.every(isInt) && cells.every(isInt) && v.cells.every((r) => r.length === 1))
      nodes.push(sequencePlot(v.rows, cells, `${v.row} across, values up`));
    if (v.column && v.rows.length * v.columns.length >= 4 && (cells.every(isInt) || cells.every((x) => x in OUTCOME)))
      nodes.push(heatMap(v));
    return { nodes, replacesText: true };
  }
  if (Array.isArray(v) && v.length >= 8 && v.length <= 100000 && v.every(isInt)) {
    return { nodes: [sequencePlot(v.map((_, i) => i), v, "index across, values up")], replacesText: false };
  }
  return { nodes: [], replacesText: false };
}
