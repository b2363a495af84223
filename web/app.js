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
    serverOffset: 0, // solutions read from the server's enumeration so far
    customTiles: false, // the tiles panel changed the variant's tiles
    mine: false, // "My puzzle": the player's own tiles
    minePlaced: new Map(), // "A B C" -> {face, tile, rotation, weights, corners}
    mineFace: null,
    mineTakeOff: new Set(),
    mineHint: null,
    mineAssist: null,
    netZoom: 1,
    anim: null,
    // Counts the edits of the puzzle: a reply is shown only if no edit came after its request.
    gen: 0,
  };

  // ---------- small helpers ----------
  function newJob() {
    return 'job-' + Date.now().toString(36) + '-' + Math.random().toString(36).slice(2, 10);
  }
  function setText(id, text) { $(id).textContent = text; }
  function message(text) { setText('message', text || ''); }

  // The server names the instance by the file name the page gave it ("page.toml"), which the
  // person never saw: such names are taken out, a grid's line number is kept as "Line N",
  // and on a solid the instance's "capacities" are the page's pegs.
  function plainMessage(text) {
    let m = String(text || '');
    m = m.replace(/(^|\s)page\.(kakuro|tt):(\d+):\s*/g, '$1Line $3: ');
    m = m.replace(/(^|\s)page\.(toml|kakuro|tt)(:\d+)?(:\s*|,\s*|\s+)/g, '$1');
    m = m.replace(/(^|\s)placed tiles:(\d+):\s*/g, '$1');
    if (S.kind === '3soku') m = m.replace(/\bcapacities\b/g, 'pegs').replace(/\bcapacity\b/g, 'peg');
    return m ? m.charAt(0).toUpperCase() + m.slice(1) : m;
  }

  // A mistake in the instance goes beside what holds it: the pegs, the tiles or the grid.
  function instanceMessageTarget(text) {
    if (S.kind !== '3soku') return 'grid-msg';
    return /\btiles?\b/i.test(text) && !/\bpegs?\b/i.test(text) ? 'tiles-msg' : 'pegs-msg';
  }

  function showInstanceError(text) {
    const target = instanceMessageTarget(text);
    ['pegs-msg', 'tiles-msg', 'grid-msg'].forEach((id) => { if (id !== target) setText(id, ''); });
    setText(target, text);
    if (target === 'tiles-msg') $('tiles-box').open = true;
    if (target === 'pegs-msg') $('pegs').setAttribute('aria-invalid', 'true');
    setStatus('error', {
      'pegs-msg': 'Cannot solve: the pegs have a mistake, shown under them.',
      'tiles-msg': 'Cannot solve: the tiles have a mistake, shown under them.',
      'grid-msg': 'Cannot solve: the grid has a mistake, shown under its text.',
    }[target]);
    message('');
  }

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
    S.tileWeights = Array.isArray(v.tiles) ? v.tiles.map((t) => t.slice()) : (v.tiles === 'icosoku' ? ICOSOKU_TILES.map((t) => t.slice()) : null);
    S.customTiles = false;
    clearMine();
    renderTiles();
    setText('tiles-msg', '');
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
      const shown = $('pegs').value + '|' + tilesKey();
      let text = '';
      try {
        await api('/api/parse', req);
      } catch (err) {
        text = describeError(err);
      }
      if ($('pegs').value + '|' + tilesKey() !== shown) return;
      const target = text ? instanceMessageTarget(text) : 'pegs-msg';
      setText('pegs-msg', target === 'pegs-msg' ? text : '');
      setText('tiles-msg', target === 'tiles-msg' ? text : '');
      $('pegs').setAttribute('aria-invalid', target === 'pegs-msg' && text ? 'true' : 'false');
      $('pegs-msg').dataset.source = target === 'pegs-msg' && text ? 'server' : '';
      $('tiles-msg').dataset.source = target === 'tiles-msg' && text ? 'server' : '';
    }, 250);
  }

  function onPegsInput(fromEditor) {
    const r = parsePegs($('pegs').value);
    S.pegTokens = r.tokens;
    S.pegs = r.pegs;
    setText('pegs-msg', r.error);
    $('pegs-msg').dataset.source = r.error ? 'page' : '';
    $('pegs').setAttribute('aria-invalid', r.error ? 'true' : 'false');
    checkOnServer(r.tokens);
    if (S.mine) { clearTimeout(S.assistTimer); S.assistTimer = setTimeout(runAssist, 300); }
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
    edited();
  }

  // ---------- instance text ----------
  function tomlString(s) { return JSON.stringify(String(s)); }

  function tilesKey() { return S.tileWeights ? S.tileWeights.map((t) => t.join('.')).join(',') : ''; }

  function instanceText(pegs) {
    const v = S.variant;
    const list = S.tileWeights || (Array.isArray(v.tiles) ? v.tiles : null);
    const tiles = !S.customTiles && typeof v.tile_set === 'string' && v.tile_set ? tomlString(v.tile_set)
      : (list ? '[' + list.map((t) => '[' + t.join(', ') + ']').join(', ') + ']' : tomlString(v.tiles));
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
    return plainMessage(err && err.message ? err.message : String(err));
  }

  // ---------- solving ----------
  async function solve() {
    // In My puzzle the page has one verdict, on the player's tiles: Solve checks them again.
    if (S.mine && S.kind === '3soku') { runAssist(); return; }
    const gen = S.gen;
    let req;
    try {
      req = currentRequest();
    } catch (e) {
      showInstanceError(e.message);
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
      if (S.running !== run || gen !== S.gen) return;
      endRun(run);
      ['pegs-msg', 'tiles-msg', 'grid-msg'].forEach((id) => { if ($(id).dataset.source !== 'page') setText(id, ''); });
      showResult(res, req);
      // The answer is solution 1; Next and Previous walk the enumeration from it, in one order.
      S.solKey = key;
      S.serverOffset = 0;
      S.solList = res.status === 'sat' ? [res] : [];
      S.solIndex = res.status === 'sat' ? 0 : null;
      S.solMore = res.status === 'sat' && res.unique !== true;
      updateSolutionButtons();
    } catch (e) {
      endRun(run);
      if (run.stopped || gen !== S.gen) return;
      if (e.status === 400) { showInstanceError(describeError(e)); return; }
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

  // The status when the board shows no answer because the puzzle changed since the last one.
  function showEdited() {
    if (S.mine && S.kind === '3soku') showMineNote();
    else setStatus('edited', 'Edited: press Solve.');
  }

  // While My puzzle is on, its panel holds the page's one verdict (on the player's tiles), so
  // the solve's status line says only where to look.
  function showMineNote() {
    setStatus('mine', 'My puzzle is on: its panel says whether your tiles can stay; Solve checks them again.');
  }

  // Everything the page says about an answer: the answer on the solid, the net or the grid,
  // the steps, the solution list, who answered, the count and the comparison.
  function clearAnswer() {
    clearSolution();
    S.solvedGrid = null;
    if (S.kind === '3soku') draw(); else renderGrid();
    ['backend-used', 'elapsed', 'reason', 'unique-result', 'count-msg', 'compare-msg'].forEach((id) => setText(id, ''));
    $('unique-result').dataset.unique = '';
    message('');
    const out = $('count');
    out.innerHTML = '';
    delete out.dataset.status;
    delete out.dataset.count;
    $('compare').hidden = true;
    $('compare').tBodies[0].innerHTML = '';
  }

  // An edit of the puzzle (pegs, tiles, solid or grid): every answer on the page is now about
  // another puzzle. It goes at once, the request still running is stopped, and a reply that
  // arrives anyway is dropped (S.gen); My puzzle's verdict waits for its own new check.
  function puzzleEdited() {
    S.gen += 1;
    stopRun(false);
    clearAnswer();
    showEdited();
    if (S.mine && S.kind === '3soku') mineEdited();
  }

  // A person's edit: as puzzleEdited, and the address bar's link is the edited puzzle's.
  function edited() {
    puzzleEdited();
    updateShare(true);
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
      renderPlacements();
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
    // Its title names the instance file the page made up: the caption says what it shows.
    svg.querySelectorAll('title, text.title').forEach((t) => t.remove());
    svg.setAttribute('role', 'img');
    svg.setAttribute('aria-label', 'The solid unfolded flat, with the placed tiles');
    box.appendChild(document.importNode(svg, true));
    setText('net-title', 'Flat net of the ' + (S.variant ? S.variant.name : 'solid'));
    applyNetReveal();
    $('net-box').hidden = S.mine;
  }

  // A face's label as the net writes it (as `sokuc` names faces), and its key here.
  function faceLabel(names) {
    return names.every((n) => n.length === 1) ? names.join('') : names.join(',');
  }

  // In hint mode the net shows only the revealed tiles, as the solid does.
  function applyNetReveal() {
    const svg = $('net').querySelector('svg');
    if (!svg || !S.variant) return;
    const keyOf = new Map(S.variant.faces.map((f) => {
      const names = f.map((i) => S.variant.vertices[i]);
      return [faceLabel(names), faceKey(names)];
    }));
    const shownAt = (label) => !S.hint || S.revealed.has(keyOf.get(label));
    svg.querySelectorAll('g.tile[data-face]').forEach((g) => {
      const shown = shownAt(g.getAttribute('data-face'));
      g.style.display = shown ? '' : 'none';
      g.setAttribute('data-revealed', shown ? 'true' : 'false');
    });
    svg.querySelectorAll('polygon.face[data-face]').forEach((pg) => {
      if (!pg.hasAttribute('data-fill')) pg.setAttribute('data-fill', pg.getAttribute('fill') || '');
      pg.setAttribute('fill', shownAt(pg.getAttribute('data-face')) ? pg.getAttribute('data-fill') : '#dfe5ec');
    });
  }

  // The faces in the order the steps give (the command line's), else the solid's.
  function stepOrder() {
    const keys = S.steps.map((st) => faceKey(st.face)).filter((k) => S.placementsByFace.has(k));
    const rest = Array.from(S.placementsByFace.keys()).filter((k) => !keys.includes(k));
    return keys.concat(rest);
  }

  function stepText(key) {
    const st = stepFor(key);
    const p = S.placementsByFace.get(key);
    if (st && st.text) return st.text;
    return 'Put tile (' + (p.weights || p.corners).join(',') + ') on face ' + key.replace(/ /g, '') + '.';
  }

  function fillStep(li, n) {
    const key = li.dataset.face;
    const p = S.placementsByFace.get(key);
    const shown = S.revealed.has(key);
    li.dataset.revealed = shown ? 'true' : 'false';
    li.textContent = '';
    if (!shown) { li.textContent = 'Step ' + n + ': hidden. Click its face or press "Next tile".'; return; }
    li.appendChild(document.createTextNode(stepText(key) + ' '));
    const code = document.createElement('span');
    code.className = 'code';
    code.textContent = '[tile #' + p.tile + ', rotation ' + p.rotation + ']';
    li.appendChild(code);
  }

  function renderPlacements() {
    const ol = $('placements');
    ol.innerHTML = '';
    if (!S.variant || !S.solution) return;
    stepOrder().forEach((key, i) => {
      const p = S.placementsByFace.get(key);
      const li = document.createElement('li');
      li.dataset.face = key;
      li.dataset.tile = String(p.tile);
      li.dataset.rotation = String(p.rotation);
      li.dataset.corners = p.corners.join(' ');
      fillStep(li, i + 1);
      ol.appendChild(li);
    });
  }

  function updatePlacementReveal() {
    let n = 0;
    for (const li of $('placements').children) {
      n += 1;
      if ((li.dataset.revealed === 'true') !== S.revealed.has(li.dataset.face)) fillStep(li, n);
    }
    applyNetReveal();
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
    $('next-tile').disabled = !(S.hint && !S.mine && S.solution && S.revealed.size < S.placementsByFace.size);
  }

  function stepFor(key) {
    return S.steps.find((s) => faceKey(s.face) === key);
  }

  function reveal(key) {
    if (!S.placementsByFace.has(key)) return;
    S.revealed.add(key);
    setText('hint-text', stepText(key));
    updatePlacementReveal();
    updateHintButtons();
    draw();
    turnToFace(key);
  }

  function nextTile() {
    if (!S.solution) return;
    const key = stepOrder().find((k) => !S.revealed.has(k));
    if (key) reveal(key);
  }

  // ---------- turning the solid to a face ----------
  function faceIndexOf(key) {
    const v = S.variant;
    return v ? v.faces.findIndex((f) => faceKey(f.map((i) => v.vertices[i])) === key) : -1;
  }

  function outwardNormal(fi) {
    const v = S.variant;
    const [a, b, c] = v.faces[fi].map((i) => sub(v.positions[i], S.center));
    return norm(scale(cross(sub(b, a), sub(c, a)), S.orient[fi]));
  }

  // The rotation by `th` about the unit axis `k` (Rodrigues).
  function rotAbout(k, th) {
    const c = Math.cos(th), s = Math.sin(th), t = 1 - c;
    const [x, y, z] = k;
    return [
      [c + x * x * t, x * y * t - z * s, x * z * t + y * s],
      [y * x * t + z * s, c + y * y * t, y * z * t - x * s],
      [z * x * t - y * s, z * y * t + x * s, c + z * z * t],
    ];
  }

  // Turns the solid, in a short animation, until the face looks straight at the viewer.
  function turnToFace(key) {
    const fi = faceIndexOf(key);
    if (fi < 0) return;
    const m = matVec(S.rot, outwardNormal(fi));
    let axis = cross(m, [0, 0, 1]);
    const sn = Math.hypot(axis[0], axis[1], axis[2]);
    const angle = Math.atan2(sn, m[2]);
    const done = () => { canvas.dataset.facing = key; };
    if (angle < 1e-3) { done(); return; }
    axis = sn < 1e-9 ? [0, 1, 0] : scale(axis, 1 / sn);
    const rot0 = S.rot;
    const t0 = performance.now();
    const anim = {};
    S.anim = anim;
    delete canvas.dataset.facing;
    const frame = (now) => {
      if (S.anim !== anim) return;
      const t = Math.min(1, (now - t0) / 380);
      const e = t < 0.5 ? 2 * t * t : 1 - Math.pow(-2 * t + 2, 2) / 2;
      S.rot = matMul(rotAbout(axis, angle * e), rot0);
      draw();
      if (t < 1) requestAnimationFrame(frame);
      else { S.anim = null; done(); }
    };
    requestAnimationFrame(frame);
  }

  // ---------- more solutions ----------
  function updateSolutionButtons() {
    const has = !!S.solution;
    $('clear-tiles').disabled = !has;
    const listed = has && S.solIndex !== null;
    $('next-solution').disabled = !listed || (!S.solMore && S.solIndex >= S.solList.length - 1);
    $('prev-solution').disabled = !listed || S.solIndex <= 0;
    const el = $('solution-index');
    if (!listed) { el.textContent = ''; el.dataset.index = ''; return; }
    el.dataset.index = String(S.solIndex);
    el.textContent = 'Solution ' + (S.solIndex + 1) + ' of ' + S.solList.length + (S.solMore ? '+' : '');
  }

  // The same solution, as a person sees it: the weights on every face (identical tiles are
  // interchangeable, so their numbers may differ).
  function sameSolution(a, b) {
    if (!a || !b) return false;
    if (a.placements && b.placements) {
      const m = new Map(a.placements.map((p) => [faceKey(p.face), p.corners.join(',')]));
      return b.placements.every((p) => m.get(faceKey(p.face)) === p.corners.join(','));
    }
    return JSON.stringify(a.grid) === JSON.stringify(b.grid);
  }

  // Reads the enumeration on until the list holds `upTo`; the first answer, already at the
  // head of the list, is left out where the enumeration meets it.
  async function fetchSolutions(req, upTo, run) {
    while (S.solList.length <= upTo && S.solMore) {
      const body = Object.assign({}, req, { backend: $('backend').value || 'auto', offset: S.serverOffset, limit: 10, job: run.job });
      const r = await api('/api/solutions', body, run.controller.signal);
      if (run.stopped) return;
      const list = (r && r.solutions) || [];
      S.serverOffset += list.length;
      list.forEach((x) => { if (!sameSolution(x, S.solList[0])) S.solList.push(x); });
      S.solMore = !!(r && r.more) && list.length > 0;
    }
  }

  async function stepSolution(delta) {
    if (!S.solution || S.solIndex === null) return;
    let req;
    try { req = currentRequest(); } catch (e) { showInstanceError(e.message); return; }
    // The puzzle changed since its answer: solve it, which starts the list again.
    if (S.solKey !== solutionsKey(req)) { solve(); return; }
    const idx = S.solIndex + delta;
    if (idx < 0) return;
    if (idx < S.solList.length) {
      S.solIndex = idx;
      message('');
      showResult(S.solList[idx], req);
      return;
    }
    const gen = S.gen;
    const run = startRun('solutions');
    const before = S.solution;
    setStatus('running', 'Looking for solutions…');
    try {
      await fetchSolutions(req, idx, run);
      endRun(run);
      if (gen !== S.gen) return;
      if (idx >= S.solList.length) {
        setStatus('sat', statusText(before));
        message('There are no more solutions.');
        updateSolutionButtons();
        return;
      }
      S.solIndex = idx;
      message('');
      showResult(S.solList[idx], req);
    } catch (e) {
      endRun(run);
      if (run.stopped || gen !== S.gen) return;
      setStatus('error', 'The request failed.');
      message(describeError(e));
    }
  }

  // ---------- count and compare ----------
  function fmtValue(v) {
    if (typeof v === 'number' && Number.isInteger(v) && v >= 10000) return String(v).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
    if (typeof v === 'number') return Number.isInteger(v) ? String(v) : v.toFixed(1);
    if (typeof v === 'string' && /^\d{5,}$/.test(v)) return v.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
    return String(v);
  }

  // A count takes the server's longest time limit, not the solve's: counting every
  // solution is a long job, which Stop (or "Stop counting") ends.
  function countTimeout() {
    return (S.info && S.info.max_timeout_s) || 120;
  }

  async function count() {
    let req;
    try { req = currentRequest(); } catch (e) { setText('count-msg', e.message); return; }
    req.timeout = countTimeout();
    const gen = S.gen;
    const run = startRun('count');
    req.job = run.job;
    const out = $('count');
    out.dataset.status = 'running';
    out.textContent = 'Counting…';
    setText('count-msg', '');
    $('count-progress').hidden = false;
    $('count-bar').removeAttribute('value');
    setText('count-progress-text', '');
    const poll = setInterval(async () => {
      let p;
      try { p = await api('/api/progress', { job: run.job }); } catch (e) { return; }
      if (S.running !== run || !p.running) return;
      const secs = ((performance.now() - run.started) / 1000).toFixed(0) + ' s';
      if (p.total) {
        $('count-bar').max = p.total;
        $('count-bar').value = p.done;
        setText('count-progress-text', p.done + ' of ' + p.total + ' faces placed, ' + fmtValue(p.figure) + ' states in the last layer, ' + secs);
      } else {
        setText('count-progress-text', secs);
      }
    }, 400);
    try {
      const r = await api('/api/count', req, run.controller.signal);
      endRun(run);
      if (gen === S.gen) renderCount(r);
    } catch (e) {
      endRun(run);
      if (gen !== S.gen) return;
      out.dataset.status = run.stopped ? 'stopped' : 'error';
      out.textContent = run.stopped ? 'Counting stopped.' : '';
      if (!run.stopped) setText('count-msg', describeError(e));
    } finally {
      clearInterval(poll);
      $('count-progress').hidden = true;
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
    try { req = currentRequest(); } catch (e) { setText('compare-msg', e.message); return; }
    const gen = S.gen;
    const run = startRun('compare');
    req.job = run.job;
    const table = $('compare');
    setText('compare-caption', 'Comparing backends…');
    table.hidden = false;
    table.tBodies[0].innerHTML = '';
    setText('compare-msg', '');
    try {
      const r = await api('/api/compare', req, run.controller.signal);
      endRun(run);
      if (gen === S.gen) renderCompare(r);
    } catch (e) {
      endRun(run);
      if (gen !== S.gen) return;
      setText('compare-caption', run.stopped ? 'Stopped.' : 'The comparison failed.');
      if (!run.stopped) setText('compare-msg', describeError(e));
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
    try { req = currentRequest(); } catch (e) { setText('downloads-msg', e.message); return; }
    const body = { instance: req.instance, name: req.name, format };
    if (req.variant_text) body.variant_text = req.variant_text;
    if (format === 'svg' && S.solution && S.kind === '3soku') body.solution = S.solution;
    try {
      const text = await api('/api/export', body);
      download(typeof text === 'string' ? text : JSON.stringify(text), baseName() + '.' + EXT[format], format === 'svg' ? 'image/svg+xml' : 'text/plain');
      setText('downloads-msg', '');
    } catch (e) {
      setText('downloads-msg', describeError(e));
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
      edited();
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
    edited();
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
    // What runs is for the other tab's puzzle: its reply would land on this one.
    if (changed) { S.gen += 1; stopRun(false); }
    S.kind = kind;
    document.querySelectorAll('[role=tab]').forEach((b) => b.setAttribute('aria-selected', b.dataset.kind === kind ? 'true' : 'false'));
    const poly = kind === '3soku';
    $('panel-3soku').hidden = !poly;
    $('panel-grid').hidden = poly;
    $('view-3d').hidden = !poly;
    $('grid-view').hidden = poly;
    $('net-box').hidden = !poly || !$('net').firstChild || S.mine;
    $('tiles-box').hidden = !poly;
    $('mine-box').hidden = !poly || !S.mine;
    document.querySelectorAll('.only-3soku').forEach((el) => { el.hidden = !poly; });
    $('panel-grid').setAttribute('aria-labelledby', 'tab-' + kind);
    if (!poly) {
      setText('grid-title', KIND_NAMES[kind]);
      $('grid-text').value = S.gridText[kind];
      fillSamples();
      if (changed) { S.solvedGrid = null; S.solution = null; }
      renderGrid();
    }
    if (changed) {
      if (poly && S.mine) showMineNote(); else setStatus('idle', 'Ready.');
      ['backend-used', 'elapsed', 'reason', 'unique-result'].forEach((id) => setText(id, ''));
      message('');
      ['count-msg', 'compare-msg', 'downloads-msg', 'grid-msg'].forEach((id) => setText(id, ''));
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
        if (S.customTiles && S.tileWeights) p.set('t', S.tileWeights.map((w) => w.join('.')).join(','));
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
    // A new puzzle: the answer shown, if any, is not its answer.
    puzzleEdited();
    if (!(S.mine && S.kind === '3soku')) setStatus('idle', 'Ready.');
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
      const t = p.get('t');
      if (t && /^\d+\.\d+\.\d+(,\d+\.\d+\.\d+)*$/.test(t)) {
        S.tileWeights = t.split(',').map((w) => w.split('.').map(Number));
        S.customTiles = true;
        renderTiles();
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

  // ---------- "My puzzle": the tiles the player has placed ----------
  function cornersOf(w, r) { return [0, 1, 2].map((i) => w[(i - r + 3) % 3]); }

  function namesOf(key) { return key.split(' '); }

  function pegOf(name) {
    const i = S.variantIndex ? S.variantIndex.get(name) : undefined;
    return i === undefined ? '?' : pegAt(i);
  }

  function setMine(on) {
    S.mine = on;
    $('mine').checked = on;
    $('mine-box').hidden = !on || S.kind !== '3soku';
    if (on && S.hint) setHint(false);
    $('hint').disabled = on;
    updateHintButtons();
    $('net-box').hidden = on || !$('net').firstChild;
    S.mineFace = null;
    S.mineHint = null;
    // The solid shows the player's tiles now (or again the bare puzzle): an answer of Solve's
    // is not what it shows, and its verdict would stand beside the panel's.
    if (S.running && (S.running.kind === 'solve' || S.running.kind === 'solutions')) stopRun(false);
    clearSolution();
    ['backend-used', 'elapsed', 'reason', 'unique-result'].forEach((id) => setText(id, ''));
    $('unique-result').dataset.unique = '';
    message('');
    if (on) showMineNote(); else setStatus('idle', 'Ready.');
    setText('hint-text', on ? 'Click a face to put a tile on it.' : '');
    renderMine();
    draw();
    if (on) runAssist();
  }

  // The puzzle changed under the player's tiles: the last verdict on them goes at once, a
  // reply to the old check is dropped, and a new check follows once the typing pauses.
  function mineEdited() {
    assistSeq += 1;
    if (assistJob) api('/api/cancel', { job: assistJob }).catch(() => {});
    assistJob = null;
    S.mineAssist = null;
    S.mineTakeOff = new Set();
    S.mineHint = null;
    $('mine-status').dataset.state = 'running';
    setText('mine-status', 'Checking your tiles…');
    setText('mine-next', '');
    setText('mine-msg', '');
    setText('hint-text', 'Click a face to put a tile on it.');
    showMineFace();
    renderMine();
    draw();
    clearTimeout(S.assistTimer);
    S.assistTimer = setTimeout(runAssist, 300);
  }

  function clearMine() {
    S.minePlaced = new Map();
    S.mineTakeOff = new Set();
    S.mineFace = null;
    S.mineHint = null;
    S.mineAssist = null;
    setText('mine-status', '');
    $('mine-status').dataset.state = '';
    setText('mine-next', '');
    setText('mine-msg', '');
    renderMine();
  }

  // The tiles not on another face, one choice per kind of tile (identical tiles are the
  // same to the player), with how many of it are left.
  function freeTiles(exceptKey) {
    const used = new Set();
    S.minePlaced.forEach((p, k) => { if (k !== exceptKey) used.add(p.tile); });
    const kinds = new Map();
    (S.tileWeights || []).forEach((w, i) => {
      if (used.has(i + 1)) return;
      const name = w.join(',');
      if (!kinds.has(name)) kinds.set(name, { tile: i + 1, weights: w, left: 0 });
      kinds.get(name).left += 1;
    });
    return Array.from(kinds.values());
  }

  // The chosen face, with its pegs as they are now.
  function showMineFace() {
    const key = S.mineFace;
    if (!key) return;
    const names = namesOf(key);
    const here = S.minePlaced.get(key);
    const el = $('mine-face');
    el.dataset.face = key;
    el.textContent = 'Face ' + faceLabel(names) + ' (pegs ' + names.map(pegOf).join(', ') + ')' + (here ? ': tile (' + here.weights.join(',') + ') is on it' : '');
  }

  function chooseMineFace(key) {
    S.mineFace = key;
    const here = S.minePlaced.get(key);
    showMineFace();
    const sel = $('mine-tile');
    sel.innerHTML = '';
    freeTiles(key).forEach((k) => {
      const o = document.createElement('option');
      o.value = String(k.tile);
      o.textContent = '(' + k.weights.join(',') + ')' + (k.left > 1 ? ', ' + k.left + ' left' : '');
      sel.appendChild(o);
    });
    if (here) {
      const same = Array.from(sel.options).find((o) => S.tileWeights[Number(o.value) - 1].join(',') === here.weights.join(','));
      if (same) { same.value = String(here.tile); sel.value = same.value; }
    }
    sel.disabled = sel.options.length === 0;
    fillTurns(here ? here.rotation : 0);
    $('mine-place').disabled = sel.disabled;
    $('mine-remove').disabled = !here;
    if (!sel.options.length) setText('mine-msg', 'Every tile is on a face: take one off to move it.');
    else setText('mine-msg', '');
    draw();
  }

  // The turns of the chosen tile that look different on the face, each as the weights it
  // puts at the face's vertices.
  function fillTurns(rotation) {
    const sel = $('mine-turn');
    sel.innerHTML = '';
    const t = Number($('mine-tile').value);
    const w = S.tileWeights && S.tileWeights[t - 1];
    if (!w || !S.mineFace) { sel.disabled = true; return; }
    const names = namesOf(S.mineFace);
    const seen = new Set();
    for (let r = 0; r < 3; r++) {
      const c = cornersOf(w, r);
      if (seen.has(c.join(','))) continue;
      seen.add(c.join(','));
      const o = document.createElement('option');
      o.value = String(r);
      o.textContent = names.map((n, i) => c[i] + ' at ' + n).join(', ');
      sel.appendChild(o);
    }
    sel.value = Array.from(sel.options).some((o) => o.value === String(rotation)) ? String(rotation) : sel.options[0].value;
    sel.disabled = false;
  }

  function placeMine() {
    const key = S.mineFace;
    const t = Number($('mine-tile').value);
    const r = Number($('mine-turn').value);
    const w = S.tileWeights && S.tileWeights[t - 1];
    if (!key || !w) return;
    S.minePlaced.set(key, { face: namesOf(key), tile: t, rotation: r, weights: w.slice(), corners: cornersOf(w, r) });
    S.mineHint = null;
    setText('mine-next', '');
    chooseMineFace(key);
    renderMine();
    runAssist();
  }

  function removeMine() {
    const key = S.mineFace;
    if (!key || !S.minePlaced.has(key)) return;
    S.minePlaced.delete(key);
    S.mineTakeOff.delete(key);
    S.mineHint = null;
    setText('mine-next', '');
    chooseMineFace(key);
    renderMine();
    runAssist();
  }

  // A placed tile in the words `sokuc check --partial` reads: "ABC: (0,1,2), 0 at A, ...".
  function mineWords(p) {
    return faceLabel(p.face) + ': (' + p.weights.join(',') + '), ' + p.face.map((n, i) => p.corners[i] + ' at ' + n).join(', ');
  }

  // What the server reads: the bracket form, one tile per line.
  function placedText() {
    const lines = [];
    S.variant.faces.forEach((f) => {
      const key = faceKey(f.map((i) => S.variant.vertices[i]));
      const p = S.minePlaced.get(key);
      if (p) lines.push(faceLabel(p.face) + ': tile #' + p.tile + ', rotation ' + p.rotation);
    });
    return lines.join('\n') + (lines.length ? '\n' : '');
  }

  function renderMine() {
    const ul = $('mine-list');
    ul.innerHTML = '';
    S.minePlaced.forEach((p, key) => {
      const li = document.createElement('li');
      li.dataset.face = key;
      li.dataset.tile = String(p.tile);
      li.dataset.rotation = String(p.rotation);
      li.dataset.takeoff = S.mineTakeOff.has(key) ? 'true' : 'false';
      li.textContent = mineWords(p) + (S.mineTakeOff.has(key) ? ' (take it off)' : '');
      ul.appendChild(li);
    });
    $('mine-clear').disabled = S.minePlaced.size === 0;
    $('mine-hint').disabled = !(S.mineAssist && S.mineAssist.hint);
  }

  let assistSeq = 0;
  let assistJob = null;
  async function runAssist() {
    clearTimeout(S.assistTimer);
    if (!S.mine || !S.variant) return;
    const seq = ++assistSeq;
    let req;
    try {
      req = currentRequest();
    } catch (e) {
      // No puzzle to check the tiles against (the pegs are being typed): no verdict.
      S.mineAssist = null;
      S.mineTakeOff = new Set();
      $('mine-status').dataset.state = '';
      setText('mine-status', '');
      setText('mine-msg', e.message);
      renderMine();
      draw();
      return;
    }
    if (assistJob) api('/api/cancel', { job: assistJob }).catch(() => {});
    assistJob = newJob();
    req.job = assistJob;
    req.placed = placedText();
    req.backend = $('backend').value || 'auto';
    // The last answer's next tile is for the tiles as they were.
    S.mineAssist = null;
    $('mine-hint').disabled = true;
    $('mine-status').dataset.state = 'running';
    setText('mine-status', 'Checking your tiles…');
    let r;
    try {
      r = await api('/api/assist', req);
    } catch (e) {
      if (seq !== assistSeq) return;
      $('mine-status').dataset.state = 'error';
      setText('mine-status', '');
      setText('mine-msg', describeError(e));
      return;
    }
    if (seq !== assistSeq) return;
    S.mineAssist = r;
    S.mineTakeOff = new Set((r.removed || []).map((p) => faceKey(p.face)));
    const n = S.minePlaced.size;
    const k = S.mineTakeOff.size;
    const tiles = (m) => m + ' tile' + (m === 1 ? '' : 's');
    const said = {
      completable: n === 0 ? 'No tiles placed yet: the puzzle has a solution.'
        : (n === r.faces ? 'Solved: every face has its tile, and every vertex adds up to its peg.'
          : 'Your ' + tiles(n) + ' can stay: the puzzle can still be completed (' + (r.faces - n) + ' to go).'),
      'take-off': 'Stuck: take off ' + tiles(k) + ' (the fewest), marked in red; then the puzzle can be completed.',
      'take-off-enough': 'Taking off the ' + tiles(k) + ' marked in red is enough; whether fewer would do was not decided in time.',
      'no-solution': 'These pegs have no solution, whatever tiles are placed.',
      unknown: 'Not decided within the time limit.',
    }[r.assist] || r.assist;
    $('mine-status').dataset.state = r.assist;
    setText('mine-status', said);
    setText('mine-msg', '');
    renderMine();
    draw();
  }

  // The next tile from the player's own: a face that touches their tiles, and its tile in
  // a completion that keeps them (after taking off the red ones, when stuck).
  function mineNext() {
    const h = S.mineAssist && S.mineAssist.hint;
    if (!h) return;
    S.mineHint = h;
    const key = faceKey(h.face);
    const first = S.mineTakeOff.size ? 'After taking off the red tiles: ' : '';
    setText('mine-next', first + 'put (' + h.weights.join(',') + ') on face ' + faceLabel(h.face) + ', ' + h.face.map((n, i) => h.corners[i] + ' at ' + n).join(', ') + '.');
    chooseMineFace(key);
    const same = Array.from($('mine-tile').options).find((o) => S.tileWeights[Number(o.value) - 1].join(',') === h.weights.join(','));
    if (same) { $('mine-tile').value = same.value; fillTurns(0); }
    const turn = Array.from($('mine-turn').options).find((o) => cornersOf(h.weights, Number(o.value)).join(',') === h.corners.join(','));
    if (turn) $('mine-turn').value = turn.value;
    turnToFace(key);
  }

  // ---------- the tiles panel ----------
  function renderTiles() {
    const ol = $('tiles-list');
    ol.innerHTML = '';
    const tiles = S.tileWeights || [];
    tiles.forEach((w, i) => {
      const li = document.createElement('li');
      li.dataset.tile = String(i + 1);
      li.dataset.weights = w.join(',');
      for (let k = 0; k < 3; k++) {
        const inp = document.createElement('input');
        inp.type = 'number';
        inp.min = '0';
        inp.step = '1';
        inp.value = String(w[k]);
        inp.setAttribute('aria-label', 'Tile ' + (i + 1) + ', corner ' + (k + 1));
        inp.addEventListener('change', () => {
          const x = Number(inp.value);
          if (!Number.isInteger(x) || x < 0) { setText('tiles-msg', 'A corner weight is a whole number of at least 0.'); inp.value = String(S.tileWeights[i][k]); return; }
          S.tileWeights[i][k] = x;
          tilesChanged();
        });
        li.appendChild(inp);
      }
      const del = document.createElement('button');
      del.type = 'button';
      del.textContent = '×';
      del.setAttribute('aria-label', 'Remove tile ' + (i + 1));
      del.addEventListener('click', () => { S.tileWeights.splice(i, 1); tilesChanged(); });
      li.appendChild(del);
      ol.appendChild(li);
    });
    const faces = S.variant ? S.variant.faces.length : 0;
    setText('tiles-count', '(' + tiles.length + ' for ' + faces + ' faces' + (S.customTiles ? ', changed' : '') + ')');
  }

  function tilesChanged() {
    S.customTiles = true;
    S.tileWeights = S.tileWeights.map((w) => w.slice());
    clearMine();
    puzzleEdited();
    renderTiles();
    const faces = S.variant.faces.length;
    const n = S.tileWeights.length;
    setText('tiles-msg', n === faces ? '' : 'The solid has ' + faces + ' faces and ' + n + ' tiles: give one tile per face.');
    $('tiles-msg').dataset.source = n === faces ? '' : 'page';
    checkOnServer(S.pegTokens);
    updateShare(true);
    draw();
  }

  // ---------- the net: zoom and pan ----------
  function setNetZoom(z) {
    const box = $('net');
    const cx = box.scrollWidth ? (box.scrollLeft + box.clientWidth / 2) / box.scrollWidth : 0.5;
    const cy = box.scrollHeight ? (box.scrollTop + box.clientHeight / 2) / box.scrollHeight : 0.5;
    S.netZoom = Math.max(1, Math.min(6, z));
    box.style.setProperty('--net-zoom', String(S.netZoom));
    box.dataset.zoom = String(Math.round(S.netZoom * 100) / 100);
    box.scrollLeft = cx * box.scrollWidth - box.clientWidth / 2;
    box.scrollTop = cy * box.scrollHeight - box.clientHeight / 2;
  }

  function wireNet() {
    const box = $('net');
    box.dataset.zoom = '1';
    $('net-zoom-in').addEventListener('click', () => setNetZoom(S.netZoom * 1.5));
    $('net-zoom-out').addEventListener('click', () => setNetZoom(S.netZoom / 1.5));
    $('net-fit').addEventListener('click', () => setNetZoom(1));
    box.addEventListener('keydown', (e) => {
      if (e.key === '+' || e.key === '=') { setNetZoom(S.netZoom * 1.5); e.preventDefault(); }
      if (e.key === '-' || e.key === '_') { setNetZoom(S.netZoom / 1.5); e.preventDefault(); }
    });
    // A mouse drags the net about; a finger scrolls it natively (touch-action: pan).
    let grab = null;
    box.addEventListener('pointerdown', (e) => {
      if (e.pointerType !== 'mouse' || e.button !== 0) return;
      grab = { x: e.clientX, y: e.clientY, left: box.scrollLeft, top: box.scrollTop };
      box.classList.add('dragging');
    });
    window.addEventListener('pointermove', (e) => {
      if (!grab) return;
      box.scrollLeft = grab.left - (e.clientX - grab.x);
      box.scrollTop = grab.top - (e.clientY - grab.y);
    });
    window.addEventListener('pointerup', () => { grab = null; box.classList.remove('dragging'); });
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
    if (!v) { S.screen = []; canvas.dataset.tiles = '0'; return; }
    // How many tiles the solid shows, for a test to read what the picture holds.
    canvas.dataset.tiles = String(v.faces.filter((f) => {
      const key = faceKey(f.map((i) => v.vertices[i]));
      return S.mine ? S.minePlaced.has(key) : S.placementsByFace.has(key) && S.revealed.has(key);
    }).length);
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
      const p = S.mine ? S.minePlaced.get(key) : S.placementsByFace.get(key);
      const shown = p && (S.mine || S.revealed.has(key));
      let mark = null;
      if (S.mine && S.mineTakeOff.has(key)) mark = '#e03131';
      else if (S.mine && S.mineFace === key) mark = '#f08c00';
      else if (S.mine && S.mineHint && faceKey(S.mineHint.face) === key) mark = '#2f9e44';
      const light = 0.62 + 0.38 * Math.max(0, dot(n, LIGHT));
      let base;
      if (S.mine && S.mineTakeOff.has(key)) base = [2, 70, 80];
      else if (shown) base = tileColor(p.tile);
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
      if (mark) {
        ctx.save();
        ctx.clip();
        ctx.lineWidth = 7 * dpr;
        ctx.strokeStyle = mark;
        ctx.stroke();
        ctx.restore();
      }
      const P = f.map((i) => proj[i]);
      const C = [(P[0][0] + P[1][0] + P[2][0]) / 3, (P[0][1] + P[1][1] + P[2][1]) / 3];
      const area = Math.abs((P[1][0] - P[0][0]) * (P[2][1] - P[0][1]) - (P[2][0] - P[0][0]) * (P[1][1] - P[0][1])) / 2;
      const size = Math.sqrt(area);
      faceScreen.set(key, [C[0] / dpr, C[1] / dpr, area / (dpr * dpr)]);
      if (shown) {
        for (let k = 0; k < 3; k++) drawWeight(P[k], C, p.corners[k], size, dpr);
      } else if (p && S.hint && !S.mine && size > 18 * dpr) {
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
    for (const li of [...$('placements').children, ...$('mine-list').children]) {
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
    if (S.mine) {
      chooseMineFace(key);
    } else if (S.hint && S.solution && S.placementsByFace.has(key)) {
      reveal(key);
    } else if (S.solution && S.placementsByFace.has(key)) {
      const p = S.placementsByFace.get(key);
      setText('hint-text', stepText(key) + '  [tile #' + p.tile + ', rotation ' + p.rotation + ']');
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
    let variantSeq = 0;
    $('variant').addEventListener('change', async () => {
      const name = $('variant').value;
      if (name.startsWith('upload:')) return;
      const seq = ++variantSeq;
      edited();
      try {
        const v = await api('/api/variant', { name });
        // Another solid was picked while this one loaded.
        if (seq !== variantSeq) return;
        setVariant(v, false, null);
        setPegs(S.variant.pegs || []);
        edited();
      } catch (e) { if (seq === variantSeq) message(describeError(e)); }
    });
    $('variant-file').addEventListener('change', async () => {
      const input = $('variant-file');
      let f;
      try { f = await readFile(input); } catch (e) { message(e.message); return; }
      input.value = '';
      const seq = ++variantSeq;
      edited();
      try {
        const v = await api('/api/variant', { text: f.text });
        if (seq !== variantSeq) return;
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
        edited();
      } catch (e) {
        if (seq !== variantSeq) return;
        setStatus('error', 'The variant was not accepted.');
        message(describeError(e));
      }
    });
    $('pegs').addEventListener('input', () => { onPegsInput(); edited(); });
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
    $('count-stop').addEventListener('click', () => stopRun(true));
    $('mine').addEventListener('change', () => setMine($('mine').checked));
    $('mine-tile').addEventListener('change', () => fillTurns(0));
    $('mine-place').addEventListener('click', placeMine);
    $('mine-remove').addEventListener('click', removeMine);
    $('mine-hint').addEventListener('click', mineNext);
    $('mine-clear').addEventListener('click', () => { clearMine(); draw(); runAssist(); });
    $('tile-add').addEventListener('click', () => {
      S.tileWeights = (S.tileWeights || []).concat([[0, 0, 0]]);
      tilesChanged();
    });
    $('tiles-reset').addEventListener('click', () => {
      S.tileWeights = (S.variant.tiles || []).map((t) => t.slice());
      tilesChanged();
      S.customTiles = false;
      renderTiles();
      updateShare(true);
    });
    wireNet();
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
      edited();
    });
    $('grid-text').addEventListener('input', () => {
      S.gridText[S.kind] = $('grid-text').value;
      $('sample').value = '';
      edited();
    });
    $('grid-file').addEventListener('change', async () => {
      const input = $('grid-file');
      try {
        const f = await readFile(input);
        input.value = '';
        $('grid-text').value = f.text;
        S.gridText[S.kind] = f.text;
        $('sample').value = '';
        edited();
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
    setText('count-note', 'Counting every solution may take up to ' + Math.round(countTimeout()) + ' s, the longest this server allows; Stop ends it.');
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
    // Where a face's centre is on the canvas now (CSS px), or null when it faces away.
    faceCenter(key) {
      const hit = S.visibleFaces.find(({ f }) => faceKey(f.map((i) => S.variant.vertices[i])) === key);
      if (!hit) return null;
      const dpr = window.devicePixelRatio || 1;
      const W = canvas.width, H = canvas.height, sc = Math.min(W, H) * VIEW_SCALE * S.zoom;
      const P = hit.f.map((i) => {
        const q = matVec(S.rot, sub(S.variant.positions[i], S.center));
        const k = CAM / (CAM - q[2]);
        return [(W / 2 + sc * k * q[0]) / dpr, (H / 2 - sc * k * q[1]) / dpr];
      });
      return [(P[0][0] + P[1][0] + P[2][0]) / 3, (P[0][1] + P[1][1] + P[2][1]) / 3];
    },
    // Turns the solid to a face, as a reveal does.
    turnTo(key) { turnToFace(key); },
  };

  init();
})();
