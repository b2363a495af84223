// The page's one running request (solve, solutions, count or compare): its job id, its
// abort signal, the Stop button and the elapsed time while it runs.

import { $, setText, setStatus } from './dom.js';
import { newJob, cancelJob } from './api.js';

let running = null; // {job, controller, kind, started, timer, stopped}

export const current = () => running;

export function startRun(kind) {
  stopRun(false);
  const run = { job: newJob(), controller: new AbortController(), kind, started: performance.now() };
  running = run;
  $('stop').disabled = false;
  document.body.classList.add('busy');
  document.body.dataset.job = run.job;
  run.timer = setInterval(() => {
    if (running === run && $('status').dataset.status === 'running') {
      setText('elapsed', ((performance.now() - run.started) / 1000).toFixed(1) + ' s so far');
    }
  }, 200);
  return run;
}

export function endRun(run) {
  clearInterval(run.timer);
  if (running === run) {
    running = null;
    $('stop').disabled = true;
    document.body.classList.remove('busy');
    delete document.body.dataset.job;
  }
}

// Stops the running request on the server and in the page; `show`: say so in the status.
export function stopRun(show) {
  const run = running;
  if (!run) return;
  cancelJob(run.job);
  run.stopped = true;
  run.controller.abort();
  endRun(run);
  if (show) {
    setStatus('unknown', 'Stopped.');
    setText('reason', 'stopped by you');
  }
}
