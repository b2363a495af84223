// "My puzzle": the tiles the player has placed on their own puzzle, checked by the
// assistant (`POST /api/assist`): can they stay, which to take off, the next tile.

import { $, setText, setStatus, message } from './dom.js';
import * as st from './state.js';
import { api, newJob, cancelJob } from './api.js';
import { faceKey, faceLabel, namesOf, placementWords, placedText } from './faces.js';
import { cornersOf, distinctTurns } from './rotation.js';
import { assistSentence } from './words.js';
import { current as currentRun, stopRun } from './jobs.js';
import { draw, turnToFace } from './view3d.js';
import { netShown } from './net.js';
import { setHint, updateHintButtons } from './steps.js';
import { clearSolution } from './answer.js';
import { currentRequest, describeError } from './request.js';

// The check in flight: a reply is shown only if it answers the last check asked for.
let assistSeq = 0;
let assistJob = null;
let assistTimer = null;

// While My puzzle is on, its panel holds the page's one verdict (on the player's tiles), so
// the solve's status line says only where to look.
export function showMineNote() {
  setStatus('mine', 'My puzzle is on: its panel says whether your tiles can stay; Solve checks them again.');
}

// A new check once the typing pauses.
export function scheduleAssist() {
  clearTimeout(assistTimer);
  assistTimer = setTimeout(runAssist, 300);
}

export function setMine(on) {
  st.setMineMode(on);
  $('mine').checked = on;
  $('mine-box').hidden = !on || !st.onSolid();
  if (on && st.hint()) setHint(false);
  $('hint').disabled = on;
  updateHintButtons();
  $('net-box').hidden = on || !netShown();
  st.chooseFace(null);
  st.setMineNextTile(null);
  // The solid shows the player's tiles now (or again the bare puzzle): an answer of Solve's
  // is not what it shows, and its verdict would stand beside the panel's.
  const run = currentRun();
  if (run && (run.kind === 'solve' || run.kind === 'solutions')) stopRun(false);
  clearSolution();
  ['backend-used', 'elapsed', 'reason', 'unique-result'].forEach((id) => setText(id, ''));
  $('unique-result').dataset.unique = '';
  message('');
  if (on) showMineNote(); else setStatus('idle', 'Ready.');
  setText('hint-text', on ? 'Click a face to put a tile on it.' : '');
  renderMine();
  draw();
  if (on) runAssist();
}

// The puzzle changed under the player's tiles: the last verdict on them goes at once, a
// reply to the old check is dropped, and a new check follows once the typing pauses.
export function mineEdited() {
  assistSeq += 1;
  if (assistJob) cancelJob(assistJob);
  assistJob = null;
  st.setAssistAnswer(null);
  st.setMineNextTile(null);
  $('mine-status').dataset.state = 'running';
  setText('mine-status', 'Checking your tiles…');
  setText('mine-next', '');
  setText('mine-msg', '');
  setText('hint-text', 'Click a face to put a tile on it.');
  showMineFace();
  renderMine();
  draw();
  scheduleAssist();
}

export function clearMine() {
  st.clearMineTiles();
  setText('mine-status', '');
  $('mine-status').dataset.state = '';
  setText('mine-next', '');
  setText('mine-msg', '');
  renderMine();
}

// The tiles not on another face, one choice per kind of tile (identical tiles are the
// same to the player), with how many of it are left.
function freeTiles(exceptKey) {
  const used = new Set();
  st.minePlacements().forEach((p, k) => { if (k !== exceptKey) used.add(p.tile); });
  const kinds = new Map();
  (st.tiles() || []).forEach((w, i) => {
    if (used.has(i + 1)) return;
    const name = w.join(',');
    if (!kinds.has(name)) kinds.set(name, { tile: i + 1, weights: w, left: 0 });
    kinds.get(name).left += 1;
  });
  return Array.from(kinds.values());
}

// The chosen face, with its pegs as they are now.
function showMineFace() {
  const key = st.chosenFace();
  if (!key) return;
  const names = namesOf(key);
  const here = st.minePlacement(key);
  const el = $('mine-face');
  el.dataset.face = key;
  el.textContent = 'Face ' + faceLabel(names) + ' (pegs ' + names.map(st.pegOf).join(', ') + ')' + (here ? ': tile (' + here.weights.join(',') + ') is on it' : '');
}

export function chooseMineFace(key) {
  st.chooseFace(key);
  const here = st.minePlacement(key);
  showMineFace();
  const sel = $('mine-tile');
  sel.innerHTML = '';
  freeTiles(key).forEach((k) => {
    const o = document.createElement('option');
    o.value = String(k.tile);
    o.textContent = '(' + k.weights.join(',') + ')' + (k.left > 1 ? ', ' + k.left + ' left' : '');
    sel.appendChild(o);
  });
  if (here) {
    const same = Array.from(sel.options).find((o) => st.tileAt(Number(o.value)).join(',') === here.weights.join(','));
    if (same) { same.value = String(here.tile); sel.value = same.value; }
  }
  sel.disabled = sel.options.length === 0;
  fillTurns(here ? here.rotation : 0);
  $('mine-place').disabled = sel.disabled;
  $('mine-remove').disabled = !here;
  if (!sel.options.length) setText('mine-msg', 'Every tile is on a face: take one off to move it.');
  else setText('mine-msg', '');
  draw();
}

