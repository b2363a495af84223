// The solid: loaded from the server by name or from an uploaded variant file.

import { $, setText } from './dom.js';
import * as st from './state.js';
import { api } from './api.js';
import { resetRotation } from './view3d.js';
import { clearMine } from './mine.js';
import { clearSolution } from './answer.js';
import { renderTiles } from './tiles.js';
import { fillVertexSelect } from './pegs.js';

// The tiles a solid comes with: its list, or the built-in set it names (/api/info's
// tile_sets), or none.
function tilesOf(v) {
  if (Array.isArray(v.tiles)) return v.tiles;
  const sets = (st.info() && st.info().tile_sets) || {};
  return typeof v.tiles === 'string' && Array.isArray(sets[v.tiles]) ? sets[v.tiles] : null;
}

export function setVariant(v, uploaded, text) {
  st.setVariantData(v, uploaded, text);
  st.setTiles(tilesOf(v), false);
  clearMine();
  renderTiles();
  setText('tiles-msg', '');
  resetRotation();
  st.setSelectedVertex(-1);
  clearSolution();
  fillVertexSelect();
  $('upload-note').hidden = !uploaded;
  $('share-note').hidden = !uploaded;
  // Where the first pegs come from: IcoSoKu's own (a permutation of 1..12), or planted.
  setText('pegs-origin', v.pegs_kind === 'icosoku'
    ? 'IcoSoKu\'s pegs are the numbers 1 to 12, one per vertex; every arrangement has a solution.'
    : 'These pegs were made by laying the tiles on the faces, so they have a solution.');
}

export async function loadVariant(req, uploaded, text) {
  const v = await api('/api/variant', req);
  setVariant(v, uploaded, text);
  return v;
}
