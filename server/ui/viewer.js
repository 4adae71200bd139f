// The Waymesh map viewer: draws a served map top-down from the server's JSON API (/api/...,
// see docs/viewer.md) and runs FindPath, Raycast and ValidateMove on it. Plain JavaScript and a
// 2D canvas; no libraries. window.viewer holds the state, for the console and the browser tests.
'use strict';

const $ = (id) => document.getElementById(id);
const canvas = $('view');
const ctx = canvas.getContext('2d');

const state = {
  token: sessionStorage.getItem('waymesh-token') || '',
  authRequired: false,  // the API answered 401: the page waits for a token
  maps: [],
  detail: null,          // /api/map of the chosen map
  polygons: [],          // of every tile loaded: {ref, area, island, tile, y: [lo, hi], xz, box}
  links: [],             // off-mesh links
  tilesLoaded: 0,
  ready: false,          // every tile of the chosen map is drawn
  view: { cx: 0, cz: 0, scale: 1 },
  floor: [-Infinity, Infinity],
  pathStart: null,       // first click of FindPath: {x, y, z, extent}
  last: null,            // the last query: {kind, request, result, elapsed_ms} or {kind, error}
  heat: [],
  obstacles: [],         // layers held for the map, from /api/obstacles
  crowds: [],            // live crowd sessions on the map, from /api/crowds
  crowd: null,           // the chosen session's latest frame, from its event stream
  crowdFrames: 0,        // frames read from that stream
  crowdStream: null,     // the AbortController of that stream
  hover: null,
};
window.viewer = state;

class ApiError extends Error {
  constructor(status, message) {
    super(message);
    this.status = status;
  }
}

// One API call: GET without a body, POST with one (JSON). Throws ApiError; a 401 asks for the
// token first.
async function api(path, body) {
  const headers = {};
  if (state.token) headers.Authorization = 'Bearer ' + state.token;
  const init = { headers };
  if (body !== undefined) {
    init.method = 'POST';
    headers['Content-Type'] = 'application/json';
    init.body = JSON.stringify(body);
  }
  const response = await fetch(path, init);
  const text = await response.text();
  let json = null;
  try { json = JSON.parse(text); } catch (e) { /* not JSON: shown as text below */ }
  const message = json && json.error ? `${json.error.code}: ${json.error.message}` : text;
  if (response.status === 401) {
    askForToken(state.token ? 'that token was refused' : '');
    throw new ApiError(401, message);
  }
  if (!response.ok) throw new ApiError(response.status, message);
  return json;
}

function setStatus(text, error) {
  const status = $('status');
  status.textContent = text;
  status.className = error ? 'error' : '';
}

function askForToken(problem) {
  state.authRequired = true;
  setStatus('this server needs a bearer token', true);
  $('auth-error').textContent = problem;
  if (!$('auth').open) $('auth').showModal();
}

$('auth-form').addEventListener('submit', () => {
  state.token = $('token').value.trim();
  sessionStorage.setItem('waymesh-token', state.token);
  state.authRequired = false;
  start();
});

// ---- map loading ----

async function start() {
  try {
    const answer = await api('/api/maps');
    state.maps = answer.maps;
    const select = $('map');
    select.replaceChildren(...state.maps.map((m) => new Option(`${m.id} (v${m.version})`, m.id)));
    if (state.maps.length === 0) return setStatus('the server serves no map');
    const wanted = new URLSearchParams(location.search).get('map');
    select.value = state.maps.some((m) => m.id === wanted) ? wanted : state.maps[0].id;
    await loadMap(select.value);
  } catch (e) {
    if (e.status !== 401) setStatus(`cannot list maps: ${e.message}`, true);
  }
}

