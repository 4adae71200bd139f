// Browser tests of the map viewer (scripts/test_viewer.sh starts the servers and runs this).
// Headless Debian chromium, driven by puppeteer-core, against a live waymesh-server:
//   node viewer_test.mjs open URL GRPC_TARGET CLIENT_BIN QUERY SCREENSHOT
//     loads the page, picks the map "demo", clicks the two points of QUERY ("sx sy sz gx gy gz")
//     and checks that the path the page shows is the one waymesh-client gets over gRPC for the
//     request the page sent; hover, Raycast and ValidateMove by dragging (each compared with
//     gRPC too), the heat map; saves a screenshot.
//   node viewer_test.mjs crowd URL AGENTS SCREENSHOT
//     a crowd session of AGENTS agents runs on "demo" (scripts/test_viewer.sh holds it open
//     with waymesh-client RunCrowd): the page lists it, draws its agents from the session's
//     event stream and they move tick after tick; saves a screenshot.
//   node viewer_test.mjs auth URL TOKEN
//     the server has --auth-token: the page asks for the token and shows no map until it has
//     it; the API answers 401 without it or with a wrong one. With an https:// URL (a server
//     with --tls-cert; chromium is told to accept its self-signed certificate) the same, over
//     HTTPS, each check's name saying so.
// Prints "PASS name" / "FAIL name: why" per check.
import { execFileSync } from 'node:child_process';
import puppeteer from 'puppeteer-core';

const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';
const [mode, url, ...rest] = process.argv.slice(2);
const overHttps = url.startsWith('https:');

let failures = 0;
async function check(name, body) {
  try {
    await body();
    console.log(`PASS ${name}${overHttps ? ' (over HTTPS)' : ''}`);
  } catch (e) {
    failures++;
    console.log(`FAIL ${name}${overHttps ? ' (over HTTPS)' : ''}: ${e && e.message ? e.message : e}`);
  }
}
function expect(condition, message) {
  if (!condition) throw new Error(message);
}

async function openPage(browser) {
  const page = await browser.newPage();
  await page.setViewport({ width: 1280, height: 800 });
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(url, { waitUntil: 'load', timeout: 20000 });
  return { page, errors };
}

const ready = (page) => page.waitForFunction(() => window.viewer && window.viewer.ready, { timeout: 30000 });

// The page point over world (x, z).
async function screenPoint(page, x, z) {
  const box = await (await page.$('#view')).boundingBox();
  const [sx, sy] = await page.evaluate((x, z) => toScreen(x, z), x, z);
  return [box.x + sx, box.y + sy];
}

// Drags with the left button from world (x0, z0) to (x1, z1), with the tool `tool`; waits for
// the page's answer of that kind and returns it (window.viewer.last).
async function dragQuery(page, tool, kind, [x0, z0], [x1, z1]) {
  await page.select('#tool', tool);
  const [ax, ay] = await screenPoint(page, x0, z0);
  const [bx, by] = await screenPoint(page, x1, z1);
  await page.mouse.move(ax, ay);
  await page.mouse.down();
  await page.mouse.move((ax + bx) / 2, (ay + by) / 2, { steps: 4 });
  await page.mouse.move(bx, by, { steps: 4 });
  await page.mouse.up();
  await page.waitForFunction((k) => window.viewer.last && window.viewer.last.kind === k, { timeout: 20000 }, kind);
  return page.evaluate(() => window.viewer.last);
}

// FindPath over gRPC with waymesh-client, the request as the page sent it.
function grpcCall(target, client, method, request) {
  const out = execFileSync(client, [`--target=${target}`, method, JSON.stringify(request)], {
    encoding: 'utf8', timeout: 20000,
  });
  return JSON.parse(out);
}

function samePoint(a, b) {
  return Math.abs(a.x - b.x) < 1e-4 && Math.abs(a.y - b.y) < 1e-4 && Math.abs(a.z - b.z) < 1e-4;
}

