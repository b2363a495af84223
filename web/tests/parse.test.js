import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parsePegs, allWhole, parseGrid, kakuroClue, parseWeight } from '../modules/parse.js';

const ABC = ['A', 'B', 'C'];

test('pegs: spaces, commas and semicolons separate', () => {
  const r = parsePegs(' 1, 2;3 ', ABC);
  assert.deepEqual(r, { tokens: ['1', '2', '3'], error: '', pegs: [1, 2, 3] });
});

test('pegs: a token that is not a whole number is named', () => {
  const r = parsePegs('1 -2 3', ABC);
  assert.equal(r.pegs, null);
  assert.equal(r.error, 'Pegs must be whole numbers of at least 0; "-2" is not.');
  assert.deepEqual(r.tokens, ['1', '-2', '3']);
  assert.match(parsePegs('1 2.5 3', ABC).error, /"2\.5"/);
});

test('pegs: one per vertex', () => {
  assert.equal(parsePegs('1 2', ABC).error, 'Give one peg per vertex: 3 needed (A B C), 2 given.');
  assert.equal(parsePegs('', ABC).error, 'Give one peg per vertex: 3 needed (A B C), 0 given.');
  assert.equal(parsePegs('1 2 3 4', ABC).pegs, null);
  assert.equal(parsePegs('1', null).error, 'Give one peg per vertex: 0 needed (), 1 given.');
});

test('allWhole', () => {
  assert.equal(allWhole(['0', '12']), true);
  assert.equal(allWhole(['1', 'x']), false);
  assert.equal(allWhole([]), true);
});

test('grids: header, cells, comments and blank lines', () => {
  const g = parseGrid('# a comment\n\ntrickytriple 2 3\n. 1 X\n2 . .\nextra line\n');
  assert.deepEqual(g, { kind: 'trickytriple', rows: 2, cols: 3, cells: [['.', '1', 'X'], ['2', '.', '.']] });
  assert.equal(parseGrid('Kakuro 1 1\r\nX\r\n').kind, 'kakuro');
});

test('grids: no usable header is null', () => {
  assert.equal(parseGrid(''), null);
  assert.equal(parseGrid('# only\n'), null);
  assert.equal(parseGrid('kakuro x 3\n'), null);
  assert.equal(parseGrid('kakuro 0 3\n'), null);
  assert.equal(parseGrid('kakuro 201 3\n'), null, 'past the page\'s size');
  assert.notEqual(parseGrid('kakuro 200 200\n'), null);
});

test('Kakuro clues', () => {
  assert.deepEqual(kakuroClue('16\\4'), { down: '16', across: '4' });
  assert.deepEqual(kakuroClue('\\7'), { down: '', across: '7' });
  assert.deepEqual(kakuroClue('6\\'), { down: '6', across: '' });
  assert.equal(kakuroClue('.'), null);
  assert.equal(kakuroClue('X'), null);
});

test('tile weights', () => {
  assert.equal(parseWeight('3'), 3);
  assert.equal(parseWeight('0'), 0);
  assert.equal(parseWeight('-1'), null);
  assert.equal(parseWeight('1.5'), null);
  assert.equal(parseWeight('x'), null);
});
