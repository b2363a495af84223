// The link: the address bar and the Link box carry the puzzle on the page (urlstate.js).

import { $ } from './dom.js';
import * as st from './state.js';
import { parsePegs } from './parse.js';
import { encodeHash } from './urlstate.js';

let lastHash = null; // the fragment the page itself last wrote

// The fragment the page wrote itself: its hashchange is not a new link.
export const ownHash = (h) => h === lastHash;

export function hashString() {
  const v = st.variant();
  const solid = st.onSolid();
  return encodeHash({
    kind: st.kind(),
    uploaded: !!(v && v.uploaded),
    variant: v ? v.name : null,
    pegs: solid ? parsePegs($('pegs').value, v ? v.vertices : []).pegs : null,
    tiles: st.customTiles() && st.tiles() ? st.tiles() : null,
    grid: solid ? '' : $('grid-text').value,
    backend: $('backend').value || 'auto',
  });
}

// Writes the link into the Link box, and with `push` into the address bar.
export function updateShare(push) {
  if (!st.info()) return;
  const h = '#' + hashString();
  $('share').value = location.href.split('#')[0] + h;
  const v = st.variant();
  $('share-note').hidden = !(st.onSolid() && v && v.uploaded);
  if (push && location.hash !== h) history.replaceState(null, '', h);
  lastHash = h;
}
