// sylla watch / sylla report dashboard. Live: GET api/state once, then server-sent events
// (event "rows" carries only the new curve points, "state" the metrics document). Report:
// the same code reads the frozen data from <script id="sylla-data">.
"use strict";
(function () {
  const points = [];          // every curve point read so far
  const views = {};           // task -> vega View, so new rows are inserted, not re-rendered
  let state = null;
  const seen = [];            // [time, episodes] samples for the ETA
  const fmt = (v) => v === null || v === undefined ? "—" :
    (Number.isInteger(v) ? String(v) : Number(v).toPrecision(4));
  const byId = (id) => document.getElementById(id);

  function phaseBands(rows) {
    const bands = [];
    for (const r of rows) {
      const last = bands[bands.length - 1];
      const phase = r.phase || r.kind || "";
      if (last && last.phase === phase && r.episode <= last.end + 1) { last.end = Math.max(last.end, r.episode); }
      else { bands.push({phase: phase, kind: r.kind || "", start: r.episode, end: r.episode}); }
    }
    return bands.map((b) => ({phase: b.phase, kind: b.kind, start: b.start - 0.5, end: b.end + 0.5}));
  }

  function curveSpec(task, rows) {
    return {
      $schema: "https://vega.github.io/schema/vega-lite/v5.json",
      title: task, width: 420, height: 200,
      layer: [
        {data: {name: "bands", values: phaseBands(points)},
         mark: {type: "rect", opacity: 0.12},
         encoding: {x: {field: "start", type: "quantitative", title: "episode"}, x2: {field: "end"},
                    color: {field: "phase", type: "nominal", legend: {title: "phase"}}}},
        {data: {name: "points", values: rows},
         mark: {type: "line", point: {size: 14}},
         encoding: {x: {field: "episode", type: "quantitative"},
                    y: {field: "perf", type: "quantitative", title: "performance"},
                    detail: {field: "block"},
                    strokeDash: {field: "kind", type: "nominal", legend: {title: "block"}},
                    tooltip: [{field: "episode"}, {field: "perf"}, {field: "phase"}, {field: "kind"}]}}
      ]
    };
  }

  async function drawCurve(task) {
    const id = "curve-" + task.replace(/[^A-Za-z0-9_-]/g, "_");
    let el = byId(id);
    if (!el) { el = document.createElement("div"); el.id = id; el.className = "curve"; byId("curves").appendChild(el); }
    const rows = points.filter((p) => (p.task || "all") === task);
    const result = await vegaEmbed(el, curveSpec(task, rows), {actions: false, renderer: "svg"});
    views[task] = result.view;
    el.dataset.points = String(rows.length);
  }

  async function addRows(rows) {
    if (!rows.length) return;
    for (const r of rows) points.push(r);
    const tasks = [...new Set(rows.map((r) => r.task || "all"))];
    for (const task of tasks) {
      const mine = rows.filter((r) => (r.task || "all") === task);
      const view = views[task];
      if (!view) { await drawCurve(task); continue; }
      await view.change("points", vega.changeset().insert(mine))
        .change("bands", vega.changeset().remove(() => true).insert(phaseBands(points))).runAsync();
      const el = byId("curve-" + task.replace(/[^A-Za-z0-9_-]/g, "_"));
      el.dataset.points = String(Number(el.dataset.points) + mine.length);
    }
    byId("curves").dataset.points = String(points.length);
  }

  async function resetRows(rows) {
    points.length = 0;
    for (const k of Object.keys(views)) { views[k].finalize(); delete views[k]; }
    byId("curves").innerHTML = "";
    await addRows(rows);
  }

  function drawProgress(s) {
    const p = s.progress || {};
    const now = Date.now() / 1000;
    seen.push([now, p.episodes_read || 0]);
    while (seen.length > 20) seen.shift();
    let eta = "";
    if (p.episodes_planned && seen.length > 1) {
      const [t0, n0] = seen[0], [t1, n1] = seen[seen.length - 1];
      const rate = (n1 - n0) / Math.max(t1 - t0, 1e-9);
      if (rate > 0) eta = ", ETA " + Math.round((p.episodes_planned - n1) / rate) + " s";
    }
    const of = p.episodes_planned ? " of " + p.episodes_planned : "";
    const where = (p.phase ? ", phase " + p.phase : "") + (p.block !== null && p.block !== undefined ? ", block " + p.block : "");
    byId("progress-text").textContent = "episode " + (p.episodes_read || 0) + of + where + eta;
    const share = p.episodes_planned ? Math.min(1, (p.episodes_read || 0) / p.episodes_planned) : 0;
    byId("progress-bar").firstElementChild.style.width = (100 * share) + "%";
  }

  function drawTable(s) {
    const lifetime = s.lifetime || {}, tasks = s.tasks || {};
    const single = Object.keys(tasks).filter((t) => !t.includes("->"));
    const names = [...new Set(single.flatMap((t) => Object.keys(tasks[t])))];
    let html = "<table><tr><th>lifetime metric</th><th>value</th></tr>";
    for (const [k, v] of Object.entries(lifetime)) html += "<tr><td>" + esc(k) + "</td><td>" + fmt(v) + "</td></tr>";
    html += "</table>";
    if (single.length) {
      html += "<table><tr><th>metric</th>" + single.map((t) => "<th>" + esc(t) + "</th>").join("") + "</tr>";
      for (const m of names) html += "<tr><td>" + esc(m) + "</td>" + single.map((t) => "<td>" + fmt(tasks[t][m]) + "</td>").join("") + "</tr>";
      html += "</table>";
    }
    byId("table").innerHTML = html;
    byId("warnings").innerHTML = (s.warnings || []).concat(s.feasibility || [])
      .map((w) => "<li class='warning'>" + esc(w) + "</li>").join("");
  }

  function esc(text) { return String(text).replace(/[&<>"']/g, (c) => ({"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;"})[c]); }

  async function drawMatrix(s) {
    const m = s.test_matrix || {};
    const values = [];
    for (const [phase, row] of Object.entries(m)) for (const [task, v] of Object.entries(row)) values.push({phase, task, value: v});
    const el = byId("matrix");
    if (!values.length) { el.textContent = "no test phases yet"; return; }
    await vegaEmbed(el, {
      $schema: "https://vega.github.io/schema/vega-lite/v5.json",
      data: {values}, mark: "rect", width: 60 * new Set(values.map((v) => v.task)).size,
      encoding: {x: {field: "task", type: "nominal"}, y: {field: "phase", type: "nominal", sort: null},
                 color: {field: "value", type: "quantitative"},
                 tooltip: [{field: "phase"}, {field: "task"}, {field: "value"}]}
    }, {actions: false, renderer: "svg"});
  }

  function drawDivergence(s) {
    const d = s.divergence, el = byId("divergence");
    if (d) {
      el.textContent = "Diverges from the syllabus at episode " + d.episode + ": expected " + d.expected +
        ", found " + d.found + " (" + d.path + ":" + d.line + ")";
      el.dataset.episode = String(d.episode);
      el.classList.add("shown");
    } else { el.classList.remove("shown"); el.textContent = ""; }
  }

  async function drawState(s) {
    state = s;
    drawProgress(s);
    drawDivergence(s);
    byId("error").textContent = s.error || "";
    drawTable(s);
    await drawMatrix(s);
    document.body.dataset.version = String((Number(document.body.dataset.version) || 0) + 1);
  }

  async function start() {
    const frozen = document.getElementById("sylla-data");
    if (frozen) {
      const data = JSON.parse(frozen.textContent);
      if (data.title) byId("title").textContent = data.title;
      await resetRows(data.points || []);
      await drawState(data.state);
      document.body.dataset.ready = "1";
      return;
    }
    const first = await (await fetch("api/state")).json();
    await drawState(first);
    // events are handled one after the other: a chart must exist before rows are inserted
    let chain = Promise.resolve();
    const queue = (f) => { chain = chain.then(f).catch((err) => { byId("error").textContent = String(err); }); };
    const source = new EventSource("api/events");
    source.addEventListener("reset", (e) => queue(() => resetRows(JSON.parse(e.data))));
    source.addEventListener("rows", (e) => queue(() => addRows(JSON.parse(e.data))));
    source.addEventListener("state", (e) => {
      const s = JSON.parse(e.data);
      drawDivergence(s);  // at once, not behind charts still rendering
      queue(() => drawState(s));
    });
    document.body.dataset.ready = "1";
  }
  start().catch((err) => { byId("error").textContent = String(err); });
})();
