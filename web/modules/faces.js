// Faces by their vertex names, and answers compared face by face.

// The key a face goes by on the page: its vertex names, space-separated ("A B C").
export function faceKey(names) { return names.join(' '); }
export function namesOf(key) { return key.split(' '); }

// A face's label as `sokuc` writes it (and the SVG net's data-face): "ABC" when every name
// is one letter, else "AA,AB,AC".
export function faceLabel(names) {
  return names.every((n) => n.length === 1) ? names.join('') : names.join(',');
}

// The keys of a solid's faces, in its order.
export function faceKeys(variant) {
  return variant.faces.map((f) => faceKey(f.map((i) => variant.vertices[i])));
}

// A placed tile in the words `sokuc check --partial` reads: "ABC: (0,1,2), 0 at A, ...".
export function placementWords(p) {
  return faceLabel(p.face) + ': (' + p.weights.join(',') + '), ' + p.face.map((n, i) => p.corners[i] + ' at ' + n).join(', ');
}

// The placed tiles (a Map from face key) as the server reads them: the bracket form, one
// tile per line, in the solid's face order.
export function placedText(variant, placed) {
  const lines = [];
  faceKeys(variant).forEach((key) => {
    const p = placed.get(key);
    if (p) lines.push(faceLabel(p.face) + ': tile #' + p.tile + ', rotation ' + p.rotation);
  });
  return lines.join('\n') + (lines.length ? '\n' : '');
}

// The same solution, as a person sees it: the weights on every face (identical tiles are
// interchangeable, so their numbers may differ); a grid's cells.
export function sameSolution(a, b) {
  if (!a || !b) return false;
  if (a.placements && b.placements) {
    const m = new Map(a.placements.map((p) => [faceKey(p.face), p.corners.join(',')]));
    return b.placements.every((p) => m.get(faceKey(p.face)) === p.corners.join(','));
  }
  return JSON.stringify(a.grid) === JSON.stringify(b.grid);
}

// The tile weights a complete answer uses, indexed by tile number - 1, or null when the
// answer does not place each tile of a set of `faces` once.
export function tilesOfAnswer(placements, faces) {
  if (placements.length !== faces) return null;
  const w = [];
  placements.forEach((p) => { if (p.tile >= 1 && p.weights) w[p.tile - 1] = p.weights.slice(); });
  return w.length === placements.length && w.every(Boolean) ? w : null;
}
