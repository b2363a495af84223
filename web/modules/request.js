// The request for the puzzle on the page: its instance text, name and time limit.

import { $, setText, setStatus, message } from './dom.js';
import * as st from './state.js';
import { instanceToml } from './toml.js';
import { parsePegs } from './parse.js';
import { FILE_NAMES, plainMessage, instanceMessageTarget } from './words.js';

// The 3SoKu instance with these pegs: the solid's built-in tile set by name while the
// tiles are its own, else the page's tiles.
export function instanceText(pegs) {
  const v = st.variant();
  const list = st.tiles() || (Array.isArray(v.tiles) ? v.tiles : null);
  const set = !st.customTiles() && typeof v.tile_set === 'string' ? v.tile_set : null;
  return instanceToml({ variant: v.name, tileSet: set, tiles: list, pegs });
}

// The time limit the person set, within the server's bounds (/api/info).
export function solveTimeout() {
  const i = st.info() || {};
  const max = i.max_timeout_s, dflt = i.default_timeout_s;
  return Math.max(1, Math.min(max, Number($('timeout').value) || dflt));
}

// A count takes the server's longest time limit, not the solve's: counting every solution
// is a long job, which Stop (or "Stop counting") ends.
export function countTimeout() {
  return st.info().max_timeout_s;
}

// The instance of the current kind, or throws an Error with a message for the user.
export function currentRequest() {
  const timeout = solveTimeout();
  if (st.onSolid()) {
    const v = st.variant();
    if (!v) throw new Error('No solid is loaded.');
    const r = parsePegs($('pegs').value, v.vertices);
    if (r.error) throw new Error(r.error);
    const req = { instance: instanceText(r.pegs), name: FILE_NAMES['3soku'], timeout };
    if (v.uploaded) req.variant_text = v.text;
    return req;
  }
  const text = $('grid-text').value;
  if (text.trim() === '') throw new Error('The instance text is empty.');
  return { instance: text, name: FILE_NAMES[st.kind()], timeout };
}

export function describeError(err) {
  return plainMessage(err && err.message ? err.message : String(err), st.kind());
}

// A mistake in the instance, shown beside what holds it (the pegs, the tiles or the grid).
export function showInstanceError(text) {
  const target = instanceMessageTarget(text, st.kind());
  ['pegs-msg', 'tiles-msg', 'grid-msg'].forEach((id) => { if (id !== target) setText(id, ''); });
  setText(target, text);
  if (target === 'tiles-msg') $('tiles-box').open = true;
  if (target === 'pegs-msg') $('pegs').setAttribute('aria-invalid', 'true');
  setStatus('error', {
    'pegs-msg': 'Cannot solve: the pegs have a mistake, shown under them.',
    'tiles-msg': 'Cannot solve: the tiles have a mistake, shown under them.',
    'grid-msg': 'Cannot solve: the grid has a mistake, shown under its text.',
  }[target]);
  message('');
}
