// What the page says: the kinds' names, the server's messages made plain, verdicts, numbers.

export const KIND_NAMES = { '3soku': '3SoKu', kakuro: 'Kakuro', trickytriple: 'Tricky Triple' };
// The file name each kind's instance is sent under: its extension tells the server the kind.
export const FILE_NAMES = { '3soku': 'page.toml', kakuro: 'page.kakuro', trickytriple: 'page.tt' };
export const EXT = { dimacs: 'cnf', opb: 'opb', lp: 'lp', mps: 'mps', mzn: 'mzn', svg: 'svg' };

// The server names the instance by the file name the page gave it ("page.toml"), which the
// person never saw: such names are taken out, a grid's line number is kept as "Line N",
// and on a solid the instance's "capacities" are the page's pegs.
export function plainMessage(text, kind) {
  let m = String(text || '');
  m = m.replace(/(^|\s)page\.(kakuro|tt):(\d+):\s*/g, '$1Line $3: ');
  m = m.replace(/(^|\s)page\.(toml|kakuro|tt)(:\d+)?(:\s*|,\s*|\s+)/g, '$1');
  m = m.replace(/(^|\s)placed tiles:(\d+):\s*/g, '$1');
  if (kind === '3soku') m = m.replace(/\bcapacities\b/g, 'pegs').replace(/\bcapacity\b/g, 'peg');
  return m ? m.charAt(0).toUpperCase() + m.slice(1) : m;
}

// A mistake in the instance goes beside what holds it: the pegs, the tiles or the grid
// (the id of the element that shows it).
export function instanceMessageTarget(text, kind) {
  if (kind !== '3soku') return 'grid-msg';
  return /\btiles?\b/i.test(text) && !/\bpegs?\b/i.test(text) ? 'tiles-msg' : 'pegs-msg';
}

export function statusText(res, kind) {
  const what = KIND_NAMES[kind] || '';
  switch (res.status) {
    case 'sat': return 'Solved' + (res.verified ? ' and verified.' : '.');
    case 'unsat': return 'No solution: this ' + what + ' puzzle cannot be solved.';
    case 'unknown': return 'No answer within the time limit.';
    default: return String(res.status);
  }
}

// A number as the count and compare tables show it: thousands separated from 10,000 up
// (also in a string of digits, as a count past 2^53 comes), one decimal for a fraction.
export function fmtValue(v) {
  if (typeof v === 'number' && Number.isInteger(v) && v >= 10000) return String(v).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  if (typeof v === 'number') return Number.isInteger(v) ? String(v) : v.toFixed(1);
  if (typeof v === 'string' && /^\d{5,}$/.test(v)) return v.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return String(v);
}

// The assistant's verdict on `placed` tiles of `faces`, `takeOff` of them marked to go.
export function assistSentence(assist, placed, faces, takeOff) {
  const tiles = (m) => m + ' tile' + (m === 1 ? '' : 's');
  const said = {
    completable: placed === 0 ? 'No tiles placed yet: the puzzle has a solution.'
      : (placed === faces ? 'Solved: every face has its tile, and every vertex adds up to its peg.'
        : 'Your ' + tiles(placed) + ' can stay: the puzzle can still be completed (' + (faces - placed) + ' to go).'),
    'take-off': 'Stuck: take off ' + tiles(takeOff) + ' (the fewest), marked in red; then the puzzle can be completed.',
    'take-off-enough': 'Taking off the ' + tiles(takeOff) + ' marked in red is enough; whether fewer would do was not decided in time.',
    'no-solution': 'These pegs have no solution, whatever tiles are placed.',
    unknown: 'Not decided within the time limit.',
  }[assist];
  return said || assist;
}