async function loadMap(id) {
  stopCrowd();
  Object.assign(state, { ready: false, polygons: [], links: [], tilesLoaded: 0, pathStart: null,
                         last: null, heat: [], obstacles: [], crowds: [] });
  showResult();
  setStatus(`loading ${id}…`);
  const detail = await api('/api/map?map=' + encodeURIComponent(id));
  state.detail = detail;
  showMapInfo();
  resetFloor();
  fitView();
  const queue = detail.tile_list.filter((t) => t.polygons > 0).map((t) => t.index);
  const total = queue.length;
  // A few tiles at a time: the server reads them on its workers, which serve the game too.
  const worker = async () => {
    while (queue.length > 0 && state.detail === detail) {
      const tile = await api(`/api/tile?map=${encodeURIComponent(id)}&tile=${queue.shift()}`);
      if (state.detail !== detail) return;
      addTile(tile);
      setStatus(`${id}: ${++state.tilesLoaded} of ${total} tiles`);
      redraw();
    }
  };
  await Promise.all([worker(), worker(), worker(), worker()]);
  if (state.detail !== detail) return;
  state.ready = true;
  refreshLive();
  setStatus(`${id} v${detail.version}: ${detail.polygons} polygons in ${detail.tiles} tiles`);
  redraw();
}

function addTile(tile) {
  for (const p of tile.polygons) {
    const box = [Infinity, Infinity, -Infinity, -Infinity];
    for (let i = 0; i < p.xz.length; i += 2) {
      box[0] = Math.min(box[0], p.xz[i]); box[1] = Math.min(box[1], p.xz[i + 1]);
      box[2] = Math.max(box[2], p.xz[i]); box[3] = Math.max(box[3], p.xz[i + 1]);
    }
    state.polygons.push({ ...p, tile: tile.tile, box });
  }
  state.links.push(...tile.links);
}

function showMapInfo() {
  const d = state.detail;
  const areas = d.areas.map((a) => `${a.id} ${a.name} (cost ${a.cost})`).join(', ');
  $('map-info').innerHTML = '';
  $('map-info').append(table([
    ['id', d.id], ['version', d.version], ['polygons', d.polygons], ['tiles', d.tiles],
    ['tile size', d.tile_size + ' m'], ['islands', d.islands], ['small islands', smallIslandCount()],
    ['agent radius', d.agent.radius + ' m'], ['areas', areas],
  ]));
}

// An island is small when its area is under 2% of the largest one's: often a leftover of the
// bake that players can fall onto but never leave.
function isSmallIsland(index) {
  const islands = state.detail.island_list;
  const largest = islands.reduce((m, i) => Math.max(m, i.area), 0);
  return islands.length > 1 && islands[index] && islands[index].area < 0.02 * largest;
}

function smallIslandCount() {
  return state.detail.island_list.filter((_, i) => isSmallIsland(i)).length;
}

// ---- view ----

function resetFloor() {
  const b = state.detail.bounds;
  $('floor-min').value = 0;
  $('floor-max').value = 1000;
  updateFloor();
  $('floor-label').dataset.range = `${b.min[1]}..${b.max[1]}`;
}

function updateFloor() {
  const b = state.detail.bounds;
  const at = (v) => b.min[1] + (b.max[1] - b.min[1]) * v / 1000;
  let lo = at(+$('floor-min').value);
  let hi = at(+$('floor-max').value);
  if (lo > hi) [lo, hi] = [hi, lo];
  state.floor = [lo - 0.01, hi + 0.01];
  $('floor-label').textContent = `y ${lo.toFixed(1)} to ${hi.toFixed(1)} m`;
}

function fitView() {
  const b = state.detail.bounds;
  const width = canvas.clientWidth || 800;
  const height = canvas.clientHeight || 600;
  const sx = b.max[0] - b.min[0];
  const sz = b.max[2] - b.min[2];
  state.view = {
    cx: (b.min[0] + b.max[0]) / 2,
    cz: (b.min[2] + b.max[2]) / 2,
    scale: 0.95 * Math.min(width / Math.max(sx, 1e-3), height / Math.max(sz, 1e-3)),
  };
}

// World X right, Z up the screen (top-down, north up).
function toScreen(x, z) {
  const v = state.view;
  return [(x - v.cx) * v.scale + canvas.clientWidth / 2, canvas.clientHeight / 2 - (z - v.cz) * v.scale];
}

