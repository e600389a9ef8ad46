// Shared helpers for Logtime's end-to-end tests (node:test + playwright-core + /usr/bin/chromium).
//
//   import { useE2E, withPage, screenshot, appRoot } from './harness.mjs';
//   const e2e = useE2E();                       // static server on dist/ + one browser per file
//   test('loads', async () => {
//     await withPage(e2e, { path: '/' }, async (page) => {
//       await appRoot(page);                    // waits for [data-testid=app-root]
//       await screenshot(page, 'index-desktop-light');
//     });                                        // fails on any console error / page error
//   });
//
// Build first: `trunk build --release --offline` (scripts/test.sh does it).
import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import { createRequire } from 'node:module';
import path from 'node:path';
import { after, before } from 'node:test';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const require = createRequire(import.meta.url);
export const ROOT = path.resolve(HERE, '..', '..');
export const DIST = path.resolve(process.env.LOGTIME_DIST || path.join(ROOT, 'dist'));
export const SCREENSHOTS = path.join(HERE, 'screenshots');
export const CHROMIUM = process.env.LOGTIME_CHROMIUM || '/usr/bin/chromium';

/** Chromium flags that keep it quiet on a closed network and work as root. */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
];

export const VIEWPORTS = {
  desktop: { width: 1280, height: 800 },
  mobile: { width: 375, height: 800 },
};

const MIME = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.wasm': 'application/wasm',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.ico': 'image/x-icon',
  '.txt': 'text/plain; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.woff2': 'font/woff2',
};

/**
 * Serves `dir` (default dist/) on 127.0.0.1 at a free port, adding `headers` to every response.
 * Resolves to { url: 'http://127.0.0.1:PORT/', port, close() }.
 */
export async function startServer(dir = DIST, headers = {}) {
  if (!fs.existsSync(path.join(dir, 'index.html'))) {
    throw new Error(`${dir}/index.html not found: build first (trunk build --release --offline)`);
  }
  const root = path.resolve(dir);
  const server = http.createServer((req, res) => {
    let pathname;
    try {
      pathname = decodeURIComponent(new URL(req.url, 'http://x').pathname);
    } catch {
      res.writeHead(400).end('bad request');
      return;
    }
    let file = path.resolve(root, '.' + pathname);
    if (file !== root && !file.startsWith(root + path.sep)) {
      res.writeHead(403).end('forbidden');
      return;
    }
    if (fs.existsSync(file) && fs.statSync(file).isDirectory()) file = path.join(file, 'index.html');
    fs.readFile(file, (err, body) => {
      if (err) {
        res.writeHead(404, { 'content-type': 'text/plain' }).end(`not found: ${pathname}`);
        return;
      }
      res.writeHead(200, {
        'content-type': MIME[path.extname(file).toLowerCase()] || 'application/octet-stream',
        'content-length': body.length,
        'cache-control': 'no-cache',
        ...headers,
      });
      res.end(req.method === 'HEAD' ? undefined : body);
    });
  });
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const { port } = server.address();
  return {
    port,
    url: `http://127.0.0.1:${port}/`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections?.();
        server.close(() => resolve());
      }),
  };
}

/**
 * Launches /usr/bin/chromium headless. playwright-core gives every launch a fresh,
 * temporary user-data-dir (and deletes it on close).
 */
export async function launchBrowser() {
  if (!fs.existsSync(CHROMIUM)) {
    throw new Error(`${CHROMIUM} not found: run scripts/setup.sh (apt-get install chromium)`);
  }
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: CHROMIUM_ARGS,
    timeout: 60_000,
  });
}

/**
 * Registers before/after hooks for the current test file: one static server on dist/
 * and one browser. Returns an object whose `server` and `browser` are set once `before` ran.
 */
export function useE2E() {
  const ctx = { server: null, browser: null };
  before(async () => {
    ctx.server = await startServer();
    ctx.browser = await launchBrowser();
  });
  after(async () => {
    await ctx.browser?.close();
    await ctx.server?.close();
  });
  return ctx;
}

/**
 * Opens a fresh browser context + page, runs `fn(page)`, then FAILS if the page logged any
 * console error, threw an uncaught error, or got an HTTP error (>= 400) for any request.
 *
 * opts: { path = '/', viewport = 'desktop' | {width,height}, colorScheme = 'light' | 'dark',
 *         reducedMotion, allowErrors: [RegExp] (expected errors, e.g. bad-attribute tests),
 *         waitUntil = 'load' }
 * `page.errors` holds what was collected so far.
 */
