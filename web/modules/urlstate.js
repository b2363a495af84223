// The link: the puzzle on the page as a URL fragment, and back.
//   k     the kind (3soku, kakuro, trickytriple)
//   v     the solid's name; u=1 instead when it was uploaded (a link cannot carry the file)
//   pegs  the pegs, comma-separated
//   t     changed tiles, "a.b.c,a.b.c,..." (absent while the solid's own tiles are used)
//   g     a grid's text (left out past 4000 characters)
//   b     the backend

import { KIND_NAMES } from './words.js';

// Grids longer than this stay out of the link, which would grow past what browsers keep.
export const MAX_GRID_IN_LINK = 4000;

// `puzzle`: {kind, uploaded, variant, pegs (numbers or null), tiles (changed tiles or null),
// grid (text), backend}.
export function encodeHash(puzzle) {
  const p = new URLSearchParams();
  p.set('k', puzzle.kind);
  if (puzzle.kind === '3soku') {
    if (puzzle.uploaded) {
      p.set('u', '1');
    } else {
      if (puzzle.variant) p.set('v', puzzle.variant);
      if (puzzle.pegs) p.set('pegs', puzzle.pegs.join(','));
      if (puzzle.tiles) p.set('t', puzzle.tiles.map((w) => w.join('.')).join(','));
    }
  } else {
    const text = puzzle.grid || '';
    if (text.length < MAX_GRID_IN_LINK) p.set('g', text);
  }
  p.set('b', puzzle.backend || 'auto');
  // Commas are safe in a fragment and keep the pegs readable.
  return p.toString().replace(/%2C/g, ',');
}

// A fragment read back: null when it holds nothing, else {kind, backend, variant,
// uploadedOnly, tiles, pegsText, grid}; what is absent or malformed is null (an unknown
// kind is 3soku, malformed tiles are ignored).
export function decodeHash(hash) {
  const p = new URLSearchParams(String(hash).replace(/^#/, ''));
  if (![...p.keys()].length) return null;
  const kind = KIND_NAMES[p.get('k')] ? p.get('k') : '3soku';
  const t = p.get('t');
  const pegs = p.get('pegs');
  return {
    kind,
    backend: p.get('b') || null,
    variant: p.get('v') || null,
    uploadedOnly: kind === '3soku' && !!p.get('u') && !p.get('v'),
    tiles: t && /^\d+\.\d+\.\d+(,\d+\.\d+\.\d+)*$/.test(t) ? t.split(',').map((w) => w.split('.').map(Number)) : null,
    pegsText: pegs ? pegs.split(',').join(' ') : null,
    grid: p.get('g'),
  };
}
