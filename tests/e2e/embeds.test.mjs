// Documentation embeds (issue 13): isolation both ways, themes, compact panels, no menu,
// heights that fit 360/736/1280 px columns, the JS-off fallback, the iframe's auto-height,
// moment links (round trip, back/forward, tampered links) and the docs page's three embeds.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import { test } from 'node:test';
import { appRoot, engageDocs, loaded, screenshot, until, useE2E, waitText, withPage } from './harness.mjs';

const e2e = useE2E();
const require = createRequire(import.meta.url);

/** The computed styles of the host page that must not change when explorers mount. */
async function hostStyles(page) {
  return page.evaluate(() => {
    const pick = (el) => {
      const c = getComputedStyle(el);
      return {
        font: c.fontFamily,
        size: c.fontSize,
        line: c.lineHeight,
        color: c.color,
        bg: c.backgroundColor,
        margin: c.margin,
        scheme: c.colorScheme,
      };
    };
    return {
      html: pick(document.documentElement),
      body: pick(document.body),
      h1: pick(document.querySelector('h1')),
      p: pick(document.querySelector('article p')),
      links: document.querySelectorAll('link[rel=stylesheet]').length,
      styles: document.querySelectorAll('style').length,
    };
  });
}

for (const colorScheme of ['light', 'dark']) {
  test(`host page styles are unchanged by mounting (${colorScheme})`, async () => {
    const context = await e2e.browser.newContext({ javaScriptEnabled: false, colorScheme });
    const off = await context.newPage();
    await off.goto(new URL('docs-example.html', e2e.server.url).href);
    const before = await hostStyles(off);
    await context.close();
    await withPage(e2e, { path: '/docs-example.html', colorScheme }, async (page) => {
      await engageDocs(page);
      const after = await hostStyles(page);
      assert.deepEqual(after, before);
      // The explorers follow the page's declared scheme (light dark: the reader's setting).
      const bg = await page.locator('#docs-lookup [data-testid=app-root]').evaluate((el) => getComputedStyle(el).backgroundColor);
      assert.equal(bg, colorScheme === 'dark' ? 'rgb(15, 19, 24)' : 'rgb(255, 255, 255)');
    });
  });
}

test('a light-only host keeps light explorers in dark mode; theme= overrides', async () => {
  const html = `<!doctype html><html><head><meta name="color-scheme" content="light">
    <script type="module" src="logtime-embed.js"></script></head><body>
    <logtime-explorer id="a" scenario="landing"></logtime-explorer>
    <logtime-explorer id="b" scenario="landing" theme="dark"></logtime-explorer></body></html>`;
  await withPage(e2e, { path: null, colorScheme: 'dark' }, async (page) => {
    await page.route('**/light-host.html', (r) => r.fulfill({ contentType: 'text/html', body: html }));
    await page.goto(new URL('light-host.html', e2e.server.url).href);
    const a = await appRoot(page.locator('#a'));
    const b = await appRoot(page.locator('#b'));
    assert.equal(await a.getAttribute('data-theme'), 'light');
    assert.equal(await b.getAttribute('data-theme'), 'dark');
    assert.equal(await a.evaluate((el) => getComputedStyle(el).backgroundColor), 'rgb(255, 255, 255)');
    assert.equal(await b.evaluate((el) => getComputedStyle(el).backgroundColor), 'rgb(15, 19, 24)');
    assert.equal(await page.evaluate(() => getComputedStyle(document.body).backgroundColor), 'rgba(0, 0, 0, 0)');
    // The page switches to dark (a docs site's toggle): explorers without a theme follow it.
    await page.evaluate(() => { document.querySelector('meta[name=color-scheme]').content = 'dark'; });
    await until(async () => (await a.getAttribute('data-theme')) === 'dark', { what: 'the explorer following the page' });
    assert.equal(await b.getAttribute('data-theme'), 'dark');
  });
});

