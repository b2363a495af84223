// Solve, and the solutions after the first: Next and Previous walk the server's enumeration
// from the first answer, in one order.

import { $, setText, setStatus, message } from './dom.js';
import * as st from './state.js';
import { api } from './api.js';
import { statusText } from './words.js';
import { sameSolution } from './faces.js';
import { current as currentRun, startRun, endRun } from './jobs.js';
import { showResult, updateSolutionButtons } from './answer.js';
import { runAssist } from './mine.js';
import { updateShare } from './link.js';
import { currentRequest, describeError, showInstanceError } from './request.js';

// What the solution list answers: another key means the puzzle changed since.
function solutionsKey(req) {
  return JSON.stringify([req.instance, req.name, req.variant_text || '', $('backend').value]);
}

export async function solve() {
  // In My puzzle the page has one verdict, on the player's tiles: Solve checks them again.
  if (st.mine() && st.onSolid()) { runAssist(); return; }
  const gen = st.generation();
  let req;
  try {
    req = currentRequest();
  } catch (e) {
    showInstanceError(e.message);
    return;
  }
  req.backend = $('backend').value || 'auto';
  req.unique = $('unique').checked;
  const run = startRun('solve');
  req.job = run.job;
  message('');
  setText('reason', '');
  setText('backend-used', '');
  setText('unique-result', '');
  setStatus('running', 'Solving…');
  updateShare(true);
  const key = solutionsKey(req);
  try {
    const res = await api('/api/solve', req, run.controller.signal);
    if (currentRun() !== run || gen !== st.generation()) return;
    endRun(run);
    ['pegs-msg', 'tiles-msg', 'grid-msg'].forEach((id) => { if ($(id).dataset.source !== 'page') setText(id, ''); });
    showResult(res, req);
    // The answer is solution 1; Next and Previous walk the enumeration from it.
    const sat = res.status === 'sat';
    st.setSolutions({ key, offset: 0, list: sat ? [res] : [], index: sat ? 0 : null, more: sat && res.unique !== true });
    updateSolutionButtons();
  } catch (e) {
    endRun(run);
    if (run.stopped || gen !== st.generation()) return;
    if (e.status === 400) { showInstanceError(describeError(e)); return; }
    setStatus('error', 'The request failed.');
    message(describeError(e));
  }
}

// Reads the enumeration on until the list holds `upTo`; the first answer, already at the
// head of the list, is left out where the enumeration meets it.
async function fetchSolutions(req, upTo, run) {
  while (st.solutions().list.length <= upTo && st.solutions().more) {
    const s = st.solutions();
    const body = Object.assign({}, req, { backend: $('backend').value || 'auto', offset: s.offset, limit: 10, job: run.job });
    const r = await api('/api/solutions', body, run.controller.signal);
    if (run.stopped) return;
    const got = (r && r.solutions) || [];
    const now = st.solutions();
    const list = now.list.slice();
    got.forEach((x) => { if (!sameSolution(x, list[0])) list.push(x); });
    st.setSolutions({ offset: now.offset + got.length, list, more: !!(r && r.more) && got.length > 0 });
  }
}

export async function stepSolution(delta) {
  const s = st.solutions();
  if (!st.answer() || s.index === null) return;
  let req;
  try { req = currentRequest(); } catch (e) { showInstanceError(e.message); return; }
  // The puzzle changed since its answer: solve it, which starts the list again.
  if (s.key !== solutionsKey(req)) { solve(); return; }
  const idx = s.index + delta;
  if (idx < 0) return;
  if (idx < s.list.length) {
    st.setSolutions({ index: idx });
    message('');
    showResult(s.list[idx], req);
    return;
  }
  const gen = st.generation();
  const run = startRun('solutions');
  const before = st.answer();
  setStatus('running', 'Looking for solutions…');
  try {
    await fetchSolutions(req, idx, run);
    endRun(run);
    if (gen !== st.generation()) return;
    const list = st.solutions().list;
    if (idx >= list.length) {
      setStatus('sat', statusText(before, st.kind()));
      message('There are no more solutions.');
      updateSolutionButtons();
      return;
    }
    st.setSolutions({ index: idx });
    message('');
    showResult(list[idx], req);
  } catch (e) {
    endRun(run);
    if (run.stopped || gen !== st.generation()) return;
    setStatus('error', 'The request failed.');
    message(describeError(e));
  }
}
