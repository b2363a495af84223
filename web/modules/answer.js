// The answer on the page: the verdict, the tiles on the solid and the net (or the grid's
// values), the steps, the solution list's buttons, and taking all of it off again.

import { $, setText, setStatus, message } from './dom.js';
import * as st from './state.js';
import { api } from './api.js';
import { statusText } from './words.js';
import { tilesOfAnswer } from './faces.js';
import { draw, markSolvedDrawn } from './view3d.js';
import { showNet, hideNet } from './net.js';
import { renderPlacements, updateHintButtons } from './steps.js';
import { renderGrid } from './grids.js';

let firstSolvedAt = null; // when the page first showed a solved puzzle (performance.now)
export const firstSolved = () => firstSolvedAt;

export function updateSolutionButtons() {
  const has = !!st.answer();
  $('clear-tiles').disabled = !has;
  const s = st.solutions();
  const listed = has && s.index !== null;
  $('next-solution').disabled = !listed || (!s.more && s.index >= s.list.length - 1);
  $('prev-solution').disabled = !listed || s.index <= 0;
  const el = $('solution-index');
  if (!listed) { el.textContent = ''; el.dataset.index = ''; return; }
  el.dataset.index = String(s.index);
  el.textContent = 'Solution ' + (s.index + 1) + ' of ' + s.list.length + (s.more ? '+' : '');
}

export function showResult(res, req) {
  setStatus(res.status === 'sat' || res.status === 'unsat' || res.status === 'unknown' ? res.status : 'error', statusText(res, st.kind()));
  setText('backend-used', res.backend ? 'answered by ' + res.backend : '');
  setText('elapsed', typeof res.elapsed_ms === 'number' ? res.elapsed_ms.toFixed(res.elapsed_ms < 10 ? 1 : 0) + ' ms' : '');
  setText('reason', res.reason || '');
  const unique = $('unique-result');
  if (res.unique === true) { setText('unique-result', 'The solution is unique.'); unique.dataset.unique = 'true'; }
  else if (res.unique === false) { setText('unique-result', 'Not unique: other solutions exist.'); unique.dataset.unique = 'false'; }
  else { setText('unique-result', ''); unique.dataset.unique = ''; }
  if (st.onSolid()) {
    setSolution(res.status === 'sat' ? res : null, req);
  } else {
    st.setAnswer(res.status === 'sat' ? res : null);
    st.setAnswerGrid(res.status === 'sat' ? res.grid : null);
    renderGrid();
  }
  $('download-solution').disabled = !st.answer();
  updateSolutionButtons();
  if (res.status === 'sat' && firstSolvedAt === null) {
    firstSolvedAt = performance.now();
    document.body.dataset.firstSolvedMs = String(Math.round(firstSolvedAt));
  }
}

function setSolution(sol, req) {
  st.setAnswer(sol);
  // Learn the tile set from a complete answer (one tile per face).
  const v = st.variant();
  if (sol && Array.isArray(sol.placements) && v) {
    const w = tilesOfAnswer(sol.placements, v.faces.length);
    if (w) st.setTiles(w, st.customTiles());
  }
  setText('hint-text', '');
  renderPlacements();
  draw();
  if (sol) {
    markSolvedDrawn();
    loadSideData(sol, req);
  } else {
    hideNet();
  }
}

// The answer's steps and net, asked for once it is shown; dropped if another answer came.
function loadSideData(sol, req) {
  const base = { instance: req.instance, name: req.name };
  if (req.variant_text) base.variant_text = req.variant_text;
  api('/api/instructions', Object.assign({ solution: sol }, base)).then((r) => {
    if (st.answer() !== sol) return;
    st.setAnswerSteps((r && r.steps) || []);
    renderPlacements();
    updateHintButtons();
  }).catch(() => { if (st.answer() === sol) st.setAnswerSteps([]); });
  api('/api/export', Object.assign({ format: 'svg', solution: sol }, base)).then((svg) => {
    if (st.answer() !== sol) return;
    showNet(svg);
  }).catch(() => {
    $('net-box').hidden = true;
  });
}

export function clearSolution() {
  st.setAnswer(null);
  st.resetSolutions();
  hideNet();
  setText('hint-text', '');
  renderPlacements();
  updateSolutionButtons();
  $('download-solution').disabled = true;
}

// Everything the page says about an answer: the answer on the solid, the net or the grid,
// the steps, the solution list, who answered, the count and the comparison.
export function clearAnswer() {
  clearSolution();
  st.setAnswerGrid(null);
  if (st.onSolid()) draw(); else renderGrid();
  ['backend-used', 'elapsed', 'reason', 'unique-result', 'count-msg', 'compare-msg'].forEach((id) => setText(id, ''));
  $('unique-result').dataset.unique = '';
  message('');
  const out = $('count');
  out.innerHTML = '';
  delete out.dataset.status;
  delete out.dataset.count;
  $('compare').hidden = true;
  $('compare').tBodies[0].innerHTML = '';
}