export async function withPage(e2e, opts, fn) {
  const {
    path: p = '/',
    viewport = 'desktop',
    colorScheme = 'light',
    reducedMotion = 'no-preference',
    allowErrors = [],
    waitUntil = 'load',
  } = opts || {};
  const context = await e2e.browser.newContext({
    viewport: typeof viewport === 'string' ? VIEWPORTS[viewport] : viewport,
    colorScheme,
    reducedMotion,
  });
  const page = await context.newPage();
  const errors = [];
  page.errors = errors;
  // A built-in's poster (static/posters/<name>.svg) that the build does not ship yet: the
  // loader keeps its line in its place, which the tests of posters check themselves.
  const allowed = (text) => allowErrors.some((re) => re.test(text)) || /\/static\/posters\/[^/]+\.svg/.test(text);
  const record = (text) => {
    if (!allowed(text)) errors.push(text);
  };
  page.on('console', (msg) => {
    if (msg.type() === 'error') {
      const loc = msg.location();
      record(`console.error: ${msg.text()}${loc?.url ? ` (${loc.url}:${loc.lineNumber})` : ''}`);
    }
  });
  page.on('pageerror', (err) => record(`page error: ${err.stack || err}`));
  page.on('response', (res) => {
    if (res.status() >= 400) record(`HTTP ${res.status()} for ${res.url()}`);
  });
  page.on('requestfailed', (req) => record(`request failed: ${req.url()} (${req.failure()?.errorText})`));
  try {
    if (p !== null) await page.goto(new URL(p.replace(/^\//, ''), e2e.server.url).href, { waitUntil });
    await fn(page);
    // Let late errors (e.g. from a render scheduled after the last assertion) surface.
    await page.waitForTimeout(100);
    assert.deepEqual(errors, [], `the page reported errors:\n  ${errors.join('\n  ')}`);
  } finally {
    await context.close();
  }
}

/** Waits for an explorer's root element ([data-testid=app-root]) under `scope` (a page or locator). */
export async function appRoot(scope, { timeout = 20_000, within = '' } = {}) {
  const sel = `${within ? within + ' ' : ''}[data-testid=app-root]`;
  const loc = scope.locator(sel).first();
  try {
    await loc.waitFor({ state: 'attached', timeout });
  } catch (e) {
    throw new Error(`no ${sel} within ${timeout} ms: the explorer did not mount (${e.message.split('\n')[0]})`);
  }
  return loc;
}

/**
 * Waits until no explorer in `scope` is loading (its `aria-busy` gone): a built-in scenario is
 * fetched after the page mounts, and until it arrives the controls are disabled.
 */
export async function loaded(scope, { timeout = 20_000 } = {}) {
  await scope.locator('.lt-app[aria-busy=true]').first().waitFor({ state: 'detached', timeout });
}

/** Saves a full-page PNG to tests/e2e/screenshots/NAME.png and returns its path. */
export async function screenshot(page, name) {
  fs.mkdirSync(SCREENSHOTS, { recursive: true });
  const file = path.join(SCREENSHOTS, `${name.replace(/[^a-zA-Z0-9_.-]/g, '_')}.png`);
  await page.screenshot({ path: file, fullPage: true });
  return file;
}

/** Waits until `locator`'s text matches `re` (locators see into open shadow roots). */
export async function waitText(locator, re, { timeout = 15_000 } = {}) {
  const end = Date.now() + timeout;
  let last = '';
  while (Date.now() < end) {
    last = (await locator.first().innerText().catch(() => '')).replace(/\s+/g, ' ');
    if (re.test(last)) return last;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`text ${JSON.stringify(last.slice(0, 200))} did not match ${re} within ${timeout} ms`);
}

/** Waits until `fn()` (async) returns a truthy value; resolves to it. */
export async function until(fn, { timeout = 15_000, what = 'condition' } = {}) {
  const end = Date.now() + timeout;
  for (;;) {
    const v = await fn().catch(() => undefined);
    if (v) return v;
    if (Date.now() > end) throw new Error(`${what} not reached within ${timeout} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}


/** axe-core's violations on the whole page, one line each (`id: help (targets)`); none is []. */
export async function axe(page) {
  await page.addScriptTag({ content: fs.readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8') });
  return page.evaluate(async () =>
    (await globalThis.axe.run(document, { resultTypes: ['violations'] })).violations.map((v) => `${v.id}: ${v.help} (${v.nodes.map((x) => x.target.join(' ')).join('; ')})`),
  );
}

/** The explorers of docs-example.html, top to bottom. */
export const DOCS_EMBEDS = ['docs-lookup', 'docs-rejection', 'docs-retention'];

/**
 * Engages every explorer of docs-example.html as a reader would (the first one's "Open the live
 * explorer" button; the others load when scrolled to) and waits until all three have loaded.
 */
export async function engageDocs(page, { timeout = 20_000 } = {}) {
  await page.locator('#docs-lookup').getByRole('button', { name: 'Open the live explorer' }).click({ timeout });
  for (const id of DOCS_EMBEDS) {
    await page.locator(`#${id}`).scrollIntoViewIfNeeded({ timeout });
    await page.locator(`#${id} [data-testid=partition]`).waitFor({ timeout });
  }
  await loaded(page, { timeout });
}