function toWorld(sx, sy) {
  const v = state.view;
  return [(sx - canvas.clientWidth / 2) / v.scale + v.cx, v.cz - (sy - canvas.clientHeight / 2) / v.scale];
}

function onFloor(p) {
  return p.y[1] >= state.floor[0] && p.y[0] <= state.floor[1];
}

function contains(p, x, z) {
  if (x < p.box[0] || x > p.box[2] || z < p.box[1] || z > p.box[3]) return false;
  let inside = false;
  const v = p.xz;
  for (let i = 0, j = v.length - 2; i < v.length; j = i, i += 2) {
    if ((v[i + 1] > z) !== (v[j + 1] > z) &&
        x < (v[j] - v[i]) * (z - v[i + 1]) / (v[j + 1] - v[i + 1]) + v[i]) inside = !inside;
  }
  return inside;
}

// The highest polygon on the floor range under (x, z), or null.
function polygonAt(x, z) {
  let best = null;
  for (const p of state.polygons) {
    if (onFloor(p) && contains(p, x, z) && (!best || p.y[1] > best.y[1])) best = p;
  }
  return best;
}

function colourOf(p) {
  if ($('colour').value === 'island') return `hsl(${(p.island * 137.508) % 360}, 55%, 72%)`;
  if (p.area === 0) return '#b0c4de';
  return `hsl(${(p.area * 67) % 360}, 60%, 70%)`;
}

let drawPending = false;
function redraw() {
  if (drawPending) return;
  drawPending = true;
  requestAnimationFrame(() => { drawPending = false; draw(); });
}

function draw() {
  const dpr = window.devicePixelRatio || 1;
  const w = canvas.clientWidth;
  const h = canvas.clientHeight;
  if (canvas.width !== Math.round(w * dpr) || canvas.height !== Math.round(h * dpr)) {
    canvas.width = Math.round(w * dpr);
    canvas.height = Math.round(h * dpr);
  }
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  ctx.clearRect(0, 0, w, h);
  if (!state.detail) return;
  drawPolygons();
  if ($('show-tiles').checked) drawTiles();
  drawLinks();
  if ($('show-obstacles').checked) drawObstacles();
  if ($('show-heat').checked) drawHeat();
  drawCrowd();
  drawQuery();
}

function tracePolygon(p) {
  ctx.beginPath();
  for (let i = 0; i < p.xz.length; i += 2) {
    const [sx, sy] = toScreen(p.xz[i], p.xz[i + 1]);
    if (i === 0) ctx.moveTo(sx, sy); else ctx.lineTo(sx, sy);
  }
  ctx.closePath();
}

function drawPolygons() {
  ctx.lineWidth = 0.5;
  ctx.strokeStyle = 'rgba(40, 50, 60, 0.35)';
  const small = [];
  for (const p of state.polygons) {
    if (!onFloor(p)) continue;
    tracePolygon(p);
    ctx.fillStyle = colourOf(p);
    ctx.fill();
    ctx.stroke();
    if (isSmallIsland(p.island)) small.push(p);
  }
  ctx.lineWidth = 2;
  ctx.strokeStyle = '#d50000';
  for (const p of small) { tracePolygon(p); ctx.stroke(); }
  if (state.hover) {
    ctx.lineWidth = 2;
    ctx.strokeStyle = '#000';
    tracePolygon(state.hover);
    ctx.stroke();
  }
}

function drawTiles() {
  const d = state.detail;
  ctx.lineWidth = 1;
  ctx.strokeStyle = 'rgba(69, 90, 100, 0.6)';
  ctx.setLineDash([4, 4]);
  for (const t of d.tile_list) {
    const x0 = d.grid.origin[0] + t.x * d.tile_size;
    const z0 = d.grid.origin[2] + t.z * d.tile_size;
    const [ax, ay] = toScreen(x0, z0 + d.tile_size);
    const [bx, by] = toScreen(x0 + d.tile_size, z0);
    ctx.strokeRect(ax, ay, bx - ax, by - ay);
  }
  ctx.setLineDash([]);
}

