// Embeds that cost nothing until read (issue 37): load="visible" | "click" | "eager", posters,
// one module however many engage, no jump when a poster becomes the explorer, the theme from
// a host page's background, and compact heights at 375, 736 and 1280 px.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { appRoot, loaded, ROOT, SCREENSHOTS, screenshot, until, useE2E, waitText, withPage } from './harness.mjs';

const e2e = useE2E();
const POSTER = fs.readFileSync(path.join(ROOT, 'tests/e2e/fixtures/poster-landing.svg'), 'utf8');
const OPEN = 'Open the live explorer';

/** Serves `html` at /NAME.html and the fixture poster for every built-in's poster; counts the
 *  wasm requests (`page.wasm.length`). */
async function host(page, name, html) {
  page.wasm = [];
  page.on('request', (r) => r.url().endsWith('.wasm') && page.wasm.push(r.url()));
  await page.route(`**/${name}.html`, (r) => r.fulfill({ contentType: 'text/html', body: html }));
  await page.route('**/posters/*.svg', (r) => r.fulfill({ contentType: 'image/svg+xml', body: POSTER }));
  await page.goto(new URL(`${name}.html`, e2e.server.url).href);
}

const page1 = (body, head = '') => `<!doctype html><html><head><meta name="viewport" content="width=device-width, initial-scale=1">
  ${head}<script type="module" src="logtime-embed.js"></script>
  <style>body{margin:0;font:17px/1.6 Georgia,serif} .col{max-width:736px;margin:0 auto;padding:0 12px}</style></head>
  <body><div class="col">${body}</div></body></html>`;

/** Whether `id`'s explorer is live (its partition drawn). */
const live = (page, id) => page.locator(`#${id} [data-testid=partition]`).count().then((n) => n > 0);

test('load="click" and load="visible" fetch no wasm until engaged; the button (by keyboard) and scrolling do, one module for all', async () => {
  await withPage(e2e, { path: null, reducedMotion: 'reduce' }, async (page) => {
    await host(page, 'modes', page1(`<h1>Modes</h1>
      <logtime-explorer id="c" scenario="landing" load="click"></logtime-explorer>
      <div style="height:3000px"></div>
      <logtime-explorer id="v" scenario="lookup-scan" panels="partition lookup"></logtime-explorer>
      <logtime-explorer id="v2" scenario="landing" panels="partition log"></logtime-explorer>`));
    await page.waitForLoadState('networkidle');
    await page.waitForTimeout(400);
    assert.deepEqual(page.wasm, [], 'no wasm before any explorer is engaged');
    // The click poster: the built-in's picture, with alt text, and a real button.
    const img = page.locator('#c img');
    await img.waitFor();
    assert.match(await img.getAttribute('alt'), /landing/);
    assert.match(await img.getAttribute('src'), /\/posters\/landing\.svg$/);
    const button = page.locator('#c').getByRole('button', { name: OPEN });
    assert.equal(await button.count(), 1);
    // Keyboard: the first Tab reaches the button, Enter opens the live explorer.
    await page.keyboard.press('Tab');
    assert.equal(await page.evaluate(() => document.activeElement?.shadowRoot?.activeElement?.textContent), `▶${OPEN}`);
    await page.keyboard.press('Enter');
    await page.locator('#c [data-testid=partition]').waitFor();
    await loaded(page.locator('#c'));
    assert.equal(page.wasm.length, 1);
    // Focus moved into the explorer, not lost to the page.
    await until(async () => (await page.evaluate(() => document.activeElement?.id)) === 'c', { what: 'the focus inside the explorer' });
    assert.equal(await live(page, 'v'), false, 'the far explorers still wait');
    assert.equal(await live(page, 'v2'), false);
    await page.locator('#v').scrollIntoViewIfNeeded();
    await page.locator('#v [data-testid=partition]').waitFor();
    await page.locator('#v2 [data-testid=partition]').waitFor();
    assert.equal(page.wasm.length, 1, 'one module for the three explorers');
  });
});

