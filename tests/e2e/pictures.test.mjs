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
import { DOCS_EMBEDS, ROOT, SCREENSHOTS, appRoot, engageDocs, loaded, screenshot, until, useE2E, withPage } from './harness.mjs';

const e2e = useE2E();

/** The `logtime` binary built in target/: the newer of release and debug (`cargo test` builds
 *  debug; an older release build would be another version of the command). */
function logtime() {
  const built = ['target/release/logtime', 'target/debug/logtime']
    .map((p) => path.join(ROOT, p))
    .filter((f) => fs.existsSync(f))
    .sort((a, b) => fs.statSync(b).mtimeMs - fs.statSync(a).mtimeMs);
  if (!built.length) throw new Error('build the command first: cargo build -p logtime-cli');
  return built[0];
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

/** The panels an SVG draws (`data-panel`), in order. */
const svgPanels = (svg) => [...svg.matchAll(/<g data-panel="([a-z]+)"/g)].map((m) => m[1]);

/** Saves the picture of the explorer `scope` shows (opening its Share row first in an embed). */
async function savePicture(page, scope = page) {
  const share = scope.locator('[data-testid=share]');
  if (await share.count()) await share.first().click();
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    scope.locator('[data-testid=save-svg]').first().click(),
  ]);
  return fs.readFileSync(await download.path(), 'utf8');
}

test('Save picture draws the panels on screen: an embed\'s lookup, the page\'s panels, a lesson\'s lane', async () => {
  // An embed with the lookup panel: the picture has the lookup panel and its trace, no other.
  const html = `<!doctype html><html lang="en"><head><title>t</title><script type="module" src="logtime-embed.js"></script></head>
    <body><main><logtime-explorer id="two" scenario="lookup-scan" panels="partition lookup" step="4" load="eager"></logtime-explorer></main></body></html>`;
  await withPage(e2e, { path: null }, async (page) => {
    await page.route('**/two-panels.html', (r) => r.fulfill({ contentType: 'text/html', body: html }));
    await page.goto(new URL('two-panels.html', e2e.server.url).href);
    const two = page.locator('#two');
    await two.locator('[data-testid=partition]').waitFor();
    await loaded(two);
    await two.locator('[data-testid=lookup-answer]').waitFor();
    const answer = (await two.locator('[data-testid=lookup-answer]').innerText()).trim();
    const svg = await savePicture(page, two);
    assert.deepEqual(svgPanels(svg), ['lookup'], 'the lookup panel, as on screen');
    assert.match(answer, /offset 3\b/);
    assert.match(svg, /<g data-panel="lookup">.*offset 3\b.*<\/g>/s, 'with the answer the page shows');
  });
  // The standalone page shows every panel: the lookup, retention and what happened.
  await withPage(e2e, { path: '/index.html?scenario=future-pins-retention&step=2' }, async (page) => {
    await appRoot(page);
    await loaded(page);
    await page.locator('[data-testid=retention-panel], .lt-retention').first().waitFor();
    const svg = await savePicture(page);
    assert.deepEqual(svgPanels(svg), ['lookup', 'retention', 'happened']);
  });
  // A lesson with a stream processor downstream: its lane is on screen, and in the picture.
  await withPage(e2e, { path: '/index.html?scenario=incident-08-event-time-downstream-walkthrough&step=6' }, async (page) => {
    await appRoot(page);
    await loaded(page);
    const lane = page.locator('[data-testid=stream-lane]');
    await lane.waitFor();
    const read = await lane.locator('[data-testid=lane-read]').innerText();
    const svg = await savePicture(page);
    assert.ok(svgPanels(svg).includes('lane'), `the lane panel in ${svgPanels(svg)}`);
    assert.ok(svg.includes(`Records read: ${read.trim()}`), `the lane's figures as the page shows them (${read})`);
    assert.match(svg, /<desc[^>]*>[^<]*event-time lane/, 'the description says so');
    await screenshot(page, 'pictures-lane-page-1280');
  });
});

/** The controls' own words (the narration may say "Step 4" or "broker clock", a control may
 *  not print): labels inside a line, and labels that are a line of their own. */
const CONTROL_TEXT = ['▶ Play', '‖ Pause', 'Step ▶', '◀ Back', '↻ Replay', '+1 min', 'Save picture', 'Copy picture',
  'Copy link to this moment', 'Save as a file', 'Open the live explorer', 'Import a partition'];
const CONTROL_LINES = ['Speed', 'Broker clock', 'Rules', 'Clock', 'PNG', 'Step', 'Play'];

