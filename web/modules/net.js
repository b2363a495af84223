// The flat net: the server's SVG of the solid unfolded, with the answer's tiles; zoomed
// with its buttons and keys, dragged about with a mouse.

import { $, setText } from './dom.js';
import * as st from './state.js';
import { faceKey, faceLabel } from './faces.js';

let netZoom = 1;

export function hideNet() {
  $('net').innerHTML = '';
  $('net-box').hidden = true;
}

export const netShown = () => !!$('net').firstChild;

export function showNet(svgText) {
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
  const v = st.variant();
  setText('net-title', 'Flat net of the ' + (v ? v.name : 'solid'));
  applyNetReveal();
  $('net-box').hidden = st.mine();
}

// In hint mode the net shows only the revealed tiles, as the solid does.
export function applyNetReveal() {
  const svg = $('net').querySelector('svg');
  const v = st.variant();
  if (!svg || !v) return;
  const keyOf = new Map(v.faces.map((f) => {
    const names = f.map((i) => v.vertices[i]);
    return [faceLabel(names), faceKey(names)];
  }));
  const shownAt = (label) => !st.hint() || st.isRevealed(keyOf.get(label));
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

function setNetZoom(z) {
  const box = $('net');
  const cx = box.scrollWidth ? (box.scrollLeft + box.clientWidth / 2) / box.scrollWidth : 0.5;
  const cy = box.scrollHeight ? (box.scrollTop + box.clientHeight / 2) / box.scrollHeight : 0.5;
  netZoom = Math.max(1, Math.min(6, z));
  box.style.setProperty('--net-zoom', String(netZoom));
  box.dataset.zoom = String(Math.round(netZoom * 100) / 100);
  box.scrollLeft = cx * box.scrollWidth - box.clientWidth / 2;
  box.scrollTop = cy * box.scrollHeight - box.clientHeight / 2;
}

export function wireNet() {
  const box = $('net');
  box.dataset.zoom = '1';
  $('net-zoom-in').addEventListener('click', () => setNetZoom(netZoom * 1.5));
  $('net-zoom-out').addEventListener('click', () => setNetZoom(netZoom / 1.5));
  $('net-fit').addEventListener('click', () => setNetZoom(1));
  box.addEventListener('keydown', (e) => {
    if (e.key === '+' || e.key === '=') { setNetZoom(netZoom * 1.5); e.preventDefault(); }
    if (e.key === '-' || e.key === '_') { setNetZoom(netZoom / 1.5); e.preventDefault(); }
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