test('load="eager" loads at once, even far below the fold; a load value it does not know names itself', async () => {
  await withPage(e2e, { path: null, reducedMotion: 'reduce' }, async (page) => {
    await host(page, 'eager', page1(`<div style="height:4000px"></div>
      <logtime-explorer id="e" scenario="landing" load="eager"></logtime-explorer>
      <logtime-explorer id="bad" scenario="landing" load="lazy"></logtime-explorer>`));
    await page.locator('#e [data-testid=partition]').waitFor();
    assert.equal(await page.evaluate(() => window.scrollY), 0, 'nothing scrolled');
    await waitText(page.locator('#bad [data-testid=logtime-error]'), /`load` value "lazy": expected visible, click or eager/);
    assert.equal(page.wasm.length, 1);
  });
});

test('posters: the fallback first, then poster=, then the built-in\'s; without a picture a line names it', async () => {
  await withPage(e2e, { path: null }, async (page) => {
    await page.route('**/mine/landing-step-3.svg', (r) => r.fulfill({ contentType: 'image/svg+xml', body: POSTER }));
    await host(page, 'posters', page1(`
      <logtime-explorer id="fb" scenario="landing" load="click"><p id="fbp">The author's own words.</p></logtime-explorer>
      <logtime-explorer id="attr" scenario="landing" load="click" poster="mine/landing-step-3.svg"></logtime-explorer>
      <logtime-explorer id="none" src="scenarios/landing.json" load="click"></logtime-explorer>`));
    assert.ok(await page.locator('#fbp').isVisible(), 'the fallback shows');
    assert.equal(await page.locator('#fb img').count(), 0);
    await page.locator('#attr img').waitFor();
    assert.match(await page.locator('#attr img').getAttribute('src'), /mine\/landing-step-3\.svg$/);
    assert.equal(await page.locator('#none img').count(), 0);
    assert.equal(await page.locator('#none .lt-poster-line').innerText(), 'A Logtime explorer');
    for (const id of ['fb', 'attr', 'none']) assert.equal(await page.locator(`#${id}`).getByRole('button', { name: OPEN }).count(), 1);
    await screenshot(page, 'lazy-posters');
    // Changing the poster before it loads shows the new one.
    await page.locator('#none').evaluate((el) => el.setAttribute('poster', 'mine/landing-step-3.svg'));
    await page.locator('#none img').waitFor();
  });
});

/** The page-y of the element after `id`'s explorer (its caption), in document coordinates. */
const below = (page, id) => page.locator(`#${id}`).evaluate((el) => {
  const next = el.closest('figure')?.querySelector('figcaption') ?? el.nextElementSibling;
  return next.getBoundingClientRect().top + window.scrollY;
});

