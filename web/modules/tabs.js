// The tabs: 3SoKu (the solid) or a grid kind, each with its own panels.

import { $, setText, setStatus, message } from './dom.js';
import * as st from './state.js';
import { KIND_NAMES } from './words.js';
import { stopRun } from './jobs.js';
import { draw } from './view3d.js';
import { netShown } from './net.js';
import { renderGrid, fillSamples } from './grids.js';
import { clearSolution, updateSolutionButtons } from './answer.js';
import { showMineNote } from './mine.js';
import { updateShare } from './link.js';

export function setKind(kind) {
  if (!KIND_NAMES[kind]) kind = '3soku';
  const was = st.kind();
  if (was !== '3soku' && kind !== was) st.setGridText(was, $('grid-text').value);
  const changed = kind !== was;
  // What runs is for the other tab's puzzle: its reply would land on this one.
  if (changed) { st.bumpGeneration(); stopRun(false); }
  st.setCurrentKind(kind);
  document.querySelectorAll('[role=tab]').forEach((b) => b.setAttribute('aria-selected', b.dataset.kind === kind ? 'true' : 'false'));
  const poly = kind === '3soku';
  $('panel-3soku').hidden = !poly;
  $('panel-grid').hidden = poly;
  $('view-3d').hidden = !poly;
  $('grid-view').hidden = poly;
  $('net-box').hidden = !poly || !netShown() || st.mine();
  $('tiles-box').hidden = !poly;
  $('mine-box').hidden = !poly || !st.mine();
  document.querySelectorAll('.only-3soku').forEach((el) => { el.hidden = !poly; });
  $('panel-grid').setAttribute('aria-labelledby', 'tab-' + kind);
  if (!poly) {
    setText('grid-title', KIND_NAMES[kind]);
    $('grid-text').value = st.gridText(kind);
    fillSamples();
    if (changed) { st.setAnswerGrid(null); st.setAnswer(null); }
    renderGrid();
  }
  if (changed) {
    if (poly && st.mine()) showMineNote(); else setStatus('idle', 'Ready.');
    ['backend-used', 'elapsed', 'reason', 'unique-result'].forEach((id) => setText(id, ''));
    message('');
    ['count-msg', 'compare-msg', 'downloads-msg', 'grid-msg'].forEach((id) => setText(id, ''));
    $('count').innerHTML = '';
    $('compare').hidden = true;
    if (poly) clearSolution();
    updateSolutionButtons();
    $('download-solution').disabled = true;
  }
  updateShare();
  if (poly) requestAnimationFrame(draw);
}

// The tabs by click and by the arrow keys.
export function wireTabs() {
  document.querySelectorAll('[role=tab]').forEach((b) => b.addEventListener('click', () => setKind(b.dataset.kind)));
  document.querySelector('.tabs').addEventListener('keydown', (e) => {
    const tabs = Array.from(document.querySelectorAll('[role=tab]'));
    const i = tabs.indexOf(document.activeElement);
    if (i < 0) return;
    let j = -1;
    if (e.key === 'ArrowRight') j = (i + 1) % tabs.length;
    if (e.key === 'ArrowLeft') j = (i + tabs.length - 1) % tabs.length;
    if (j >= 0) { tabs[j].focus(); setKind(tabs[j].dataset.kind); e.preventDefault(); }
  });
}
