// The answer's steps (a sentence a tile, in the command line's order) and hint mode, where
// tiles show one at a time.

import { $, setText } from './dom.js';
import * as st from './state.js';
import { faceKey } from './faces.js';
import { draw, turnToFace } from './view3d.js';
import { applyNetReveal } from './net.js';

function stepFor(key) {
  return st.answerSteps().find((s) => faceKey(s.face) === key);
}

// The faces in the order the steps give (the command line's), else the solid's.
function stepOrder() {
  const placed = st.placedFaceKeys();
  const keys = st.answerSteps().map((s) => faceKey(s.face)).filter((k) => st.placement(k));
  return keys.concat(placed.filter((k) => !keys.includes(k)));
}

export function stepText(key) {
  const s = stepFor(key);
  const p = st.placement(key);
  if (s && s.text) return s.text;
  return 'Put tile (' + (p.weights || p.corners).join(',') + ') on face ' + key.replace(/ /g, '') + '.';
}

function fillStep(li, n) {
  const key = li.dataset.face;
  const p = st.placement(key);
  const shown = st.isRevealed(key);
  li.dataset.revealed = shown ? 'true' : 'false';
  li.textContent = '';
  if (!shown) { li.textContent = 'Step ' + n + ': hidden. Click its face or press "Next tile".'; return; }
  li.appendChild(document.createTextNode(stepText(key) + ' '));
  const code = document.createElement('span');
  code.className = 'code';
  code.textContent = '[tile #' + p.tile + ', rotation ' + p.rotation + ']';
  li.appendChild(code);
}

export function renderPlacements() {
  const ol = $('placements');
  ol.innerHTML = '';
  if (!st.variant() || !st.answer()) return;
  stepOrder().forEach((key, i) => {
    const p = st.placement(key);
    const li = document.createElement('li');
    li.dataset.face = key;
    li.dataset.tile = String(p.tile);
    li.dataset.rotation = String(p.rotation);
    li.dataset.corners = p.corners.join(' ');
    fillStep(li, i + 1);
    ol.appendChild(li);
  });
}

function updatePlacementReveal() {
  let n = 0;
  for (const li of $('placements').children) {
    n += 1;
    if ((li.dataset.revealed === 'true') !== st.isRevealed(li.dataset.face)) fillStep(li, n);
  }
  applyNetReveal();
}

export function setHint(on) {
  st.setHintMode(on);
  $('hint').checked = on;
  st.revealAll(!on);
  setText('hint-text', on ? 'Click a face to see its tile, or press "Next tile".' : '');
  updatePlacementReveal();
  updateHintButtons();
  draw();
}

export function updateHintButtons() {
  $('next-tile').disabled = !(st.hint() && !st.mine() && st.answer() && st.revealedCount() < st.placementCount());
}

export function reveal(key) {
  if (!st.placement(key)) return;
  st.reveal(key);
  setText('hint-text', stepText(key));
  updatePlacementReveal();
  updateHintButtons();
  draw();
  turnToFace(key);
}

export function nextTile() {
  if (!st.answer()) return;
  const key = stepOrder().find((k) => !st.isRevealed(k));
  if (key) reveal(key);
}
