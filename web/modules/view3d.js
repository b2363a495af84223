// The 3-D view: the solid drawn on the canvas, turned by dragging or the arrow keys, with
// the answer's tiles (or the player's, in My puzzle) on its faces.

import { $ } from './dom.js';
import * as st from './state.js';
import { sub, add, scale, dot, cross, norm, matMul, matVec, rotX, rotY, rotAbout, initialRotation, turnToViewer } from './vec.js';
import { faceKey } from './faces.js';

const canvas = $('view');
const ctx = canvas.getContext('2d');
const LIGHT = norm([-0.45, 0.65, 0.75]);
const CAM = 4.2;
const VIEW_SCALE = 0.4;

// What the view alone holds.
let rot = null; // the solid's rotation
let zoom = 1;
let labels = 'pegs'; // vertex labels: 'pegs' or 'letters'
let screen = []; // projected vertex positions (CSS px), null when hidden
let visibleFaces = []; // [{fi, f}] front faces in drawing order
let anim = null; // the running turn to a face

export function setLabels(which) { labels = which; draw(); }
// Where vertex i is on the canvas (CSS px), or null when it faces away.
export const screenPoint = (i) => screen[i] || null;

// The view for a newly loaded solid.
export function resetRotation() {
  const v = st.variant();
  rot = initialRotation(v && v.positions, st.solidCentre());
  zoom = 1;
}

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

// Vertex positions on the canvas (device px), with their depth.
function project() {
  const v = st.variant();
  const W = canvas.width, H = canvas.height;
  const cx = W / 2, cy = H / 2;
  const s = Math.min(W, H) * VIEW_SCALE * zoom;
  const centre = st.solidCentre();
  return v.positions.map((p) => {
    const q = matVec(rot, sub(p, centre));
    const f = CAM / (CAM - q[2]);
    return [cx + s * f * q[0], cy - s * f * q[1], q[2]];
  });
}

