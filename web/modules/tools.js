// The tools on the puzzle: Count (with its progress), Compare backends, and the downloads.

import { $, setText, download } from './dom.js';
import * as st from './state.js';
import { api } from './api.js';
import { EXT, fmtValue } from './words.js';
import { current as currentRun, startRun, endRun, stopRun } from './jobs.js';
import { currentRequest, countTimeout, describeError } from './request.js';

export async function count() {
  let req;
  try { req = currentRequest(); } catch (e) { setText('count-msg', e.message); return; }
  req.timeout = countTimeout();
  const gen = st.generation();
  const run = startRun('count');
  req.job = run.job;
  const out = $('count');
  out.dataset.status = 'running';
  out.textContent = 'Counting…';
  setText('count-msg', '');
  $('count-progress').hidden = false;
  $('count-bar').removeAttribute('value');
  setText('count-progress-text', '');
  const poll = setInterval(async () => {
    let p;
    try { p = await api('/api/progress', { job: run.job }); } catch (e) { return; }
    if (currentRun() !== run || !p.running) return;
    const secs = ((performance.now() - run.started) / 1000).toFixed(0) + ' s';
    if (p.total) {
      $('count-bar').max = p.total;
      $('count-bar').value = p.done;
      setText('count-progress-text', p.done + ' of ' + p.total + ' faces placed, ' + fmtValue(p.figure) + ' states in the last layer, ' + secs);
    } else {
      setText('count-progress-text', secs);
    }
  }, 400);
  try {
    const r = await api('/api/count', req, run.controller.signal);
    endRun(run);
    if (gen === st.generation()) renderCount(r);
  } catch (e) {
    endRun(run);
    if (gen !== st.generation()) return;
    out.dataset.status = run.stopped ? 'stopped' : 'error';
    out.textContent = run.stopped ? 'Counting stopped.' : '';
    if (!run.stopped) setText('count-msg', describeError(e));
  } finally {
    clearInterval(poll);
    $('count-progress').hidden = true;
  }
}

const COUNT_LABELS = {
  count: 'Solutions', placements: 'Placements (tiles told apart)', method: 'Method', time_ms: 'Time (ms)',
  status: 'Status', reason: 'Reason', elapsed_ms: 'Elapsed (ms)', backend: 'Backend',
};

function renderCount(r) {
  const out = $('count');
  out.innerHTML = '';
  out.dataset.status = r.status || '';
  out.dataset.count = r.count !== undefined && r.count !== null ? String(r.count) : '';
  const dl = document.createElement('dl');
  const addRow = (k, v) => {
    const dt = document.createElement('dt');
    dt.textContent = COUNT_LABELS[k] || k.replace(/_/g, ' ');
    const dd = document.createElement('dd');
    dd.textContent = v;
    dd.dataset.field = k;
    dl.appendChild(dt);
    dl.appendChild(dd);
  };
  const order = ['count', 'placements', 'status', 'reason', 'method', 'time_ms', 'elapsed_ms'];
  const keys = order.filter((k) => k in r).concat(Object.keys(r).filter((k) => !order.includes(k)));
  keys.forEach((k) => {
    const v = r[k];
    if (k === 'puzzle' || v === null || v === undefined) return;
    if (typeof v === 'object') {
      if (k === 'progress') addRow('progress', Object.entries(v).map(([a, b]) => a.replace(/_/g, ' ') + ' ' + fmtValue(b)).join(', '));
      return;
    }
    addRow(k, fmtValue(v));
  });
  out.appendChild(dl);
}

export async function compare() {
  let req;
  try { req = currentRequest(); } catch (e) { setText('compare-msg', e.message); return; }
  const gen = st.generation();
  const run = startRun('compare');
  req.job = run.job;
  const table = $('compare');
  setText('compare-caption', 'Comparing backends…');
  table.hidden = false;
  table.tBodies[0].innerHTML = '';
  setText('compare-msg', '');
  try {
    const r = await api('/api/compare', req, run.controller.signal);
    endRun(run);
    if (gen === st.generation()) renderCompare(r);
  } catch (e) {
    endRun(run);
    if (gen !== st.generation()) return;
    setText('compare-caption', run.stopped ? 'Stopped.' : 'The comparison failed.');
    if (!run.stopped) setText('compare-msg', describeError(e));
  }
}

function renderCompare(r) {
  const table = $('compare');
  const tb = table.tBodies[0];
  tb.innerHTML = '';
  const rows = Array.isArray(r.results) ? r.results : (Array.isArray(r.jobs) ? r.jobs : []);
  const fastest = r.fastest;
  rows.forEach((x) => {
    const tr = document.createElement('tr');
    tr.dataset.backend = x.backend || '';
    tr.dataset.status = x.status || '';
    if (fastest && x.backend === fastest) tr.classList.add('fastest');
    const ms = x.total_ms !== undefined ? x.total_ms : (x.elapsed_ms !== undefined ? x.elapsed_ms : (x.stats ? (x.stats.build_ms || 0) + (x.stats.solve_ms || 0) : null));
    const size = x.model_size ? x.model_size.vars + ' vars, ' + x.model_size.constraints + ' ' + (x.model_size.unit || 'constraints') : '';
    const cells = [x.backend || '?', x.status || '', x.verified === true ? 'yes' : (x.verified === false ? 'NO' : '–'), x.decided_by || x.verdict_by || '', ms === null ? '' : fmtValue(ms), size];
    cells.forEach((c, i) => {
      const td = document.createElement(i === 0 ? 'th' : 'td');
      if (i === 0) td.scope = 'row';
      td.textContent = c;
      tr.appendChild(td);
    });
    tb.appendChild(tr);
  });
  let cap = rows.length + ' backend' + (rows.length === 1 ? '' : 's');
  if (r.agree !== undefined) cap += r.agree ? ', all agree' : ', they DISAGREE';
  if (fastest) cap += '; fastest: ' + fastest;
  setText('compare-caption', cap + '.');
  table.dataset.agree = String(r.agree);
}

function baseName() {
  const v = st.variant();
  if (st.onSolid()) return 'sokuc-' + (v ? v.name : 'puzzle');
  return 'sokuc-' + st.kind();
}

async function exportFormat(format) {
  let req;
  try { req = currentRequest(); } catch (e) { setText('downloads-msg', e.message); return; }
  const body = { instance: req.instance, name: req.name, format };
  if (req.variant_text) body.variant_text = req.variant_text;
  if (format === 'svg' && st.answer() && st.onSolid()) body.solution = st.answer();
  try {
    const text = await api('/api/export', body);
    download(typeof text === 'string' ? text : JSON.stringify(text), baseName() + '.' + EXT[format], format === 'svg' ? 'image/svg+xml' : 'text/plain');
    setText('downloads-msg', '');
  } catch (e) {
    setText('downloads-msg', describeError(e));
  }
}

export function wireTools() {
  $('count-btn').addEventListener('click', count);
  $('count-stop').addEventListener('click', () => stopRun(true));
  $('compare-btn').addEventListener('click', compare);
  document.querySelectorAll('#downloads [data-format]').forEach((b) => b.addEventListener('click', () => exportFormat(b.dataset.format)));
  $('download-solution').addEventListener('click', () => {
    const sol = st.answer();
    if (sol) download(JSON.stringify(sol, null, 2) + '\n', baseName() + '-solution.json', 'application/json');
  });
}
