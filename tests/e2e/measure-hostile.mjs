// The page's memory around hostile inputs (issue 41, finding 10), for measure.mjs
// `--only-hostile` (or after its other figures). Prints `name: value` lines:
//   hostile_baseline_js_heap_bytes, hostile_baseline_wasm_memory_bytes
//                          index.html?scenario=landing shown, after a forced garbage collection
//   hostile_z_link_*       the 1.4 MB `z=` deflate-bomb link (it inflates to about a gigabyte):
//                          _error (the message shown), _peak_js_heap_bytes (sampled every 50 ms
//                          from navigation to the error), _js_heap_bytes and _wasm_memory_bytes
//                          after the error and a forced garbage collection, _ms (navigation to
//                          the error)
//   hostile_embed_*        the same for a `<logtime-explorer>` given a 4.2 MB `z` attribute on
//                          embed-example.html (its own baseline: hostile_embed_baseline_js_heap_bytes)
// The heap is V8's used size (CDP `Runtime.getHeapUsage` after `HeapProfiler.collectGarbage`);
// the wasm memory is the instance's `memory.buffer.byteLength` (it never shrinks).
import fs from 'node:fs';
import path from 'node:path';
import { deflateBombZ } from './hostile-inputs.mjs';
import { DIST, VIEWPORTS } from './harness.mjs';

const WAIT_MS = 60_000;

/** The page's used JS heap after a forced garbage collection. */
async function heapAfterGc(cdp) {
  await cdp.send('HeapProfiler.collectGarbage');
  await cdp.send('HeapProfiler.collectGarbage');
  return (await cdp.send('Runtime.getHeapUsage')).usedSize;
}

const wasmMemory = (page) =>
  page.evaluate(async () => (await (await import('./logtime-web.js')).default()).memory.buffer.byteLength);

/** Samples the used heap every 50 ms until `stop()`; resolves to the largest seen. */
function peakSampler(cdp) {
  let peak = 0;
  let running = true;
  const done = (async () => {
    while (running) {
      try {
        peak = Math.max(peak, (await cdp.send('Runtime.getHeapUsage')).usedSize);
      } catch {
        // The page is navigating: the next sample reads the new one.
      }
      await new Promise((r) => setTimeout(r, 50));
    }
    return peak;
  })();
  return () => {
    running = false;
    return done;
  };
}

async function open(browser) {
  const context = await browser.newContext({ viewport: VIEWPORTS.desktop, colorScheme: 'light' });
  const page = await context.newPage();
  page.on('pageerror', (e) => console.error(`[measure] page error: ${String(e.message).split('\n')[0]}`));
  const cdp = await context.newCDPSession(page);
  await cdp.send('HeapProfiler.enable');
  return { context, page, cdp };
}

/** The standalone page's figures around the 1.4 MB `z=` link. */
async function zLink(browser, server, out) {
  const z = deflateBombZ(1.4);
  out('hostile_z_link_chars', z.length);
  const { context, page, cdp } = await open(browser);
  try {
    await page.goto(new URL('index.html?scenario=landing', server.url).href);
    await page.locator('[data-testid=partition]').waitFor({ timeout: WAIT_MS });
    out('hostile_baseline_js_heap_bytes', await heapAfterGc(cdp));
    out('hostile_baseline_wasm_memory_bytes', await wasmMemory(page));
    // The test server (like most) refuses a 1.4 MB request line: the page comes from here.
    const html = fs.readFileSync(path.join(DIST, 'index.html'), 'utf8');
    await page.route('**/index.html?z=*', (r) => r.fulfill({ contentType: 'text/html', body: html }));
    const stop = peakSampler(cdp);
    const t0 = Date.now();
    await page.goto(new URL(`index.html?z=${z}`, server.url).href);
    const box = page.locator('[data-testid=scenario-error]');
    await box.waitFor({ timeout: WAIT_MS });
    out('hostile_z_link_ms', Date.now() - t0);
    out('hostile_z_link_peak_js_heap_bytes', await stop());
    out('hostile_z_link_error', JSON.stringify((await box.innerText()).replace(/\s+/g, ' ').slice(0, 160)));
    out('hostile_z_link_js_heap_bytes', await heapAfterGc(cdp));
    out('hostile_z_link_wasm_memory_bytes', await wasmMemory(page));
  } finally {
    await context.close();
  }
}

/** embed-example.html's figures around a `<logtime-explorer>` with a 4.2 MB `z` attribute. */
async function embedAttribute(browser, server, out) {
  const z = deflateBombZ(4.2);
  out('hostile_embed_attribute_chars', z.length);
  const { context, page, cdp } = await open(browser);
  try {
    await page.goto(new URL('embed-example.html', server.url).href);
    await page.locator('#explorer-builtin [data-testid=partition]').waitFor({ timeout: WAIT_MS });
    out('hostile_embed_baseline_js_heap_bytes', await heapAfterGc(cdp));
    const stop = peakSampler(cdp);
    const t0 = Date.now();
    await page.evaluate((z) => {
      const el = document.createElement('logtime-explorer');
      el.id = 'bomb';
      el.setAttribute('z', z);
      document.querySelector('main').append(el);
      el.scrollIntoView();
    }, z);
    const box = page.locator('#bomb [data-testid=scenario-error]');
    await box.waitFor({ timeout: WAIT_MS });
    out('hostile_embed_ms', Date.now() - t0);
    out('hostile_embed_peak_js_heap_bytes', await stop());
    out('hostile_embed_error', JSON.stringify((await box.innerText()).replace(/\s+/g, ' ').slice(0, 160)));
    out('hostile_embed_js_heap_bytes', await heapAfterGc(cdp));
    out('hostile_embed_wasm_memory_bytes', await wasmMemory(page));
  } finally {
    await context.close();
  }
}

/** Measures both; a figure that cannot be measured is `fail(name, reason)`. */
export async function measureHostile(browser, server, out, fail) {
  for (const [name, f] of [['hostile_z_link', zLink], ['hostile_embed', embedAttribute]]) {
    try {
      await f(browser, server, out);
    } catch (e) {
      fail(name, String(e?.message || e).split('\n')[0].slice(0, 200));
    }
  }
}