for (const width of [375, 736, 1280]) {
  test(`docs page at ${width} px: nothing loads until engaged; the click swap keeps the text below in place; scrolling in moves nothing in view`, async () => {
    await withPage(e2e, { path: '/docs-example.html', viewport: { width, height: 800 }, reducedMotion: 'reduce' }, async (page) => {
      const wasm = [];
      page.on('request', (r) => r.url().endsWith('.wasm') && wasm.push(r.url()));
      await page.waitForLoadState('networkidle');
      await page.waitForTimeout(300);
      assert.deepEqual(wasm, [], 'nothing loads before the reader engages');
      await screenshot(page, `lazy-docs-${width}-before`);
      // The click-loaded explorer: the caption under it stays where it was.
      const before = await below(page, 'docs-lookup');
      const poster = Math.round((await page.locator('#docs-lookup').boundingBox()).height);
      await page.locator('#docs-lookup').getByRole('button', { name: OPEN }).click();
      await page.locator('#docs-lookup [data-testid=partition]').waitFor();
      await loaded(page.locator('#docs-lookup'));
      await waitText(page.locator('#docs-lookup [data-testid=lookup-answer]'), /offset 3\b/);
      const shift = Math.round((await below(page, 'docs-lookup')) - before);
      const live = Math.round((await page.locator('#docs-lookup').boundingBox()).height);
      console.log(`# ${width} px: #docs-lookup poster ${poster} px, live ${live} px, the caption moved ${shift} px`);
      assert.ok(Math.abs(shift) <= 24, `the caption under #docs-lookup moved ${shift} px`);
      // Scrolling through at a reader's pace: the others load ahead of the viewport, so nothing
      // in view moves (the page's layout shift score, as Chromium counts it, stays near 0).
      await page.evaluate(() => {
        window.__shift = 0;
        new PerformanceObserver((l) => { for (const e of l.getEntries()) if (!e.hadRecentInput) window.__shift += e.value; }).observe({ type: 'layout-shift' });
      });
      for (let i = 0; i < 80; i++) {
        const more = await page.evaluate(() => {
          window.scrollBy(0, 300);
          return window.scrollY + window.innerHeight < document.documentElement.scrollHeight - 1;
        });
        await page.waitForTimeout(250);
        if (!more) break;
      }
      for (const id of ['docs-rejection', 'docs-retention']) await page.locator(`#${id} [data-testid=partition]`).waitFor();
      await loaded(page);
      const score = await page.evaluate(() => window.__shift);
      console.log(`# ${width} px: layout shift while scrolling through ${score.toFixed(4)}`);
      assert.ok(score < 0.05, `layout shift ${score} while scrolling through`);
      assert.equal(wasm.length, 1, 'one module for the three explorers');
      await page.evaluate(() => window.scrollTo(0, 0));
      await screenshot(page, `lazy-docs-${width}-after`);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      assert.ok(overflow <= 0, `the page scrolls sideways by ${overflow} px`);
    });
  });
}

/** Whether anything inside `id`'s explorer cuts off its content (scrolls without saying so). */
async function cutOff(page, id) {
  return page.locator(`#${id}`).evaluate((host) => {
    const out = [];
    for (const el of host.shadowRoot.querySelectorAll('*')) {
      const c = getComputedStyle(el);
      // (Text hidden for the eye but kept for screen readers is 1 px tall on purpose.)
      if (c.overflowY === 'hidden' && el.scrollHeight > el.clientHeight + 1 && el.clientHeight > 1) out.push(`${el.tagName.toLowerCase()}.${el.className} in .${el.parentElement?.className} (${el.scrollHeight} > ${el.clientHeight})`);
    }
    return out;
  });
}