function drawLinks() {
  ctx.lineWidth = 2;
  ctx.strokeStyle = ctx.fillStyle = '#ef6c00';
  for (const l of state.links) {
    if (l.start[1] < state.floor[0] - 2 && l.end[1] < state.floor[0] - 2) continue;
    const [ax, ay] = toScreen(l.start[0], l.start[2]);
    const [bx, by] = toScreen(l.end[0], l.end[2]);
    ctx.beginPath(); ctx.moveTo(ax, ay); ctx.lineTo(bx, by); ctx.stroke();
    ctx.beginPath(); ctx.arc(ax, ay, 3, 0, 2 * Math.PI); ctx.fill();
    if (!l.bidirectional) {
      const a = Math.atan2(by - ay, bx - ax);
      ctx.beginPath();
      ctx.moveTo(bx, by);
      ctx.lineTo(bx - 8 * Math.cos(a - 0.4), by - 8 * Math.sin(a - 0.4));
      ctx.lineTo(bx - 8 * Math.cos(a + 0.4), by - 8 * Math.sin(a + 0.4));
      ctx.fill();
    }
  }
}

function drawObstacles() {
  for (const layer of state.obstacles) {
    for (const o of layer.obstacles) {
      if (o.y[1] < state.floor[0] || o.y[0] > state.floor[1]) continue;
      tracePolygon(o);
      ctx.fillStyle = o.effect === 'block' ? 'rgba(33, 33, 33, 0.45)' : 'rgba(255, 193, 7, 0.35)';
      ctx.fill();
      ctx.lineWidth = 1.5;
      ctx.strokeStyle = o.effect === 'block' ? '#212121' : '#ff8f00';
      ctx.stroke();
    }
  }
}

function showObstacles() {
  const out = $('obstacles');
  out.replaceChildren();
  if (state.obstacles.length === 0) { out.textContent = 'none held'; return; }
  out.append(table(state.obstacles.map((l) => [
    l.name, `v${l.version}: ${l.obstacle_count} obstacles${l.truncated ? ' (some not drawn)' : ''}`])));
}

function drawHeat() {
  for (const call of state.heat) {
    const failed = call.status === 'NO_PATH' || call.status === 'START_OFF_MESH' ||
                   call.status === 'END_OFF_MESH';
    const [sx, sy] = toScreen(call.start[0], call.start[2]);
    const [ex, ey] = toScreen(call.end[0], call.end[2]);
    if (failed) {
      const [x, y] = call.status === 'END_OFF_MESH' ? [ex, ey] : [sx, sy];
      ctx.strokeStyle = '#c62828';
      ctx.lineWidth = 2;
      ctx.beginPath();
      ctx.moveTo(x - 4, y - 4); ctx.lineTo(x + 4, y + 4);
      ctx.moveTo(x + 4, y - 4); ctx.lineTo(x - 4, y + 4);
      ctx.stroke();
      continue;
    }
    ctx.fillStyle = 'rgba(46, 125, 50, 0.35)';
    ctx.beginPath(); ctx.arc(sx, sy, 3, 0, 2 * Math.PI); ctx.fill();
    ctx.fillStyle = 'rgba(21, 101, 192, 0.35)';
    ctx.beginPath(); ctx.arc(ex, ey, 3, 0, 2 * Math.PI); ctx.fill();
  }
}

function marker(p, colour) {
  const [x, y] = toScreen(p.x, p.z);
  ctx.fillStyle = colour;
  ctx.beginPath(); ctx.arc(x, y, 5, 0, 2 * Math.PI); ctx.fill();
}

function polyline(points, colour) {
  ctx.strokeStyle = colour;
  ctx.lineWidth = 3;
  ctx.beginPath();
  points.forEach((p, i) => {
    const [x, y] = toScreen(p.x, p.z);
    if (i === 0) ctx.moveTo(x, y); else ctx.lineTo(x, y);
  });
  ctx.stroke();
}

