// The tiles panel: the puzzle's tiles, each as three corner weights, to change, take out
// or add; the pegs and answers then use these tiles.

import { $, setText } from './dom.js';
import * as st from './state.js';
import { parseWeight } from './parse.js';
import { draw } from './view3d.js';
import { clearMine } from './mine.js';
import { puzzleEdited } from './edits.js';
import { checkOnServer } from './pegs.js';
import { updateShare } from './link.js';

export function renderTiles() {
  const ol = $('tiles-list');
  ol.innerHTML = '';
  const tiles = st.tiles() || [];
  tiles.forEach((w, i) => {
    const li = document.createElement('li');
    li.dataset.tile = String(i + 1);
    li.dataset.weights = w.join(',');
    for (let k = 0; k < 3; k++) {
      const inp = document.createElement('input');
      inp.type = 'number';
      inp.min = '0';
      inp.step = '1';
      inp.value = String(w[k]);
      inp.setAttribute('aria-label', 'Tile ' + (i + 1) + ', corner ' + (k + 1));
      inp.addEventListener('change', () => {
        const x = parseWeight(inp.value);
        if (x === null) { setText('tiles-msg', 'A corner weight is a whole number of at least 0.'); inp.value = String(st.tiles()[i][k]); return; }
        st.setTileWeight(i, k, x);
        tilesChanged();
      });
      li.appendChild(inp);
    }
    const del = document.createElement('button');
    del.type = 'button';
    del.textContent = '×';
    del.setAttribute('aria-label', 'Remove tile ' + (i + 1));
    del.addEventListener('click', () => { st.removeTile(i); tilesChanged(); });
    li.appendChild(del);
    ol.appendChild(li);
  });
  const v = st.variant();
  const faces = v ? v.faces.length : 0;
  setText('tiles-count', '(' + tiles.length + ' for ' + faces + ' faces' + (st.customTiles() ? ', changed' : '') + ')');
}

function tilesChanged() {
  clearMine();
  puzzleEdited();
  renderTiles();
  const faces = st.variant().faces.length;
  const n = st.tiles().length;
  setText('tiles-msg', n === faces ? '' : 'The solid has ' + faces + ' faces and ' + n + ' tiles: give one tile per face.');
  $('tiles-msg').dataset.source = n === faces ? '' : 'page';
  checkOnServer(st.pegTokenList());
  updateShare(true);
  draw();
}

export function wireTiles() {
  $('tile-add').addEventListener('click', () => {
    st.addTile([0, 0, 0]);
    tilesChanged();
  });
  // Back to the solid's own tiles: changed, as an edit, but the link no longer carries them.
  $('tiles-reset').addEventListener('click', () => {
    st.setTiles(st.variant().tiles || [], true);
    tilesChanged();
    st.setTiles(st.tiles(), false);
    renderTiles();
    updateShare(true);
  });
}
