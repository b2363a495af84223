// The rotation rule: a tile with corner weights w (clockwise) turned by r puts
// w[(i - r) mod 3] at the face's i-th vertex (as `sokuc` reads `rotation`).

export function cornersOf(w, r) { return [0, 1, 2].map((i) => w[(i - r + 3) % 3]); }

// The turns of a tile that look different on a face: rotations 0..2, a repeated corner
// pattern left out (a (1,1,1) tile has one turn, a (0,0,1) three).
export function distinctTurns(w) {
  const seen = new Set();
  const turns = [];
  for (let r = 0; r < 3; r++) {
    const key = cornersOf(w, r).join(',');
    if (seen.has(key)) continue;
    seen.add(key);
    turns.push({ rotation: r, corners: cornersOf(w, r) });
  }
  return turns;
}

// The rotation that puts `corners` on the face with tile `w`, or -1 when none does.
export function rotationFor(w, corners) {
  const want = corners.join(',');
  for (let r = 0; r < 3; r++) if (cornersOf(w, r).join(',') === want) return r;
  return -1;
}

// A random order of 0..n-1 (Fisher-Yates); `random` returns a number in [0, 1).
export function shuffled(n, random) {
  const order = Array.from({ length: n }, (_, i) => i);
  for (let i = n - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [order[i], order[j]] = [order[j], order[i]];
  }
  return order;
}

// Pegs that have a solution by construction: tile order[f] on face f turned by turns[f],
// its corners summed per vertex.
export function plantedPegs(faces, vertexCount, tiles, order, turns) {
  const sums = new Array(vertexCount).fill(0);
  faces.forEach((f, fi) => {
    const c = cornersOf(tiles[order[fi]], turns[fi]);
    for (let i = 0; i < 3; i++) sums[f[i]] += c[i];
  });
  return sums;
}
