import { test } from 'node:test';
import assert from 'node:assert/strict';
import { plainMessage, instanceMessageTarget, statusText, fmtValue, assistSentence } from '../modules/words.js';

test('the page\'s made-up file names leave the server\'s messages', () => {
  assert.equal(plainMessage('page.toml: capacities: 3 values for 12 vertices', '3soku'), 'Pegs: 3 values for 12 vertices');
  assert.equal(plainMessage('page.kakuro:4: bad clue', 'kakuro'), 'Line 4: bad clue');
  assert.equal(plainMessage('page.tt:2: row has 3 cells', 'trickytriple'), 'Line 2: row has 3 cells');
  assert.equal(plainMessage('placed tiles:2: no such face', '3soku'), 'No such face');
  assert.equal(plainMessage('the capacity of A', 'kakuro'), 'The capacity of A', 'pegs only on a solid');
  assert.equal(plainMessage('the capacity of A', '3soku'), 'The peg of A');
  assert.equal(plainMessage('', '3soku'), '');
});

test('a mistake goes beside the pegs, the tiles or the grid', () => {
  assert.equal(instanceMessageTarget('tiles: 19 tiles for 20 faces', '3soku'), 'tiles-msg');
  assert.equal(instanceMessageTarget('the pegs and tiles disagree', '3soku'), 'pegs-msg');
  assert.equal(instanceMessageTarget('Pegs: too many', '3soku'), 'pegs-msg');
  assert.equal(instanceMessageTarget('tiles: anything', 'kakuro'), 'grid-msg');
});

test('verdicts', () => {
  assert.equal(statusText({ status: 'sat', verified: true }, '3soku'), 'Solved and verified.');
  assert.equal(statusText({ status: 'sat' }, '3soku'), 'Solved.');
  assert.equal(statusText({ status: 'unsat' }, 'trickytriple'), 'No solution: this Tricky Triple puzzle cannot be solved.');
  assert.equal(statusText({ status: 'unknown' }, 'kakuro'), 'No answer within the time limit.');
});

test('numbers', () => {
  assert.equal(fmtValue(9999), '9999');
  assert.equal(fmtValue(10000), '10,000');
  assert.equal(fmtValue(1234567), '1,234,567');
  assert.equal(fmtValue(2.25), '2.3');
  assert.equal(fmtValue('123456789012345678901'), '123,456,789,012,345,678,901');
  assert.equal(fmtValue('1234'), '1234');
  assert.equal(fmtValue(true), 'true');
});

test('the assistant\'s verdicts, singular and plural', () => {
  assert.equal(assistSentence('completable', 0, 20, 0), 'No tiles placed yet: the puzzle has a solution.');
  assert.equal(assistSentence('completable', 1, 20, 0), 'Your 1 tile can stay: the puzzle can still be completed (19 to go).');
  assert.equal(assistSentence('completable', 20, 20, 0), 'Solved: every face has its tile, and every vertex adds up to its peg.');
  assert.equal(assistSentence('take-off', 4, 20, 2), 'Stuck: take off 2 tiles (the fewest), marked in red; then the puzzle can be completed.');
  assert.equal(assistSentence('something-new', 1, 20, 0), 'something-new');
});