function drawQuery() {
  if (state.pathStart) marker(state.pathStart, '#2e7d32');
  if (drag && drag.tool !== 'pan' && drag.to) polyline([drag.from, drag.to], 'rgba(0,0,0,0.5)');
  const last = state.last;
  if (!last || !last.result) return;
  const r = last.result;
  const q = last.request;
  if (last.kind === 'path') {
    const points = r.waypoints.map((w) => w.position);
    polyline(points, '#6a1b9a');
    points.forEach((p) => marker(p, '#6a1b9a'));
    marker(q.start, '#2e7d32');
    marker(q.end, '#1565c0');
  } else if (last.kind === 'raycast') {
    polyline([q.start, q.end], 'rgba(0,0,0,0.3)');
    polyline([q.start, r.point], r.hit ? '#c62828' : '#2e7d32');
    marker(r.point, r.hit ? '#c62828' : '#2e7d32');
  } else if (last.kind === 'move') {
    polyline([q.start, q.end], 'rgba(0,0,0,0.3)');
    polyline([q.start, r.reached], r.verdict === 'VERDICT_VALID' ? '#2e7d32' : '#c62828');
    marker(r.reached, '#ef6c00');
  }
}

// ---- results and hover ----

function table(rows) {
  const t = document.createElement('table');
  for (const [k, v] of rows) {
    const tr = t.insertRow();
    tr.insertCell().textContent = k;
    tr.insertCell().textContent = v;
  }
  return t;
}

const fmt = (p) => `${p.x.toFixed(2)}, ${p.y.toFixed(2)}, ${p.z.toFixed(2)}`;

function showResult() {
  const out = $('result');
  out.replaceChildren();
  const last = state.last;
  if (!last) { out.textContent = 'pick a tool and use it on the map'; return; }
  if (last.error) { out.textContent = last.error; out.dataset.status = 'ERROR'; return; }
  const r = last.result;
  const rows = [['time', `${last.elapsed_ms.toFixed(2)} ms`]];
  if (last.kind === 'path') {
    out.dataset.status = r.status;
    rows.unshift(['status', r.status.replace('PATH_STATUS_', '')], ['length', `${r.length.toFixed(3)} m`],
                 ['nodes expanded', r.nodes_expanded], ['waypoints', r.waypoints.length]);
    out.append(table(rows));
    const list = document.createElement('ol');
    list.id = 'waypoints';
    for (const w of r.waypoints) {
      const li = document.createElement('li');
      li.textContent = fmt(w.position);
      li.dataset.x = w.position.x; li.dataset.y = w.position.y; li.dataset.z = w.position.z;
      list.append(li);
    }
    out.append(list);
    return;
  }
  if (last.kind === 'raycast') {
    out.dataset.status = r.hit ? 'HIT' : 'CLEAR';
    rows.unshift(['start on mesh', r.start_on_mesh], ['hit', r.hit], ['t', r.t.toFixed(4)],
                 ['point', fmt(r.point)]);
  } else {
    out.dataset.status = r.verdict;
    rows.unshift(['verdict', r.verdict.replace('VERDICT_', '')],
                 ['reason', r.reason.replace('REASON_', '')], ['reached', fmt(r.reached)],
                 ['distance', `${r.distance.toFixed(3)} m`]);
  }
  out.append(table(rows));
}

function showHover(p) {
  const out = $('hover');
  out.replaceChildren();
  if (!p) { out.textContent = 'no polygon here (on this floor range)'; return; }
  const area = state.detail.areas.find((a) => a.id === p.area);
  const island = state.detail.island_list[p.island] || {};
  const t = state.detail.tile_list[p.tile];
  out.append(table([
    ['polygon', p.ref], ['index in tile', p.index],
    ['area', `${p.area}${area ? ' ' + area.name : ''}`],
    ['island', `${p.island} (${island.polygons} polygons, ${island.area} m²${isSmallIsland(p.island) ? ', small' : ''})`],
    ['tile', `${p.tile} (grid ${t.x}, ${t.z})`],
    ['height', `${p.y[0]} to ${p.y[1]} m`],
  ]));
}