export function draw() {
  if (!st.onSolid() || $('view-3d').hidden) return;
  const dpr = resizeCanvas();
  const W = canvas.width, H = canvas.height;
  ctx.setTransform(1, 0, 0, 1, 0, 0);
  ctx.clearRect(0, 0, W, H);
  const v = st.variant();
  if (!v) { screen = []; canvas.dataset.tiles = '0'; return; }
  const mine = st.mine(), hint = st.hint();
  const shownTile = (key) => (mine ? st.minePlacement(key) : (st.isRevealed(key) ? st.placement(key) : undefined));
  // How many tiles the solid shows, for a test to read what the picture holds.
  canvas.dataset.tiles = String(v.faces.filter((f) => shownTile(faceKey(f.map((i) => v.vertices[i])))).length);
  const centre = st.solidCentre();
  const rp = v.positions.map((p) => matVec(rot, sub(p, centre)));
  const proj = project();
  const cam = [0, 0, CAM];
  const faces = [];
  const vertVisible = new Array(v.vertices.length).fill(false);
  v.faces.forEach((f, fi) => {
    const [a, b, c] = f.map((i) => rp[i]);
    const n = norm(scale(cross(sub(b, a), sub(c, a)), st.faceOrient(fi)));
    const cen = scale(add(add(a, b), c), 1 / 3);
    if (dot(n, sub(cam, cen)) <= 1e-9) return;
    f.forEach((i) => { vertVisible[i] = true; });
    faces.push({ fi, f, n, z: cen[2] });
  });
  faces.sort((p, q) => p.z - q.z);
  visibleFaces = faces;
  const faceScreen = new Map();
  const lw = Math.max(1, 1.4 * dpr);
  const nextTile = st.mineNextTile();
  faces.forEach(({ f, n }) => {
    const key = faceKey(f.map((i) => v.vertices[i]));
    const p = mine ? st.minePlacement(key) : st.placement(key);
    const shown = p && (mine || st.isRevealed(key));
    let mark = null;
    if (mine && st.takeOff(key)) mark = '#e03131';
    else if (mine && st.chosenFace() === key) mark = '#f08c00';
    else if (mine && nextTile && faceKey(nextTile.face) === key) mark = '#2f9e44';
    const light = 0.62 + 0.38 * Math.max(0, dot(n, LIGHT));
    let base;
    if (mine && st.takeOff(key)) base = [2, 70, 80];
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
    } else if (p && hint && !mine && size > 18 * dpr) {
      ctx.fillStyle = 'rgba(40,50,70,0.55)';
      ctx.font = 'bold ' + Math.round(Math.min(22 * dpr, size * 0.35)) + 'px system-ui, sans-serif';
      ctx.textAlign = 'center';
      ctx.textBaseline = 'middle';
      ctx.fillText('?', C[0], C[1]);
    }
  });
  // Vertices on the visible side.
  screen = v.vertices.map((_, i) => (vertVisible[i] ? [proj[i][0] / dpr, proj[i][1] / dpr] : null));
  const r = 12.5 * dpr * Math.min(1.3, Math.max(0.8, zoom));
  const selected = st.selectedVertex();
  v.vertices.forEach((name, i) => {
    if (!vertVisible[i]) return;
    const [x, y] = proj[i];
    const sel = i === selected;
    const letters = labels === 'letters';
    const label = letters ? name : (st.pegAt(i) === '' ? '?' : st.pegAt(i));
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
  // Where each listed face is on the canvas, for a test (and a reader of the DOM) to find it.
  for (const li of [...$('placements').children, ...$('mine-list').children]) {
    const fs = faceScreen.get(li.dataset.face);
    li.dataset.visible = fs ? 'true' : 'false';
    if (fs) { li.dataset.x = fs[0].toFixed(1); li.dataset.y = fs[1].toFixed(1); li.dataset.area = fs[2].toFixed(0); }
    else { delete li.dataset.x; delete li.dataset.y; delete li.dataset.area; }
  }
}

function updateVertexPositionsInList() {
  const items = $('vertices').children;
  for (let i = 0; i < items.length; i++) {
    const sc = screen[i];
    items[i].dataset.visible = sc ? 'true' : 'false';
    if (sc) { items[i].dataset.x = sc[0].toFixed(1); items[i].dataset.y = sc[1].toFixed(1); } else { delete items[i].dataset.x; delete items[i].dataset.y; }
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

// What is at x, y (CSS px relative to the canvas): {vertex: i}, {face: [i, j, k]} or null.
function pickAt(x, y) {
  const dpr = window.devicePixelRatio || 1;
  const rad = 15 * Math.min(1.3, Math.max(0.8, zoom));
  let best = -1, bestD = rad * rad;
  screen.forEach((p, i) => {
    if (!p) return;
    const d = (p[0] - x) ** 2 + (p[1] - y) ** 2;
    if (d <= bestD) { best = i; bestD = d; }
  });
  if (best >= 0) return { vertex: best };
  const X = x * dpr, Y = y * dpr;
  const proj = project();
  for (let k = visibleFaces.length - 1; k >= 0; k--) {
    const { f } = visibleFaces[k];
    if (insideTriangle([X, Y], f.map((i) => proj[i]))) return { face: f };
  }
  return null;
}

function insideTriangle(q, P) {
  const sgn = (a, b, c) => (a[0] - c[0]) * (b[1] - c[1]) - (b[0] - c[0]) * (a[1] - c[1]);
  const d1 = sgn(q, P[0], P[1]), d2 = sgn(q, P[1], P[2]), d3 = sgn(q, P[2], P[0]);
  const neg = d1 < 0 || d2 < 0 || d3 < 0, pos = d1 > 0 || d2 > 0 || d3 > 0;
  return !(neg && pos);
}

function turn(dx, dy) {
  rot = matMul(rotX(dy), matMul(rotY(dx), rot));
  draw();
}

function zoomBy(k) {
  zoom = Math.max(0.4, Math.min(3, zoom * k));
  draw();
}

export function resetView() {
  resetRotation();
  draw();
}

function faceIndexOf(key) {
  const v = st.variant();
  return v ? v.faces.findIndex((f) => faceKey(f.map((i) => v.vertices[i])) === key) : -1;
}

function outwardNormal(fi) {
  const v = st.variant();
  const [a, b, c] = v.faces[fi].map((i) => sub(v.positions[i], st.solidCentre()));
  return norm(scale(cross(sub(b, a), sub(c, a)), st.faceOrient(fi)));
}

// Turns the solid, in a short animation, until the face looks straight at the viewer.
export function turnToFace(key) {
  const fi = faceIndexOf(key);
  if (fi < 0) return;
  const { axis, angle } = turnToViewer(matVec(rot, outwardNormal(fi)));
  const done = () => { canvas.dataset.facing = key; };
  if (angle < 1e-3) { done(); return; }
  const rot0 = rot;
  const t0 = performance.now();
  const me = {};
  anim = me;
  delete canvas.dataset.facing;
  const frame = (now) => {
    if (anim !== me) return;
    const t = Math.min(1, (now - t0) / 380);
    const e = t < 0.5 ? 2 * t * t : 1 - Math.pow(-2 * t + 2, 2) / 2;
    rot = matMul(rotAbout(axis, angle * e), rot0);
    draw();
    if (t < 1) requestAnimationFrame(frame);
    else { anim = null; done(); }
  };
  requestAnimationFrame(frame);
}

// Where a face's centre is on the canvas now (CSS px), or null when it faces away.
export function faceCenter(key) {
  const v = st.variant();
  const hit = visibleFaces.find(({ f }) => faceKey(f.map((i) => v.vertices[i])) === key);
  if (!hit) return null;
  const dpr = window.devicePixelRatio || 1;
  const proj = project();
  const P = hit.f.map((i) => [proj[i][0] / dpr, proj[i][1] / dpr]);
  return [(P[0][0] + P[1][0] + P[2][0]) / 3, (P[0][1] + P[1][1] + P[2][1]) / 3];
}

// A count of the solved solid's drawings and the time of the last, for a test to time the
// page from a link to its drawn answer.
export function markSolvedDrawn() {
  canvas.dataset.drawn = String((Number(canvas.dataset.drawn) || 0) + 1);
  canvas.dataset.solvedDrawnAt = String(Math.round(performance.now()));
}

// The canvas's pointer, wheel and keys; `onClick(hit)` gets a click that did not drag:
// {vertex: i} or {face: [i, j, k]}.
export function wireView(onClick) {
  let drag = null;
  const pointers = new Map();
  let pinch = null;
  canvas.addEventListener('pointerdown', (e) => {
    if (e.button !== undefined && e.button !== 0) return;
    canvas.focus({ preventScroll: true });
    pointers.set(e.pointerId, [e.clientX, e.clientY]);
    if (pointers.size === 2) {
      const [a, b] = Array.from(pointers.values());
      pinch = { d: Math.hypot(a[0] - b[0], a[1] - b[1]) || 1, zoom };
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
      zoom = Math.max(0.4, Math.min(3, pinch.zoom * (Math.hypot(a[0] - b[0], a[1] - b[1]) || 1) / pinch.d));
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
      const hit = pickAt(e.clientX - rect.left, e.clientY - rect.top);
      if (hit) onClick(hit);
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
  $('reset-view').addEventListener('click', resetView);
  $('zoom-in').addEventListener('click', () => zoomBy(1.2));
  $('zoom-out').addEventListener('click', () => zoomBy(1 / 1.2));
  if (window.ResizeObserver) new ResizeObserver(() => draw()).observe(canvas);
  else window.addEventListener('resize', draw);
}
