// The JSON API of `sokuc serve` (web/API.md).

// A job id the page makes up: `POST /api/cancel {job}` stops the request that carries it.
export function newJob() {
  return 'job-' + Date.now().toString(36) + '-' + Math.random().toString(36).slice(2, 10);
}

// GET when `body` is undefined, else POST of its JSON. Resolves to the JSON (or the text of
// a file); rejects with an Error whose message is the server's and whose `status` is HTTP's.
export async function api(path, body, signal) {
  const opts = body === undefined ? { method: 'GET' } : {
    method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body),
  };
  if (signal) opts.signal = signal;
  const res = await fetch(path, opts);
  const type = res.headers.get('Content-Type') || '';
  const data = type.includes('json') ? await res.json() : await res.text();
  if (!res.ok) {
    // Errors are the command line's error document: {"status": "error", "message", "exit_code"}.
    const obj = data && typeof data === 'object' ? data : {};
    const said = obj.message;
    const msg = said ? String(said) : ('HTTP ' + res.status + (typeof data === 'string' && data ? ': ' + data.slice(0, 300) : ''));
    const err = new Error(msg);
    err.status = res.status;
    throw err;
  }
  return data;
}

// Stops a job on the server; its request then answers "unknown". Failures do not matter:
// the job ends by itself at its time limit.
export function cancelJob(job) {
  api('/api/cancel', { job }).catch(() => {});
}