// ---- queries ----

// The filter chosen in the page: every area but the excluded ones (area_mask is a uint64,
// written as a decimal string as protobuf JSON wants it).
function filter() {
  const text = $('exclude').value.trim();
  if (!text) return undefined;
  let mask = (1n << 64n) - 1n;
  for (const part of text.split(',')) {
    const id = Number(part.trim());
    if (!Number.isInteger(id) || id < 0 || id > 63) throw new Error(`exclude areas: '${part}' is not an area id 0..63`);
    mask &= ~(1n << BigInt(id));
  }
  return { area_mask: mask.toString() };
}

// A world point of the map under the screen point, at the height of the polygon there.
function pick(sx, sy) {
  const [x, z] = toWorld(sx, sy);
  const p = polygonAt(x, z);
  const y = p ? (p.y[0] + p.y[1]) / 2 : (state.floor[0] + state.floor[1]) / 2;
  // The search box must reach the surface from the middle of the polygon's height range.
  const extent = p ? Math.max(2, (p.y[1] - p.y[0]) / 2 + 1) : 2;
  return { x: round(x), y: round(y), z: round(z), extent };
}

const round = (v) => Math.round(v * 1000) / 1000;
const pos = (p) => ({ x: p.x, y: p.y, z: p.z });

async function run(kind, path, request) {
  try {
    const f = filter();
    if (f) request.filter = f;
    const answer = await api(path, request);
    state.last = { kind, request, result: answer.result, elapsed_ms: answer.elapsed_ms };
  } catch (e) {
    state.last = { kind, request, error: e.message };
  }
  showResult();
  redraw();
  if ($('show-heat').checked) refreshHeat();
}

function findPath(a, b) {
  const extents = { x: 2, y: Math.max(a.extent, b.extent, 4), z: 2 };
  const options = { extents, agent_radius: Number($('radius').value) || 0 };
  if ($('exact').checked) options.mode = 'PATH_MODE_EXACT';
  return run('path', '/api/find_path', { map_id: state.detail.id, start: pos(a), end: pos(b), options });
}

function raycast(a, b) {
  const extents = { x: 0.5, y: Math.max(a.extent, 2), z: 0.5 };
  return run('raycast', '/api/raycast', { map_id: state.detail.id, start: pos(a), end: pos(b), extents });
}

function validateMove(a, b) {
  const extents = { x: 0.5, y: Math.max(a.extent, b.extent, 2), z: 0.5 };
  return run('move', '/api/validate_move', { map_id: state.detail.id, start: pos(a), end: pos(b), extents });
}

// The live layers: obstacle layers the replica holds for the map (they change under its callers'
// hands, so they are polled).
async function refreshObstacles() {
  if (!state.detail) return;
  try {
    const answer = await api('/api/obstacles?map=' + encodeURIComponent(state.detail.id));
    if (state.detail && answer.map === state.detail.id) {
      state.obstacles = answer.layers;
      showObstacles();
      redraw();
    }
  } catch (e) { /* the next poll tries again */ }
}

function refreshLive() {
  if (!state.ready || state.authRequired) return;
  if ($('show-heat').checked) refreshHeat();
  if ($('show-obstacles').checked) refreshObstacles();
  refreshCrowds();
}

async function refreshHeat() {
  if (!state.detail) return;
  try {
    state.heat = (await api('/api/heat?map=' + encodeURIComponent(state.detail.id))).calls;
    redraw();
  } catch (e) { /* the next poll tries again */ }
}
setInterval(refreshLive, 1000);

// ---- live crowds ----

