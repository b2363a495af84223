import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cross, dot, norm, matMul, matVec, rotX, rotAbout, orientSolid, initialRotation, turnToViewer } from '../modules/vec.js';

const close = (a, b, what) => {
  const fa = [a].flat(2), fb = [b].flat(2);
  assert.equal(fa.length, fb.length, what);
  fa.forEach((x, i) => assert.ok(Math.abs(x - fb[i]) < 1e-9, (what || '') + ': ' + JSON.stringify(a) + ' != ' + JSON.stringify(b)));
};

test('vectors', () => {
  assert.deepEqual(cross([1, 0, 0], [0, 1, 0]), [0, 0, 1]);
  assert.equal(dot([1, 2, 3], [4, 5, 6]), 32);
  close(norm([3, 0, 4]), [0.6, 0, 0.8]);
  assert.deepEqual(norm([0, 0, 0]), [0, 0, 0]);
});

test('rotations', () => {
  close(matVec(rotX(Math.PI / 2), [0, 1, 0]), [0, 0, 1]);
  close(matVec(rotAbout([0, 0, 1], Math.PI / 2), [1, 0, 0]), [0, 1, 0]);
  const r = matMul(rotAbout(norm([1, 2, 3]), 0.7), rotX(0.3));
  // A rotation keeps lengths.
  close(Math.hypot(...matVec(r, [1, 2, 2])), 3);
});

// A tetrahedron, faces clockwise seen from outside (the variant files' rule).
const tetraFaces = [[0, 2, 1], [0, 3, 2], [0, 1, 3], [1, 2, 3]];
const tetraPos = [[1, 1, 1], [1, -1, -1], [-1, 1, -1], [-1, -1, 1]];

test('a solid whose faces are clockwise from outside is kept, each face oriented inwards', () => {
  const o = orientSolid(tetraPos, tetraFaces);
  close(o.centre, [0, 0, 0]);
  assert.deepEqual(o.positions, tetraPos);
  assert.deepEqual(o.orient, [-1, -1, -1, -1]);
});

test('a mirrored embedding is mirrored back', () => {
  const mirrored = tetraPos.map(([x, y, z]) => [-x, y, z]);
  const o = orientSolid(mirrored, tetraFaces);
  assert.deepEqual(o.positions, tetraPos);
  assert.deepEqual(o.orient, [-1, -1, -1, -1]);
});

test('the first view puts vertex 0 up, tilted', () => {
  const r = initialRotation(tetraPos, [0, 0, 0]);
  const up = matVec(r, norm(tetraPos[0]));
  // Up, then tilted by 0.42 rad about x: (0, cos 0.42, sin 0.42).
  close(up, [0, Math.cos(0.42), Math.sin(0.42)]);
  close(initialRotation([[0, 0, 1]], [0, 0, 0]), rotX(0.4), 'one vertex: a fixed tilt');
});

test('turning a face to the viewer', () => {
  const m = norm([1, 0, 1]);
  const { axis, angle } = turnToViewer(m);
  close(angle, Math.PI / 4);
  close(matVec(rotAbout(axis, angle), m), [0, 0, 1]);
  assert.equal(turnToViewer([0, 0, 1]).angle, 0);
  const back = turnToViewer([0, 0, -1]);
  close(back.angle, Math.PI);
  close(matVec(rotAbout(back.axis, back.angle), [0, 0, -1]), [0, 0, 1]);
});
