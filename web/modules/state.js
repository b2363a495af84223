// The page's state: the puzzle being edited, its answer, and the modes. Each part is held
// here, read through the functions below and changed only by the update functions below,
// so that a module's reads and writes can be found by name. What one module alone uses
// (the view's rotation, a job's timer, My puzzle's pending check) stays in that module.

import { orientSolid } from './vec.js';
import { faceKey } from './faces.js';

// ---------- the server ----------
let serverInfo = null; // GET /api/info, once the page has it

export const info = () => serverInfo;
export function setInfo(x) { serverInfo = x; }

// ---------- edits ----------
// Counts the edits of the puzzle: a reply is shown only if no edit came after its request.
let gen = 0;
export const generation = () => gen;
export function bumpGeneration() { gen += 1; }

// ---------- the kind (the tab) ----------
let currentKind = '3soku';
export const kind = () => currentKind;
export function setCurrentKind(k) { currentKind = k; }
export const onSolid = () => currentKind === '3soku';

// ---------- the solid ----------
// {name, vertices, faces, positions, tiles, tile_set, pegs, pegs_kind, uploaded, text}, as
// /api/variant gives it, with its positions oriented (see vec.orientSolid).
let solid = null;
let vertexIndex = new Map();
let centre = [0, 0, 0];
let orient = [];

export const variant = () => solid;
export const solidCentre = () => centre;
export const faceOrient = (fi) => orient[fi];
export const vertexNamed = (name) => vertexIndex.get(name);
export function setVariantData(v, uploaded, text) {
  const o = orientSolid(v.positions, v.faces);
  solid = Object.assign({}, v, { positions: o.positions, uploaded: !!uploaded, text: text || null });
  centre = o.centre;
  orient = o.orient;
  vertexIndex = new Map(solid.vertices.map((n, i) => [n, i]));
}

// ---------- the tiles ----------
let tileWeights = null; // [[a, b, c], ...], or null when the solid names none
let custom = false; // the tiles panel changed the solid's tiles

export const tiles = () => tileWeights;
export const tileAt = (n) => (tileWeights ? tileWeights[n - 1] : undefined); // 1-based, as `sokuc` numbers them
export const customTiles = () => custom;
export function setTiles(list, changed) {
  tileWeights = list ? list.map((t) => t.slice()) : null;
  custom = !!changed;
}
// The tiles panel's edits: each marks the tiles changed.
export function setTileWeight(i, k, x) { tileWeights[i][k] = x; custom = true; }
export function removeTile(i) { tileWeights.splice(i, 1); custom = true; }
export function addTile(w) { tileWeights = (tileWeights || []).concat([w.slice()]); custom = true; }
export const tilesKey = () => (tileWeights ? tileWeights.map((t) => t.join('.')).join(',') : '');

// ---------- the pegs ----------
let pegTokens = []; // as typed, one per vertex
let pegNumbers = null; // the parsed pegs, or null while the text has a mistake
let selected = -1; // the vertex whose peg the editor shows

export const pegs = () => pegNumbers;
export const pegTokenList = () => pegTokens.slice();
export function setPegsRead(tokens, numbers) { pegTokens = tokens.slice(); pegNumbers = numbers; }
export function pegAt(i) { const t = pegTokens[i]; return t === undefined ? '' : t; }
export function pegOf(name) {
  const i = vertexIndex.get(name);
  return i === undefined ? '?' : pegAt(i);
}
export const selectedVertex = () => selected;
export function setSelectedVertex(i) { selected = i; }

// ---------- grids ----------
const gridTexts = { kakuro: '', trickytriple: '' };
let solvedGrid = null;

export const gridText = (k) => gridTexts[k];
export function setGridText(k, text) { gridTexts[k] = text; }
export const answerGrid = () => solvedGrid;
export function setAnswerGrid(g) { solvedGrid = g; }

// ---------- the answer on the page ----------
let solution = null; // the solve JSON shown, or null
let placementsByFace = new Map(); // face key -> placement
let steps = []; // /api/instructions' steps for it
let revealed = new Set(); // face keys whose tile shows (all but in hint mode)

export const answer = () => solution;
export const placement = (key) => placementsByFace.get(key);
export const placedFaceKeys = () => Array.from(placementsByFace.keys());
export const placementCount = () => placementsByFace.size;
export function setAnswer(sol) {
  solution = sol;
  placementsByFace = new Map();
  steps = [];
  if (sol && Array.isArray(sol.placements)) sol.placements.forEach((p) => placementsByFace.set(faceKey(p.face), p));
  revealed = new Set(hintMode ? [] : placementsByFace.keys());
}
export const answerSteps = () => steps;
export function setAnswerSteps(s) { steps = s; }
export const isRevealed = (key) => revealed.has(key);
export const revealedCount = () => revealed.size;
export function reveal(key) { revealed.add(key); }
// Shows every tile, or none (hint mode).
export function revealAll(all) { revealed = new Set(all ? placementsByFace.keys() : []); }

// ---------- the list of solutions walked by Next and Previous ----------
// index: the one shown; list: those read so far, the first answer first; more: the server
// may have others; key: the request they answer; offset: solutions read from the server.
let solList = { index: null, list: [], more: true, key: '', offset: 0 };
export const solutions = () => solList;
export function setSolutions(patch) { solList = Object.assign({}, solList, patch); }
export function resetSolutions() { solList = { index: null, list: [], more: true, key: '', offset: 0 }; }

// ---------- modes ----------
let hintMode = false;
let mineMode = false;
export const hint = () => hintMode;
export function setHintMode(on) { hintMode = on; }
export const mine = () => mineMode;
export function setMineMode(on) { mineMode = on; }

// ---------- My puzzle: the player's own tiles ----------
let minePlaced = new Map(); // face key -> {face, tile, rotation, weights, corners}
let mineFace = null; // the chosen face's key
let mineTakeOff = new Set(); // face keys the assistant says to take off
let mineHint = null; // the assistant's next tile, once asked for
let mineAssist = null; // the assistant's last answer on the tiles as they are

export const minePlacement = (key) => minePlaced.get(key);
export const minePlacements = () => minePlaced;
export function placeMineTile(key, p) { minePlaced.set(key, p); }
export function removeMineTile(key) { minePlaced.delete(key); mineTakeOff.delete(key); }
export const chosenFace = () => mineFace;
export function chooseFace(key) { mineFace = key; }
export const takeOff = (key) => mineTakeOff.has(key);
export const takeOffCount = () => mineTakeOff.size;
export const mineNextTile = () => mineHint;
export function setMineNextTile(h) { mineHint = h; }
export const assistAnswer = () => mineAssist;
export function setAssistAnswer(r) {
  mineAssist = r;
  mineTakeOff = new Set(r ? (r.removed || []).map((p) => faceKey(p.face)) : []);
}
// A check has started: its answer will replace the last one, whose next tile is for the
// tiles as they were (the red marks stay until the new answer comes).
export function forgetAssistAnswer() { mineAssist = null; }
export function clearMineTiles() {
  minePlaced = new Map();
  mineTakeOff = new Set();
  mineFace = null;
  mineHint = null;
  mineAssist = null;
}
