// The grid puzzles (Kakuro, Tricky Triple): the grid drawn from its text, with the answer's
// values, and the samples the server lists.

import { $ } from './dom.js';
import * as st from './state.js';
import { parseGrid, kakuroClue } from './parse.js';

const SYMBOLS = { 1: 'triangle', 2: 'square', 3: 'circle' };

// The samples of a kind, as /api/info lists them: [{name, text}].
export function samplesOf(kind) {
  const info = st.info();
  return (info && info.samples && info.samples[kind]) || [];
}

export function renderGrid() {
  const box = $('grid');
  box.innerHTML = '';
  const g = parseGrid($('grid-text').value);
  const solved = st.answerGrid();
  const rows = g ? g.rows : (solved ? solved.length : 0);
  const cols = g ? g.cols : (solved && solved[0] ? solved[0].length : 0);
  if (!rows || !cols) { box.textContent = 'Type or open a grid to see it here.'; return; }
  const kind = st.kind();
  const table = document.createElement('table');
  table.className = 'puzzle-grid ' + kind;
  const tb = document.createElement('tbody');
  for (let r = 0; r < rows; r++) {
    const tr = document.createElement('tr');
    for (let c = 0; c < cols; c++) {
      const td = document.createElement('td');
      td.dataset.row = String(r);
      td.dataset.col = String(c);
      const tok = g && g.cells[r] ? (g.cells[r][c] || '') : '';
      const val = solved && solved[r] ? solved[r][c] : null;
      td.dataset.value = val === null || val === undefined ? '' : String(val);
      if (kind === 'kakuro') {
        const clue = kakuroClue(tok);
        if (/^[xX]$/.test(tok)) td.className = 'black';
        else if (clue) {
          const { down, across } = clue;
          td.className = 'clue';
          td.innerHTML = '<span class="down"></span><span class="across"></span>';
          td.children[0].textContent = down;
          td.children[1].textContent = across;
          td.setAttribute('aria-label', (down ? 'down ' + down : '') + (down && across ? ', ' : '') + (across ? 'across ' + across : ''));
        } else {
          td.className = 'white' + (/^\d$/.test(tok) ? ' given' : '');
          td.textContent = val !== null && val !== undefined ? String(val) : (/^\d$/.test(tok) ? tok : '');
        }
      } else if (/^[xX]$/.test(tok)) {
        td.className = 'black';
      } else {
        const sym = val !== null && val !== undefined ? String(val) : (/^[123]$/.test(tok) ? tok : '');
        td.className = 'white' + (/^[123]$/.test(tok) ? ' given' : '');
        if (sym) {
          const s = document.createElement('span');
          s.className = 'sym sym-' + sym;
          s.setAttribute('aria-label', SYMBOLS[sym] || sym);
          td.appendChild(s);
        }
      }
      tr.appendChild(td);
    }
    tb.appendChild(tr);
  }
  table.appendChild(tb);
  box.appendChild(table);
}

// The sample picker of the current kind, on the sample whose text is in the box (or on
// "(your own)").
export function fillSamples() {
  const sel = $('sample');
  sel.innerHTML = '';
  const custom = document.createElement('option');
  custom.value = '';
  custom.textContent = '(your own)';
  sel.appendChild(custom);
  const samples = samplesOf(st.kind());
  samples.forEach((s, i) => {
    const o = document.createElement('option');
    o.value = String(i);
    o.textContent = s.name;
    sel.appendChild(o);
  });
  const cur = st.gridText(st.kind());
  const idx = samples.findIndex((s) => s.text === cur);
  sel.value = idx >= 0 ? String(idx) : '';
}
