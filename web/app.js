// sokuc serve: the page. Plain JavaScript modules, no libraries, no build step; talks to
// the JSON API on the same host (web/API.md). This module starts the page: it reads
// /api/info, wires the controls to the modules in modules/, and opens a shared link.

import { $, setText, setStatus, resetStatus, message, fillSelect, readFile } from './modules/dom.js';
import * as st from './modules/state.js';
import { api } from './modules/api.js';
import { KIND_NAMES } from './modules/words.js';
import { decodeHash } from './modules/urlstate.js';
import { faceKey } from './modules/faces.js';
import { current as currentRun, stopRun } from './modules/jobs.js';
import { draw, faceCenter, turnToFace, setLabels, wireView } from './modules/view3d.js';
import { wireNet } from './modules/net.js';
import { samplesOf } from './modules/grids.js';
import { setHint, nextTile, reveal, stepText } from './modules/steps.js';
import { clearSolution, firstSolved } from './modules/answer.js';
import { setMine, chooseMineFace, fillTurns, placeMine, removeMine, mineNext, clearMine, runAssist } from './modules/mine.js';
import { edited, puzzleEdited } from './modules/edits.js';
import { updateShare, ownHash } from './modules/link.js';
import { solve, stepSolution } from './modules/solutions.js';
import { setPegs, onPegsInput, renderVertices, selectVertex, onVertexPegInput, randomPegs } from './modules/pegs.js';
import { renderTiles, wireTiles } from './modules/tiles.js';
import { setVariant, loadVariant } from './modules/variant.js';
import { setKind, wireTabs } from './modules/tabs.js';
import { wireTools } from './modules/tools.js';
import { describeError } from './modules/request.js';

// Said once the page has opened: a link that could not be followed.
let notice = null;

// A click on the solid that did not turn it: a vertex's peg to edit, a face for My puzzle,
// a hidden tile to reveal, or a tile's step.
function onCanvasClick(hit) {
  if (hit.vertex !== undefined) {
    selectVertex(hit.vertex, true);
    return;
  }
  const v = st.variant();
  const key = faceKey(hit.face.map((i) => v.vertices[i]));
  if (st.mine()) {
    chooseMineFace(key);
  } else if (st.hint() && st.answer() && st.placement(key)) {
    reveal(key);
  } else if (st.answer() && st.placement(key)) {
    const p = st.placement(key);
    setText('hint-text', stepText(key) + '  [tile #' + p.tile + ', rotation ' + p.rotation + ']');
  }
}

// Opens the puzzle a link describes; false when the fragment holds none (or one that
// cannot be opened: an uploaded variant's).
async function applyHash(hash) {
  const link = decodeHash(hash);
  if (!link) return false;
  const info = st.info();
  // A new puzzle: the answer shown, if any, is not its answer.
  puzzleEdited();
  if (!(st.mine() && st.onSolid())) setStatus('idle', 'Ready.');
  if (link.backend && info.backends.includes(link.backend)) $('backend').value = link.backend;
  if (link.uploadedOnly) {
    setKind('3soku');
    notice = 'This link was made with an uploaded variant, which a link cannot carry: upload the variant file again.';
    return false;
  }
  if (link.kind === '3soku') {
    const v = st.variant();
    const vname = link.variant || (v ? v.name : info.variants[0]);
    setKind('3soku');
    if (!v || v.name !== vname || v.uploaded) {
      try {
        await loadVariant({ name: vname });
        $('variant').value = vname;
      } catch (e) {
        message('Cannot load the solid "' + vname + '": ' + describeError(e));
        return true;
      }
    }
    if (link.tiles) {
      st.setTiles(link.tiles, true);
      renderTiles();
    }
    $('pegs').value = link.pegsText !== null ? link.pegsText : (st.variant().pegs || []).join(' ');
    onPegsInput();
    renderVertices();
    draw();
    if (link.pegsText !== null) await solve();
  } else {
    const g = link.grid;
    if (g !== null) st.setGridText(link.kind, g);
    if (st.kind() === link.kind && g !== null) $('grid-text').value = g;
    setKind(link.kind);
    if (g !== null) await solve();
  }
  return true;
}

