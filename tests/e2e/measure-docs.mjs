// docs-example.html's lazy figures for tests/e2e/measure.mjs (see its header: docs_idle_*,
// docs_scrolled_wasm_requests, docs_embed_height_px, docs_embed_poster_px). `m` carries
// measure.mjs's printers (out, fail, short), newPage and WAIT_MS.
import zlib from 'node:zlib';
import { DOCS_EMBEDS, engageDocs } from './harness.mjs';

/** Scrolls `page` to its bottom a screen at a time (letting each position settle), then back. */
async function scrollThrough(page) {
  for (let i = 0; i < 60; i++) {
    const more = await page.evaluate(() => {
      window.scrollBy(0, window.innerHeight * 0.8);
      return window.scrollY + window.innerHeight < document.documentElement.scrollHeight - 1;
    });
    await page.waitForTimeout(150);
    if (!more) break;
  }
  await page.evaluate(() => window.scrollTo(0, 0));
}

/** docs-example.html: bytes and wasm requests before engagement and after scrolling through. */
export async function measureDocsIdle({ out, fail, short, newPage, WAIT_MS }, browser, server) {
  const { context, page, url } = await newPage(browser, server);
  const rows = [];
  const pending = [];
  let wasm = 0;
  page.on('request', (r) => r.url().endsWith('.wasm') && wasm++);
  page.on('response', (res) => {
    if (!res.url().startsWith('http')) return;
    pending.push(res.body().then((b) => rows.push([res.url(), b.length, zlib.gzipSync(b, { level: 9 }).length]), () => {}));
  });
  try {
    await page.goto(url('docs-example.html'), { waitUntil: 'load', timeout: WAIT_MS });
    await page.waitForLoadState('networkidle', { timeout: WAIT_MS }).catch(() => {});
    await page.waitForTimeout(500);
    await Promise.all(pending);
    let total = 0;
    for (const [u, raw, gz] of rows.sort((a, b) => b[2] - a[2])) {
      total += gz;
      console.error(`[measure]   docs_idle ${String(gz).padStart(8)} B gzip  ${String(raw).padStart(8)} B raw  ${new URL(u).pathname}`);
    }
    out('docs_idle_gzip_bytes_total', total);
    out('docs_idle_wasm_requests', wasm);
    await scrollThrough(page);
    await page.locator('#docs-retention [data-testid=partition]').waitFor({ timeout: WAIT_MS });
    out('docs_scrolled_wasm_requests', wasm);
  } catch (e) {
    fail('docs_idle_gzip_bytes_total', short(e));
  } finally {
    await context.close();
  }
}

/** Each docs embed's poster height and live height at three page widths. */
export async function measureDocsHeights({ out, fail, short, WAIT_MS }, browser, server) {
  for (const width of [375, 736, 1280]) {
    const context = await browser.newContext({ viewport: { width, height: 800 }, colorScheme: 'light', reducedMotion: 'reduce' });
    const page = await context.newPage();
    const height = (id) => page.locator(`#${id}`).evaluate((el) => Math.round(el.getBoundingClientRect().height));
    try {
      await page.goto(new URL('docs-example.html', server.url).href, { waitUntil: 'load', timeout: WAIT_MS });
      const posters = {};
      for (const id of DOCS_EMBEDS) posters[id] = await height(id);
      await engageDocs(page, { timeout: WAIT_MS });
      for (const id of DOCS_EMBEDS) {
        out(`docs_embed_height_px{embed=${id},viewport=${width}}`, await height(id));
        out(`docs_embed_poster_px{embed=${id},viewport=${width}}`, posters[id]);
      }
    } catch (e) {
      fail(`docs_embed_height_px{viewport=${width}}`, short(e));
    } finally {
      await context.close();
    }
  }
}
