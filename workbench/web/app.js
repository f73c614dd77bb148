// The stakes workbench page. Every question goes to /api/run as the words
// of a stakes command line (with --json added by the server), so the page
// shows the command line's numbers; what the page shows lives in its
// address (#...), so a view can be bookmarked, reloaded or sent.
'use strict';

const $ = (sel, el = document) => el.querySelector(sel);
const $$ = (sel, el = document) => [...el.querySelectorAll(sel)];
const SVGNS = 'http://www.w3.org/2000/svg';
const COLORS = ['#2f6db5', '#e08a1e', '#3a9a5b', '#8e44ad', '#c0392b', '#16a3a3', '#7f8c8d', '#b5651d'];

let MECHS = {};      // mechanic name -> its description and settings (/api/mechanics)
let CSS = '';        // the page's style sheet, inlined into exported HTML
const state = new URLSearchParams(location.hash.slice(1));

// ---- the address ------------------------------------------------------

function saveState() {
  history.replaceState(null, '', '#' + state.toString());
}

function mech() { return $('#mech').value; }

// setArgs are the study's changed settings as --set words.
function setArgs() {
  return state.getAll('set').flatMap(s => ['--set', s]);
}

function markRun(section) {
  const runs = new Set(state.getAll('run'));
  runs.add(section);
  state.delete('run');
  for (const r of runs) state.append('run', r);
  saveState();
}

// ---- talking to the server ----------------------------------------------

async function api(args, opts = {}) {
  const q = new URLSearchParams();
  for (const a of args) q.append('a', a);
  if (opts.stream) { q.set('stream', '1'); q.set('id', opts.id); }
  const res = await fetch('/api/run?' + q, { signal: opts.signal });
  if (!opts.stream) return res.json();
  const reader = res.body.getReader();
  const dec = new TextDecoder();
  let buf = '', last = null;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    buf += dec.decode(value, { stream: true });
    let i;
    while ((i = buf.indexOf('\n')) >= 0) {
      const line = buf.slice(0, i);
      buf = buf.slice(i + 1);
      if (!line) continue;
      const a = JSON.parse(line);
      if (a.result !== undefined || a.error) last = a;
      else if (opts.onProgress) opts.onProgress(a.done || 0, a.total || 0);
    }
  }
  return last || { error: 'no answer' };
}

// ---- small DOM helpers --------------------------------------------------

function el(tag, attrs = {}, ...kids) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === 'text') e.textContent = v; else e.setAttribute(k, v);
  }
  for (const k of kids) if (k) e.append(k);
  return e;
}

