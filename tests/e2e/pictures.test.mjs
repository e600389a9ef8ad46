// Pictures of a moment: `logtime render` and the explorer's "Save picture" make SVGs whose link
// reopens the same moment; dropping such an SVG on the explorer reopens it too.
// Run: node --test tests/e2e/pictures.test.mjs   (after trunk build --release --offline and
// cargo build [--release] -p logtime-cli)
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { ROOT, SCREENSHOTS, appRoot, loaded, screenshot, until, useE2E, withPage } from './harness.mjs';

const e2e = useE2E();

/** The `logtime` binary built in target/ (release if there is one). */
function logtime() {
  for (const p of ['target/release/logtime', 'target/debug/logtime']) {
    const f = path.join(ROOT, p);
    if (fs.existsSync(f)) return f;
  }
  throw new Error('build the command first: cargo build -p logtime-cli');
}

/** Renders a picture with the command line; its text. */
function render(args) {
  const out = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'logtime-pic-')), 'p.svg');
  execFileSync(logtime(), ['render', ...args, '-o', out]);
  return fs.readFileSync(out, 'utf8');
}

/** The segments an SVG draws: `base: offsets line`, in order. */
function svgSegments(svg) {
  const out = [];
  for (const m of svg.matchAll(/<g data-segment="(\d+)">(.*?)<\/g>/g)) {
    const meta = [...m[2].matchAll(/<text[^>]*>(offsets [^<]*)<\/text>/g)].map((t) => t[1]);
    out.push(`${m[1]}: ${meta[0]}`);
  }
  return out;
}

/** The segments the explorer shows, in the same form. */
async function pageSegments(page) {
  return page.locator('.lt-seg').evaluateAll((cards) =>
    cards.map((c) => {
      const base = c.getAttribute('data-testid').replace('segment-', '');
      const meta = c.querySelector('.lt-seg-meta').textContent.trim();
      return `${base}: ${meta}`;
    }));
}

/** `data-logtime-moment` of an SVG's root, unescaped. */
function momentOf(svg) {
  const m = svg.match(/data-logtime-moment="([^"]*)"/);
  assert.ok(m, 'the SVG carries its moment');
  return m[1].replaceAll('&amp;', '&');
}

test('logtime render → open the picture\'s link → the same partition', async () => {
  const svg = render(['lookup-scan', '--step', 'end', '--lookup', '2025-11-04T10:00:05Z']);
  const href = svg.match(/<a href="([^"]*)"/)[1].replaceAll('&amp;', '&');
  assert.equal(href, `index.html${momentOf(svg)}`);
  await withPage(e2e, { path: `/${href}` }, async (page) => {
    await appRoot(page);
    await loaded(page);
    await until(async () => (await page.locator('.lt-seg').count()) > 0, { what: 'segments' });
    assert.deepEqual(await pageSegments(page), svgSegments(svg));
    assert.ok(svgSegments(svg).length > 0);
    // The lookup is there too: its answer is marked in both.
    assert.match(svg, /3 ✔/);
    await page.locator('.lt-tile-badge', { hasText: 'answer' }).first().waitFor();
  });
});

test('Save picture: the SVG names the moment shown; dropped on an explorer, it reopens it', async () => {
  let saved;
  await withPage(e2e, { path: '/index.html?scenario=future-pins-retention&step=2' }, async (page) => {
    await appRoot(page);
    await loaded(page);
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.locator('[data-testid=save-svg]').click(),
    ]);
    assert.equal(download.suggestedFilename(), 'future-pins-retention.svg');
    saved = fs.readFileSync(await download.path(), 'utf8');
    assert.equal(momentOf(saved), '?scenario=future-pins-retention&step=2');
    assert.deepEqual(svgSegments(saved), await pageSegments(page));
    await page.locator('[data-testid=picture-status]').waitFor();
    const [png] = await Promise.all([
      page.waitForEvent('download'),
      page.locator('[data-testid=save-png]').click(),
    ]);
    fs.mkdirSync(SCREENSHOTS, { recursive: true });
    const file = path.join(SCREENSHOTS, 'pictures-saved-png.png');
    await png.saveAs(file);
    const head = fs.readFileSync(file).subarray(0, 8);
    assert.deepEqual([...head], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    await screenshot(page, 'pictures-save-buttons-1280');
    await page.setViewportSize({ width: 375, height: 800 });
    await page.locator('[data-testid=save-svg]').scrollIntoViewIfNeeded();
    await page.screenshot({ path: path.join(SCREENSHOTS, 'pictures-save-buttons-375.png') });
  });
  await withPage(e2e, { path: '/index.html?scenario=landing' }, async (page) => {
    const root = await appRoot(page);
    await loaded(page);
    // The explorer lives in a shadow root: a locator reaches it.
    await page.locator('.lt-app').first().evaluate((app, text) => {
      const dt = new DataTransfer();
      dt.items.add(new File([text], 'moment.svg', { type: 'image/svg+xml' }));
      app.dispatchEvent(new DragEvent('dragover', { dataTransfer: dt, bubbles: true, cancelable: true }));
      app.dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
    }, saved);
    // (data-scenario names the page's option, not what is shown: the segments tell.)
    assert.equal(await root.getAttribute('data-scenario'), 'landing');
    await until(async () => JSON.stringify(await pageSegments(page)) === JSON.stringify(svgSegments(saved)), {
      what: 'the same segments as the picture',
    });
    await page.locator('text=A future stamp pins retention').first().waitFor();
  });
});

test('print: the standalone page prints the partition and panels, no controls', async () => {
  await withPage(e2e, { path: '/index.html?scenario=lookup-scan&step=4' }, async (page) => {
    await appRoot(page);
    await loaded(page);
    await page.emulateMedia({ media: 'print' });
    const visible = async (sel) => page.locator(sel).first().isVisible();
    for (const sel of ['[data-testid=step]', '[data-testid=save-svg]', '[data-testid=copy-link]', '.lt-zoom']) {
      assert.equal(await visible(sel), false, `${sel} is not printed`);
    }
    assert.equal(await visible('[data-testid=partition]'), true, 'the partition is printed');
    assert.equal(await visible('.lt-seg'), true, 'its segments too');
    const text = await page.locator('.lt-app').innerText();
    for (const word of ['Step ▶', 'Save picture', 'Copy link to this moment', 'Copy picture']) {
      assert.ok(!text.includes(word), `no "${word}" in print`);
    }
    await screenshot(page, 'pictures-print-standalone');
    const pdf = await page.pdf({ format: 'A4' });
    const pages = (pdf.toString('latin1').match(/\/Type\s*\/Page[^s]/g) || []).length;
    assert.ok(pages >= 1 && pages <= 6, `${pages} pages`);
    console.log(`standalone page prints on ${pages} A4 pages`);
  });
});
