// 3-vectors and 3x3 matrices, as plain arrays: the 3-D view's arithmetic.

export const sub = (a, b) => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
export const add = (a, b) => [a[0] + b[0], a[1] + b[1], a[2] + b[2]];
export const scale = (a, k) => [a[0] * k, a[1] * k, a[2] * k];
export const dot = (a, b) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
export const cross = (a, b) => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
export const norm = (a) => { const l = Math.hypot(a[0], a[1], a[2]) || 1; return scale(a, 1 / l); };

export function matMul(A, B) {
  const C = [[0, 0, 0], [0, 0, 0], [0, 0, 0]];
  for (let i = 0; i < 3; i++) for (let j = 0; j < 3; j++) for (let k = 0; k < 3; k++) C[i][j] += A[i][k] * B[k][j];
  return C;
}
export const matVec = (M, v) => [dot(M[0], v), dot(M[1], v), dot(M[2], v)];
export function rotX(a) { const c = Math.cos(a), s = Math.sin(a); return [[1, 0, 0], [0, c, -s], [0, s, c]]; }
export function rotY(a) { const c = Math.cos(a), s = Math.sin(a); return [[c, 0, s], [0, 1, 0], [-s, 0, c]]; }

// The rotation by `th` about the unit axis `k` (Rodrigues).
export function rotAbout(k, th) {
  const c = Math.cos(th), s = Math.sin(th), t = 1 - c;
  const [x, y, z] = k;
  return [
    [c + x * x * t, x * y * t - z * s, x * z * t + y * s],
    [y * x * t + z * s, c + y * y * t, y * z * t - x * s],
    [z * x * t - y * s, z * y * t + x * s, c + z * z * t],
  ];
}

// The solid's centre and, per face, +1 or -1 so that the face's right-hand normal times it
// points outwards. Faces are clockwise seen from outside, so their right-hand normals point
// inwards: an embedding where most point outwards is a mirror image, and comes back mirrored
// (x negated), or tiles would show flipped.
export function orientSolid(positions, faces) {
  const centreOf = (ps) => ps.reduce((c, p) => add(c, scale(p, 1 / ps.length)), [0, 0, 0]);
  const orientOf = (ps, centre) => faces.map((f) => {
    const [a, b, c] = f.map((i) => ps[i]);
    const cen = scale(add(add(a, b), c), 1 / 3);
    return dot(cross(sub(b, a), sub(c, a)), sub(cen, centre)) >= 0 ? 1 : -1;
  });
  let ps = positions;
  let centre = centreOf(ps);
  let orient = orientOf(ps, centre);
  if (orient.filter((o) => o > 0).length > orient.length / 2) {
    ps = ps.map((p) => [-p[0], p[1], p[2]]);
    centre = [-centre[0], centre[1], centre[2]];
    orient = orientOf(ps, centre);
  }
  return { positions: ps, centre, orient };
}

// The view's first rotation: vertex 0 up, vertex 1 towards the viewer, then tilted a little
// to see the top.
export function initialRotation(positions, centre) {
  if (!positions || positions.length < 2) return rotX(0.4);
  const up = norm(sub(positions[0], centre));
  let fwd = sub(positions[1], centre);
  fwd = sub(fwd, scale(up, dot(fwd, up)));
  if (Math.hypot(fwd[0], fwd[1], fwd[2]) < 1e-6) fwd = Math.abs(up[0]) < 0.9 ? [1, 0, 0] : [0, 1, 0];
  fwd = norm(sub(fwd, scale(up, dot(fwd, up))));
  const right = cross(up, fwd);
  const base = [right, up, fwd];
  return matMul(rotX(0.42), matMul(rotY(-0.3), base));
}

// The rotation, axis and angle, that turns the unit vector `m` (a face's normal in view
// space) to look straight at the viewer (+z); angle 0 when it already does.
export function turnToViewer(m) {
  const axis = cross(m, [0, 0, 1]);
  const sn = Math.hypot(axis[0], axis[1], axis[2]);
  const angle = Math.atan2(sn, m[2]);
  return { axis: sn < 1e-9 ? [0, 1, 0] : scale(axis, 1 / sn), angle };
}