test('a hostile host stylesheet (* { … !important }) does not break the explorer', async () => {
  const html = `<!doctype html><html><head>
    <style>* { color: red !important; font-family: "Comic Sans MS", cursive !important; font-size: 31px !important;
      display: inline !important; border: 4px solid lime !important; padding: 37px !important; background: yellow !important;
      position: static !important; } button { display: none !important; }</style>
    <script type="module" src="logtime-embed.js"></script></head><body>
    <logtime-explorer id="x" scenario="lookup-scan" panels="partition lookup log"></logtime-explorer></body></html>`;
  await withPage(e2e, { path: null, reducedMotion: 'reduce' }, async (page) => {
    await page.route('**/hostile.html', (r) => r.fulfill({ contentType: 'text/html', body: html }));
    await page.goto(new URL('hostile.html', e2e.server.url).href);
    const x = page.locator('#x');
    await x.locator('[data-testid=partition]').waitFor();
    const title = x.locator('[data-testid=scenario-title]');
    const style = await title.evaluate((el) => {
      const c = getComputedStyle(el);
      return { color: c.color, font: c.fontFamily, display: c.display, border: c.borderTopWidth };
    });
    assert.notEqual(style.color, 'rgb(255, 0, 0)');
    assert.doesNotMatch(style.font, /Comic/);
    assert.equal(style.display, 'block');
    assert.equal(style.border, '0px');
    assert.equal(await x.evaluate((el) => getComputedStyle(el).display), 'block', 'the host element stays a block');
    const step = x.locator('[data-testid=step]');
    assert.ok(await step.isVisible(), 'buttons inside are not hidden by the host');
    for (let i = 0; i < 4; i++) await step.click();
    await waitText(x.locator('[data-testid=lookup-answer]'), /offset 3\b/);
    await screenshot(page, 'embed-hostile-host');
  });
});

test('panels and menu: embeds show the panels named, and no scenario menu by default', async () => {
  await withPage(e2e, { path: '/docs-example.html' }, async (page) => {
    const lookup = page.locator('#docs-lookup');
    await engageDocs(page);
    assert.equal(await lookup.locator('.lt-app').getAttribute('data-panels'), 'partition lookup log');
    assert.equal(await lookup.locator('.lt-lookup').count(), 1);
    assert.equal(await lookup.locator('.lt-retention').count(), 0);
    assert.equal(await lookup.locator('.lt-config').count(), 0);
    assert.equal(await lookup.locator('.lt-chart').count(), 0);
    assert.equal(await page.locator('logtime-explorer [data-testid=scenario-menu]').count(), 0, 'no menu in embeds');
    // step="4" opened the lookup at its answer.
    await waitText(lookup.locator('[data-testid=lookup-answer]'), /offset 3\b/);
    // The clock bar is not sticky in an embed.
    assert.equal(await lookup.locator('.lt-clockbar').evaluate((el) => getComputedStyle(el).position), 'static');
    // menu="true" brings the menu back; a changed panels attribute applies at once, and leaves
    // the moment the reader went to alone.
    await lookup.locator('[data-testid=step-back]').click();
    await waitText(lookup.locator('.lt-scrub'), /Step 3 of 4/);
    await lookup.evaluate((el) => { el.setAttribute('menu', 'true'); el.setAttribute('panels', 'partition config'); });
    await lookup.locator('[data-testid=scenario-menu]').waitFor();
    await lookup.locator('.lt-config').waitFor();
    assert.equal(await lookup.locator('.lt-lookup').count(), 0);
    assert.match(await lookup.locator('.lt-scrub').innerText(), /Step 3 of 4/);
  });
  await withPage(e2e, { path: '/index.html' }, async (page) => {
    await page.locator('[data-testid=scenario-menu]').waitFor();
    assert.equal(await page.locator('.lt-clockbar').evaluate((el) => getComputedStyle(el).position), 'sticky');
  });
});

/** Lines an element's text takes, and its words: one word per line means a label that does not fit. */
async function squeezedLabels(scope) {
  return scope.evaluate((host) => {
    const root = host.shadowRoot;
    const out = [];
    for (const el of root.querySelectorAll('button, label, h1, h2, .lt-clock, .lt-scrub label, dt, .lt-badge, summary')) {
      const text = (el.innerText || '').trim();
      const words = text.split(/\s+/).filter(Boolean).length;
      if (words < 2 || !el.offsetParent) continue;
      const c = getComputedStyle(el);
      const line = parseFloat(c.lineHeight) || parseFloat(c.fontSize) * 1.3;
      const lines = Math.round((el.getBoundingClientRect().height - parseFloat(c.paddingTop) - parseFloat(c.paddingBottom)) / line);
      if (lines >= 3 && lines >= words) out.push(`${el.tagName.toLowerCase()} "${text}" (${lines} lines)`);
    }
    return out;
  });
}

