// The instance text the page sends: the form web/API.md documents, read back by a small
// TOML reader for the three keys it holds.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { tomlString, tilesArray, instanceToml } from '../modules/toml.js';

test('strings are quoted and escaped', () => {
  assert.equal(tomlString('icosahedron'), '"icosahedron"');
  assert.equal(tomlString('a "b"\\c'), '"a \\"b\\"\\\\c"');
  assert.equal(tomlString('line\nbreak'), '"line\\nbreak"');
});

test('the documented example, with the built-in set by name', () => {
  const text = instanceToml({ variant: 'icosahedron', tileSet: 'icosoku', tiles: [[0, 0, 0]], pegs: [1, 5, 11, 10, 7, 12, 9, 2, 6, 8, 4, 3] });
  assert.equal(text, 'variant = "icosahedron"\ntiles = "icosoku"\ncapacities = [1, 5, 11, 10, 7, 12, 9, 2, 6, 8, 4, 3]\n');
});

test('changed tiles are written as a list', () => {
  assert.equal(tilesArray([[0, 1, 2], [3, 3, 3]]), '[[0, 1, 2], [3, 3, 3]]');
  const text = instanceToml({ variant: 'octahedron', tileSet: null, tiles: [[0, 1, 2], [1, 1, 1]], pegs: [0, 7] });
  assert.equal(text, 'variant = "octahedron"\ntiles = [[0, 1, 2], [1, 1, 1]]\ncapacities = [0, 7]\n');
  // An empty set name is no set.
  assert.match(instanceToml({ variant: 'x', tileSet: '', tiles: [[1, 2, 3]], pegs: [] }), /^tiles = \[\[1, 2, 3\]\]$/m);
});

test('a solid without tiles is refused, not written as "undefined"', () => {
  assert.throws(() => instanceToml({ variant: 'x', tileSet: null, tiles: null, pegs: [1] }), /no tiles/);
});
