// Small helpers on the page's elements.

export const $ = (id) => document.getElementById(id);
export function setText(id, text) { $(id).textContent = text; }
// The solve's message line, under its status.
export function message(text) { setText('message', text || ''); }

export function setStatus(status, text) {
  const el = $('status');
  el.dataset.status = status;
  el.textContent = text;
}

export function resetStatus() {
  setStatus('idle', 'Ready.');
  ['backend-used', 'elapsed', 'reason', 'unique-result'].forEach((id) => setText(id, ''));
}

export function fillSelect(sel, values, labelFn) {
  sel.innerHTML = '';
  values.forEach((v) => {
    const o = document.createElement('option');
    o.value = v;
    o.textContent = labelFn ? labelFn(v) : v;
    sel.appendChild(o);
  });
}

export function readFile(input) {
  return new Promise((resolve, reject) => {
    const f = input.files && input.files[0];
    if (!f) { reject(new Error('No file chosen.')); return; }
    const rd = new FileReader();
    rd.onload = () => resolve({ name: f.name, text: String(rd.result) });
    rd.onerror = () => reject(new Error('Cannot read ' + f.name + '.'));
    rd.readAsText(f);
  });
}

export function download(text, filename, type) {
  const blob = new Blob([text], { type: type || 'text/plain' });
  const a = document.createElement('a');
  a.href = URL.createObjectURL(blob);
  a.download = filename;
  document.body.appendChild(a);
  a.click();
  setTimeout(() => { URL.revokeObjectURL(a.href); a.remove(); }, 1000);
}
