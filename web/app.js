// sokuc serve: the page. Plain JavaScript, no libraries; talks to the JSON API on the same host.
'use strict';

(function () {
  const $ = (id) => document.getElementById(id);

  // The 20 IcoSoKu tiles, corner weights clockwise (used when the server names the set "icosoku").
  const ICOSOKU_TILES = [
    [0, 0, 0], [0, 0, 1], [0, 0, 2], [0, 0, 3], [0, 1, 1], [0, 1, 2], [0, 1, 2], [0, 1, 2], [0, 2, 1], [0, 2, 1],
    [0, 2, 1], [0, 2, 2], [0, 3, 3], [1, 1, 1], [1, 2, 3], [1, 2, 3], [1, 3, 2], [1, 3, 2], [2, 2, 2], [3, 3, 3],
  ];

  const SAMPLES = {
    kakuro: [
      { name: 'Small 3x3', text: 'kakuro 3 3\nX   4\\  6\\\n\\3  .   .\n\\7  .   .\n' },
      {
        name: 'Easy 10x12',
        text: 'kakuro 10 12\n' +
          '  X   X  16\\   4\\   X    6\\   4\\  15\\   X    X  6\\ 7\\\n' +
          '  X 7\\7    .    .  \\9     .    .    .   X 16\\4   .  .\n' +
          ' \\7   .    .    . 5\\7     .    .    . 3\\6    .   .  .\n' +
          ' \\3   .    . 16\\4   .     . 8\\16    .   .    .   .  .\n' +
          '\\10   .    .    .   . 15\\10    .    .   .    . 15\\  X\n' +
          '  X \\10    .    . 3\\6     .    .    . 4\\5    .   . 7\\\n' +
          '  X  6\\ 7\\10    .   .     .    . 7\\12   .    .   .  .\n' +
          '\\16   .    .    .   .     .  3\\4    .   .  4\\4   .  .\n' +
          ' \\7   .    .    .  \\8     .    .    .  \\6    .   .  .\n' +
          ' \\3   .    .    X  \\7     .    .    .  \\3    .   .  X\n',
      },
    ],
    trickytriple: [
      { name: '4x4', text: 'trickytriple 4 4\n. . 1 .\n2 . 1 .\n. . . 2\n. 2 . 3\n' },
      { name: '5x5 with black cells', text: 'trickytriple 5 5\n. 1 3 . 3\n1 . . X 2\n. . . . X\n2 . . . .\n3 . . . .\n' },
    ],
  };
  const KIND_NAMES = { '3soku': '3SoKu', kakuro: 'Kakuro', trickytriple: 'Tricky Triple' };
  const FILE_NAMES = { '3soku': 'page.toml', kakuro: 'page.kakuro', trickytriple: 'page.tt' };
  const EXT = { dimacs: 'cnf', opb: 'opb', lp: 'lp', mps: 'mps', mzn: 'mzn', svg: 'svg' };

  const S = {
    info: null,
    kind: '3soku',
    variant: null, // {name, vertices, faces, positions, tiles, pegs, uploaded, text}
    variantIndex: null, // vertex name -> index
    tileWeights: null,
    orient: [], // per face: +1 or -1 so that the cross product points outwards
    center: [0, 0, 0],
    pegTokens: [],
    pegs: null, // parsed pegs (array of numbers) or null when the text is invalid
    solution: null,
    solutionKey: '',
    placementsByFace: new Map(), // "A B C" -> placement
    revealed: new Set(),
    steps: [],
    solIndex: null,
    solList: [],
    solMore: true,
    solKey: '',
    hint: false,
    labels: 'pegs',
    selected: -1,
    rot: null,
    zoom: 1,
    screen: [], // projected vertex positions (CSS px), null when hidden
    visibleFaces: [], // [{f, pts}] front faces in drawing order
    running: null, // {job, controller, kind}
    firstSolvedAt: null,
    gridText: { kakuro: SAMPLES.kakuro[1].text, trickytriple: SAMPLES.trickytriple[0].text },
    solvedGrid: null,
  };

  // ---------- small helpers ----------
  function newJob() {
    return 'job-' + Date.now().toString(36) + '-' + Math.random().toString(36).slice(2, 10);
  }
  function setText(id, text) { $(id).textContent = text; }
  function message(text) { setText('message', text || ''); }

  async function api(path, body, signal) {
    const opts = body === undefined ? { method: 'GET' } : {
      method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body),
    };
    if (signal) opts.signal = signal;
    const res = await fetch(path, opts);
    const type = res.headers.get('Content-Type') || '';
    let data;
    if (type.includes('json')) {
      data = await res.json();
    } else {
      data = await res.text();
    }
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

  // ---------- vectors ----------
  const sub = (a, b) => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
  const add = (a, b) => [a[0] + b[0], a[1] + b[1], a[2] + b[2]];
  const scale = (a, k) => [a[0] * k, a[1] * k, a[2] * k];
  const dot = (a, b) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
  const cross = (a, b) => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
  const norm = (a) => { const l = Math.hypot(a[0], a[1], a[2]) || 1; return scale(a, 1 / l); };
  const lerp = (a, b, t) => add(a, scale(sub(b, a), t));
  function matMul(A, B) {
    const C = [[0, 0, 0], [0, 0, 0], [0, 0, 0]];
    for (let i = 0; i < 3; i++) for (let j = 0; j < 3; j++) for (let k = 0; k < 3; k++) C[i][j] += A[i][k] * B[k][j];
    return C;
  }
  const matVec = (M, v) => [dot(M[0], v), dot(M[1], v), dot(M[2], v)];
  function rotX(a) { const c = Math.cos(a), s = Math.sin(a); return [[1, 0, 0], [0, c, -s], [0, s, c]]; }
  function rotY(a) { const c = Math.cos(a), s = Math.sin(a); return [[c, 0, s], [0, 1, 0], [-s, 0, c]]; }

  // ---------- the variant ----------
  function initialRotation() {
    const v = S.variant;
    if (!v || v.positions.length < 2) return rotX(0.4);
    // Vertex 0 up, vertex 1 towards the viewer, then tilt a little to see the top.
    const up = norm(sub(v.positions[0], S.center));
    let fwd = sub(v.positions[1], S.center);
    fwd = sub(fwd, scale(up, dot(fwd, up)));
    if (Math.hypot(fwd[0], fwd[1], fwd[2]) < 1e-6) fwd = Math.abs(up[0]) < 0.9 ? [1, 0, 0] : [0, 1, 0];
    fwd = norm(sub(fwd, scale(up, dot(fwd, up))));
    const right = cross(up, fwd);
    const base = [right, up, fwd];
    return matMul(rotX(0.42), matMul(rotY(-0.3), base));
  }

  function setVariant(v, uploaded, text) {
    S.variant = Object.assign({}, v, { uploaded: !!uploaded, text: text || null });
    v = S.variant;
    S.variantIndex = new Map(v.vertices.map((n, i) => [n, i]));
    const n = v.positions.length;
    S.center = [0, 0, 0];
    v.positions.forEach((p) => { S.center = add(S.center, scale(p, 1 / n)); });
    const orientOf = () => v.faces.map((f) => {
      const [a, b, c] = f.map((i) => v.positions[i]);
      const cen = scale(add(add(a, b), c), 1 / 3);
      return dot(cross(sub(b, a), sub(c, a)), sub(cen, S.center)) >= 0 ? 1 : -1;
    });
    S.orient = orientOf();
    // Faces are clockwise seen from outside, so their right-hand normals point inwards. An
    // embedding that says otherwise is a mirror image: mirror it back, or tiles would show flipped.
    if (S.orient.filter((o) => o > 0).length > S.orient.length / 2) {
      v.positions = v.positions.map((p) => [-p[0], p[1], p[2]]);
      S.center = [-S.center[0], S.center[1], S.center[2]];
      S.orient = orientOf();
    }
    S.tileWeights = Array.isArray(v.tiles) ? v.tiles.map((t) => t.slice()) : (v.tiles === 'icosoku' ? ICOSOKU_TILES : null);
    S.rot = initialRotation();
    S.zoom = 1;
    S.selected = -1;
    clearSolution();
    fillVertexSelect();
    $('upload-note').hidden = !uploaded;
    $('share-note').hidden = !uploaded;
    // Where the first pegs come from: IcoSoKu's own (a permutation of 1..12), or planted.
    setText('pegs-origin', v.pegs_kind === 'icosoku'
      ? 'IcoSoKu\'s pegs are the numbers 1 to 12, one per vertex; every arrangement has a solution.'
      : 'These pegs were made by laying the tiles on the faces, so they have a solution.');
  }

  async function loadVariant(req, uploaded, text) {
    const v = await api('/api/variant', req);
    setVariant(v, uploaded, text);
    return v;
  }

  function fillVertexSelect() {
    const sel = $('vertex-select');
    sel.innerHTML = '';
    const none = document.createElement('option');
    none.value = '-1';
    none.textContent = '(choose)';
    sel.appendChild(none);
    S.variant.vertices.forEach((name, i) => {
      const o = document.createElement('option');
      o.value = String(i);
      o.textContent = name;
      sel.appendChild(o);
    });
    sel.value = '-1';
    $('vertex-peg').value = '';
  }

  // ---------- pegs ----------
  function parsePegs(text) {
    const tokens = text.trim() === '' ? [] : text.trim().split(/[\s,;]+/).filter((t) => t !== '');
    const n = S.variant ? S.variant.vertices.length : 0;
    let error = '';
    const bad = tokens.find((t) => !/^\d+$/.test(t));
    if (bad !== undefined) {
      error = 'Pegs must be whole numbers of at least 0; "' + bad + '" is not.';
    } else if (tokens.length !== n) {
      error = 'Give one peg per vertex: ' + n + ' needed (' + (S.variant ? S.variant.vertices.join(' ') : '') + '), ' + tokens.length + ' given.';
    }
    return { tokens, error, pegs: error ? null : tokens.map(Number) };
  }

  // Whole numbers, however many: the server reads them as `sokuc solve` would, and its
  // message (the command line's) replaces the page's own.
  let parseTimer = null;
  function checkOnServer(tokens) {
    clearTimeout(parseTimer);
    if (!S.variant || tokens.some((t) => !/^\d+$/.test(t))) return;
    parseTimer = setTimeout(async () => {
      const req = { instance: instanceText(tokens.map(Number)), name: FILE_NAMES['3soku'] };
      if (S.variant.uploaded) req.variant_text = S.variant.text;
      const shown = $('pegs').value;
      let text = '';
      try {
        await api('/api/parse', req);
      } catch (err) {
        text = err && err.message ? err.message : String(err);
      }
      if ($('pegs').value !== shown) return;
      setText('pegs-msg', text);
      $('pegs').setAttribute('aria-invalid', text ? 'true' : 'false');
      $('pegs-msg').dataset.source = text ? 'server' : '';
    }, 250);
  }

  function onPegsInput(fromEditor) {
    const r = parsePegs($('pegs').value);
    S.pegTokens = r.tokens;
    S.pegs = r.pegs;
    setText('pegs-msg', r.error);
    $('pegs').setAttribute('aria-invalid', r.error ? 'true' : 'false');
    message(r.error);
    checkOnServer(r.tokens);
    if (!fromEditor) syncVertexEditor();
    renderVertices();
    updateShare();
    draw();
  }

  function setPegs(list) {
    $('pegs').value = list.join(' ');
    onPegsInput();
  }

  function pegAt(i) {
    const t = S.pegTokens[i];
    return t === undefined ? '' : t;
  }

  function renderVertices() {
    const ul = $('vertices');
    ul.innerHTML = '';
    if (!S.variant) return;
    S.variant.vertices.forEach((name, i) => {
      const li = document.createElement('li');
      li.dataset.vertex = name;
      li.dataset.peg = pegAt(i);
      const sc = S.screen[i];
      li.dataset.visible = sc ? 'true' : 'false';
      if (sc) { li.dataset.x = sc[0].toFixed(1); li.dataset.y = sc[1].toFixed(1); }
      const b = document.createElement('button');
      b.type = 'button';
      b.className = 'vtx' + (i === S.selected ? ' selected' : '');
      b.textContent = name + ' ' + (pegAt(i) === '' ? '?' : pegAt(i));
      b.setAttribute('aria-label', 'Vertex ' + name + ', peg ' + (pegAt(i) === '' ? 'not set' : pegAt(i)));
      b.addEventListener('click', () => selectVertex(i, true));
      li.appendChild(b);
      ul.appendChild(li);
    });
  }

  function updateVertexPositionsInList() {
    const items = $('vertices').children;
    for (let i = 0; i < items.length; i++) {
      const sc = S.screen[i];
      items[i].dataset.visible = sc ? 'true' : 'false';
      if (sc) { items[i].dataset.x = sc[0].toFixed(1); items[i].dataset.y = sc[1].toFixed(1); } else { delete items[i].dataset.x; delete items[i].dataset.y; }
    }
  }

  function selectVertex(i, focusEditor) {
    S.selected = i;
    $('vertex-select').value = String(i);
    syncVertexEditor();
    renderVertices();
    draw();
    if (focusEditor && i >= 0) {
      const inp = $('vertex-peg');
      inp.focus();
      inp.select();
    }
  }

  function syncVertexEditor() {
    const i = S.selected;
    $('vertex-peg').value = i >= 0 && /^\d+$/.test(pegAt(i)) ? pegAt(i) : '';
    $('vertex-peg').disabled = i < 0;
  }

  function onVertexPegInput() {
    const i = S.selected;
    if (i < 0 || !S.variant) return;
    const val = $('vertex-peg').value.trim();
    const n = S.variant.vertices.length;
    const tokens = S.pegTokens.slice(0, Math.max(n, S.pegTokens.length));
    while (tokens.length < n) tokens.push('0');
    tokens[i] = val === '' ? '0' : val;
    $('pegs').value = tokens.join(' ');
    onPegsInput(true);
  }

  // ---------- instance text ----------
  function tomlString(s) { return JSON.stringify(String(s)); }

  function instanceText(pegs) {
    const v = S.variant;
    const tiles = typeof v.tile_set === 'string' && v.tile_set ? tomlString(v.tile_set)
      : (Array.isArray(v.tiles) ? '[' + v.tiles.map((t) => '[' + t.join(', ') + ']').join(', ') + ']' : tomlString(v.tiles));
    return 'variant = ' + tomlString(v.name) + '\ntiles = ' + tiles + '\ncapacities = [' + pegs.join(', ') + ']\n';
  }

  // The instance of the current kind, or throws an Error with a message for the user.
  function currentRequest() {
    const timeout = Math.max(1, Math.min(120, Number($('timeout').value) || 10));
    if (S.kind === '3soku') {
      if (!S.variant) throw new Error('No solid is loaded.');
      const r = parsePegs($('pegs').value);
      if (r.error) throw new Error(r.error);
      const req = { instance: instanceText(r.pegs), name: FILE_NAMES['3soku'], timeout };
      if (S.variant.uploaded) req.variant_text = S.variant.text;
      return req;
    }
    const text = $('grid-text').value;
    if (text.trim() === '') throw new Error('The instance text is empty.');
    return { instance: text, name: FILE_NAMES[S.kind], timeout };
  }

  // ---------- running requests ----------
  function startRun(kind) {
    stopRun(false);
    const run = { job: newJob(), controller: new AbortController(), kind, started: performance.now() };
    S.running = run;
    $('stop').disabled = false;
    document.body.classList.add('busy');
    document.body.dataset.job = run.job;
    run.timer = setInterval(() => {
      if (S.running === run && $('status').dataset.status === 'running') {
        setText('elapsed', ((performance.now() - run.started) / 1000).toFixed(1) + ' s so far');
      }
    }, 200);
    return run;
  }

  function endRun(run) {
    clearInterval(run.timer);
    if (S.running === run) {
      S.running = null;
      $('stop').disabled = true;
      document.body.classList.remove('busy');
      delete document.body.dataset.job;
    }
  }

  function stopRun(show) {
    const run = S.running;
    if (!run) return;
    api('/api/cancel', { job: run.job }).catch(() => {});
    run.stopped = true;
    run.controller.abort();
    endRun(run);
    if (show) {
      setStatus('unknown', 'Stopped.');
      setText('reason', 'stopped by you');
    }
  }

  function setStatus(status, text) {
    const el = $('status');
    el.dataset.status = status;
    el.textContent = text;
  }

  function statusText(res) {
    const what = KIND_NAMES[S.kind] || '';
    switch (res.status) {
      case 'sat': return 'Solved' + (res.verified ? ' and verified.' : '.');
      case 'unsat': return 'No solution: this ' + what + ' puzzle cannot be solved.';
      case 'unknown': return 'No answer within the time limit.';
      default: return String(res.status);
    }
  }

  function describeError(err) {
    return err && err.message ? err.message : String(err);
  }

  // ---------- solving ----------
  async function solve() {
    let req;
    try {
      req = currentRequest();
    } catch (e) {
      setStatus('error', 'Cannot solve yet.');
      message(e.message);
      return;
    }
    req.backend = $('backend').value || 'auto';
    req.unique = $('unique').checked;
    const run = startRun('solve');
    req.job = run.job;
    message('');
    setText('reason', '');
    setText('backend-used', '');
    setText('unique-result', '');
    setStatus('running', 'Solving…');
    updateShare(true);
    const key = solutionsKey(req);
    try {
      const res = await api('/api/solve', req, run.controller.signal);
      if (S.running !== run) return;
      endRun(run);
      S.solIndex = null;
      if (S.solKey !== key) { S.solList = []; S.solMore = true; S.solKey = key; }
      showResult(res, req);
    } catch (e) {
      endRun(run);
      if (run.stopped) return;
      setStatus('error', 'The request failed.');
      message(describeError(e));
    }
  }

  function solutionsKey(req) {
    return JSON.stringify([req.instance, req.name, req.variant_text || '', $('backend').value]);
  }

  function showResult(res, req) {
    setStatus(res.status === 'sat' || res.status === 'unsat' || res.status === 'unknown' ? res.status : 'error', statusText(res));
    setText('backend-used', res.backend ? 'answered by ' + res.backend : '');
    setText('elapsed', typeof res.elapsed_ms === 'number' ? res.elapsed_ms.toFixed(res.elapsed_ms < 10 ? 1 : 0) + ' ms' : '');
    setText('reason', res.reason || '');
    if (res.unique === true) { setText('unique-result', 'The solution is unique.'); $('unique-result').dataset.unique = 'true'; }
    else if (res.unique === false) { setText('unique-result', 'Not unique: other solutions exist.'); $('unique-result').dataset.unique = 'false'; }
    else { setText('unique-result', ''); $('unique-result').dataset.unique = ''; }
    if (S.kind === '3soku') {
      setSolution(res.status === 'sat' ? res : null, req);
    } else {
      S.solution = res.status === 'sat' ? res : null;
      S.solvedGrid = res.status === 'sat' ? res.grid : null;
      renderGrid();
    }
    $('download-solution').disabled = !S.solution;
    updateSolutionButtons();
    if (res.status === 'sat' && S.firstSolvedAt === null) {
      S.firstSolvedAt = performance.now();
      document.body.dataset.firstSolvedMs = String(Math.round(S.firstSolvedAt));
    }
  }

  function clearSolution() {
    S.solution = null;
    S.placementsByFace = new Map();
    S.revealed = new Set();
    S.steps = [];
    S.solIndex = null;
    S.solList = [];
    S.solMore = true;
    S.solKey = '';
    $('net').innerHTML = '';
    $('net-box').hidden = true;
    setText('hint-text', '');
    renderPlacements();
    updateSolutionButtons();
    $('download-solution').disabled = true;
  }

  function faceKey(names) { return names.join(' '); }

  function setSolution(sol, req) {
    S.solution = sol;
    S.placementsByFace = new Map();
    S.steps = [];
    if (sol && Array.isArray(sol.placements)) {
      sol.placements.forEach((p) => S.placementsByFace.set(faceKey(p.face), p));
      // Learn the tile set from a complete answer (one tile per face).
      if (S.variant && sol.placements.length === S.variant.faces.length) {
        const w = [];
        sol.placements.forEach((p) => { if (p.tile >= 1 && p.weights) w[p.tile - 1] = p.weights.slice(); });
        if (w.length === sol.placements.length && w.every(Boolean)) S.tileWeights = w;
      }
    }
    S.revealed = new Set(S.hint ? [] : S.placementsByFace.keys());
    setText('hint-text', '');
    renderPlacements();
    draw();
    if (sol) {
      markDrawn();
      loadSideData(sol, req);
    } else {
      $('net').innerHTML = '';
      $('net-box').hidden = true;
    }
  }

  function markDrawn() {
    const c = $('view');
    c.dataset.drawn = String((Number(c.dataset.drawn) || 0) + 1);
    c.dataset.solvedDrawnAt = String(Math.round(performance.now()));
  }

  async function loadSideData(sol, req) {
    const base = { instance: req.instance, name: req.name };
    if (req.variant_text) base.variant_text = req.variant_text;
    const mine = sol;
    api('/api/instructions', Object.assign({ solution: sol }, base)).then((r) => {
      if (S.solution !== mine) return;
      S.steps = (r && r.steps) || [];
      updateHintButtons();
    }).catch(() => { S.steps = []; });
    api('/api/export', Object.assign({ format: 'svg', solution: sol }, base)).then((svg) => {
      if (S.solution !== mine) return;
      showNet(svg);
    }).catch(() => {
      $('net-box').hidden = true;
    });
  }

  function showNet(svgText) {
    const box = $('net');
    box.innerHTML = '';
    if (typeof svgText !== 'string' || !svgText.includes('<svg')) { $('net-box').hidden = true; return; }
    const doc = new DOMParser().parseFromString(svgText, 'image/svg+xml');
    const svg = doc.documentElement;
    if (!svg || svg.nodeName.toLowerCase() !== 'svg') { $('net-box').hidden = true; return; }
    svg.querySelectorAll('script').forEach((s) => s.remove());
    svg.removeAttribute('width');
    svg.removeAttribute('height');
    svg.setAttribute('role', 'img');
    svg.setAttribute('aria-label', 'The solid unfolded flat, with the placed tiles');
    box.appendChild(document.importNode(svg, true));
    $('net-box').hidden = false;
  }

  function renderPlacements() {
    const ul = $('placements');
    ul.innerHTML = '';
    if (!S.variant || !S.solution) return;
    S.variant.faces.forEach((f) => {
      const names = f.map((i) => S.variant.vertices[i]);
      const key = faceKey(names);
      const p = S.placementsByFace.get(key);
      if (!p) return;
      const li = document.createElement('li');
      li.dataset.face = key;
      li.dataset.tile = String(p.tile);
      li.dataset.rotation = String(p.rotation);
      li.dataset.corners = p.corners.join(' ');
      const shown = S.revealed.has(key);
      li.dataset.revealed = shown ? 'true' : 'false';
      li.textContent = names.join('') + ': ' + (shown
        ? 'tile #' + p.tile + ' (' + (p.weights || p.corners).join(',') + '), corners ' + p.corners.join(', ') + ', turned ' + p.rotation
        : 'hidden');
      ul.appendChild(li);
    });
  }

  function updatePlacementReveal() {
    for (const li of $('placements').children) {
      const key = li.dataset.face;
      const shown = S.revealed.has(key);
      if ((li.dataset.revealed === 'true') === shown) continue;
      li.dataset.revealed = shown ? 'true' : 'false';
      const p = S.placementsByFace.get(key);
      li.textContent = key.replace(/ /g, '') + ': ' + (shown
        ? 'tile #' + p.tile + ' (' + (p.weights || p.corners).join(',') + '), corners ' + p.corners.join(', ') + ', turned ' + p.rotation
        : 'hidden');
    }
  }

  // ---------- hints ----------
  function setHint(on) {
    S.hint = on;
    $('hint').checked = on;
    S.revealed = new Set(on ? [] : S.placementsByFace.keys());
    setText('hint-text', on ? 'Click a face to see its tile, or press "Next tile".' : '');
    updatePlacementReveal();
    updateHintButtons();
    draw();
  }

  function updateHintButtons() {
    $('next-tile').disabled = !(S.hint && S.solution && S.revealed.size < S.placementsByFace.size);
  }

  function stepFor(key) {
    return S.steps.find((s) => faceKey(s.face) === key);
  }

  function reveal(key) {
    if (!S.placementsByFace.has(key)) return;
    S.revealed.add(key);
    const st = stepFor(key);
    const p = S.placementsByFace.get(key);
    setText('hint-text', st && st.text ? st.text : 'Face ' + key.replace(/ /g, '') + ': tile (' + (p.weights || p.corners).join(',') + ').');
    updatePlacementReveal();
    updateHintButtons();
    draw();
  }

  function nextTile() {
    if (!S.solution) return;
    const order = S.steps.length ? S.steps.map((s) => faceKey(s.face)) : Array.from(S.placementsByFace.keys());
    const key = order.find((k) => !S.revealed.has(k) && S.placementsByFace.has(k))
      || Array.from(S.placementsByFace.keys()).find((k) => !S.revealed.has(k));
    if (key) reveal(key);
  }

  // ---------- more solutions ----------
  function updateSolutionButtons() {
    const has = !!S.solution;
    $('clear-tiles').disabled = !has;
    $('next-solution').disabled = !has || (S.solIndex !== null && !S.solMore && S.solIndex >= S.solList.length - 1);
    $('prev-solution').disabled = !has || S.solIndex === null || S.solIndex <= 0;
    const el = $('solution-index');
    if (!has) { el.textContent = ''; el.dataset.index = ''; return; }
    if (S.solIndex === null) { el.textContent = 'first answer'; el.dataset.index = ''; return; }
    el.dataset.index = String(S.solIndex);
    el.textContent = 'Solution ' + (S.solIndex + 1) + (S.solMore ? ' of ' + S.solList.length + '+' : ' of ' + S.solList.length);
  }

  function sameSolution(a, b) {
    if (!a || !b) return false;
    if (a.placements && b.placements) {
      const m = new Map(a.placements.map((p) => [faceKey(p.face), p.corners.join(',') + '/' + p.tile]));
      return b.placements.every((p) => m.get(faceKey(p.face)) === p.corners.join(',') + '/' + p.tile);
    }
    return JSON.stringify(a.grid) === JSON.stringify(b.grid);
  }

  async function fetchSolutions(req, upTo, run) {
    while (S.solList.length <= upTo && S.solMore) {
      const body = Object.assign({}, req, { backend: $('backend').value || 'auto', offset: S.solList.length, limit: 10, job: run.job });
      const r = await api('/api/solutions', body, run.controller.signal);
      const list = (r && r.solutions) || [];
      S.solList = S.solList.concat(list);
      S.solMore = !!(r && r.more) && list.length > 0;
    }
  }

  async function stepSolution(delta) {
    if (!S.solution) return;
    let req;
    try { req = currentRequest(); } catch (e) { message(e.message); return; }
    const key = solutionsKey(req);
    if (S.solKey !== key) { S.solList = []; S.solMore = true; S.solKey = key; S.solIndex = null; }
    let idx = S.solIndex === null ? (delta > 0 ? 0 : -1) : S.solIndex + delta;
    if (idx < 0) return;
    const run = startRun('solutions');
    const before = S.solution;
    setStatus('running', 'Looking for solutions…');
    try {
      await fetchSolutions(req, idx + 1, run);
      if (S.solIndex === null && idx < S.solList.length && sameSolution(S.solList[idx], before)) idx += 1;
      await fetchSolutions(req, idx, run);
      endRun(run);
      if (idx >= S.solList.length) {
        setStatus('sat', statusText(before));
        message(S.solList.length === 0 ? 'No solutions listed.' : 'There are no more solutions.');
        updateSolutionButtons();
        return;
      }
      S.solIndex = idx;
      message('');
      showResult(S.solList[idx], req);
    } catch (e) {
      endRun(run);
      if (run.stopped) return;
      setStatus('error', 'The request failed.');
      message(describeError(e));
    }
  }

  // ---------- count and compare ----------
  function fmtValue(v) {
    if (typeof v === 'number') return Number.isInteger(v) ? String(v) : v.toFixed(1);
    if (typeof v === 'string' && /^\d{5,}$/.test(v)) return v.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
    return String(v);
  }

  async function count() {
    let req;
    try { req = currentRequest(); } catch (e) { message(e.message); return; }
    const run = startRun('count');
    req.job = run.job;
    const out = $('count');
    out.dataset.status = 'running';
    out.textContent = 'Counting…';
    message('');
    try {
      const r = await api('/api/count', req, run.controller.signal);
      endRun(run);
      renderCount(r);
    } catch (e) {
      endRun(run);
      out.dataset.status = run.stopped ? 'stopped' : 'error';
      out.textContent = run.stopped ? 'Counting stopped.' : '';
      if (!run.stopped) message(describeError(e));
    }
  }

  const COUNT_LABELS = {
    count: 'Solutions', placements: 'Placements (tiles told apart)', method: 'Method', time_ms: 'Time (ms)',
    status: 'Status', reason: 'Reason', elapsed_ms: 'Elapsed (ms)', backend: 'Backend',
  };

  function renderCount(r) {
    const out = $('count');
    out.innerHTML = '';
    out.dataset.status = r.status || '';
    out.dataset.count = r.count !== undefined && r.count !== null ? String(r.count) : '';
    const dl = document.createElement('dl');
    const addRow = (k, v) => {
      const dt = document.createElement('dt');
      dt.textContent = COUNT_LABELS[k] || k.replace(/_/g, ' ');
      const dd = document.createElement('dd');
      dd.textContent = v;
      dd.dataset.field = k;
      dl.appendChild(dt);
      dl.appendChild(dd);
    };
    const order = ['count', 'placements', 'status', 'reason', 'method', 'time_ms', 'elapsed_ms'];
    const keys = order.filter((k) => k in r).concat(Object.keys(r).filter((k) => !order.includes(k)));
    keys.forEach((k) => {
      const v = r[k];
      if (k === 'puzzle' || v === null || v === undefined) return;
      if (typeof v === 'object') {
        if (k === 'progress') addRow('progress', Object.entries(v).map(([a, b]) => a.replace(/_/g, ' ') + ' ' + fmtValue(b)).join(', '));
        return;
      }
      addRow(k, fmtValue(v));
    });
    out.appendChild(dl);
  }

  async function compare() {
    let req;
    try { req = currentRequest(); } catch (e) { message(e.message); return; }
    const run = startRun('compare');
    req.job = run.job;
    const table = $('compare');
    setText('compare-caption', 'Comparing backends…');
    table.hidden = false;
    table.tBodies[0].innerHTML = '';
    message('');
    try {
      const r = await api('/api/compare', req, run.controller.signal);
      endRun(run);
      renderCompare(r);
    } catch (e) {
      endRun(run);
      setText('compare-caption', run.stopped ? 'Stopped.' : 'The comparison failed.');
      if (!run.stopped) message(describeError(e));
    }
  }

  function renderCompare(r) {
    const table = $('compare');
    const tb = table.tBodies[0];
    tb.innerHTML = '';
    const rows = Array.isArray(r.results) ? r.results : (Array.isArray(r.jobs) ? r.jobs : []);
    let fastest = r.fastest;
    rows.forEach((x) => {
      const tr = document.createElement('tr');
      tr.dataset.backend = x.backend || '';
      tr.dataset.status = x.status || '';
      if (fastest && x.backend === fastest) tr.classList.add('fastest');
      const ms = x.total_ms !== undefined ? x.total_ms : (x.elapsed_ms !== undefined ? x.elapsed_ms : (x.stats ? (x.stats.build_ms || 0) + (x.stats.solve_ms || 0) : null));
      const size = x.model_size ? x.model_size.vars + ' vars, ' + x.model_size.constraints + ' ' + (x.model_size.unit || 'constraints') : '';
      const cells = [x.backend || '?', x.status || '', x.verified === true ? 'yes' : (x.verified === false ? 'NO' : '–'), x.decided_by || x.verdict_by || '', ms === null ? '' : fmtValue(ms), size];
      cells.forEach((c, i) => {
        const td = document.createElement(i === 0 ? 'th' : 'td');
        if (i === 0) td.scope = 'row';
        td.textContent = c;
        tr.appendChild(td);
      });
      tb.appendChild(tr);
    });
    let cap = rows.length + ' backend' + (rows.length === 1 ? '' : 's');
    if (r.agree !== undefined) cap += r.agree ? ', all agree' : ', they DISAGREE';
    if (fastest) cap += '; fastest: ' + fastest;
    setText('compare-caption', cap + '.');
    table.dataset.agree = String(r.agree);
  }

  // ---------- downloads ----------
  function download(text, filename, type) {
    const blob = new Blob([text], { type: type || 'text/plain' });
    const a = document.createElement('a');
    a.href = URL.createObjectURL(blob);
    a.download = filename;
    document.body.appendChild(a);
    a.click();
    setTimeout(() => { URL.revokeObjectURL(a.href); a.remove(); }, 1000);
  }

  function baseName() {
    if (S.kind === '3soku') return 'sokuc-' + (S.variant ? S.variant.name : 'puzzle');
    return 'sokuc-' + S.kind;
  }

  async function exportFormat(format) {
    let req;
    try { req = currentRequest(); } catch (e) { message(e.message); return; }
    const body = { instance: req.instance, name: req.name, format };
    if (req.variant_text) body.variant_text = req.variant_text;
    if (format === 'svg' && S.solution && S.kind === '3soku') body.solution = S.solution;
    try {
      const text = await api('/api/export', body);
      download(typeof text === 'string' ? text : JSON.stringify(text), baseName() + '.' + EXT[format], format === 'svg' ? 'image/svg+xml' : 'text/plain');
      message('');
    } catch (e) {
      message(describeError(e));
    }
  }

  // ---------- random instance ----------
  function randomPegs() {
    const v = S.variant;
    if (!v) return;
    if (v.pegs_kind === 'icosoku') {
      // As on the physical puzzle: 1 to 12 in a random order, each one solvable.
      const pegs = v.vertices.map((_, i) => i + 1);
      for (let i = pegs.length - 1; i > 0; i--) {
        const j = Math.floor(Math.random() * (i + 1));
        [pegs[i], pegs[j]] = [pegs[j], pegs[i]];
      }
      setPegs(pegs);
      clearSolution();
      draw();
      solve();
      return;
    }
    const tiles = S.tileWeights;
    if (!tiles || tiles.length !== v.faces.length) {
      message('This solid\'s tile set does not have one tile per face, so no random pegs can be made.');
      return;
    }
    const order = tiles.map((_, i) => i);
    for (let i = order.length - 1; i > 0; i--) {
      const j = Math.floor(Math.random() * (i + 1));
      [order[i], order[j]] = [order[j], order[i]];
    }
    const sums = new Array(v.vertices.length).fill(0);
    v.faces.forEach((f, fi) => {
      const w = tiles[order[fi]];
      const r = Math.floor(Math.random() * 3);
      for (let i = 0; i < 3; i++) sums[f[i]] += w[(i - r + 3) % 3];
    });
    setPegs(sums);
    clearSolution();
    draw();
    solve();
  }

  // ---------- grids ----------
  function parseGrid(text) {
    const lines = text.split(/\r?\n/).map((l) => l.trim()).filter((l) => l !== '' && !l.startsWith('#'));
    if (!lines.length) return null;
    const head = lines[0].split(/\s+/);
    const rows = Number(head[1]), cols = Number(head[2]);
    if (!rows || !cols || rows > 200 || cols > 200) return null;
    const cells = lines.slice(1, rows + 1).map((l) => l.split(/\s+/));
    return { kind: head[0].toLowerCase(), rows, cols, cells };
  }

  function renderGrid() {
    const box = $('grid');
    box.innerHTML = '';
    const g = parseGrid($('grid-text').value);
    const solved = S.solvedGrid;
    const rows = g ? g.rows : (solved ? solved.length : 0);
    const cols = g ? g.cols : (solved && solved[0] ? solved[0].length : 0);
    if (!rows || !cols) { box.textContent = 'Type or open a grid to see it here.'; return; }
    const table = document.createElement('table');
    table.className = 'puzzle-grid ' + S.kind;
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
        if (S.kind === 'kakuro') {
          if (/^[xX]$/.test(tok)) td.className = 'black';
          else if (tok.includes('\\')) {
            td.className = 'clue';
            const [down, across] = tok.split('\\');
            td.innerHTML = '<span class="down"></span><span class="across"></span>';
            td.children[0].textContent = down;
            td.children[1].textContent = across;
            td.setAttribute('aria-label', (down ? 'down ' + down : '') + (down && across ? ', ' : '') + (across ? 'across ' + across : ''));
          } else {
            td.className = 'white' + (/^\d$/.test(tok) ? ' given' : '');
            td.textContent = val !== null && val !== undefined ? String(val) : (/^\d$/.test(tok) ? tok : '');
          }
        } else {
          if (/^[xX]$/.test(tok)) td.className = 'black';
          else {
            const sym = val !== null && val !== undefined ? String(val) : (/^[123]$/.test(tok) ? tok : '');
            td.className = 'white' + (/^[123]$/.test(tok) ? ' given' : '');
            if (sym) {
              const s = document.createElement('span');
              s.className = 'sym sym-' + sym;
              s.setAttribute('aria-label', { 1: 'triangle', 2: 'square', 3: 'circle' }[sym] || sym);
              td.appendChild(s);
            }
          }
        }
        tr.appendChild(td);
      }
      tb.appendChild(tr);
    }
    table.appendChild(tb);
    box.appendChild(table);
  }

  function fillSamples() {
    const sel = $('sample');
    sel.innerHTML = '';
    const custom = document.createElement('option');
    custom.value = '';
    custom.textContent = '(your own)';
    sel.appendChild(custom);
    (SAMPLES[S.kind] || []).forEach((s, i) => {
      const o = document.createElement('option');
      o.value = String(i);
      o.textContent = s.name;
      sel.appendChild(o);
    });
    const cur = S.gridText[S.kind];
    const idx = (SAMPLES[S.kind] || []).findIndex((s) => s.text === cur);
    sel.value = idx >= 0 ? String(idx) : '';
  }

  // ---------- kind switching ----------
  function setKind(kind) {
    if (!KIND_NAMES[kind]) kind = '3soku';
    if (S.kind !== '3soku' && kind !== S.kind) S.gridText[S.kind] = $('grid-text').value;
    const changed = kind !== S.kind;
    S.kind = kind;
    document.querySelectorAll('[role=tab]').forEach((b) => b.setAttribute('aria-selected', b.dataset.kind === kind ? 'true' : 'false'));
    const poly = kind === '3soku';
    $('panel-3soku').hidden = !poly;
    $('panel-grid').hidden = poly;
    $('view-3d').hidden = !poly;
    $('grid-view').hidden = poly;
    $('net-box').hidden = !poly || !$('net').firstChild;
    $('panel-grid').setAttribute('aria-labelledby', 'tab-' + kind);
    if (!poly) {
      setText('grid-title', KIND_NAMES[kind]);
      $('grid-text').value = S.gridText[kind];
      fillSamples();
      if (changed) { S.solvedGrid = null; S.solution = null; }
      renderGrid();
    }
    if (changed) {
      setStatus('idle', 'Ready.');
      ['backend-used', 'elapsed', 'reason', 'unique-result'].forEach((id) => setText(id, ''));
      message('');
      $('count').innerHTML = '';
      $('compare').hidden = true;
      if (poly) { S.solution = null; clearSolution(); }
      updateSolutionButtons();
      $('download-solution').disabled = true;
    }
    updateShare();
    if (poly) requestAnimationFrame(draw);
  }

  // ---------- share link ----------
  function hashString() {
    const p = new URLSearchParams();
    p.set('k', S.kind);
    if (S.kind === '3soku') {
      if (S.variant && S.variant.uploaded) {
        p.set('u', '1');
      } else {
        if (S.variant) p.set('v', S.variant.name);
        const r = parsePegs($('pegs').value);
        if (r.pegs) p.set('pegs', r.pegs.join(','));
      }
    } else {
      const text = $('grid-text').value;
      if (text.length < 4000) p.set('g', text);
    }
    p.set('b', $('backend').value || 'auto');
    return p.toString().replace(/%2C/g, ',');
  }

  function updateShare(push) {
    if (!S.info) return;
    const h = '#' + hashString();
    const url = location.href.split('#')[0] + h;
    $('share').value = url;
    $('share-note').hidden = !(S.kind === '3soku' && S.variant && S.variant.uploaded);
    if (push && location.hash !== h) history.replaceState(null, '', h);
    S.lastHash = h;
  }

  async function applyHash(hash) {
    const p = new URLSearchParams(hash.replace(/^#/, ''));
    if (![...p.keys()].length) return false;
    const kind = KIND_NAMES[p.get('k')] ? p.get('k') : '3soku';
    const b = p.get('b');
    if (b && S.info.backends.includes(b)) $('backend').value = b;
    if (kind === '3soku' && p.get('u') && !p.get('v')) {
      setKind('3soku');
      S.notice = 'This link was made with an uploaded variant, which a link cannot carry: upload the variant file again.';
      return false;
    }
    if (kind === '3soku') {
      const vname = p.get('v') || (S.variant ? S.variant.name : S.info.variants[0]);
      setKind('3soku');
      if (!S.variant || S.variant.name !== vname || S.variant.uploaded) {
        try {
          await loadVariant({ name: vname });
          $('variant').value = vname;
        } catch (e) {
          message('Cannot load the solid "' + vname + '": ' + describeError(e));
          return true;
        }
      }
      const pegs = p.get('pegs');
      if (pegs) $('pegs').value = pegs.split(',').join(' ');
      else $('pegs').value = (S.variant.pegs || []).join(' ');
      onPegsInput();
      renderVertices();
      draw();
      if (pegs) await solve();
    } else {
      const g = p.get('g');
      if (g !== null) S.gridText[kind] = g;
      if (S.kind === kind && g !== null) $('grid-text').value = g;
      setKind(kind);
      if (g !== null) await solve();
    }
    return true;
  }

  // ---------- the 3-D view ----------
  const canvas = $('view');
  const ctx = canvas.getContext('2d');
  const LIGHT = norm([-0.45, 0.65, 0.75]);
  const CAM = 4.2;
  const VIEW_SCALE = 0.4;

  function tileColor(tile) {
    const h = 28 + ((tile * 37) % 11) * 4.5;
    return [h, 62, 78];
  }

  function shadeHsl(hsl, k) {
    return 'hsl(' + hsl[0].toFixed(0) + ',' + hsl[1] + '%,' + Math.max(8, Math.min(96, hsl[2] * k)).toFixed(1) + '%)';
  }

  function resizeCanvas() {
    const dpr = window.devicePixelRatio || 1;
    const w = Math.max(200, Math.round(canvas.clientWidth * dpr));
    const h = Math.max(200, Math.round(canvas.clientHeight * dpr));
    if (canvas.width !== w || canvas.height !== h) { canvas.width = w; canvas.height = h; }
    return dpr;
  }

  function draw() {
    if (S.kind !== '3soku' || $('view-3d').hidden) return;
    const dpr = resizeCanvas();
    const W = canvas.width, H = canvas.height;
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    ctx.clearRect(0, 0, W, H);
    const v = S.variant;
    if (!v) { S.screen = []; return; }
    const cx = W / 2, cy = H / 2;
    const s = Math.min(W, H) * VIEW_SCALE * S.zoom;
    const rp = v.positions.map((p) => matVec(S.rot, sub(p, S.center)));
    const proj = rp.map((p) => { const f = CAM / (CAM - p[2]); return [cx + s * f * p[0], cy - s * f * p[1], p[2]]; });
    const cam = [0, 0, CAM];
    const faces = [];
    const vertVisible = new Array(v.vertices.length).fill(false);
    v.faces.forEach((f, fi) => {
      const [a, b, c] = f.map((i) => rp[i]);
      const n = norm(scale(cross(sub(b, a), sub(c, a)), S.orient[fi]));
      const cen = scale(add(add(a, b), c), 1 / 3);
      if (dot(n, sub(cam, cen)) <= 1e-9) return;
      f.forEach((i) => { vertVisible[i] = true; });
      faces.push({ fi, f, n, z: cen[2] });
    });
    faces.sort((p, q) => p.z - q.z);
    S.visibleFaces = faces;
    const faceScreen = new Map();
    const lw = Math.max(1, 1.4 * dpr);
    faces.forEach(({ fi, f, n }) => {
      const names = f.map((i) => v.vertices[i]);
      const key = faceKey(names);
      const p = S.placementsByFace.get(key);
      const shown = p && S.revealed.has(key);
      const light = 0.62 + 0.38 * Math.max(0, dot(n, LIGHT));
      let base;
      if (shown) base = tileColor(p.tile);
      else if (p) base = [210, 10, 74];
      else base = [208, 22, 78];
      ctx.beginPath();
      f.forEach((i, k) => { const q = proj[i]; if (k === 0) ctx.moveTo(q[0], q[1]); else ctx.lineTo(q[0], q[1]); });
      ctx.closePath();
      ctx.fillStyle = shadeHsl(base, light);
      ctx.fill();
      ctx.lineWidth = lw;
      ctx.lineJoin = 'round';
      ctx.strokeStyle = 'rgba(30,40,55,0.75)';
      ctx.stroke();
      const P = f.map((i) => proj[i]);
      const C = [(P[0][0] + P[1][0] + P[2][0]) / 3, (P[0][1] + P[1][1] + P[2][1]) / 3];
      const area = Math.abs((P[1][0] - P[0][0]) * (P[2][1] - P[0][1]) - (P[2][0] - P[0][0]) * (P[1][1] - P[0][1])) / 2;
      const size = Math.sqrt(area);
      faceScreen.set(key, [C[0] / dpr, C[1] / dpr, area / (dpr * dpr)]);
      if (shown) {
        for (let k = 0; k < 3; k++) drawWeight(P[k], C, p.corners[k], size, dpr);
      } else if (p && S.hint && size > 18 * dpr) {
        ctx.fillStyle = 'rgba(40,50,70,0.55)';
        ctx.font = 'bold ' + Math.round(Math.min(22 * dpr, size * 0.35)) + 'px system-ui, sans-serif';
        ctx.textAlign = 'center';
        ctx.textBaseline = 'middle';
        ctx.fillText('?', C[0], C[1]);
      }
    });
    // Vertices on the visible side.
    S.screen = v.vertices.map((_, i) => (vertVisible[i] ? [proj[i][0] / dpr, proj[i][1] / dpr] : null));
    const r = 12.5 * dpr * Math.min(1.3, Math.max(0.8, S.zoom));
    v.vertices.forEach((name, i) => {
      if (!vertVisible[i]) return;
      const [x, y] = proj[i];
      const sel = i === S.selected;
      const letters = S.labels === 'letters';
      const label = letters ? name : (pegAt(i) === '' ? '?' : pegAt(i));
      ctx.beginPath();
      ctx.arc(x, y, r, 0, Math.PI * 2);
      ctx.fillStyle = sel ? '#d9480f' : (letters ? '#ffffff' : '#1c3d5a');
      ctx.fill();
      ctx.lineWidth = sel ? 3 * dpr : 1.5 * dpr;
      ctx.strokeStyle = sel ? '#ffd8a8' : '#1c3d5a';
      ctx.stroke();
      ctx.fillStyle = sel ? '#fff' : (letters ? '#1c3d5a' : '#fff');
      const fs = label.length > 2 ? r * 0.85 : r * 1.1;
      ctx.font = '600 ' + Math.round(fs) + 'px system-ui, sans-serif';
      ctx.textAlign = 'center';
      ctx.textBaseline = 'middle';
      ctx.fillText(label, x, y + 0.5 * dpr);
    });
    updateVertexPositionsInList();
    for (const li of $('placements').children) {
      const fs = faceScreen.get(li.dataset.face);
      li.dataset.visible = fs ? 'true' : 'false';
      if (fs) { li.dataset.x = fs[0].toFixed(1); li.dataset.y = fs[1].toFixed(1); li.dataset.area = fs[2].toFixed(0); }
      else { delete li.dataset.x; delete li.dataset.y; delete li.dataset.area; }
    }
  }

  // Weight w near corner P of a face whose screen centre is C: dots up to 3, a number above.
  function drawWeight(P, C, w, size, dpr) {
    const t = 0.34;
    const ax = P[0] + (C[0] - P[0]) * t, ay = P[1] + (C[1] - P[1]) * t;
    let ux = C[0] - P[0], uy = C[1] - P[1];
    const l = Math.hypot(ux, uy) || 1;
    ux /= l; uy /= l;
    const vx = -uy, vy = ux;
    const rr = Math.max(1.6 * dpr, Math.min(4.2 * dpr, size * 0.045));
    ctx.fillStyle = '#1f2430';
    if (w > 3 || w < 0) {
      ctx.font = 'bold ' + Math.round(Math.max(9 * dpr, rr * 3.4)) + 'px system-ui, sans-serif';
      ctx.textAlign = 'center';
      ctx.textBaseline = 'middle';
      ctx.fillText(String(w), ax, ay);
      return;
    }
    const offs = { 0: [], 1: [[0, 0]], 2: [[0, -1.25], [0, 1.25]], 3: [[-1.05, -1.25], [-1.05, 1.25], [1.05, 0]] }[w];
    offs.forEach(([a, b]) => {
      ctx.beginPath();
      ctx.arc(ax + (ux * a + vx * b) * rr * 1.3, ay + (uy * a + vy * b) * rr * 1.3, rr, 0, Math.PI * 2);
      ctx.fill();
    });
  }

  function pickAt(x, y) {
    // x, y in CSS px relative to the canvas.
    const dpr = window.devicePixelRatio || 1;
    const rad = 15 * Math.min(1.3, Math.max(0.8, S.zoom));
    let best = -1, bestD = rad * rad;
    S.screen.forEach((p, i) => {
      if (!p) return;
      const d = (p[0] - x) ** 2 + (p[1] - y) ** 2;
      if (d <= bestD) { best = i; bestD = d; }
    });
    if (best >= 0) return { vertex: best };
    const X = x * dpr, Y = y * dpr;
    for (let k = S.visibleFaces.length - 1; k >= 0; k--) {
      const { f } = S.visibleFaces[k];
      if (insideTriangle(X, Y, f)) return { face: f };
    }
    return null;
  }

  function insideTriangle(X, Y, f) {
    const W = canvas.width, H = canvas.height;
    const cx = W / 2, cy = H / 2;
    const s = Math.min(W, H) * VIEW_SCALE * S.zoom;
    const P = f.map((i) => {
      const p = matVec(S.rot, sub(S.variant.positions[i], S.center));
      const k = CAM / (CAM - p[2]);
      return [cx + s * k * p[0], cy - s * k * p[1]];
    });
    const sgn = (a, b, c) => (a[0] - c[0]) * (b[1] - c[1]) - (b[0] - c[0]) * (a[1] - c[1]);
    const q = [X, Y];
    const d1 = sgn(q, P[0], P[1]), d2 = sgn(q, P[1], P[2]), d3 = sgn(q, P[2], P[0]);
    const neg = d1 < 0 || d2 < 0 || d3 < 0, pos = d1 > 0 || d2 > 0 || d3 > 0;
    return !(neg && pos);
  }

  function onCanvasClick(x, y) {
    const hit = pickAt(x, y);
    if (!hit) return;
    if (hit.vertex !== undefined) {
      selectVertex(hit.vertex, true);
      return;
    }
    const key = faceKey(hit.face.map((i) => S.variant.vertices[i]));
    if (S.hint && S.solution && S.placementsByFace.has(key)) {
      reveal(key);
    } else if (S.solution && S.placementsByFace.has(key)) {
      const p = S.placementsByFace.get(key);
      const st = stepFor(key);
      setText('hint-text', st && st.text ? st.text : 'Face ' + key.replace(/ /g, '') + ': tile #' + p.tile + ' (' + (p.weights || p.corners).join(',') + ').');
    }
  }

  function turn(dx, dy) {
    S.rot = matMul(rotX(dy), matMul(rotY(dx), S.rot));
    draw();
  }

  function zoomBy(k) {
    S.zoom = Math.max(0.4, Math.min(3, S.zoom * k));
    draw();
  }

  function resetView() {
    S.rot = initialRotation();
    S.zoom = 1;
    draw();
  }

  let drag = null;
  const pointers = new Map();
  let pinch = null;
  canvas.addEventListener('pointerdown', (e) => {
    if (e.button !== undefined && e.button !== 0) return;
    canvas.focus({ preventScroll: true });
    pointers.set(e.pointerId, [e.clientX, e.clientY]);
    if (pointers.size === 2) {
      const [a, b] = Array.from(pointers.values());
      pinch = { d: Math.hypot(a[0] - b[0], a[1] - b[1]) || 1, zoom: S.zoom };
      drag = null;
      return;
    }
    drag = { id: e.pointerId, x0: e.clientX, y0: e.clientY, x: e.clientX, y: e.clientY, moved: false };
    try { canvas.setPointerCapture(e.pointerId); } catch (err) { /* not capturable */ }
  });
  canvas.addEventListener('pointermove', (e) => {
    if (pointers.has(e.pointerId)) pointers.set(e.pointerId, [e.clientX, e.clientY]);
    if (pinch && pointers.size === 2) {
      const [a, b] = Array.from(pointers.values());
      S.zoom = Math.max(0.4, Math.min(3, pinch.zoom * (Math.hypot(a[0] - b[0], a[1] - b[1]) || 1) / pinch.d));
      draw();
      return;
    }
    if (!drag || drag.id !== e.pointerId) return;
    const dx = e.clientX - drag.x, dy = e.clientY - drag.y;
    if (!drag.moved && Math.hypot(e.clientX - drag.x0, e.clientY - drag.y0) > 4) drag.moved = true;
    drag.x = e.clientX;
    drag.y = e.clientY;
    if (drag.moved) turn(dx * 0.01, dy * 0.01);
  });
  const endDrag = (e) => {
    pointers.delete(e.pointerId);
    if (pointers.size < 2) pinch = null;
    if (!drag || drag.id !== e.pointerId) return;
    const d = drag;
    drag = null;
    if (!d.moved && e.type === 'pointerup') {
      const rect = canvas.getBoundingClientRect();
      onCanvasClick(e.clientX - rect.left, e.clientY - rect.top);
    }
  };
  canvas.addEventListener('pointerup', endDrag);
  canvas.addEventListener('pointercancel', endDrag);
  canvas.addEventListener('wheel', (e) => {
    e.preventDefault();
    zoomBy(Math.exp(-e.deltaY * 0.0015));
  }, { passive: false });
  canvas.addEventListener('keydown', (e) => {
    const step = 0.12;
    let handled = true;
    switch (e.key) {
      case 'ArrowLeft': turn(-step, 0); break;
      case 'ArrowRight': turn(step, 0); break;
      case 'ArrowUp': turn(0, -step); break;
      case 'ArrowDown': turn(0, step); break;
      case '+': case '=': zoomBy(1.15); break;
      case '-': case '_': zoomBy(1 / 1.15); break;
      case 'Home': case '0': resetView(); break;
      default: handled = false;
    }
    if (handled) e.preventDefault();
  });

  // ---------- wiring ----------
  function readFile(input) {
    return new Promise((resolve, reject) => {
      const f = input.files && input.files[0];
      if (!f) { reject(new Error('No file chosen.')); return; }
      const rd = new FileReader();
      rd.onload = () => resolve({ name: f.name, text: String(rd.result) });
      rd.onerror = () => reject(new Error('Cannot read ' + f.name + '.'));
      rd.readAsText(f);
    });
  }

  function fillSelect(sel, values, labelFn) {
    sel.innerHTML = '';
    values.forEach((v) => {
      const o = document.createElement('option');
      o.value = v;
      o.textContent = labelFn ? labelFn(v) : v;
      sel.appendChild(o);
    });
  }

  function wire() {
    document.querySelectorAll('[role=tab]').forEach((b) => b.addEventListener('click', () => setKind(b.dataset.kind)));
    document.querySelector('.tabs').addEventListener('keydown', (e) => {
      const tabs = Array.from(document.querySelectorAll('[role=tab]'));
      const i = tabs.indexOf(document.activeElement);
      if (i < 0) return;
      let j = -1;
      if (e.key === 'ArrowRight') j = (i + 1) % tabs.length;
      if (e.key === 'ArrowLeft') j = (i + tabs.length - 1) % tabs.length;
      if (j >= 0) { tabs[j].focus(); setKind(tabs[j].dataset.kind); e.preventDefault(); }
    });
    $('variant').addEventListener('change', async () => {
      const name = $('variant').value;
      message('');
      try {
        if (name.startsWith('upload:')) return;
        await loadVariant({ name });
        setPegs(S.variant.pegs || []);
        resetStatus();
        updateShare(true);
      } catch (e) { message(describeError(e)); }
    });
    $('variant-file').addEventListener('change', async () => {
      const input = $('variant-file');
      let f;
      try { f = await readFile(input); } catch (e) { message(e.message); return; }
      input.value = '';
      try {
        const v = await api('/api/variant', { text: f.text });
        setVariant(v, true, f.text);
        const sel = $('variant');
        sel.querySelectorAll('option[data-uploaded]').forEach((o) => o.remove());
        const o = document.createElement('option');
        o.value = 'upload:' + v.name;
        o.dataset.uploaded = 'true';
        o.textContent = v.name + ' (uploaded)';
        sel.appendChild(o);
        sel.value = o.value;
        setPegs(v.pegs || []);
        resetStatus();
        message('');
        updateShare(true);
      } catch (e) {
        setStatus('error', 'The variant was not accepted.');
        message(describeError(e));
      }
    });
    $('pegs').addEventListener('input', () => onPegsInput());
    $('pegs').addEventListener('keydown', (e) => { if (e.key === 'Enter') solve(); });
    $('random').addEventListener('click', randomPegs);
    $('vertex-select').addEventListener('change', () => selectVertex(Number($('vertex-select').value), false));
    $('vertex-peg').addEventListener('input', onVertexPegInput);
    $('vertex-peg').addEventListener('keydown', (e) => { if (e.key === 'Enter') solve(); });
    $('solve').addEventListener('click', solve);
    $('stop').addEventListener('click', () => stopRun(true));
    // The anchor's "Clear tiles": back to the bare solid with its pegs.
    $('clear-tiles').addEventListener('click', () => { clearSolution(); resetStatus(); draw(); });
    $('backend').addEventListener('change', () => updateShare(true));
    $('hint').addEventListener('change', () => setHint($('hint').checked));
    $('next-tile').addEventListener('click', nextTile);
    $('reset-view').addEventListener('click', resetView);
    $('zoom-in').addEventListener('click', () => zoomBy(1.2));
    $('zoom-out').addEventListener('click', () => zoomBy(1 / 1.2));
    document.querySelectorAll('input[name=labels]').forEach((r) => r.addEventListener('change', () => {
      S.labels = $('labels-letters').checked ? 'letters' : 'pegs';
      draw();
    }));
    $('next-solution').addEventListener('click', () => stepSolution(1));
    $('prev-solution').addEventListener('click', () => stepSolution(-1));
    $('count-btn').addEventListener('click', count);
    $('compare-btn').addEventListener('click', compare);
    document.querySelectorAll('#downloads [data-format]').forEach((b) => b.addEventListener('click', () => exportFormat(b.dataset.format)));
    $('download-solution').addEventListener('click', () => {
      if (S.solution) download(JSON.stringify(S.solution, null, 2) + '\n', baseName() + '-solution.json', 'application/json');
    });
    $('copy-link').addEventListener('click', async () => {
      updateShare(true);
      try { await navigator.clipboard.writeText($('share').value); message(''); setText('pegs-msg', ''); } catch (e) { $('share').select(); }
    });
    $('sample').addEventListener('change', () => {
      const i = $('sample').value;
      if (i === '') return;
      $('grid-text').value = SAMPLES[S.kind][Number(i)].text;
      S.gridText[S.kind] = $('grid-text').value;
      S.solvedGrid = null;
      renderGrid();
      updateShare(true);
    });
    $('grid-text').addEventListener('input', () => {
      S.gridText[S.kind] = $('grid-text').value;
      S.solvedGrid = null;
      $('sample').value = '';
      renderGrid();
      updateShare();
    });
    $('grid-file').addEventListener('change', async () => {
      const input = $('grid-file');
      try {
        const f = await readFile(input);
        input.value = '';
        $('grid-text').value = f.text;
        S.gridText[S.kind] = f.text;
        S.solvedGrid = null;
        $('sample').value = '';
        renderGrid();
        updateShare(true);
      } catch (e) { message(e.message); }
    });
    window.addEventListener('hashchange', () => {
      if (location.hash === S.lastHash) return;
      applyHash(location.hash).catch((e) => message(describeError(e)));
    });
    window.addEventListener('pagehide', () => {
      const run = S.running;
      if (!run) return;
      const text = JSON.stringify({ job: run.job });
      try {
        // keepalive lets the request outlive the page; the API wants a JSON Content-Type,
        // which sendBeacon may refuse to send, so it is only the fallback.
        fetch('/api/cancel', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: text, keepalive: true }).catch(() => {});
      } catch (e) {
        try { navigator.sendBeacon('/api/cancel', new Blob([text], { type: 'application/json' })); } catch (e2) { /* the page is going anyway */ }
      }
    });
    if (window.ResizeObserver) new ResizeObserver(() => draw()).observe(canvas);
    else window.addEventListener('resize', draw);
  }

  function resetStatus() {
    setStatus('idle', 'Ready.');
    ['backend-used', 'elapsed', 'reason', 'unique-result'].forEach((id) => setText(id, ''));
  }

  async function init() {
    wire();
    try {
      S.info = await api('/api/info');
    } catch (e) {
      setStatus('error', 'Cannot reach sokuc.');
      message(describeError(e));
      return;
    }
    setText('version', S.info.version ? 'v' + S.info.version : '');
    fillSelect($('backend'), S.info.backends || ['auto']);
    $('backend').value = (S.info.backends || []).includes('auto') ? 'auto' : (S.info.backends || ['auto'])[0];
    fillSelect($('variant'), S.info.variants || []);
    const kinds = S.info.kinds || [];
    if (kinds.length) {
      document.querySelectorAll('[role=tab]').forEach((b) => {
        const k = b.dataset.kind;
        if (k !== '3soku' && !kinds.some((x) => String(x).toLowerCase().replace(/[^a-z0-9]/g, '') === k)) b.hidden = true;
      });
    }
    if (location.hash.length > 1) {
      try {
        if (await applyHash(location.hash)) return;
      } catch (e) { message(describeError(e)); }
    }
    const first = (S.info.variants || []).includes('icosahedron') ? 'icosahedron' : (S.info.variants || [])[0];
    if (!first) { message('The server lists no solids.'); return; }
    try {
      await loadVariant({ name: first });
      $('variant').value = first;
      setPegs(S.variant.pegs || []);
      updateShare();
      if (S.notice) { message(S.notice); S.notice = null; }
    } catch (e) {
      setStatus('error', 'Cannot load the solid.');
      message(describeError(e));
    }
  }

  // For tests and the curious: a read-only look at the state.
  window.sokucPage = {
    get state() { return { kind: S.kind, variant: S.variant && S.variant.name, pegs: S.pegs, solved: !!S.solution, firstSolvedAt: S.firstSolvedAt }; },
  };

  init();
})();
