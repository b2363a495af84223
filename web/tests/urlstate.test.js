import { test } from 'node:test';
import assert from 'node:assert/strict';
import { encodeHash, decodeHash, MAX_GRID_IN_LINK } from '../modules/urlstate.js';

const solid = { kind: '3soku', uploaded: false, variant: 'icosahedron', pegs: [1, 5, 11], tiles: null, grid: '', backend: 'sat' };

test('a solid\'s link, commas kept readable', () => {
  assert.equal(encodeHash(solid), 'k=3soku&v=icosahedron&pegs=1,5,11&b=sat');
  assert.equal(encodeHash({ ...solid, tiles: [[0, 1, 2], [3, 3, 3]] }), 'k=3soku&v=icosahedron&pegs=1,5,11&t=0.1.2,3.3.3&b=sat');
  assert.equal(encodeHash({ ...solid, pegs: null, backend: '' }), 'k=3soku&v=icosahedron&b=auto');
});

test('an uploaded solid: the link says so and carries nothing else of it', () => {
  assert.equal(encodeHash({ ...solid, uploaded: true, tiles: [[1, 1, 1]] }), 'k=3soku&u=1&b=sat');
  const back = decodeHash('#k=3soku&u=1&b=sat');
  assert.equal(back.uploadedOnly, true);
  assert.equal(decodeHash('#k=3soku&u=1&v=octahedron').uploadedOnly, false, 'a named solid is opened');
});

test('a grid\'s link carries its text, up to a size', () => {
  const grid = 'kakuro 3 3\nX   4\\  6\\\n';
  const h = encodeHash({ kind: 'kakuro', grid, backend: 'auto' });
  assert.equal(decodeHash('#' + h).grid, grid);
  const long = 'x'.repeat(MAX_GRID_IN_LINK);
  assert.equal(decodeHash(encodeHash({ kind: 'kakuro', grid: long, backend: 'auto' })).grid, null);
});

test('round trip', () => {
  const h = encodeHash({ ...solid, tiles: [[0, 0, 1], [2, 2, 2]] });
  assert.deepEqual(decodeHash('#' + h), {
    kind: '3soku', backend: 'sat', variant: 'icosahedron', uploadedOnly: false,
    tiles: [[0, 0, 1], [2, 2, 2]], pegsText: '1 5 11', grid: null,
  });
});

test('what a link lacks or gets wrong', () => {
  assert.equal(decodeHash(''), null);
  assert.equal(decodeHash('#'), null);
  const d = decodeHash('#k=sudoku&t=1.2&pegs=');
  assert.equal(d.kind, '3soku', 'an unknown kind is the solid');
  assert.equal(d.tiles, null, 'malformed tiles are ignored');
  assert.equal(d.pegsText, null);
  assert.equal(d.backend, null);
  assert.equal(decodeHash('#k=trickytriple').kind, 'trickytriple');
  assert.equal(decodeHash('#t=1.2.3,4.5').tiles, null);
  assert.deepEqual(decodeHash('#t=10.2.3').tiles, [[10, 2, 3]]);
});