async function openTests(browser) {
  const [target, client, query, screenshot] = rest;
  const [sx, sy, sz, gx, gy, gz] = query.trim().split(/\s+/).map(Number);
  const { page, errors } = await openPage(browser);
  await check('page loads and lists the demo map', async () => {
    await ready(page);
    const options = await page.$$eval('#map option', (os) => os.map((o) => o.value));
    expect(options.includes('demo'), `map list is ${JSON.stringify(options)}`);
  });
  await check('picking the demo map draws every tile', async () => {
    await page.select('#map', 'demo');
    await page.waitForFunction(() => window.viewer.detail && window.viewer.detail.id === 'demo' && window.viewer.ready,
                               { timeout: 30000 });
    const [drawn, expected, tiles] = await page.evaluate(() => [
      window.viewer.polygons.length, window.viewer.detail.polygons, window.viewer.detail.tiles]);
    expect(drawn === expected && tiles > 0, `${drawn} polygons drawn of ${expected}`);
  });
  await check('hovering shows the polygon, area, island and tile', async () => {
    const [x, y] = await screenPoint(page, sx, sz);
    await page.mouse.move(x, y);
    const text = await page.$eval('#hover', (e) => e.textContent);
    expect(/polygon\d+/.test(text) && text.includes('island') && text.includes('tile'), `hover says '${text}'`);
  });
  let shown = null;
  await check('clicking start and end shows a FindPath answer', async () => {
    const [ax, ay] = await screenPoint(page, sx, sz);
    const [bx, by] = await screenPoint(page, gx, gz);
    await page.mouse.click(ax, ay);
    await page.mouse.click(bx, by);
    await page.waitForSelector('#waypoints li', { timeout: 20000 });
    shown = await page.evaluate(() => ({
      request: window.viewer.last.request,
      status: document.querySelector('#result').dataset.status,
      text: document.querySelector('#result').textContent,
      waypoints: [...document.querySelectorAll('#waypoints li')].map((li) => ({
        x: Number(li.dataset.x), y: Number(li.dataset.y), z: Number(li.dataset.z) })),
    }));
    expect(shown.status === 'PATH_STATUS_COMPLETE', `status ${shown.status}`);
    expect(shown.waypoints.length >= 2, `${shown.waypoints.length} waypoints`);
    expect(/length/.test(shown.text) && /nodes expanded/.test(shown.text) && /ms/.test(shown.text),
           `result panel: ${shown.text}`);
    const r = shown.request;
    // The clicks land within a pixel of the query's points.
    const pixel = 2 / await page.evaluate(() => window.viewer.view.scale);
    expect(Math.hypot(r.start.x - sx, r.start.z - sz) < pixel && Math.hypot(r.end.x - gx, r.end.z - gz) < pixel,
           `clicked ${JSON.stringify(r.start)} -> ${JSON.stringify(r.end)}, meant ${sx},${sz} -> ${gx},${gz}`);
  });
  await check('the path shown equals the gRPC FindPath answer', async () => {
    expect(shown, 'no path shown');
    const grpc = grpcCall(target, client, 'FindPath', shown.request);
    const points = grpc.waypoints.map((w) => w.position);
    expect(grpc.status === shown.status, `gRPC status ${grpc.status}`);
    expect(points.length === shown.waypoints.length && points.every((p, i) => samePoint(p, shown.waypoints[i])),
           `gRPC ${JSON.stringify(points)} vs page ${JSON.stringify(shown.waypoints)}`);
    const pageLength = await page.evaluate(() => window.viewer.last.result.length);
    expect(Math.abs(pageLength - grpc.length) < 1e-4, `length ${pageLength} vs ${grpc.length}`);
  });
  await check('dragging casts a ray, answered as over gRPC', async () => {
    const last = await dragQuery(page, 'raycast', 'raycast', [sx, sz], [gx, gz]);
    expect(!last.error, last.error);
    const grpc = grpcCall(target, client, 'Raycast', last.request);
    expect(grpc.hit === last.result.hit && samePoint(grpc.point, last.result.point),
           `gRPC ${JSON.stringify(grpc)} vs page ${JSON.stringify(last.result)}`);
  });
  await check('dragging validates a move, answered as over gRPC', async () => {
    const last = await dragQuery(page, 'move', 'move', [sx, sz], [sx + 3, sz]);
    expect(!last.error, last.error);
    const grpc = grpcCall(target, client, 'ValidateMove', last.request);
    expect(grpc.verdict === last.result.verdict && samePoint(grpc.reached, last.result.reached),
           `gRPC ${JSON.stringify(grpc)} vs page ${JSON.stringify(last.result)}`);
    const shownVerdict = await page.$eval('#result', (e) => e.dataset.status);
    expect(shownVerdict === grpc.verdict, `page shows ${shownVerdict}`);
  });
  await check('the heat map has the clicked path', async () => {
    await page.click('#show-heat');
    await page.waitForFunction(() => window.viewer.heat.length > 0, { timeout: 10000 });
    const heat = await page.evaluate(() => window.viewer.heat);
    const r = shown.request;
    expect(heat.some((c) => Math.abs(c.start[0] - r.start.x) < 1e-3 && Math.abs(c.start[2] - r.start.z) < 1e-3 &&
                            c.status === 'COMPLETE'), `heat ${JSON.stringify(heat)}`);
  });
  await check('no script errors', async () => expect(errors.length === 0, errors.join('; ')));
  // The picture: the path again, with the heat map on.
  await page.select('#tool', 'path');
  const [ax, ay] = await screenPoint(page, sx, sz);
  const [bx, by] = await screenPoint(page, gx, gz);
  await page.mouse.click(ax, ay);
  await page.mouse.click(bx, by);
  await page.waitForFunction(() => window.viewer.last && window.viewer.last.kind === 'path' && window.viewer.last.result,
                             { timeout: 20000 });
  await page.mouse.move(ax + 40, ay - 60);
  await page.screenshot({ path: screenshot });
}

