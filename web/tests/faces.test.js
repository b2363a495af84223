import { test } from 'node:test';
import assert from 'node:assert/strict';
import { faceKey, namesOf, faceLabel, faceKeys, placementWords, placedText, sameSolution, tilesOfAnswer } from '../modules/faces.js';

const tetra = { vertices: ['A', 'B', 'C', 'D'], faces: [[0, 1, 2], [0, 2, 3], [0, 3, 1], [1, 3, 2]] };

test('face keys and labels', () => {
  assert.equal(faceKey(['A', 'B', 'C']), 'A B C');
  assert.deepEqual(namesOf('A B C'), ['A', 'B', 'C']);
  assert.equal(faceLabel(['A', 'B', 'C']), 'ABC');
  assert.equal(faceLabel(['A', 'B2', 'C']), 'A,B2,C');
  assert.deepEqual(faceKeys(tetra), ['A B C', 'A C D', 'A D B', 'B D C']);
});

test('placed tiles, in words and as the server reads them (in the solid\'s face order)', () => {
  const p = { face: ['A', 'C', 'D'], tile: 6, rotation: 1, weights: [0, 1, 2], corners: [2, 0, 1] };
  assert.equal(placementWords(p), 'ACD: (0,1,2), 2 at A, 0 at C, 1 at D');
  const placed = new Map([
    ['B D C', { face: ['B', 'D', 'C'], tile: 2, rotation: 0, weights: [0, 0, 1], corners: [0, 0, 1] }],
    ['A C D', p],
  ]);
  assert.equal(placedText(tetra, placed), 'ACD: tile #6, rotation 1\nBDC: tile #2, rotation 0\n');
  assert.equal(placedText(tetra, new Map()), '');
});

test('solutions are the same when every face has the same corners', () => {
  const a = { placements: [{ face: ['A', 'B', 'C'], tile: 1, corners: [0, 1, 2] }, { face: ['A', 'C', 'D'], tile: 2, corners: [1, 1, 1] }] };
  const b = { placements: [{ face: ['A', 'C', 'D'], tile: 7, corners: [1, 1, 1] }, { face: ['A', 'B', 'C'], tile: 9, corners: [0, 1, 2] }] };
  const c = { placements: [{ face: ['A', 'B', 'C'], tile: 1, corners: [1, 2, 0] }, { face: ['A', 'C', 'D'], tile: 2, corners: [1, 1, 1] }] };
  assert.equal(sameSolution(a, b), true, 'identical tiles told apart are one solution');
  assert.equal(sameSolution(a, c), false);
  assert.equal(sameSolution(a, null), false);
  assert.equal(sameSolution({ grid: [[1, 2]] }, { grid: [[1, 2]] }), true);
  assert.equal(sameSolution({ grid: [[1, 2]] }, { grid: [[2, 1]] }), false);
});

test('the tiles of a complete answer, by tile number', () => {
  const pl = [
    { tile: 2, weights: [0, 0, 1] }, { tile: 1, weights: [1, 2, 3] },
  ];
  assert.deepEqual(tilesOfAnswer(pl, 2), [[1, 2, 3], [0, 0, 1]]);
  assert.equal(tilesOfAnswer(pl, 3), null, 'not one tile per face');
  assert.equal(tilesOfAnswer([{ tile: 1, weights: [1, 1, 1] }, { tile: 1, weights: [1, 1, 1] }], 2), null, 'a tile used twice');
});
