// What the person types, read: pegs and grid texts.

// Pegs, one per vertex, separated by spaces, commas or semicolons. `tokens` are the pieces
// as typed (the vertex list shows them); `pegs` the numbers, or null with `error` set.
export function parsePegs(text, vertices) {
  const tokens = text.trim() === '' ? [] : text.trim().split(/[\s,;]+/).filter((t) => t !== '');
  const names = vertices || [];
  const n = names.length;
  let error = '';
  const bad = tokens.find((t) => !/^\d+$/.test(t));
  if (bad !== undefined) {
    error = 'Pegs must be whole numbers of at least 0; "' + bad + '" is not.';
  } else if (tokens.length !== n) {
    error = 'Give one peg per vertex: ' + n + ' needed (' + names.join(' ') + '), ' + tokens.length + ' given.';
  }
  return { tokens, error, pegs: error ? null : tokens.map(Number) };
}

// True when every token is a whole number (the server is then asked what it makes of them).
export function allWhole(tokens) { return tokens.every((t) => /^\d+$/.test(t)); }

// A grid instance's header and cell tokens, enough to draw it (the server checks the rest):
// `{kind, rows, cols, cells}`, or null when there is no usable header. Blank lines and
// `#` comments are skipped.
export function parseGrid(text) {
  const lines = text.split(/\r?\n/).map((l) => l.trim()).filter((l) => l !== '' && !l.startsWith('#'));
  if (!lines.length) return null;
  const head = lines[0].split(/\s+/);
  const rows = Number(head[1]), cols = Number(head[2]);
  if (!rows || !cols || rows > 200 || cols > 200) return null;
  const cells = lines.slice(1, rows + 1).map((l) => l.split(/\s+/));
  return { kind: head[0].toLowerCase(), rows, cols, cells };
}

// A Kakuro clue cell `down\across` (either side may be empty), or null for another token.
export function kakuroClue(tok) {
  if (!tok.includes('\\')) return null;
  const [down, across] = tok.split('\\');
  return { down, across };
}

// A tile's corner weight as a number input holds it: a whole number of at least 0, or null.
// An emptied input reads as 0, as the number input's own spinner starts from.
export function parseWeight(text) {
  const x = Number(text);
  return Number.isInteger(x) && x >= 0 ? x : null;
}