for (const width of [360, 736, 1280]) {
  test(`embeds fit a ${width} px column without squeezed labels or sideways scrolling`, async () => {
    const html = `<!doctype html><html><head><meta name="viewport" content="width=device-width, initial-scale=1">
      <script type="module" src="logtime-embed.js"></script>
      <style>body{margin:0} .col{width:${width}px;margin:0 auto}</style></head><body><div class="col">
      <logtime-explorer id="compact" scenario="lookup-scan" panels="partition lookup log" step="4"></logtime-explorer>
      <logtime-explorer id="default" scenario="future-pins-retention"></logtime-explorer>
      <logtime-explorer id="all" scenario="nanoseconds-4x" panels="all"></logtime-explorer>
      </div></body></html>`;
    await withPage(e2e, { path: null, viewport: { width: Math.max(width, 375), height: 900 }, reducedMotion: 'reduce' }, async (page) => {
      await page.route('**/column.html', (r) => r.fulfill({ contentType: 'text/html', body: html }));
      await page.goto(new URL('column.html', e2e.server.url).href);
      for (const id of ['compact', 'default', 'all']) await page.locator(`#${id} [data-testid=partition]`).waitFor();
      await waitText(page.locator('#compact [data-testid=lookup-answer]'), /offset 3\b/);
      await screenshot(page, `column-${width}`);
      const heights = {};
      for (const id of ['compact', 'default', 'all']) {
        const el = page.locator(`#${id}`);
        heights[id] = Math.round((await el.boundingBox()).height);
        const overflow = await el.evaluate((h) => {
          const r = h.shadowRoot.querySelector('.logtime-root');
          return r.scrollWidth - r.clientWidth;
        });
        assert.ok(overflow <= 1, `#${id} at ${width} px scrolls sideways by ${overflow} px`);
        assert.deepEqual(await squeezedLabels(el), [], `#${id} at ${width} px has labels squeezed one word per line`);
      }
      console.log(`# heights at ${width} px: ${JSON.stringify(heights)}`);
      // Compact embeds stay compact: well under the whole app's height (which was about 2,230 px
      // in a 736 px column and 5,000 px on a phone before embeds could choose their panels).
      assert.ok(heights.compact < heights.all, `compact ${heights.compact} < all ${heights.all}`);
      assert.ok(heights.compact <= (width < 500 ? 2500 : 1500), `compact embed is ${heights.compact} px tall at ${width} px`);
    });
  });
}

test('with JavaScript off the fallback shows; once mounted it is no longer rendered', async () => {
  const context = await e2e.browser.newContext({ javaScriptEnabled: false });
  const off = await context.newPage();
  await off.goto(new URL('docs-example.html', e2e.server.url).href);
  const fb = off.locator('#docs-lookup .fallback');
  assert.ok(await fb.isVisible(), 'fallback visible without JS');
  assert.match(await fb.innerText(), /Open it in the Logtime explorer/);
  await screenshot(off, 'docs-js-off');
  await context.close();
  await withPage(e2e, { path: '/docs-example.html' }, async (page) => {
    await engageDocs(page);
    assert.equal(await page.locator('#docs-lookup .fallback').isVisible(), false, 'fallback hidden once mounted');
  });
});