async function crowdTests(browser) {
  const [agents, screenshot] = rest;
  const { page, errors } = await openPage(browser);
  await check('the page lists the live crowd session on the map', async () => {
    await ready(page);
    await page.waitForFunction(() => document.querySelectorAll('#crowd option').length > 1, { timeout: 10000 });
  });
  let first = null;
  await check('picking it draws every agent of the session from its event stream', async () => {
    const value = await page.$eval('#crowd option:nth-child(2)', (o) => o.value);
    await page.select('#crowd', value);
    await page.waitForFunction(() => window.viewer.crowdFrames >= 2, { timeout: 10000 });
    first = await page.evaluate(() => window.viewer.crowd);
    expect(first.agents.length === Number(agents), `${first.agents.length} agents, ${agents} added`);
    // Drawn: the canvas under each agent changes when the crowd layer is taken away.
    const drawn = await page.evaluate(() => {
      const crowd = window.viewer.crowd;
      const dpr = window.devicePixelRatio || 1;
      const under = (a) => {
        const [sx, sy] = toScreen(a.position[0], a.position[2]);
        return ctx.getImageData(Math.round(sx * dpr), Math.round(sy * dpr), 1, 1).data.join(',');
      };
      draw();
      const shown = crowd.agents.map(under);
      window.viewer.crowd = null;
      draw();
      const hidden = crowd.agents.map(under);
      window.viewer.crowd = crowd;
      draw();
      return shown.filter((p, i) => p !== hidden[i]).length;
    });
    expect(drawn === first.agents.length, `${drawn} of ${first.agents.length} agents drawn`);
  });
  await check('the agents move, tick after tick', async () => {
    expect(first, 'no crowd shown');
    await page.waitForFunction((t) => window.viewer.crowd && window.viewer.crowd.tick >= t + 5,
                               { timeout: 10000 }, first.tick);
    const later = await page.evaluate(() => window.viewer.crowd);
    const moved = Math.max(...later.agents.map((a) => {
      const b = first.agents.find((f) => f.id === a.id);
      return b ? Math.hypot(a.position[0] - b.position[0], a.position[2] - b.position[2]) : 0;
    }));
    expect(later.tick > first.tick && moved > 0.5, `tick ${first.tick} -> ${later.tick}, moved ${moved} m`);
    const panel = await page.$eval('#crowd-info', (e) => e.textContent);
    expect(panel.includes(`${later.session}`) && /moving|arrived/.test(panel), `panel says '${panel}'`);
  });
  await check('no script errors', async () => expect(errors.length === 0, errors.join('; ')));
  // The picture: zoomed in on the crowd.
  await page.evaluate(() => {
    const agents = window.viewer.crowd ? window.viewer.crowd.agents : [];
    if (agents.length === 0) return;
    window.viewer.view.cx = agents.reduce((s, a) => s + a.position[0], 0) / agents.length;
    window.viewer.view.cz = agents.reduce((s, a) => s + a.position[2], 0) / agents.length;
    window.viewer.view.scale = 30;
    draw();
  });
  await page.screenshot({ path: screenshot });
}

async function authTests(browser) {
  const [token] = rest;
  const { page, errors } = await openPage(browser);
  await check('with --auth-token the page asks for the token and shows no map', async () => {
    await page.waitForFunction(() => window.viewer.authRequired, { timeout: 20000 });
    const open = await page.$eval('#auth', (d) => d.open);
    const maps = await page.$$eval('#map option', (os) => os.length);
    expect(open && maps === 0, `dialog open ${open}, ${maps} maps listed`);
  });
  await check('the API refuses without the token or with a wrong one (401)', async () => {
    const codes = await page.evaluate(async () => {
      const none = await fetch('/api/maps');
      const wrong = await fetch('/api/maps', { headers: { Authorization: 'Bearer wrong' } });
      const path = await fetch('/api/find_path', { method: 'POST', body: '{}' });
      return [none.status, wrong.status, path.status, none.headers.get('WWW-Authenticate')];
    });
    expect(codes[0] === 401 && codes[1] === 401 && codes[2] === 401 && codes[3] === 'Bearer',
           `answers ${JSON.stringify(codes)}`);
  });
  await check('with the token typed in, the page lists and draws the map', async () => {
    await page.type('#token', token);
    await page.click('#token-ok');
    await ready(page);
    const maps = await page.$$eval('#map option', (os) => os.map((o) => o.value));
    expect(maps.includes('demo'), `maps ${JSON.stringify(maps)}`);
  });
  await check('no script errors', async () => expect(errors.length === 0, errors.join('; ')));
}

const browser = await puppeteer.launch({
  executablePath: CHROMIUM,
  headless: true,
  args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage',
         ...(overHttps ? ['--ignore-certificate-errors'] : [])],
});
try {
  if (mode === 'open') await openTests(browser);
  else if (mode === 'auth') await authTests(browser);
  else if (mode === 'crowd') await crowdTests(browser);
  else throw new Error(`unknown mode ${mode}`);
} catch (e) {
  failures++;
  console.log(`FAIL ${mode} tests: ${e.message}`);
} finally {
  await browser.close();
}
process.exit(failures ? 1 : 0);