function svg(tag, attrs = {}, text) {
  const e = document.createElementNS(SVGNS, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (text !== undefined) e.textContent = text;
  return e;
}

const f4 = x => (x === undefined || x === null || Number.isNaN(x)) ? '-' : Number(x).toFixed(4);
const signed1 = x => (x >= 0 ? '+' : '') + Number(x).toFixed(1);
const f6 = x => (x === undefined || x === null) ? '-' : Number(x).toFixed(6);

function table(columns, rows, cls) {
  const t = el('table', cls ? { class: cls } : {});
  t.append(el('tr', {}, ...columns.map(c => el('th', { text: c }))));
  for (const r of rows) t.append(el('tr', {}, ...r.map(c => el('td', { text: String(c) }))));
  return t;
}

function tableCSV(t) {
  return $$('tr', t).map(tr => $$('th,td', tr).map(c => {
    const s = c.textContent;
    return /[",\n]/.test(s) ? '"' + s.replace(/"/g, '""') + '"' : s;
  }).join(',')).join('\n') + '\n';
}

// ---- errors beside their fields -----------------------------------------

function clearErrors(sec) {
  $$('.bad', sec).forEach(e => e.classList.remove('bad'));
  $$('.err', sec).forEach(e => { e.textContent = ''; });
}

function showError(sec, answer, fallbackField) {
  const msg = answer.error || 'no answer';
  let field = answer.flag ? $(`[data-flag="${answer.flag}"]`, sec) : null;
  if (!field && fallbackField) field = $(fallbackField, sec);
  if (answer.flag === '--set') {
    // A bad setting: mark the setting the message names.
    for (const inp of $$('.settings input', document)) {
      const k = inp.dataset.key;
      if ([k + '=', k + ':', k + ' ', '"' + k + '"'].some(p => msg.includes(p))) inp.classList.add('bad');
    }
    const where = $('[data-flag="--set"]', $('#study'));
    where.textContent = msg;
    if (sec.id !== 'study') ($('[data-err]', sec) || sec).textContent = msg;
    return;
  }
  if (field) field.classList.add('bad');
  const err = field && field.tagName === 'SPAN' ? field : $('[data-err]', sec);
  if (err) err.textContent = msg;
}

// ---- charts --------------------------------------------------------------

// barChart draws bars (probabilities unless opts.counts) with 95% interval
// whiskers and the exact value as a red mark; every bar carries its
// numbers as data- attributes.
function barChart(title, bars, opts = {}) {
  const W = Math.max(420, Math.min(900, 70 + bars.length * 46)), H = 280, L = 52, R = 14, T = 28, B = 70;
  const top = Math.max(1e-9, ...bars.map(b => Math.max(b.value, b.hi ?? 0, b.exact ?? 0)));
  const ymax = opts.percent === false ? top * 1.1 : Math.min(1, top * 1.15);
  const s = svg('svg', { class: 'chart', viewBox: `0 0 ${W} ${H}`, width: W, height: H, 'data-title': title });
  s.append(svg('text', { x: L, y: 16, 'font-weight': '600' }, title));
  const y = v => T + (H - T - B) * (1 - v / ymax);
  for (let i = 0; i <= 4; i++) {
    const v = ymax * i / 4;
    s.append(svg('line', { x1: L, x2: W - R, y1: y(v), y2: y(v), class: 'grid' }));
    s.append(svg('text', { x: L - 6, y: y(v) + 4, 'text-anchor': 'end' }, opts.percent === false ? v.toPrecision(3) : v.toFixed(2)));
  }
  const bw = (W - L - R) / Math.max(bars.length, 1);
  bars.forEach((b, i) => {
    const x = L + i * bw + bw * 0.15, w = bw * 0.7;
    const g = svg('g', { class: 'bar', 'data-label': b.label, 'data-value': b.value });
    if (b.exact !== undefined && b.exact !== null) g.setAttribute('data-exact', b.exact);
    g.append(svg('rect', { x, y: y(b.value), width: w, height: Math.max(0, y(0) - y(b.value)), fill: b.color || COLORS[0], opacity: 0.85 }));
    if (b.lo !== undefined) {
      const cx = x + w / 2;
      g.append(svg('line', { x1: cx, x2: cx, y1: y(b.lo), y2: y(b.hi), stroke: '#1d2430' }));
      g.append(svg('line', { x1: cx - 4, x2: cx + 4, y1: y(b.lo), y2: y(b.lo), stroke: '#1d2430' }));
      g.append(svg('line', { x1: cx - 4, x2: cx + 4, y1: y(b.hi), y2: y(b.hi), stroke: '#1d2430' }));
    }
    if (b.exact !== undefined && b.exact !== null) {
      g.append(svg('line', { x1: x - 2, x2: x + w + 2, y1: y(b.exact), y2: y(b.exact), stroke: '#c0392b', 'stroke-width': 2.5 }));
    }
    const lx = x + w / 2, ly = H - B + 12;
    g.append(svg('text', { x: lx, y: ly, 'text-anchor': 'end', transform: `rotate(-35 ${lx} ${ly})` }, b.label));
    s.append(g);
  });
  s.append(svg('line', { x1: L, x2: W - R, y1: y(0), y2: y(0), class: 'axis' }));
  if (bars.some(b => b.exact !== undefined && b.exact !== null)) {
    s.append(svg('line', { x1: W - R - 150, x2: W - R - 132, y1: 12, y2: 12, stroke: '#c0392b', 'stroke-width': 2.5 }));
    s.append(svg('text', { x: W - R - 128, y: 16 }, bars.some(b => b.lo !== undefined) ? 'exact; bars sampled, 95%' : 'exact'));
  }
  return s;
}

// lineChart draws series of points against a numeric x: sampled values
// with 95% interval whiskers, and the exact values as a dashed line.
function lineChart(title, xName, xs, series) {
  const W = 640, H = 320, L = 52, R = 170, T = 28, B = 44;
  const all = series.flatMap(s => s.points.flatMap(p => [p.hi ?? p.y, p.exact ?? 0, p.y]));
  const ymax = Math.min(1, Math.max(1e-9, ...all) * 1.1);
  const xmin = Math.min(...xs), xmax = Math.max(...xs);
  const x = v => L + 16 + (W - L - R - 32) * (xmax === xmin ? 0.5 : (v - xmin) / (xmax - xmin));
  const y = v => T + (H - T - B) * (1 - v / ymax);
  const s = svg('svg', { class: 'chart', viewBox: `0 0 ${W} ${H}`, width: W, height: H, 'data-title': title });
  s.append(svg('text', { x: L, y: 16, 'font-weight': '600' }, title));
  for (let i = 0; i <= 4; i++) {
    const v = ymax * i / 4;
    s.append(svg('line', { x1: L, x2: W - R, y1: y(v), y2: y(v), class: 'grid' }));
    s.append(svg('text', { x: L - 6, y: y(v) + 4, 'text-anchor': 'end' }, v.toFixed(2)));
  }
  for (const v of xs) s.append(svg('text', { x: x(v), y: H - B + 16, 'text-anchor': 'middle' }, String(v)));
  s.append(svg('text', { x: (L + W - R) / 2, y: H - 8, 'text-anchor': 'middle' }, xName));
  s.append(svg('line', { x1: L, x2: W - R, y1: y(0), y2: y(0), class: 'axis' }));
  series.forEach((se, k) => {
    const c = COLORS[k % COLORS.length];
    const g = svg('g', { class: 'series', 'data-name': se.name });
    const ex = se.points.filter(p => p.exact !== undefined && p.exact !== null);
    if (ex.length > 1) {
      g.append(svg('polyline', { points: ex.map(p => `${x(p.x)},${y(p.exact)}`).join(' '), fill: 'none', stroke: c, 'stroke-dasharray': '5 3', 'stroke-width': 1.5 }));
    }
    for (const p of se.points) {
      const pt = svg('g', { class: 'point', 'data-x': p.x, 'data-y': p.y });
      if (p.exact !== undefined && p.exact !== null) pt.setAttribute('data-exact', p.exact);
      pt.append(svg('line', { x1: x(p.x), x2: x(p.x), y1: y(p.lo), y2: y(p.hi), stroke: c }));
      pt.append(svg('circle', { cx: x(p.x), cy: y(p.y), r: 3.2, fill: c }));
      g.append(pt);
    }
    s.append(g);
    s.append(svg('rect', { x: W - R + 12, y: T + k * 18 - 8, width: 10, height: 10, fill: c }));
    s.append(svg('text', { x: W - R + 26, y: T + k * 18 + 1 }, se.name));
  });
  s.append(svg('text', { x: W - R + 12, y: T + series.length * 18 + 10, fill: '#6b7380' }, 'dashed: exact'));
  return s;
}

// heatmap shows one outcome's odds over two axes.
function heatmap(title, xName, xs, yName, ys, value) {
  const cw = 64, ch = 30, L = 110, T = 40;
  const W = L + cw * xs.length + 20, H = T + ch * ys.length + 40;
  const s = svg('svg', { class: 'chart', viewBox: `0 0 ${W} ${H}`, width: W, height: H, 'data-title': title });
  s.append(svg('text', { x: 8, y: 16, 'font-weight': '600' }, title));
  xs.forEach((xv, i) => s.append(svg('text', { x: L + cw * i + cw / 2, y: T - 6, 'text-anchor': 'middle' }, xv)));
  s.append(svg('text', { x: L + cw * xs.length / 2, y: H - 10, 'text-anchor': 'middle' }, xName));
  ys.forEach((yv, j) => {
    s.append(svg('text', { x: L - 8, y: T + ch * j + ch / 2 + 4, 'text-anchor': 'end' }, `${yName}=${yv}`));
    xs.forEach((xv, i) => {
      const v = value(xv, yv);
      const g = svg('g', { class: 'cell', 'data-x': xv, 'data-y': yv, 'data-value': v ?? '' });
      const shade = v === null ? '#eee' : `rgba(47,109,181,${0.08 + 0.85 * v})`;
      g.append(svg('rect', { x: L + cw * i, y: T + ch * j, width: cw - 2, height: ch - 2, fill: shade }));
      g.append(svg('text', { x: L + cw * i + cw / 2, y: T + ch * j + ch / 2 + 4, 'text-anchor': 'middle', fill: v > 0.55 ? '#fff' : '#1d2430' }, v === null ? '-' : v.toFixed(3)));
      s.append(g);
    });
  });
  return s;
}

// ---- exports ---------------------------------------------------------------

function blobLink(name, type, text, label) {
  const a = el('a', { download: name, text: label, 'data-export': label });
  a.href = URL.createObjectURL(new Blob([text], { type }));
  return a;
}

function svgText(s) {
  const c = s.cloneNode(true);
  c.setAttribute('xmlns', SVGNS);
  const style = document.createElementNS(SVGNS, 'style');
  style.textContent = 'text{font:11px sans-serif;fill:#1d2430}.axis{stroke:#98a0ab}.grid{stroke:#eef0f2}';
  c.prepend(style);
  return new XMLSerializer().serializeToString(c);
}

function pngLink(name, s, label) {
  const a = el('a', { download: name, text: label, 'data-export': label });
  const img = new Image();
  const w = +s.getAttribute('width'), h = +s.getAttribute('height');
  img.onload = () => {
    const cv = document.createElement('canvas');
    cv.width = w * 2; cv.height = h * 2;
    const cx = cv.getContext('2d');
    cx.fillStyle = '#fff'; cx.fillRect(0, 0, cv.width, cv.height);
    cx.scale(2, 2); cx.drawImage(img, 0, 0, w, h);
    cv.toBlob(b => { a.href = URL.createObjectURL(b); a.dataset.ready = '1'; }, 'image/png');
  };
  img.src = 'data:image/svg+xml;charset=utf-8,' + encodeURIComponent(svgText(s));
  return a;
}

// scenarioFile is the study as a scenario file "stakes run" plays: the
// changed settings as a merge patch over the built-in scenario.
function scenarioFile() {
  const patch = {};
  for (const s of state.getAll('set')) {
    const i = s.indexOf('=');
    const path = s.slice(0, i).split('.'), raw = s.slice(i + 1);
    let v; try { v = JSON.parse(raw); } catch { v = raw; }
    let node = patch;
    path.slice(0, -1).forEach(k => { node = node[k] = node[k] || {}; });
    node[path[path.length - 1]] = v;
  }
  return JSON.stringify({ mechanic: mech(), scenario: patch }, null, 2) + '\n';
}

// exportsFor adds the take-away links under a result: its JSON, each
// table as CSV, each chart as SVG and PNG, the scenario file, the whole
// view as one HTML file, and the command line that reproduces it.
function exportsFor(out, name, answer, withScenario) {
  const box = el('div', { class: 'exports' });
  box.append(blobLink(name + '.json', 'application/json', JSON.stringify(answer.result, null, 2) + '\n', 'JSON'));
  $$('table', out).forEach((t, i) => box.append(blobLink(`${name}${i ? '-' + i : ''}.csv`, 'text/csv', tableCSV(t), i ? `CSV ${i + 1}` : 'CSV')));
  $$('svg.chart', out).forEach((s, i) => {
    const n = i ? ` ${i + 1}` : '';
    box.append(blobLink(`${name}-chart${i + 1}.svg`, 'image/svg+xml', svgText(s), 'SVG' + n));
    box.append(pngLink(`${name}-chart${i + 1}.png`, s, 'PNG' + n));
  });
  if (withScenario) box.append(blobLink('scenario.jsonc', 'application/json', scenarioFile(), 'scenario file'));
  const html = '<!doctype html><html><head><meta charset="utf-8"><title>stakes: ' + name + '</title><style>' + CSS +
    '</style></head><body><main>' + out.innerHTML + '<code class="cmd">' + escapeHTML(answer.command) + '</code></main></body></html>\n';
  box.append(blobLink(name + '.html', 'text/html', html, 'HTML'));
  out.append(box);
  out.append(el('code', { class: 'cmd', text: answer.command }));
}

function escapeHTML(s) {
  return String(s).replace(/[&<>"]/g, c => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' }[c]));
}

// ---- dice ------------------------------------------------------------------

const VIEWS = { p: 'P(= v)', at_least: 'P(>= v)', at_most: 'P(<= v)' };

async function runDice(form) {
  const sec = $('#dice'), out = $('.out', sec);
  clearErrors(sec);
  const expr = form.expr.value.trim(), vs = form.vs.value.trim(), view = form.view.value;
  const args = ['odds', expr].concat(vs ? ['vs', vs] : []);
  const a = await api(args);
  if (!a.result) { showError(sec, a, '[name=expr]'); return; }
  out.replaceChildren();
  const r = a.result;
  if (r.margin) {
    out.append(el('div', { class: 'card' },
      el('h3', { text: `${r.a} vs ${r.b} (exact)` }),
      table(['', 'P'], [['A > B', f6(r.a_higher)], ['A = B', f6(r.tie)], ['A < B', f6(r.b_higher)]], 'versus'),
      el('p', { class: 'note', text: `margin A-B: mean ${f4(r.margin.mean)}, sd ${f4(r.margin.sd)}` })));
    distView(out, 'margin A-B', r.margin.outcomes, view, r.truncated);
  } else {
    out.append(el('div', { class: 'card' }, el('h3', { text: `${r.expr}: exact distribution` }),
      el('p', { class: 'stats', text: `mean ${f4(r.mean)}  sd ${f4(r.sd)}  ${percentiles(r.outcomes)}` })));
    distView(out, r.expr, r.outcomes, view, r.truncated);
  }
  exportsFor(out, 'dice', a, false);
}

function percentiles(rows) {
  const want = [0.05, 0.25, 0.5, 0.75, 0.95], got = [];
  let cum = 0, k = 0;
  for (const row of rows) {
    cum += row.p;
    while (k < want.length && cum >= want[k] - 1e-12) { got.push(`p${Math.round(want[k] * 100)} ${row.value}`); k++; }
  }
  return 'percentiles: ' + got.join(', ');
}

function distView(out, name, rows, view, truncated) {
  const shown = rows.filter(r => r.p >= 5e-7);
  out.append(barChart(`${name}: ${VIEWS[view]}`, shown.map(r => ({ label: String(r.value), value: r[view] }))));
  const hasFrac = rows.some(r => r.fraction);
  const cols = ['value', 'P(= v)', 'P(>= v)', 'P(<= v)'].concat(hasFrac ? ['exactly'] : []);
  out.append(table(cols, rows.map(r => [r.value, f6(r.p), f6(r.at_least), f6(r.at_most)].concat(hasFrac ? [r.fraction || ''] : [])), 'dist'));
  if (truncated > 0) out.append(el('p', { class: 'note', text: `cut off by the depth bound: ${truncated.toExponential(3)}` }));
}

async function rollDice(form) {
  const sec = $('#dice'), out = $('.out', sec);
  clearErrors(sec);
  const a = await api(['roll', form.expr.value.trim(), '--times', '6', '--seed', String(Date.now() % 1e9)]);
  if (!a.result) { showError(sec, a, '[name=expr]'); return; }
  out.replaceChildren(el('div', { class: 'card rolls' }, el('h3', { text: 'rolled' }),
    ...(a.result.shown || []).map(s => el('div', { class: 'roll', text: s }))));
  out.append(el('code', { class: 'cmd', text: a.command }));
}

// ---- the study: settings, exact odds, simulation ------------------------------

function renderSettings() {
  const m = MECHS[mech()];
  const box = $('#study .settings');
  box.replaceChildren();
  if (!m) return;
  $('#study .summary').textContent = m.summary;
  const changed = new Map(state.getAll('set').map(s => [s.slice(0, s.indexOf('=')), s.slice(s.indexOf('=') + 1)]));
  for (const st of m.settings) {
    if (st.value.startsWith('(a list of')) continue;
    const inp = el('input', { 'data-key': st.key, value: changed.has(st.key) ? changed.get(st.key) : st.value, 'aria-label': st.key });
    inp.dataset.builtin = st.value;
    const row = el('div', { class: 'row' + (changed.has(st.key) ? ' changed' : ''), title: st.doc },
      el('span', { class: 'key', text: st.key }), inp, st.doc ? el('span', { class: 'doc', text: st.doc }) : null);
    box.append(row);
  }
}

let exactTimer = 0;
function settingChanged() {
  state.delete('set');
  for (const inp of $$('#study .settings input')) {
    const changed = inp.value !== inp.dataset.builtin;
    inp.parentElement.classList.toggle('changed', changed);
    if (changed) state.append('set', `${inp.dataset.key}=${inp.value}`);
  }
  saveState();
  clearTimeout(exactTimer);
  exactTimer = setTimeout(runExact, 250);
}

let exactSeq = 0;
async function runExact() {
  const sec = $('#study'), box = $('.exact', sec);
  const seq = ++exactSeq;
  $$('.settings .bad', sec).forEach(e => e.classList.remove('bad'));
  $('[data-flag="--set"]', sec).textContent = '';
  const a = await api(['odds', mech(), ...setArgs()]);
  if (seq !== exactSeq) return; // a later change answered first
  box.replaceChildren();
  if (!a.result) {
    if (a.flag === '--set') showError(sec, a); else box.append(el('p', { class: 'note noexact', text: 'no exact answer: ' + a.error }));
    return;
  }
  const r = a.result;
  box.append(el('p', { class: 'title', text: r.scenario }));
  if (r.exact) {
    const ex = r.exact;
    box.append(table(['outcome', 'exact P'], ex.categories.map((c, i) => [c, f6(ex.p[i])]), 'exact-table'));
    if (ex.mean_rounds) box.append(el('p', { class: 'note', text: `expected rounds ${f4(ex.mean_rounds)}` }));
    box.append(barChart('exact outcome odds', ex.categories.map((c, i) => ({ label: c, value: ex.p[i] }))));
    if (ex.rounds && ex.rounds.length) {
      const rows = ex.rounds.map((p, k) => ({ label: String(k), value: p })).filter(b => b.value > 1e-6);
      box.append(barChart('rounds: exact distribution', rows.slice(0, 60)));
    }
  }
  if (r.no_exact) box.append(el('p', { class: 'note noexact', text: 'no exact answer for the whole scenario: ' + r.no_exact }));
  for (const t of r.tables || []) {
    box.append(el('h3', { text: t.title }));
    box.append(table(t.columns, t.rows.map(row => row.map(c => typeof c === 'number' && !Number.isInteger(c) ? f6(c) : c))));
  }
  exportsFor(box, 'exact', a, true);
}

let simRun = null;
async function runSim(form) {
  const sec = $('#study'), out = $('.out', sec);
  clearErrors(form);
  const id = Math.random().toString(36).slice(2);
  const args = ['sim', mech(), ...setArgs(), '--trials', form.trials.value, '--seed', form.seed.value, '--workers', form.workers.value];
  const bar = $('progress', form), stop = $('[data-action=stop]', form), go = $('button[type=submit]', form);
  bar.hidden = false; bar.value = 0; stop.disabled = false; go.disabled = true;
  simRun = id;
  const a = await api(args, { stream: true, id, onProgress: (d, t) => { bar.value = t ? d / t : 0; } });
  bar.hidden = true; stop.disabled = true; go.disabled = false; simRun = null;
  if (!a.result) { showError($('#study'), a); return; }
  out.replaceChildren();
  renderSim(out, a.result, a.error);
  exportsFor(out, 'sim', a, true);
  markRun('sim');
}

function renderSim(out, r, note) {
  const rep = r.report, ex = r.exact;
  out.append(el('p', { class: 'title', text: `${r.scenario}: ${rep.trials} trials, seed ${rep.provenance.seed}` }));
  if (rep.provenance.partial) out.append(el('p', { class: 'partial', text: 'PARTIAL: ' + (note || 'stopped before the end') }));
  const rows = rep.categories.map((c, i) => [c.name, f4(c.p), `[${f4(c.lo)}, ${f4(c.hi)}]`, ex ? f4(ex.p[i]) : '-']);
  out.append(table(['outcome', 'sampled', '95% interval', 'exact'], rows, 'sim-table'));
  out.append(barChart('outcome odds', rep.categories.map((c, i) => ({ label: c.name, value: c.p, lo: c.lo, hi: c.hi, exact: ex ? ex.p[i] : null }))));
  out.append(table(['metric', 'mean', '95% half-width', 'exact mean', 'range'], rep.metrics.map((m, i) =>
    [m.name, f4(m.mean), f4(1.96 * m.se), i === 0 && ex && ex.mean_rounds ? f4(ex.mean_rounds) : '-', `${m.min}..${m.max}`]), 'metrics'));
  const m0 = rep.metrics[0];
  if (m0 && m0.hist && rep.trials > 0) {
    const n = rep.trials;
    const bars = m0.hist.counts.map((c, k) => {
      const v = m0.hist.min + k, p = c / n;
      const exact = ex && ex.rounds && v < ex.rounds.length ? ex.rounds[v] : null;
      return { label: String(v), value: p, exact };
    }).filter(b => b.value > 0 || (b.exact || 0) > 1e-4).slice(0, 60);
    out.append(barChart(`${m0.name}: sampled distribution`, bars));
  }
  if (!ex && r.no_exact) out.append(el('p', { class: 'note', text: 'no exact answer: ' + r.no_exact }));
}

// ---- compare, sweep, solve, games ------------------------------------------------

function lines(text) { return text.split('\n').map(s => s.trim()).filter(Boolean); }

async function runCompare(form) {
  const sec = $('#compare'), out = $('.out', sec);
  clearErrors(sec);
  const args = ['compare', mech(), ...setArgs(), ...lines(form.a.value).flatMap(s => ['--a', s]),
    ...lines(form.b.value).flatMap(s => ['--b', s]), '--trials', form.trials.value, '--seed', form.seed.value];
  const a = await api(args);
  if (!a.result) { showError(sec, a); return; }
  const r = a.result;
  out.replaceChildren(el('p', { class: 'title', text: `${r.scenario}: ${r.a.trials} paired trials` }));
  const rows = r.diff.categories.map((d, i) => [d.name, f4(r.a.categories[i].p), f4(r.b.categories[i].p), f4(-d.diff), `[${f4(-d.hi)}, ${f4(-d.lo)}]`,
    r.exact_a && r.exact_b ? f4(r.exact_b.p[i] - r.exact_a.p[i]) : '-']);
  out.append(table(['outcome', 'A', 'B', 'B-A', '95% interval of B-A', 'exact B-A'], rows, 'compare-table'));
  out.append(el('ul', { class: 'verdicts' }, ...(r.verdicts || []).map(v => el('li', { text: v }))));
  out.append(barChart('A (blue) and B (orange)', r.a.categories.flatMap((c, i) => [
    { label: c.name + ' A', value: c.p, lo: c.lo, hi: c.hi, exact: r.exact_a ? r.exact_a.p[i] : null },
    { label: c.name + ' B', value: r.b.categories[i].p, lo: r.b.categories[i].lo, hi: r.b.categories[i].hi, exact: r.exact_b ? r.exact_b.p[i] : null, color: COLORS[1] }])));
  exportsFor(out, 'compare', a, true);
  markRun('compare');
}

async function runSweep(form) {
  const sec = $('#sweep'), out = $('.out', sec);
  clearErrors(sec);
  const args = ['sweep', mech(), ...setArgs(), '--axis', form.axis1.value.trim()].concat(
    form.axis2.value.trim() ? ['--axis', form.axis2.value.trim()] : [], ['--trials', form.trials.value, '--seed', form.seed.value]);
  const a = await api(args);
  if (!a.result) { showError(sec, a); return; }
  const r = a.result, axes = r.axes, cells = r.cells;
  out.replaceChildren(el('p', { class: 'title', text: `${r.scenario}: ${cells.length} cells` }));
  const cats = cells[0].report.categories.map(c => c.name);
  const shown = cats.map((c, j) => j).filter(j => cells.some((cl, i) => cl.report.categories[j].count > 0 || ((r.exact[i] || {}).exact || { p: [] }).p[j] > 0));
  const exactAt = (i, j) => { const x = (r.exact[i] || {}).exact; return x ? x.p[j] : null; };
  const rows = cells.map((cl, i) => [...cl.values, ...shown.flatMap(j => [f4(cl.report.categories[j].p), f4(exactAt(i, j))])]);
  out.append(table([...axes.map(ax => ax.name), ...shown.flatMap(j => [cats[j], 'exact'])], rows, 'sweep-table'));
  const numeric = axes[0].values.every(v => !Number.isNaN(+v));
  const xs = numeric ? axes[0].values.map(Number) : axes[0].values.map((v, i) => i);
  if (axes.length === 1) {
    out.append(lineChart('odds against ' + axes[0].name, axes[0].name, xs, shown.map(j => ({
      name: cats[j], points: cells.map((cl, i) => ({ x: xs[i], y: cl.report.categories[j].p, lo: cl.report.categories[j].lo, hi: cl.report.categories[j].hi, exact: exactAt(i, j) })),
    }))));
  } else {
    const j = shown[0];
    const find = (xv, yv) => { const i = cells.findIndex(c => c.values[0] === xv && c.values[1] === yv); return i < 0 ? null : cells[i].report.categories[j].p; };
    out.append(heatmap(`${cats[j]}: sampled odds`, axes[0].name, axes[0].values, axes[1].name, axes[1].values, find));
  }
  const why = [...new Set(r.exact.filter(x => !x.exact && x.no_exact).map(x => x.no_exact))];
  for (const w of why) out.append(el('p', { class: 'note noexact', text: 'no exact answer for some cells: ' + w }));
  exportsFor(out, 'sweep', a, true);
  markRun('sweep');
}

async function runSolve(form) {
  const sec = $('#solve'), out = $('.out', sec);
  clearErrors(sec);
  const args = ['solve', mech(), ...setArgs()].concat(form.side.value.trim() ? ['--side', form.side.value.trim()] : [],
    form.goal.value.trim() ? ['--goal', form.goal.value.trim()] : []);
  const a = await api(args);
  if (!a.result) { showError(sec, a); return; }
  const r = a.result;
  out.replaceChildren(el('p', { class: 'title', text: `${r.scenario}: goal ${r.goal.outcomes.join(' or ')}, decided by ${r.side} (${r.method})` }));
  const best = r.bound != null ? 'the best play found' : 'the best play';
  out.append(el('p', { class: 'worth', text: `playing well is worth ${signed1(100 * r.worth)} points of P(goal) over how ${r.side} plays now ` +
    `(${best} ${f4(r.best.value)} against its own play, ${r.own.name}, ${f4(r.own.value)})` }));
  const rows = [['best', f4(r.best.value)], ...r.policies.map(p => [p.name === r.own.name ? p.name + ' (own)' : p.name, f4(p.value)]), ['worst', f4(r.worst.value)]];
  out.append(table(['play', 'P(goal)'], rows, 'solve-table'));
  out.append(el('p', { class: 'gap', text: `best against worst: ${(100 * r.gap).toFixed(1)} points (the worst play often gives up at once)` }));
  if (r.bound != null) {
    out.append(el('p', { class: 'note bound', text: `the best play was not proved best: no play passes ${f4(r.bound)}, so the optimum lies between ${f4(r.best.value)} and ${f4(r.bound)}` }));
  }
  if (r.advice && r.advice.length) {
    out.append(el('h3', { text: 'best play, the decisions worth most first' }));
    out.append(el('p', { class: 'note', text: 'worth: P(goal) a game loses, to first order, by taking the alternative every time play comes there' }));
    out.append(el('ol', { class: 'advice' }, ...r.advice.slice(0, 12).map(ad => el('li', { text: `${ad.when}: ${ad.do} rather than ${ad.else}: worth ${f4(ad.worth)} a game` }))));
  }
  exportsFor(out, 'solve', a, true);
  markRun('solve');
}

async function runGames(form) {
  const sec = $('#games'), out = $('.out', sec);
  clearErrors(sec);
  const a = await api(['play', mech(), ...setArgs(), '--games', form.games.value, '--seed', form.seed.value]);
  if (!a.result) { showError(sec, a); return; }
  out.replaceChildren(el('p', { class: 'title', text: a.result.scenario }));
  for (const g of a.result.games) {
    out.append(el('div', { class: 'card game' }, el('h3', { text: `game with seed ${g.seed}: ${g.cut_off ? 'cut off' : g.outcome}` }),
      el('ol', { class: 'narration' }, ...g.events.map(s => el('li', { text: s })))));
  }
  exportsFor(out, 'games', a, true);
  markRun('games');
}

// ---- wiring --------------------------------------------------------------------------

const RUNNERS = { dice: runDice, sim: runSim, compare: runCompare, sweep: runSweep, solve: runSolve, games: runGames };

function showTab(tab) {
  $$('#tabs button').forEach(b => b.classList.toggle('on', b.dataset.tab === tab));
  $$('.tab').forEach(s => s.classList.toggle('on', s.id === tab));
  $('.mech').hidden = tab === 'dice';
  state.set('tab', tab);
  saveState();
}

function formKey(form, inp) { return form.dataset.run + '.' + inp.name; }

async function start() {
  CSS = await (await fetch('/static/style.css')).text();
  MECHS = Object.fromEntries((await (await fetch('/api/mechanics')).json()).map(m => [m.name, m]));
  if (state.get('mech') && MECHS[state.get('mech')]) $('#mech').value = state.get('mech');
  for (const form of $$('form.ask')) {
    for (const inp of $$('input,select,textarea', form)) {
      if (state.has(formKey(form, inp))) inp.value = state.get(formKey(form, inp));
      inp.addEventListener('change', () => { state.set(formKey(form, inp), inp.value); saveState(); });
    }
    form.addEventListener('submit', ev => { ev.preventDefault(); RUNNERS[form.dataset.run](form); });
  }
  $('#dice [data-action=roll]').addEventListener('click', () => rollDice($('#dice form')));
  $('#study [data-action=stop]').addEventListener('click', () => { if (simRun) fetch('/api/stop?id=' + simRun); });
  $('#study .settings').addEventListener('input', settingChanged);
  $('#mech').addEventListener('change', () => {
    state.set('mech', mech()); state.delete('set'); state.delete('run'); saveState();
    renderSettings(); runExact();
    $$('.out').forEach(o => { if (o.closest('#dice') === null) o.replaceChildren(); });
  });
  $$('#tabs button').forEach(b => b.addEventListener('click', () => showTab(b.dataset.tab)));
  showTab(state.get('tab') || 'dice');
  renderSettings();
  runExact();
  runDice($('#dice form'));
  for (const r of state.getAll('run')) if (RUNNERS[r] && r !== 'dice') RUNNERS[r]($(`form[data-run=${r}]`));
  document.body.dataset.ready = '1';
}

start();