function wire() {
  wireTabs();
  let variantSeq = 0;
  $('variant').addEventListener('change', async () => {
    const name = $('variant').value;
    if (name.startsWith('upload:')) return;
    const seq = ++variantSeq;
    edited();
    try {
      const v = await api('/api/variant', { name });
      // Another solid was picked while this one loaded.
      if (seq !== variantSeq) return;
      setVariant(v, false, null);
      setPegs(st.variant().pegs || []);
      edited();
    } catch (e) { if (seq === variantSeq) message(describeError(e)); }
  });
  $('variant-file').addEventListener('change', async () => {
    const input = $('variant-file');
    let f;
    try { f = await readFile(input); } catch (e) { message(e.message); return; }
    input.value = '';
    const seq = ++variantSeq;
    edited();
    try {
      const v = await api('/api/variant', { text: f.text });
      if (seq !== variantSeq) return;
      setVariant(v, true, f.text);
      const sel = $('variant');
      sel.querySelectorAll('option[data-uploaded]').forEach((o) => o.remove());
      const o = document.createElement('option');
      o.value = 'upload:' + v.name;
      o.dataset.uploaded = 'true';
      o.textContent = v.name + ' (uploaded)';
      sel.appendChild(o);
      sel.value = o.value;
      setPegs(v.pegs || []);
      edited();
    } catch (e) {
      if (seq !== variantSeq) return;
      setStatus('error', 'The variant was not accepted.');
      message(describeError(e));
    }
  });
  $('pegs').addEventListener('input', () => { onPegsInput(); edited(); });
  $('pegs').addEventListener('keydown', (e) => { if (e.key === 'Enter') solve(); });
  $('random').addEventListener('click', randomPegs);
  $('vertex-select').addEventListener('change', () => selectVertex(Number($('vertex-select').value), false));
  $('vertex-peg').addEventListener('input', onVertexPegInput);
  $('vertex-peg').addEventListener('keydown', (e) => { if (e.key === 'Enter') solve(); });
  $('solve').addEventListener('click', solve);
  $('stop').addEventListener('click', () => stopRun(true));
  // The anchor's "Clear tiles": back to the bare solid with its pegs.
  $('clear-tiles').addEventListener('click', () => { clearSolution(); resetStatus(); draw(); });
  $('backend').addEventListener('change', () => updateShare(true));
  $('hint').addEventListener('change', () => setHint($('hint').checked));
  $('next-tile').addEventListener('click', nextTile);
  document.querySelectorAll('input[name=labels]').forEach((r) => r.addEventListener('change', () => {
    setLabels($('labels-letters').checked ? 'letters' : 'pegs');
  }));
  $('next-solution').addEventListener('click', () => stepSolution(1));
  $('prev-solution').addEventListener('click', () => stepSolution(-1));
  $('mine').addEventListener('change', () => setMine($('mine').checked));
  $('mine-tile').addEventListener('change', () => fillTurns(0));
  $('mine-place').addEventListener('click', placeMine);
  $('mine-remove').addEventListener('click', removeMine);
  $('mine-hint').addEventListener('click', mineNext);
  $('mine-clear').addEventListener('click', () => { clearMine(); draw(); runAssist(); });
  wireTiles();
  wireNet();
  wireView(onCanvasClick);
  wireTools();
  $('copy-link').addEventListener('click', async () => {
    updateShare(true);
    try { await navigator.clipboard.writeText($('share').value); message(''); setText('pegs-msg', ''); } catch (e) { $('share').select(); }
  });
  $('sample').addEventListener('change', () => {
    const i = $('sample').value;
    if (i === '') return;
    $('grid-text').value = samplesOf(st.kind())[Number(i)].text;
    st.setGridText(st.kind(), $('grid-text').value);
    edited();
  });
  $('grid-text').addEventListener('input', () => {
    st.setGridText(st.kind(), $('grid-text').value);
    $('sample').value = '';
    edited();
  });
  $('grid-file').addEventListener('change', async () => {
    const input = $('grid-file');
    try {
      const f = await readFile(input);
      input.value = '';
      $('grid-text').value = f.text;
      st.setGridText(st.kind(), f.text);
      $('sample').value = '';
      edited();
    } catch (e) { message(e.message); }
  });
  window.addEventListener('hashchange', () => {
    if (ownHash(location.hash)) return;
    applyHash(location.hash).catch((e) => message(describeError(e)));
  });
  window.addEventListener('pagehide', () => {
    const run = currentRun();
    if (!run) return;
    const text = JSON.stringify({ job: run.job });
    try {
      // keepalive lets the request outlive the page; the API wants a JSON Content-Type,
      // which sendBeacon may refuse to send, so it is only the fallback.
      fetch('/api/cancel', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: text, keepalive: true }).catch(() => {});
    } catch (e) {
      try { navigator.sendBeacon('/api/cancel', new Blob([text], { type: 'application/json' })); } catch (e2) { /* the page is going anyway */ }
    }
  });
}