// The turns of the chosen tile that look different on the face, each as the weights it
// puts at the face's vertices.
export function fillTurns(rotation) {
  const sel = $('mine-turn');
  sel.innerHTML = '';
  const w = st.tileAt(Number($('mine-tile').value));
  const key = st.chosenFace();
  if (!w || !key) { sel.disabled = true; return; }
  const names = namesOf(key);
  distinctTurns(w).forEach(({ rotation: r, corners }) => {
    const o = document.createElement('option');
    o.value = String(r);
    o.textContent = names.map((n, i) => corners[i] + ' at ' + n).join(', ');
    sel.appendChild(o);
  });
  sel.value = Array.from(sel.options).some((o) => o.value === String(rotation)) ? String(rotation) : sel.options[0].value;
  sel.disabled = false;
}

export function placeMine() {
  const key = st.chosenFace();
  const t = Number($('mine-tile').value);
  const r = Number($('mine-turn').value);
  const w = st.tileAt(t);
  if (!key || !w) return;
  st.placeMineTile(key, { face: namesOf(key), tile: t, rotation: r, weights: w.slice(), corners: cornersOf(w, r) });
  st.setMineNextTile(null);
  setText('mine-next', '');
  chooseMineFace(key);
  renderMine();
  runAssist();
}

export function removeMine() {
  const key = st.chosenFace();
  if (!key || !st.minePlacement(key)) return;
  st.removeMineTile(key);
  st.setMineNextTile(null);
  setText('mine-next', '');
  chooseMineFace(key);
  renderMine();
  runAssist();
}

export function renderMine() {
  const ul = $('mine-list');
  ul.innerHTML = '';
  st.minePlacements().forEach((p, key) => {
    const li = document.createElement('li');
    li.dataset.face = key;
    li.dataset.tile = String(p.tile);
    li.dataset.rotation = String(p.rotation);
    li.dataset.takeoff = st.takeOff(key) ? 'true' : 'false';
    li.textContent = placementWords(p) + (st.takeOff(key) ? ' (take it off)' : '');
    ul.appendChild(li);
  });
  $('mine-clear').disabled = st.minePlacements().size === 0;
  const a = st.assistAnswer();
  $('mine-hint').disabled = !(a && a.hint);
}

export async function runAssist() {
  clearTimeout(assistTimer);
  const v = st.variant();
  if (!st.mine() || !v) return;
  const seq = ++assistSeq;
  let req;
  try {
    req = currentRequest();
  } catch (e) {
    // No puzzle to check the tiles against (the pegs are being typed): no verdict.
    st.setAssistAnswer(null);
    $('mine-status').dataset.state = '';
    setText('mine-status', '');
    setText('mine-msg', e.message);
    renderMine();
    draw();
    return;
  }
  if (assistJob) cancelJob(assistJob);
  assistJob = newJob();
  req.job = assistJob;
  req.placed = placedText(v, st.minePlacements());
  req.backend = $('backend').value || 'auto';
  st.forgetAssistAnswer();
  $('mine-hint').disabled = true;
  $('mine-status').dataset.state = 'running';
  setText('mine-status', 'Checking your tiles…');
  let r;
  try {
    r = await api('/api/assist', req);
  } catch (e) {
    if (seq !== assistSeq) return;
    $('mine-status').dataset.state = 'error';
    setText('mine-status', '');
    setText('mine-msg', describeError(e));
    return;
  }
  if (seq !== assistSeq) return;
  st.setAssistAnswer(r);
  $('mine-status').dataset.state = r.assist;
  setText('mine-status', assistSentence(r.assist, st.minePlacements().size, r.faces, st.takeOffCount()));
  setText('mine-msg', '');
  renderMine();
  draw();
}

// The next tile from the player's own: a face that touches their tiles, and its tile in
// a completion that keeps them (after taking off the red ones, when stuck).
export function mineNext() {
  const a = st.assistAnswer();
  const h = a && a.hint;
  if (!h) return;
  st.setMineNextTile(h);
  const key = faceKey(h.face);
  const first = st.takeOffCount() ? 'After taking off the red tiles: ' : '';
  setText('mine-next', first + 'put (' + h.weights.join(',') + ') on face ' + faceLabel(h.face) + ', ' + h.face.map((n, i) => h.corners[i] + ' at ' + n).join(', ') + '.');
  chooseMineFace(key);
  const same = Array.from($('mine-tile').options).find((o) => st.tileAt(Number(o.value)).join(',') === h.weights.join(','));
  if (same) { $('mine-tile').value = same.value; fillTurns(0); }
  const turn = Array.from($('mine-turn').options).find((o) => cornersOf(h.weights, Number(o.value)).join(',') === h.corners.join(','));
  if (turn) $('mine-turn').value = turn.value;
  turnToFace(key);
}
