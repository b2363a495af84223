// The rotation rule and the pegs built from it, against hand-worked cases and the
// IcoSoKu seed's answer as `sokuc solve` gives it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cornersOf, distinctTurns, rotationFor, shuffled, plantedPegs } from '../modules/rotation.js';

test('a turn by r puts w[(i - r) mod 3] at vertex i', () => {
  assert.deepEqual(cornersOf([1, 2, 3], 0), [1, 2, 3]);
  assert.deepEqual(cornersOf([1, 2, 3], 1), [3, 1, 2]);
  assert.deepEqual(cornersOf([1, 2, 3], 2), [2, 3, 1]);
});

test('turns that look the same on a face are listed once', () => {
  assert.deepEqual(distinctTurns([1, 1, 1]).map((t) => t.rotation), [0]);
  assert.deepEqual(distinctTurns([0, 0, 1]).map((t) => t.rotation), [0, 1, 2]);
  assert.deepEqual(distinctTurns([0, 1, 2]).map((t) => t.corners), [[0, 1, 2], [2, 0, 1], [1, 2, 0]]);
});

test('rotationFor inverts cornersOf', () => {
  for (const w of [[0, 1, 2], [0, 0, 3], [1, 3, 2]]) {
    for (let r = 0; r < 3; r++) assert.deepEqual(cornersOf(w, rotationFor(w, cornersOf(w, r))), cornersOf(w, r));
  }
  assert.equal(rotationFor([0, 1, 2], [0, 2, 1]), -1, 'a mirror image is no turn');
});

test('shuffled is a permutation, drawn from the random numbers given', () => {
  const seq = [0.9, 0.1, 0.5, 0.3, 0.7];
  let k = 0;
  const order = shuffled(6, () => seq[k++ % seq.length]);
  assert.deepEqual([...order].sort(), [0, 1, 2, 3, 4, 5]);
  // Fisher-Yates with 0.9 first swaps 5 with floor(0.9 * 6) = 5, then 4 with floor(0.1 * 5) = 0, ...
  k = 0;
  assert.deepEqual(shuffled(6, () => seq[k++ % seq.length]), order, 'the same random numbers give the same order');
  assert.notDeepEqual(order, [0, 1, 2, 3, 4, 5]);
});

test('planted pegs add up each face\'s corners at its vertices', () => {
  // A tetrahedron: 4 vertices, 4 faces.
  const faces = [[0, 1, 2], [0, 2, 3], [0, 3, 1], [1, 3, 2]];
  const tiles = [[1, 0, 0], [0, 2, 0], [0, 0, 3], [1, 1, 1]];
  // Tile f on face f, unturned: vertex 0 gets 1 (face 0); vertex 1 gets 3 (face 2's third
  // corner) and 1 (face 3); vertex 2 gets 2 (face 1) and 1 (face 3); vertex 3 1 (face 3).
  assert.deepEqual(plantedPegs(faces, 4, tiles, [0, 1, 2, 3], [0, 0, 0, 0]), [1, 4, 3, 1]);
  // Face 0 gets tile 3 turned once, (0,0,3) -> corners (3,0,0): vertex 0 gets 3 from it;
  // face 2 gets tile 1, whose 1 lands on vertex 0 too.
  const pegs = plantedPegs(faces, 4, tiles, [2, 1, 0, 3], [1, 0, 0, 0]);
  assert.deepEqual(pegs, [4, 1, 3, 1]);
  const total = (a) => a.reduce((s, x) => s + x, 0);
  assert.equal(total(pegs), total(tiles.flat()), 'every weight lands on one vertex');
});