// The crowd sessions on the map. The list is polled (sessions come and go with their callers'
// streams); the chosen session's agents come through its event stream.
async function refreshCrowds() {
  if (!state.detail) return;
  try {
    const answer = await api('/api/crowds');
    if (!state.detail) return;
    state.crowds = answer.crowds.filter((c) => c.map === state.detail.id);
    const select = $('crowd');
    const chosen = select.value;
    const labels = state.crowds.map((c) =>
      `#${c.session}: ${c.agents} agents, ${c.tick_hz ? c.tick_hz + ' Hz' : 'stepped by its caller'}`);
    const now = [...select.options].slice(1).map((o) => o.text);
    if (JSON.stringify(now) !== JSON.stringify(labels)) {
      select.replaceChildren(new Option('none', ''),
                             ...state.crowds.map((c, i) => new Option(labels[i], String(c.session))));
      select.value = state.crowds.some((c) => String(c.session) === chosen) ? chosen : '';
    }
  } catch (e) { /* the next poll tries again */ }
}

// Reads session `session`'s server-sent events with fetch rather than EventSource, which cannot
// send the Authorization header (and the token must never go in the URL).
async function watchCrowd(session) {
  stopCrowd();
  if (!session) return;
  const controller = new AbortController();
  state.crowdStream = controller;
  showCrowd('connecting…');
  const headers = { Accept: 'text/event-stream' };
  if (state.token) headers.Authorization = 'Bearer ' + state.token;
  try {
    const response = await fetch(`/api/crowds/${session}/events`, { headers, signal: controller.signal });
    if (!response.ok) {
      const text = await response.text();
      if (response.status === 401) askForToken('that token was refused');
      let message = text;
      try { const e = JSON.parse(text).error; message = `${e.code}: ${e.message}`; } catch (e) { /* text */ }
      throw new Error(`${response.status} ${message}`);
    }
    const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
    let buffer = '';
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      buffer += value;
      for (let at; (at = buffer.indexOf('\n\n')) >= 0; buffer = buffer.slice(at + 2)) {
        onCrowdEvent(buffer.slice(0, at), controller);
      }
    }
    if (state.crowdStream === controller) stopCrowd('the session ended');
  } catch (e) {
    if (state.crowdStream === controller) stopCrowd(`crowd stream: ${e.message}`);
  }
}

// One server-sent event: a frame (the crowd as of a tick), `end`, or a heartbeat comment.
function onCrowdEvent(text, controller) {
  if (state.crowdStream !== controller) return;
  let name = '';
  let data = '';
  for (const line of text.split('\n')) {
    if (line.startsWith('event: ')) name = line.slice(7);
    else if (line.startsWith('data: ')) data += line.slice(6);
  }
  if (!data) return;
  if (name === 'end') return stopCrowd('the session ended');
  state.crowd = JSON.parse(data);
  state.crowdFrames++;
  showCrowd();
  redraw();
}

// Stops reading the chosen session; `why` (when it ended by itself) is shown.
function stopCrowd(why) {
  const stream = state.crowdStream;
  state.crowdStream = null;
  if (stream) stream.abort();
  state.crowd = null;
  state.crowdFrames = 0;
  if (why) $('crowd').value = '';
  showCrowd(why || 'no crowd chosen');
  redraw();
}

function showCrowd(message) {
  const out = $('crowd-info');
  out.replaceChildren();
  const c = state.crowd;
  if (!c) { out.textContent = message; return; }
  const states = {};
  for (const a of c.agents) states[a.state] = (states[a.state] || 0) + 1;
  out.append(table([
    ['session', c.session], ['tick', `${c.tick} (${c.time.toFixed(2)} s of crowd time)`],
    ['rate', c.tick_hz ? `${c.tick_hz} Hz` : 'stepped by its caller'], ['agents', c.agent_count],
    ['states', Object.entries(states).map(([k, v]) => `${v} ${k}`).join(', ')],
    ['map version', c.map_version],
  ]));
}

const agentColours = {
  moving: '#00838f', arrived: '#2e7d32', idle: '#616161', stuck: '#c62828', no_path: '#c62828',
  on_link: '#ef6c00',
};

