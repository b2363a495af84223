// An edit of the puzzle (pegs, tiles, solid or grid): every answer on the page is now about
// another puzzle. It goes at once, the request still running is stopped, and a reply that
// arrives anyway is dropped (state.generation); My puzzle's verdict waits for its own check.

import { setStatus } from './dom.js';
import * as st from './state.js';
import { stopRun } from './jobs.js';
import { clearAnswer } from './answer.js';
import { showMineNote, mineEdited } from './mine.js';
import { updateShare } from './link.js';

// The status when the board shows no answer because the puzzle changed since the last one.
function showEdited() {
  if (st.mine() && st.onSolid()) showMineNote();
  else setStatus('edited', 'Edited: press Solve.');
}

export function puzzleEdited() {
  st.bumpGeneration();
  stopRun(false);
  clearAnswer();
  showEdited();
  if (st.mine() && st.onSolid()) mineEdited();
}

// A person's edit: as puzzleEdited, and the address bar's link is the edited puzzle's.
export function edited() {
  puzzleEdited();
  updateShare(true);
}