test('an embed on another site, under a sub-path, fetches its built-in lesson and incident from beside the wasm', async () => {
  await withPage(e2e, { path: null, reducedMotion: 'reduce' }, async (page) => {
    const logtime = e2e.server.url;
    // A site that serves embeds lets other sites read its files (CORS), the wasm's and static/'s.
    await page.route(`${logtime}**`, async (r) => {
      const res = await r.fetch();
      await r.fulfill({ response: res, headers: { ...res.headers(), 'access-control-allow-origin': '*' } });
    });
    const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Timestamps, a guide</title>
      <script type="module" src="${logtime}logtime-embed.js"></script></head>
      <body><main><h1>Timestamps from the future</h1>
      <logtime-explorer id="walk" scenario="future-walkthrough"></logtime-explorer>
      <p>Now the drill.</p>
      <logtime-explorer id="drill" scenario="incident-03-replay-into-24h-topic-drill"></logtime-explorer>
      </main></body></html>`;
    await page.route('http://docs.example.test/**', (r) => r.fulfill({ contentType: 'text/html', body: html }));
    const fetched = [];
    page.on('request', (req) => {
      if (req.url().endsWith('.json')) fetched.push(req.url());
    });
    await page.goto('http://docs.example.test/guide/timestamps/future.html');
    await waitText(page.locator('#walk [data-testid=scenario-title]'), /^Timestamps from the future$/);
    await waitText(page.locator('#drill [data-testid=scenario-title]'), /^Incident 3 drill: /);
    await page.locator('#walk [data-testid=partition]').waitFor();
    await page.locator('#drill [data-testid=partition]').waitFor();
    assert.deepEqual(fetched.sort(), [
      `${logtime}static/incidents/03-replay-into-24h-topic-drill.json`,
      `${logtime}static/lessons/future-walkthrough.json`,
    ]);
    await page.locator('#walk').scrollIntoViewIfNeeded();
    await screenshot(page, 'embed-third-party-lesson');
  });
});

test('the iframe route sizes itself through postMessage, with options as URL parameters', async () => {
  await withPage(e2e, { path: '/embed-example.html' }, async (page) => {
    const iframe = page.locator('#explorer-iframe');
    await iframe.scrollIntoViewIfNeeded();
    const frame = page.frameLocator('#explorer-iframe');
    const root = await appRoot(frame);
    assert.equal(await root.getAttribute('data-scenario'), 'lookup-scan');
    assert.equal(await frame.locator('[data-testid=scenario-menu]').count(), 0, 'menu=false');
    assert.equal(await frame.locator('.lt-app').getAttribute('data-panels'), 'partition lookup log');
    const content = await until(async () => {
      const h = await frame.locator('html').evaluate((el) => Math.ceil(el.getBoundingClientRect().height));
      const box = (await iframe.boundingBox()).height;
      return Math.abs(box - h) <= 4 && box > 330 ? h : 0;
    }, { what: 'the iframe taking its content height' });
    // It follows the content as it changes.
    await frame.locator('[data-testid=step]').click();
    await frame.locator('[data-testid=step]').click();
    await frame.locator('[data-testid=record-0]').waitFor();
    await until(async () => {
      const h = await frame.locator('html').evaluate((el) => Math.ceil(el.getBoundingClientRect().height));
      return h !== content && Math.abs((await iframe.boundingBox()).height - h) <= 4;
    }, { what: 'the iframe following its content' });
  });
});

/** The partition exactly as shown: every segment card, offset, size, stamp and index entry. */
async function partitionState(page) {
  const get = async (sel) => (await page.locator(sel).first().innerText()).replace(/\s+/g, ' ');
  const configs = await page.locator('.lt-config input, .lt-config select').evaluateAll((els) => els.map((e) => e.value));
  return { partition: await get('[data-testid=partition]'), clock: await get('[data-testid=clock]'), configs };
}

test('moment links: act, copy the link, open it in a new page: the same partition', async () => {
  let link;
  let state;
  await withPage(e2e, { path: '/index.html?scenario=future-pins-retention', reducedMotion: 'reduce' }, async (page) => {
    await page.locator('[data-testid=partition]').waitFor();
    for (let i = 0; i < 3; i++) await page.locator('[data-testid=step]').click();
    // The reader's own actions: a batch, a config change, a clock move, a lookup.
    await page.locator('[data-testid=ts-mode]').selectOption('plus');
    await page.locator('[data-testid=ts-amount]').fill('2d');
    await page.locator('[data-testid=send]').click();
    await page.locator('[data-testid=produce-ok], [data-testid=produce-error]').first().waitFor();
    await page.locator('[data-testid="config-retention.ms"]').fill('2d');
    await page.locator('[data-testid="config-retention.ms"]').dispatchEvent('change');
    await page.getByRole('button', { name: '+1 d' }).click();
    await page.locator('[data-testid=run-retention]').click();
    await page.locator('[data-testid=lookup-time]').fill('now-3d');
    await page.locator('[data-testid=lookup-go]').click();
    await page.locator('[data-testid=lookup-answer]').waitFor();
    await page.locator('[data-testid=copy-link]').click();
    link = await page.locator('[data-testid=moment-link]').inputValue();
    assert.match(link, /index\.html\?scenario=future-pins-retention&moment=1\./);
    assert.equal(new URL(link).search, new URL(page.url()).search, 'the page URL holds the moment too');
    state = await partitionState(page);
  });
  await withPage(e2e, { path: null, reducedMotion: 'reduce' }, async (page) => {
    await page.goto(link);
    await page.locator('[data-testid=lookup-answer]').waitFor();
    assert.deepEqual(await partitionState(page), state);
    assert.equal(await page.locator('[data-testid=moment-error]').count(), 0);
    // Reloading keeps everything (the URL holds it): nothing the reader did is lost.
    await page.reload();
    await page.locator('[data-testid=lookup-answer]').waitFor();
    assert.deepEqual(await partitionState(page), state);
  });
});

test('an embed links to the standalone page at the same moment, an inline scenario packed in the link', async () => {
  let link;
  let state;
  await withPage(e2e, { path: '/embed-example.html', reducedMotion: 'reduce' }, async (page) => {
    const inline = page.locator('#explorer-inline');
    await inline.locator('[data-testid=partition]').waitFor();
    await inline.locator('[data-testid=step]').click();
    await inline.locator('[data-testid=step]').click();
    // In an embed the link, file and picture buttons fold behind "Share".
    await inline.locator('[data-testid=share]').click();
    await inline.locator('[data-testid=copy-link]').click();
    link = await inline.locator('[data-testid=moment-link]').inputValue();
    assert.match(link, /\/index\.html\?z=[A-Za-z0-9_-]+&step=2$/);
    state = (await inline.locator('[data-testid=partition]').innerText()).replace(/\s+/g, ' ');
  });
  await withPage(e2e, { path: null, reducedMotion: 'reduce' }, async (page) => {
    await page.goto(link);
    await waitText(page.locator('[data-testid=scenario-title]'), /Two batches, one from the future/);
    await waitText(page.locator('.lt-scrub'), /Step 2 of 3/);
    assert.equal((await page.locator('[data-testid=partition]').innerText()).replace(/\s+/g, ' '), state);
  });
  // The same link cut short (a chat client that truncated it): the explorer says so.
  const z = new URL(link).searchParams.get('z');
  const cut = link.replace(z, z.slice(0, Math.floor(z.length / 2)));
  await withPage(e2e, { path: null }, async (page) => {
    await page.goto(cut);
    const box = page.locator('[data-testid=scenario-error]');
    await box.waitFor();
    assert.match(await box.innerText(), /The scenario in this link is damaged \(truncated or edited\)/);
  });
});

test('back and forward move between moments', async () => {
  await withPage(e2e, { path: '/index.html?scenario=lookup-scan', reducedMotion: 'reduce' }, async (page) => {
    await page.locator('[data-testid=partition]').waitFor();
    for (let i = 1; i <= 3; i++) {
      await page.locator('[data-testid=step]').click();
      await until(async () => new URL(page.url()).searchParams.get('step') === String(i), { what: `URL at step ${i}` });
    }
    await page.goBack();
    await waitText(page.locator('.lt-scrub'), /Step 2 of 4/);
    await page.goBack();
    await waitText(page.locator('.lt-scrub'), /Step 1 of 4/);
    await page.goForward();
    await waitText(page.locator('.lt-scrub'), /Step 2 of 4/);
    assert.equal(new URL(page.url()).searchParams.get('step'), '2');
  });
});

test('a tampered or truncated link says why inside the explorer; the rest of the page is fine', async () => {
  const cases = [
    ['moment=1.00000000~s2', /different version of this scenario/],
    ['moment=1~s~p12_0k', /damaged \(truncated or edited\): entry 1/],
    ['moment=7~s', /format "7", which this version of Logtime cannot read/],
    ['moment=1~s99', /cannot be replayed: entry 4: the scenario has only 4 steps/],
  ];
  for (const [q, re] of cases) {
    await withPage(e2e, { path: `/index.html?scenario=lookup-scan&${q}` }, async (page) => {
      const notice = page.locator('[data-testid=moment-error]');
      await notice.waitFor();
      assert.match(await notice.innerText(), re);
      assert.match(await notice.innerText(), /Showing the scenario from its start/);
      await page.locator('[data-testid=step]').click(); // still works
      await waitText(page.locator('.lt-scrub'), /Step 1 of 4/);
    });
  }
  await withPage(e2e, { path: '/index.html?z=q1YqySxJzVWyUipKzSxW0lEqS8wpTbVSMjEwMDQxNDI2MjE0sjQ1NDKyNDK3MLe0NDI0', reducedMotion: 'reduce' }, async (page) => {
    const box = page.locator('[data-testid=scenario-error]');
    await box.waitFor();
    assert.match(await box.innerText(), /damaged \(truncated or edited\)/);
  });
  // In an embed: only that explorer shows the error.
  await withPage(e2e, { path: '/docs-example.html' }, async (page) => {
    await engageDocs(page);
    await page.locator('#docs-retention').evaluate((el) => el.setAttribute('moment', '1~s~x'));
    const notice = page.locator('#docs-retention [data-testid=moment-error]');
    await notice.waitFor();
    assert.match(await notice.innerText(), /damaged/);
    assert.equal(await page.locator('#docs-lookup [data-testid=moment-error]').count(), 0);
    await page.locator('#docs-lookup [data-testid=step]').first().isEnabled();
  });
});

/** The docs page's three explorers are shown and their built-in scenarios have arrived. */
async function docsReady(page) {
  await engageDocs(page);
}

test('docs page: three embeds load the wasm once and stay independent', async () => {
  await withPage(e2e, { path: null, reducedMotion: 'reduce' }, async (page) => {
    const wasm = [];
    page.on('request', (r) => r.url().endsWith('.wasm') && wasm.push(r.url()));
    await page.goto(new URL('docs-example.html', e2e.server.url).href);
    await docsReady(page);
    assert.equal(wasm.length, 1, 'the wasm module loads once');
    const rej = page.locator('#docs-rejection');
    const ret = page.locator('#docs-retention');
    const before = await ret.locator('[data-testid=clock]').innerText();
    for (let i = 0; i < 12 && (await rej.locator('[data-testid=step]').isEnabled()); i++) await rej.locator('[data-testid=step]').click();
    await waitText(rej.locator('[data-testid=produce-error]'), /rejected due to invalid timestamp/);
    assert.equal(await ret.locator('[data-testid=clock]').innerText(), before, 'the retention embed did not move');
    await waitText(page.locator('#docs-lookup [data-testid=lookup-answer]'), /offset 3\b/);
    for (let i = 0; i < 40 && (await ret.locator('[data-testid=step]').isEnabled()); i++) await ret.locator('[data-testid=step]').click();
    await waitText(ret.locator('[data-testid=verdict-20000]'), /pinned/);
  });
});

for (const [viewport, colorScheme] of [['desktop', 'light'], ['desktop', 'dark'], ['mobile', 'light'], ['mobile', 'dark']]) {
  test(`docs page screenshots: ${viewport} ${colorScheme}`, async () => {
    await withPage(e2e, { path: '/docs-example.html', viewport, colorScheme, reducedMotion: 'reduce' }, async (page) => {
      await docsReady(page);
      const ret = page.locator('#docs-retention');
      for (let i = 0; i < 40 && (await ret.locator('[data-testid=step]').isEnabled()); i++) await ret.locator('[data-testid=step]').click();
      await waitText(page.locator('#docs-lookup [data-testid=lookup-answer]'), /offset 3\b/);
      await screenshot(page, `docs-${viewport}-${colorScheme}`);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      assert.ok(overflow <= 0, `docs page scrolls sideways by ${overflow} px`);
    });
  });
}

for (const colorScheme of ['light', 'dark']) {
  test(`docs page: axe finds no accessibility violations (${colorScheme}, several explorers)`, async () => {
    await withPage(e2e, { path: '/docs-example.html', colorScheme, reducedMotion: 'reduce' }, async (page) => {
      await docsReady(page);
      const ret = page.locator('#docs-retention');
      for (let i = 0; i < 40 && (await ret.locator('[data-testid=step]').isEnabled()); i++) await ret.locator('[data-testid=step]').click();
      await page.addScriptTag({ content: fs.readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8') });
      const violations = await page.evaluate(async () =>
        (await globalThis.axe.run(document, { resultTypes: ['violations'] })).violations.map(
          (v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' > ')).slice(0, 3).join(' | ')})`,
        ),
      );
      assert.deepEqual(violations, []);
    });
  });
}