/** The visible text of every open shadow root under the document (the explorers), and of the
 *  document itself unless `shadowsOnly` (a docs page's own prose may say "Step"); and the
 *  controls (buttons, fields, their labels; a segment or index entry is a button too, but of the
 *  picture; a config's name labels its value) still visible in the explorers. */
async function printed(page, { shadowsOnly = false } = {}) {
  return page.evaluate((only) => {
    const text = only ? [] : [document.body.innerText];
    const controls = [];
    const walk = (root) => {
      for (const el of root.querySelectorAll('*')) {
        if (root !== document && el.matches('.lt-btn, input, select, textarea, label:not(.lt-config-list label)') && el.checkVisibility()) {
          controls.push(el.outerHTML.slice(0, 80));
        }
        if (el.shadowRoot) {
          for (const c of el.shadowRoot.children) {
            if (!['STYLE', 'SCRIPT', 'LINK'].includes(c.tagName)) text.push(c.innerText);
          }
          walk(el.shadowRoot);
        }
      }
    };
    walk(document);
    return { text: text.join('\n'), controls };
  }, shadowsOnly);
}

/** The control words found in printed text. */
function controlWords(text) {
  const lines = text.split('\n').map((l) => l.trim());
  return [...CONTROL_TEXT.filter((w) => text.includes(w)), ...CONTROL_LINES.filter((w) => lines.includes(w))];
}

/** The number of pages of a PDF (its page objects). */
function pdfPages(pdf) {
  return (pdf.toString('latin1').match(/\/Type\s*\/Page[^s]/g) || []).length;
}

test('print: the standalone page prints the partition and panels, no controls', async () => {
  await withPage(e2e, { path: '/index.html?scenario=lookup-scan&step=4' }, async (page) => {
    await appRoot(page);
    await loaded(page);
    await page.emulateMedia({ media: 'print' });
    const visible = async (sel) => page.locator(sel).first().isVisible();
    for (const sel of ['[data-testid=step]', '[data-testid=save-svg]', '[data-testid=copy-link]', '.lt-zoom',
      '[data-testid=clock]', '[data-testid=import-panel]']) {
      assert.equal(await visible(sel), false, `${sel} is not printed`);
    }
    assert.equal(await visible('[data-testid=partition]'), true, 'the partition is printed');
    assert.equal(await visible('.lt-seg'), true, 'its segments too');
    const { text, controls } = await printed(page);
    assert.deepEqual(controlWords(text), [], 'no control text in print');
    assert.deepEqual(controls, [], 'no control in print');
    // The moment's title and link print (not the picture: the panels are the picture here).
    const caption = page.locator('[data-testid=print-picture] figcaption');
    assert.equal(await caption.isVisible(), true, 'the caption prints');
    assert.match(await caption.innerText(), /index\.html\?scenario=lookup-scan&step=4/);
    assert.equal(await page.locator('[data-testid=print-picture] svg').first().isVisible(), false);
    await page.setViewportSize({ width: 736, height: 1000 });
    await screenshot(page, 'pictures-print-standalone-736');
    const pages = pdfPages(await page.pdf({ format: 'A4' }));
    // Measured: 5 (the lookup trace, the log and the config list print whole).
    assert.ok(pages >= 4 && pages <= 6, `${pages} pages`);
    console.log(`standalone page prints on ${pages} A4 pages`);
  });
});