// What /api/info says the page has: the pickers, the time limit's bounds, the grids' first
// texts (each kind's default sample).
function applyInfo(info) {
  setText('version', info.version ? 'v' + info.version : '');
  setText('count-note', 'Counting every solution may take up to ' + Math.round(info.max_timeout_s) + ' s, the longest this server allows; Stop ends it.');
  const timeout = $('timeout');
  timeout.max = String(info.max_timeout_s);
  timeout.value = String(info.default_timeout_s);
  fillSelect($('backend'), info.backends || ['auto']);
  $('backend').value = (info.backends || []).includes('auto') ? 'auto' : (info.backends || ['auto'])[0];
  fillSelect($('variant'), info.variants || []);
  Object.keys(KIND_NAMES).filter((k) => k !== '3soku').forEach((k) => {
    const samples = samplesOf(k);
    const first = samples.find((s) => s.default) || samples[0];
    st.setGridText(k, first ? first.text : '');
  });
  const kinds = info.kinds || [];
  if (kinds.length) {
    document.querySelectorAll('[role=tab]').forEach((b) => {
      const k = b.dataset.kind;
      if (k !== '3soku' && !kinds.some((x) => String(x).toLowerCase().replace(/[^a-z0-9]/g, '') === k)) b.hidden = true;
    });
  }
}

async function init() {
  wire();
  let info;
  try {
    info = await api('/api/info');
  } catch (e) {
    setStatus('error', 'Cannot reach sokuc.');
    message(describeError(e));
    return;
  }
  st.setInfo(info);
  applyInfo(info);
  if (location.hash.length > 1) {
    try {
      if (await applyHash(location.hash)) return;
    } catch (e) { message(describeError(e)); }
  }
  const first = (info.variants || []).includes('icosahedron') ? 'icosahedron' : (info.variants || [])[0];
  if (!first) { message('The server lists no solids.'); return; }
  try {
    await loadVariant({ name: first });
    $('variant').value = first;
    setPegs(st.variant().pegs || []);
    updateShare();
    if (notice) { message(notice); notice = null; }
  } catch (e) {
    setStatus('error', 'Cannot load the solid.');
    message(describeError(e));
  }
}

// For tests and the curious: a read-only look at the state.
window.sokucPage = {
  get state() {
    const v = st.variant();
    return { kind: st.kind(), variant: v && v.name, pegs: st.pegs(), solved: !!st.answer(), firstSolvedAt: firstSolved() };
  },
  // Where a face's centre is on the canvas now (CSS px), or null when it faces away.
  faceCenter,
  // Turns the solid to a face, as a reveal does.
  turnTo(key) { turnToFace(key); },
};

init();
