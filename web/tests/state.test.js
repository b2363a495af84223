// The state module has no DOM: its updates are checked here.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as st from '../modules/state.js';

const answer = { placements: [
  { face: ['A', 'B', 'C'], tile: 1, rotation: 0, weights: [0, 1, 2], corners: [0, 1, 2] },
  { face: ['A', 'C', 'D'], tile: 2, rotation: 1, weights: [1, 1, 1], corners: [1, 1, 1] },
] };

test('an answer shows all its tiles, or none in hint mode, then one at a time', () => {
  st.setHintMode(false);
  st.setAnswer(answer);
  assert.equal(st.placementCount(), 2);
  assert.equal(st.placement('A C D').tile, 2);
  assert.equal(st.revealedCount(), 2);
  st.setHintMode(true);
  st.setAnswer(answer);
  assert.equal(st.revealedCount(), 0);
  st.reveal('A B C');
  assert.equal(st.isRevealed('A B C'), true);
  assert.equal(st.isRevealed('A C D'), false);
  st.revealAll(true);
  assert.equal(st.revealedCount(), 2);
  st.setAnswer(null);
  assert.equal(st.placementCount(), 0);
  assert.equal(st.revealedCount(), 0);
  st.setHintMode(false);
});

test('tiles: the panel\'s edits mark them changed; a copy is kept, not the caller\'s list', () => {
  const own = [[0, 0, 1], [1, 2, 3]];
  st.setTiles(own, false);
  assert.equal(st.customTiles(), false);
  st.setTileWeight(0, 2, 3);
  assert.deepEqual(own[0], [0, 0, 1], 'the solid\'s own list is untouched');
  assert.deepEqual(st.tileAt(1), [0, 0, 3]);
  assert.equal(st.customTiles(), true);
  assert.equal(st.tilesKey(), '0.0.3,1.2.3');
  st.removeTile(0);
  st.addTile([2, 2, 2]);
  assert.deepEqual(st.tiles(), [[1, 2, 3], [2, 2, 2]]);
  st.setTiles(null, false);
  assert.equal(st.tilesKey(), '');
});

test('a solid: vertices by name, pegs by vertex', () => {
  st.setVariantData({ name: 't', vertices: ['A', 'B', 'C', 'D'], faces: [[0, 2, 1], [0, 3, 2], [0, 1, 3], [1, 2, 3]],
    positions: [[1, 1, 1], [1, -1, -1], [-1, 1, -1], [-1, -1, 1]] }, true, 'text');
  assert.equal(st.variant().uploaded, true);
  assert.equal(st.vertexNamed('C'), 2);
  st.setPegsRead(['3', 'x'], null);
  assert.equal(st.pegOf('A'), '3');
  assert.equal(st.pegOf('B'), 'x');
  assert.equal(st.pegOf('D'), '');
  assert.equal(st.pegOf('Z'), '?');
});

test('My puzzle: the assistant\'s answer marks the tiles to take off; a new check keeps the marks', () => {
  st.clearMineTiles();
  st.placeMineTile('A B C', { face: ['A', 'B', 'C'], tile: 1 });
  st.setAssistAnswer({ assist: 'take-off', removed: [{ face: ['A', 'B', 'C'] }], hint: null });
  assert.equal(st.takeOff('A B C'), true);
  st.forgetAssistAnswer();
  assert.equal(st.assistAnswer(), null);
  assert.equal(st.takeOffCount(), 1);
  st.removeMineTile('A B C');
  assert.equal(st.takeOffCount(), 0);
  assert.equal(st.minePlacements().size, 0);
});

test('the solution list is updated by patches', () => {
  st.resetSolutions();
  assert.deepEqual(st.solutions(), { index: null, list: [], more: true, key: '', offset: 0 });
  st.setSolutions({ index: 0, list: [answer] });
  st.setSolutions({ offset: 10 });
  assert.equal(st.solutions().index, 0);
  assert.equal(st.solutions().offset, 10);
  assert.equal(st.solutions().list.length, 1);
});

test('edits count up', () => {
  const g = st.generation();
  st.bumpGeneration();
  assert.equal(st.generation(), g + 1);
});