test('print: every embed of the docs page prints as its picture, caption and link; no controls', async () => {
  await withPage(e2e, { path: '/docs-example.html', viewport: { width: 736, height: 1000 } }, async (page) => {
    await engageDocs(page);
    // The moment changes as the reader moves on: the printed picture follows.
    await page.locator('#docs-retention [data-testid=step]').click();
    await page.emulateMedia({ media: 'print' });
    for (const id of DOCS_EMBEDS) {
      const fig = page.locator(`#${id} [data-testid=print-picture]`);
      await fig.waitFor({ state: 'visible' });
      assert.equal(await page.locator(`#${id} [data-testid=partition]`).isVisible(), false, `${id}: no live partition`);
      const svg = await fig.locator('svg').first().evaluate((e) => e.outerHTML);
      assert.match(svg, /data-logtime-moment="\?scenario=/, `${id}: the picture carries its moment`);
      const caption = await fig.locator('figcaption').innerText();
      const href = await fig.locator('figcaption a').getAttribute('href');
      assert.match(href, /^http:\/\/[^/]+\/index\.html\?scenario=/, `${id}: the link opens the explorer page`);
      assert.ok(caption.includes(href), `${id}: the caption shows the link`);
      const box = await fig.boundingBox();
      assert.ok(box && box.height > 100 && box.height < 1000, `${id}: picture ${box?.height} px tall`);
      // The title and the link print once: in the caption, not again in the picture's own text.
      // (The log's narration, drawn in the "what happened" panel, may quote the title in what
      // it says, "Loaded “…”": that is a sentence of the log, not the picture's heading.)
      const { title, drawn } = await fig.locator('svg').first().evaluate((svg) => ({
        title: svg.querySelector('title').textContent.replace(/ \(Logtime\)$/, ''),
        drawn: [...svg.querySelectorAll('text')].filter((t) => !t.closest('[data-panel=happened]')).map((t) => t.textContent),
      }));
      const printedText = [caption, ...drawn].join('\n');
      assert.equal(printedText.split(title).length - 1, 1, `${id}: "${title}" printed once in ${JSON.stringify(printedText.slice(0, 400))}`);
      assert.ok(!drawn.some((t) => t.includes(title.slice(0, 16))), `${id}: the picture leaves the title to the caption`);
      assert.equal(printedText.split(href).length - 1, 1, `${id}: the link printed once`);
      assert.ok(!drawn.some((t) => t.startsWith('Open this moment live')), `${id}: the picture leaves the link to the caption`);
    }
    const href = (id) => page.locator(`#${id} [data-testid=print-picture] figcaption a`).getAttribute('href');
    assert.match(await href('docs-lookup'), /scenario=lookup-scan&step=4/, 'the picture is of the moment shown');
    assert.match(await href('docs-retention'), /scenario=future-pins-retention&step=1(&|$)/, 'and follows a step');
    const { text, controls } = await printed(page, { shadowsOnly: true });
    assert.ok(text.includes('lookup-scan'), 'the explorers\' text is read');
    assert.deepEqual(controlWords(text), [], 'no control text in print');
    assert.deepEqual(controls, [], 'no control in print');
    await screenshot(page, 'pictures-print-docs-736');
    const pages = pdfPages(await page.pdf({ format: 'A4' }));
    assert.ok(pages >= 2 && pages <= 4, `${pages} pages`);
    console.log(`docs-example.html prints on ${pages} A4 pages`);
  });
});

test('a built-in\'s poster opened from a docs page in another folder links to the explorer page', async () => {
  const html = `<!doctype html><html lang="en"><head><title>t</title><script type="module" src="../logtime-embed.js"></script></head>
    <body><main><logtime-explorer id="p" scenario="landing" load="click"></logtime-explorer></main></body></html>`;
  await withPage(e2e, { path: null }, async (page) => {
    await page.route('**/guide/posters.html', (r) => r.fulfill({ contentType: 'text/html', body: html }));
    await page.goto(new URL('guide/posters.html', e2e.server.url).href);
    const img = page.locator('#p img').first();
    await img.waitFor();
    const src = await img.evaluate((i) => i.src);
    assert.match(src, /\/static\/posters\/landing\.svg$/);
    const svg = await (await page.request.get(src)).text();
    const href = svg.match(/<a href="([^"]*)"/)[1].replaceAll('&amp;', '&');
    const opened = new URL(href, src);
    assert.equal(opened.origin + opened.pathname, new URL('index.html', e2e.server.url).href, `${href} from ${src}`);
    assert.equal(opened.searchParams.get('scenario'), 'landing');
  });
});

test('lesson mode keeps the picture buttons', async () => {
  await withPage(e2e, { path: '/index.html?scenario=two-kinds-walkthrough' }, async (page) => {
    await appRoot(page);
    await loaded(page);
    await page.locator('.lt-lesson-mode').first().waitFor();
    assert.equal(await page.locator('[data-testid=clock]').count(), 0, 'the clock bar is hidden');
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.locator('[data-testid=save-svg]').click(),
    ]);
    const saved = fs.readFileSync(await download.path(), 'utf8');
    assert.match(momentOf(saved), /^\?scenario=two-kinds-walkthrough/);
    await page.locator('[data-testid=picture-status]').waitFor();
    await screenshot(page, 'pictures-lesson-buttons-1280');
    await page.setViewportSize({ width: 375, height: 800 });
    await page.locator('[data-testid=save-svg]').scrollIntoViewIfNeeded();
    await page.screenshot({ path: path.join(SCREENSHOTS, 'pictures-lesson-buttons-375.png') });
  });
});