for (const [width, column] of [[375, 375], [1280, 736], [1280, 1280]]) {
  test(`compact at ${column} px: two panels and a walkthrough within their heights, nothing cut off`, async () => {
    await withPage(e2e, { path: null, viewport: { width, height: 900 }, reducedMotion: 'reduce' }, async (page) => {
      await host(page, `compact-${column}`, `<!doctype html><html><head><meta name="viewport" content="width=device-width, initial-scale=1">
        <script type="module" src="logtime-embed.js"></script><style>body{margin:0} .col{width:${column}px;max-width:100%;margin:0 auto}</style></head>
        <body><div class="col">
        <logtime-explorer id="two" scenario="lookup-scan" panels="partition lookup" step="4" load="eager"></logtime-explorer>
        <logtime-explorer id="walk" scenario="future-walkthrough" load="eager"></logtime-explorer>
        </div></body></html>`);
      for (const id of ['two', 'walk']) {
        await page.locator(`#${id} [data-testid=partition]`).waitFor();
        await loaded(page.locator(`#${id}`));
      }
      await waitText(page.locator('#two [data-testid=lookup-answer]'), /offset 3\b/);
      const h = async (id) => Math.round((await page.locator(`#${id}`).boundingBox()).height);
      const two = await h('two');
      const walk = await h('walk');
      console.log(`# column ${column}: two panels ${two} px, walkthrough ${walk} px`);
      await screenshot(page, `lazy-compact-${column}`);
      assert.ok(two <= (column < 500 ? 1100 : 900), `two-panel embed ${two} px at ${column} px`);
      if (column < 500) assert.ok(walk <= 1200, `walkthrough ${walk} px at ${column} px`);
      // The narration starts open (the height above is with it open); on a phone it folds away
      // behind a disclosure button, and opens again.
      const toggle = page.locator('#walk [data-testid=narration-toggle]');
      const narration = page.locator('#walk [data-testid=narration]');
      assert.equal(await narration.isVisible(), true, 'the narration is open as the walkthrough starts');
      if (column < 500) {
        assert.equal(await toggle.getAttribute('aria-expanded'), 'true');
        assert.equal(await toggle.getAttribute('aria-controls'), await narration.getAttribute('id'));
        await toggle.click();
        assert.equal(await toggle.getAttribute('aria-expanded'), 'false');
        assert.equal(await narration.isVisible(), false, 'folded away');
        const folded = await h('walk');
        console.log(`# column ${column}: walkthrough with the narration folded ${folded} px`);
        assert.ok(folded < walk, `folding the narration makes the embed shorter (${folded} < ${walk})`);
        await page.locator('#walk [data-testid=lesson]').screenshot({ path: path.join(SCREENSHOTS, `lazy-narration-folded-${column}.png`) });
        await toggle.press('Enter');
        assert.equal(await toggle.getAttribute('aria-expanded'), 'true');
        assert.equal(await narration.isVisible(), true, 'open again, by keyboard');
        assert.equal(await h('walk'), walk);
      } else {
        assert.equal(await toggle.isVisible(), false, 'a wide column keeps the narration without a fold');
      }
      // The lookup trace shows its last line (or scrolls, saying so with a scrollbar).
      const trace = await page.locator('#two .lt-trace').evaluate((el) => ({ sh: el.scrollHeight, ch: el.clientHeight, oy: getComputedStyle(el).overflowY }));
      assert.ok(trace.sh <= trace.ch + 1 || trace.oy === 'auto', `the trace is cut off: ${JSON.stringify(trace)}`);
      for (const id of ['two', 'walk']) assert.deepEqual(await cutOff(page, id), [], `#${id} cuts off content`);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      assert.ok(overflow <= 0, `the page scrolls sideways by ${overflow} px`);
    });
  });
}

test('a light page that declares no colour scheme gets light explorers on a dark system; a dark one dark', async () => {
  await withPage(e2e, { path: null, colorScheme: 'dark' }, async (page) => {
    await host(page, 'light-page', `<!doctype html><html><head><script type="module" src="logtime-embed.js"></script>
      <style>body{background:#fdfcf9;color:#222}</style></head><body>
      <logtime-explorer id="l" scenario="landing"></logtime-explorer>
      <div style="background:#1b1d21;padding:8px"><logtime-explorer id="d" scenario="landing"></logtime-explorer></div>
      </body></html>`);
    const l = await appRoot(page.locator('#l'));
    const d = await appRoot(page.locator('#d'));
    assert.equal(await l.getAttribute('data-theme'), 'light');
    assert.equal(await l.evaluate((el) => getComputedStyle(el).backgroundColor), 'rgb(255, 255, 255)');
    assert.equal(await d.getAttribute('data-theme'), 'dark', 'an explorer on a dark card follows the card');
    // The page turns dark (a site's toggle on <body>): the explorer follows.
    await page.evaluate(() => { document.body.style.background = '#121212'; });
    await until(async () => (await l.getAttribute('data-theme')) === 'dark', { what: 'the explorer following the page' });
  });
  await withPage(e2e, { path: null, colorScheme: 'light' }, async (page) => {
    await host(page, 'dark-page', `<!doctype html><html><head><script type="module" src="logtime-embed.js"></script>
      <style>html{background:#101214;color:#ddd}</style></head><body>
      <logtime-explorer id="x" scenario="landing"></logtime-explorer></body></html>`);
    assert.equal(await (await appRoot(page.locator('#x'))).getAttribute('data-theme'), 'dark');
  });
});