// Agents as circles of their radius, each with a tick along its velocity (0.5 s of walking).
function drawCrowd() {
  const c = state.crowd;
  if (!c) return;
  ctx.lineWidth = 1.5;
  for (const a of c.agents) {
    const [x, y, z] = a.position;
    if (y < state.floor[0] - 1 || y > state.floor[1] + 1) continue;
    const [sx, sy] = toScreen(x, z);
    const colour = agentColours[a.state] || '#000000';
    ctx.fillStyle = colour + '66';
    ctx.strokeStyle = colour;
    ctx.beginPath();
    ctx.arc(sx, sy, Math.max(a.radius * state.view.scale, 2), 0, 2 * Math.PI);
    ctx.fill();
    ctx.stroke();
    const [vx, vy] = toScreen(x + a.velocity[0] * 0.5, z + a.velocity[1] * 0.5);
    ctx.beginPath();
    ctx.moveTo(sx, sy);
    ctx.lineTo(vx, vy);
    ctx.stroke();
  }
}

// ---- mouse ----

let drag = null;  // {tool, sx, sy, from, to, moved}

canvas.addEventListener('contextmenu', (e) => e.preventDefault());
canvas.addEventListener('mousedown', (e) => {
  if (!state.detail) return;
  const tool = e.button !== 0 ? 'pan' : $('tool').value;
  drag = { tool, sx: e.offsetX, sy: e.offsetY, from: pick(e.offsetX, e.offsetY), to: null, moved: false };
});
canvas.addEventListener('mousemove', (e) => {
  if (drag) {
    const dx = e.offsetX - drag.sx;
    const dy = e.offsetY - drag.sy;
    if (Math.abs(dx) + Math.abs(dy) > 3) drag.moved = true;
    if (drag.tool === 'pan' || (drag.tool === 'path' && drag.moved)) {
      state.view.cx -= dx / state.view.scale;
      state.view.cz += dy / state.view.scale;
      drag.sx = e.offsetX;
      drag.sy = e.offsetY;
    } else if (drag.moved) {
      drag.to = pick(e.offsetX, e.offsetY);
    }
    redraw();
    return;
  }
  if (!state.detail) return;
  const [x, z] = toWorld(e.offsetX, e.offsetY);
  const p = polygonAt(x, z);
  if (p !== state.hover) { state.hover = p; showHover(p); redraw(); }
});
canvas.addEventListener('mouseup', (e) => {
  const d = drag;
  drag = null;
  if (!d) return;
  if (d.tool === 'path' && !d.moved) {
    const point = pick(e.offsetX, e.offsetY);
    if (!state.pathStart) {
      state.pathStart = point;
      state.last = null;
      showResult();
    } else {
      const a = state.pathStart;
      state.pathStart = null;
      findPath(a, point);
    }
  } else if ((d.tool === 'raycast' || d.tool === 'move') && d.moved) {
    const b = pick(e.offsetX, e.offsetY);
    if (d.tool === 'raycast') raycast(d.from, b); else validateMove(d.from, b);
  }
  redraw();
});
canvas.addEventListener('wheel', (e) => {
  e.preventDefault();
  const [x, z] = toWorld(e.offsetX, e.offsetY);
  state.view.scale *= Math.exp(-e.deltaY * 0.0015);
  // Keep the world point under the cursor where it was.
  const [x2, z2] = toWorld(e.offsetX, e.offsetY);
  state.view.cx += x - x2;
  state.view.cz += z - z2;
  redraw();
}, { passive: false });

// ---- controls ----

$('map').addEventListener('change', () => loadMap($('map').value).catch((e) => setStatus(e.message, true)));
for (const id of ['floor-min', 'floor-max']) {
  $(id).addEventListener('input', () => { if (state.detail) { updateFloor(); redraw(); } });
}
for (const id of ['colour', 'show-tiles']) $(id).addEventListener('change', redraw);
$('show-obstacles').addEventListener('change', () => { refreshLive(); redraw(); });
$('show-heat').addEventListener('change', () => { if ($('show-heat').checked) refreshHeat(); redraw(); });
$('tool').addEventListener('change', () => { state.pathStart = null; redraw(); });
$('crowd').addEventListener('change', () => watchCrowd($('crowd').value));
window.addEventListener('resize', redraw);

start();
