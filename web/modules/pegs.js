// The pegs: typed as a list or one vertex at a time, checked as they are typed (by the
// page, then by the server), shown on the vertex list; and Random pegs.

import { $, setText, message } from './dom.js';
import * as st from './state.js';
import { api } from './api.js';
import { parsePegs, allWhole } from './parse.js';
import { FILE_NAMES, instanceMessageTarget } from './words.js';
import { shuffled, plantedPegs } from './rotation.js';
import { draw, screenPoint } from './view3d.js';
import { scheduleAssist } from './mine.js';
import { updateShare } from './link.js';
import { edited } from './edits.js';
import { solve } from './solutions.js';
import { instanceText, describeError } from './request.js';

export function fillVertexSelect() {
  const sel = $('vertex-select');
  sel.innerHTML = '';
  const none = document.createElement('option');
  none.value = '-1';
  none.textContent = '(choose)';
  sel.appendChild(none);
  st.variant().vertices.forEach((name, i) => {
    const o = document.createElement('option');
    o.value = String(i);
    o.textContent = name;
    sel.appendChild(o);
  });
  sel.value = '-1';
  $('vertex-peg').value = '';
}

// Whole numbers, however many: the server reads them as `sokuc solve` would, and its
// message (the command line's) replaces the page's own.
let parseTimer = null;
export function checkOnServer(tokens) {
  clearTimeout(parseTimer);
  const v = st.variant();
  if (!v || !allWhole(tokens)) return;
  parseTimer = setTimeout(async () => {
    const req = { instance: instanceText(tokens.map(Number)), name: FILE_NAMES['3soku'] };
    if (v.uploaded) req.variant_text = v.text;
    const shown = $('pegs').value + '|' + st.tilesKey();
    let text = '';
    try {
      await api('/api/parse', req);
    } catch (err) {
      text = describeError(err);
    }
    // The pegs or tiles changed while the server read them: its word is on other ones.
    if ($('pegs').value + '|' + st.tilesKey() !== shown) return;
    const target = text ? instanceMessageTarget(text, st.kind()) : 'pegs-msg';
    setText('pegs-msg', target === 'pegs-msg' ? text : '');
    setText('tiles-msg', target === 'tiles-msg' ? text : '');
    $('pegs').setAttribute('aria-invalid', target === 'pegs-msg' && text ? 'true' : 'false');
    $('pegs-msg').dataset.source = target === 'pegs-msg' && text ? 'server' : '';
    $('tiles-msg').dataset.source = target === 'tiles-msg' && text ? 'server' : '';
  }, 250);
}

export function onPegsInput(fromEditor) {
  const v = st.variant();
  const r = parsePegs($('pegs').value, v ? v.vertices : []);
  st.setPegsRead(r.tokens, r.pegs);
  setText('pegs-msg', r.error);
  $('pegs-msg').dataset.source = r.error ? 'page' : '';
  $('pegs').setAttribute('aria-invalid', r.error ? 'true' : 'false');
  checkOnServer(r.tokens);
  if (st.mine()) scheduleAssist();
  if (!fromEditor) syncVertexEditor();
  renderVertices();
  updateShare();
  draw();
}

export function setPegs(list) {
  $('pegs').value = list.join(' ');
  onPegsInput();
}

export function renderVertices() {
  const ul = $('vertices');
  ul.innerHTML = '';
  const v = st.variant();
  if (!v) return;
  v.vertices.forEach((name, i) => {
    const peg = st.pegAt(i);
    const li = document.createElement('li');
    li.dataset.vertex = name;
    li.dataset.peg = peg;
    const sc = screenPoint(i);
    li.dataset.visible = sc ? 'true' : 'false';
    if (sc) { li.dataset.x = sc[0].toFixed(1); li.dataset.y = sc[1].toFixed(1); }
    const b = document.createElement('button');
    b.type = 'button';
    b.className = 'vtx' + (i === st.selectedVertex() ? ' selected' : '');
    b.textContent = name + ' ' + (peg === '' ? '?' : peg);
    b.setAttribute('aria-label', 'Vertex ' + name + ', peg ' + (peg === '' ? 'not set' : peg));
    b.addEventListener('click', () => selectVertex(i, true));
    li.appendChild(b);
    ul.appendChild(li);
  });
}

export function selectVertex(i, focusEditor) {
  st.setSelectedVertex(i);
  $('vertex-select').value = String(i);
  syncVertexEditor();
  renderVertices();
  draw();
  if (focusEditor && i >= 0) {
    const inp = $('vertex-peg');
    inp.focus();
    inp.select();
  }
}

function syncVertexEditor() {
  const i = st.selectedVertex();
  $('vertex-peg').value = i >= 0 && /^\d+$/.test(st.pegAt(i)) ? st.pegAt(i) : '';
  $('vertex-peg').disabled = i < 0;
}

// The one vertex's peg typed: the list gets it (missing pegs as 0).
export function onVertexPegInput() {
  const i = st.selectedVertex();
  const v = st.variant();
  if (i < 0 || !v) return;
  const val = $('vertex-peg').value.trim();
  const n = v.vertices.length;
  const tokens = st.pegTokenList().slice(0, Math.max(n, st.pegTokenList().length));
  while (tokens.length < n) tokens.push('0');
  tokens[i] = val === '' ? '0' : val;
  $('pegs').value = tokens.join(' ');
  onPegsInput(true);
  edited();
}

export function randomPegs() {
  const v = st.variant();
  if (!v) return;
  if (v.pegs_kind === 'icosoku') {
    // As on the physical puzzle: 1 to 12 in a random order, each one solvable.
    setPegs(shuffled(v.vertices.length, Math.random).map((i) => i + 1));
    edited();
    solve();
    return;
  }
  const tiles = st.tiles();
  if (!tiles || tiles.length !== v.faces.length) {
    message('This solid\'s tile set does not have one tile per face, so no random pegs can be made.');
    return;
  }
  const order = shuffled(tiles.length, Math.random);
  const turns = v.faces.map(() => Math.floor(Math.random() * 3));
  setPegs(plantedPegs(v.faces, v.vertices.length, tiles, order, turns));
  edited();
  solve();
}
