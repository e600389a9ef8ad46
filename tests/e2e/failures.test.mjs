// Every failure a user can cause gets a clear message and loses nothing (issue 10, items 1-4
// and 7): a dead wasm instance, stale loads, fetch errors, the embed API's edges, and asking
// before the reader's actions are undone.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { appRoot, screenshot, until, useE2E, waitText, withPage } from './harness.mjs';

const e2e = useE2E();

test('out of memory: every explorer on the page says it stopped and offers a reload', async () => {
  await withPage(
    e2e,
    // The trap is uncaught by design (that is what the guard is for).
    { path: '/embed-example.html', allowErrors: [/RuntimeError|unreachable|memory allocation/] },
    async (page) => {
      const a = page.locator('#explorer-builtin');
      const b = page.locator('#explorer-inline');
      await a.locator('[data-testid=partition]').waitFor();
      await b.locator('[data-testid=partition]').waitFor();
      // Exhaust the instance's memory from a timer, as a replay would: an uncaught trap.
      await page.evaluate(async () => {
        const m = await import('./logtime-web.js');
        setTimeout(() => m.testing_exhaust_memory(), 0);
      });
      for (const el of [a, b]) {
        const box = el.locator('[data-testid=logtime-stopped]');
        await box.waitFor({ timeout: 20_000 });
        assert.equal(await box.getAttribute('role'), 'alert');
        assert.match(await box.innerText(), /The explorer stopped/);
        assert.match(await box.innerText(), /ran out of memory/);
        assert.equal(await el.locator('[data-testid=step]').count(), 0, 'no controls that look alive');
        assert.ok(await box.getByRole('button', { name: 'Reload the page' }).isVisible());
      }
      await screenshot(page, 'stopped-two-explorers');
      // An explorer added afterwards says so too, instead of hanging.
      await page.evaluate(() => {
        const el = document.createElement('logtime-explorer');
        el.id = 'late';
        el.setAttribute('scenario', 'landing');
        document.querySelector('main').append(el);
        // It loads when read (load="visible"): bring it into view.
        el.scrollIntoView();
      });
      await page.locator('#late [data-testid=logtime-stopped]').waitFor({ timeout: 10_000 });
      // The reload button reloads.
      await Promise.all([page.waitForEvent('load'), a.getByRole('button', { name: 'Reload the page' }).click()]);
      await page.locator('#explorer-builtin [data-testid=partition]').waitFor();
    },
  );
});

const GOOD = JSON.stringify({
  title: 'good',
  start: '2027-03-12T09:00:00Z',
  steps: [{ produce: { records: [{ timestamp: 'now' }] } }],
});

/** Serves `good.json` after `ms`. */
async function slowGood(page, ms = 3000) {
  await page.route('**/good.json', async (route) => {
    await new Promise((r) => setTimeout(r, ms));
    await route.fulfill({ contentType: 'application/json', body: GOOD }).catch(() => {});
  });
}

// The superseded fetch is stopped, not just ignored: its request, if it started, ends aborted.
const aborted = /^request failed: \S*\/good\.json \(net::ERR_ABORTED\)$/;

test('stale loads: the last choice wins (standalone menu)', async () => {
  await withPage(e2e, { path: null, allowErrors: [aborted] }, async (page) => {
    await slowGood(page);
    await page.goto(new URL('index.html?src=good.json', e2e.server.url).href);
    await page.locator('[data-testid=scenario-menu]').waitFor();
    await page.locator('[data-testid=scenario-menu]').selectOption('landing');
    await waitText(page.locator('[data-testid=scenario-title]'), /^Records landing/);
    await page.waitForTimeout(3500); // the slow response arrives
    assert.match(await page.locator('[data-testid=scenario-title]').innerText(), /^Records landing/);
    assert.equal(await page.locator('[data-testid=scenario-menu]').inputValue(), 'landing');
  });
});

test('stale loads: the last choice wins (mount then update)', async () => {
  await withPage(e2e, { path: null, allowErrors: [aborted] }, async (page) => {
    await slowGood(page);
    await page.goto(new URL('embed-example.html', e2e.server.url).href);
    await page.locator('#explorer-builtin [data-testid=partition]').waitFor();
    await page.evaluate(async () => {
      const m = await import('./logtime-web.js');
      const el = document.createElement('div');
      el.id = 'api';
      document.querySelector('main').append(el);
      const x = m.mount(el, { src: 'good.json' });
      x.update({ scenario: 'landing' });
    });
    const api = page.locator('#api');
    await waitText(api.locator('[data-testid=scenario-title]'), /^Records landing/);
    await page.waitForTimeout(3500);
    assert.match(await api.locator('[data-testid=scenario-title]').innerText(), /^Records landing/);
    assert.equal(await api.locator('[data-testid=app-root]').getAttribute('data-scenario'), 'landing');
  });
});

test('fetch errors are one sentence naming the URL and the likely causes', async () => {
  // Another origin that does not answer (as good as one without CORS: the browser says only
  // "Failed to fetch").
  await withPage(e2e, { path: '/index.html?src=http%3A%2F%2F127.0.0.1%3A9%2Fscenario.json', allowErrors: [/Failed to load resource|ERR_|127\.0\.0\.1:9/] }, async (page) => {
    const box = page.locator('[data-testid=scenario-error]');
    await box.waitFor();
    const text = await box.innerText();
    assert.match(text, /Could not load the scenario from http:\/\/127\.0\.0\.1:9\/scenario\.json/);
    assert.match(text, /CORS/);
    assert.doesNotMatch(text, /JsValue|wasm-function|TypeError|at __wbg/);
  });
  await withPage(e2e, { path: '/index.html?src=missing.json', allowErrors: [/404/] }, async (page) => {
    const box = page.locator('[data-testid=scenario-error]');
    await box.waitFor();
    assert.match(await box.innerText(), /Could not load the scenario from http:\/\/127\.0\.0\.1:\d+\/missing\.json: the server answered 404 \(not found\)/);
  });
  await withPage(e2e, { path: '/index.html?src=index.html' }, async (page) => {
    const box = page.locator('[data-testid=scenario-error]');
    await box.waitFor();
    assert.match(await box.innerText(), /The file at http:\/\/127\.0\.0\.1:\d+\/index\.html is not a Logtime scenario: it is not JSON/);
  });
});

test('a src= server that never answers can be cancelled, and a body over the limit is refused as it streams', async () => {
  await withPage(e2e, { path: null, allowErrors: [/ERR_|aborted|Failed to load resource/] }, async (page) => {
    await page.route('**/never.json', () => {}); // never fulfilled: the server hangs
    await page.goto(new URL('index.html?src=never.json', e2e.server.url).href);
    const cancel = page.locator('[data-testid=cancel-load]');
    await cancel.waitFor();
    assert.match(await page.locator('[data-testid=loading]').innerText(), /Fetching the scenario/);
    await cancel.click();
    const box = page.locator('[data-testid=scenario-error]');
    await box.waitFor();
    assert.match(await box.innerText(), /Loading the scenario from http:\/\/127\.0\.0\.1:\d+\/never\.json was cancelled/);
    // The explorer is alive: the menu still loads a built-in.
    await page.locator('[data-testid=scenario-menu]').selectOption('lookup-scan');
    await page.locator('[data-testid=partition] [data-testid=segment-0]').waitFor();
  });
  await withPage(e2e, { path: null, allowErrors: [/ERR_|aborted|Failed to load resource/] }, async (page) => {
    // 20 MiB of spaces, more than the 16 MiB a scenario may be, sent without a length.
    const chunk = ' '.repeat(1 << 20);
    await page.route('**/huge.json', (r) => r.fulfill({ status: 200, contentType: 'application/json', body: '{' + chunk.repeat(20) + '}' }));
    await page.goto(new URL('index.html?src=huge.json', e2e.server.url).href);
    const box = page.locator('[data-testid=scenario-error]');
    await box.waitFor({ timeout: 20_000 });
    assert.match(await box.innerText(), /is longer than 16777216 bytes, more than the 16 MiB a scenario may be/);
  });
});

test('while a built-in\'s file is on its way the explorer says which one is loading, and nothing can be played', async () => {
  await withPage(e2e, { path: null }, async (page) => {
    let release;
    const held = new Promise((r) => (release = r));
    await page.route('**/static/scenarios/landing.json', async (r) => {
      await held;
      await r.continue();
    });
    await page.goto(new URL('index.html?scenario=landing', e2e.server.url).href);
    await waitText(page.locator('[data-testid=scenario-title]'), /^Loading “Records landing, rolls by size and time”…$/);
    assert.equal(await page.locator('[data-testid=app-root] .lt-app').getAttribute('aria-busy'), 'true');
    assert.equal(await page.locator('[data-testid=play]').isDisabled(), true);
    assert.match(await page.locator('[data-testid=clock]').innerText(), /^◷\s*—$/, 'no clock before the scenario');
    await screenshot(page, 'builtin-loading');
    release();
    await page.locator('[data-testid=partition] [data-testid=segment-0]').waitFor();
    await waitText(page.locator('[data-testid=scenario-title]'), /^Records landing, rolls by size and time$/);
    assert.equal(await page.locator('[data-testid=app-root] .lt-app').getAttribute('aria-busy'), null);
    assert.equal(await page.locator('[data-testid=play]').isDisabled(), false);
  });
});

test('a built-in whose file cannot be fetched says which one, from where and why; the menu still works', async () => {
  // Built-ins are fetched from static/ beside the wasm when opened: a deployment missing its
  // static/ folder, or a reader gone offline, gets a sentence naming the file.
  await withPage(e2e, { path: null, allowErrors: [/404/] }, async (page) => {
    await page.route('**/static/lessons/future-drill.json', (r) => r.fulfill({ status: 404, contentType: 'text/plain', body: 'not found' }));
    await page.goto(new URL('index.html?scenario=future-drill', e2e.server.url).href);
    const box = page.locator('[data-testid=scenario-error]');
    await box.waitFor();
    const text = await box.innerText();
    assert.match(text, /Could not load the built-in lesson "future-drill" from http:\/\/127\.0\.0\.1:\d+\/static\/lessons\/future-drill\.json: the server answered 404 \(not found\)/);
    assert.doesNotMatch(text, /JsValue|wasm-function|TypeError|at __wbg/);
    await waitText(page.locator('[data-testid=scenario-title]'), /^Timestamps from the future: find and fix the pinned segment$/);
    await screenshot(page, 'failure-builtin-404');
    await page.locator('[data-testid=scenario-menu]').selectOption('landing');
    await page.locator('[data-testid=partition]').waitFor();
    // The title names the built-in while its file is on its way ("Loading “…”…"): the error
    // goes once the file has loaded.
    await waitText(page.locator('[data-testid=scenario-title]'), /^Records landing/);
    await box.waitFor({ state: 'detached' });
  });
  await withPage(e2e, { path: null, allowErrors: [/ERR_|Failed to load resource|request failed/] }, async (page) => {
    await page.route('**/static/incidents/05-rolling-stops-drill.json', (r) => r.abort('internetdisconnected'));
    await page.goto(new URL('index.html?scenario=incident-05-rolling-stops-drill', e2e.server.url).href);
    const box = page.locator('[data-testid=scenario-error]');
    await box.waitFor();
    assert.match(await box.innerText(), /Could not load the built-in incident "incident-05-rolling-stops-drill" from http:\/\/127\.0\.0\.1:\d+\/static\/incidents\/05-rolling-stops-drill\.json: the browser could not fetch it/);
  });
});

test('a link naming no built-in says so, lists the built-ins, and the menu claims none of them', async () => {
  // Both modules: a name ending in -walkthrough goes to the one with the lesson engine.
  for (const name of ['lookup-scna', 'incident-03-replay-walkthrough']) {
    await withPage(e2e, { path: null }, async (page) => {
      await page.goto(new URL(`index.html?scenario=${name}`, e2e.server.url).href);
      const box = page.locator('[data-testid=scenario-error]');
      await box.waitFor();
      const text = await box.innerText();
      assert.match(text, new RegExp(`unknown built-in scenario "${name}" \\(built-ins: lookup-scan, landing, `));
      assert.match(text, /incident-03-replay-into-24h-topic-walkthrough/);
      const menu = page.locator('[data-testid=scenario-menu]');
      assert.equal(await menu.inputValue(), '');
      assert.equal(await menu.locator('option:checked').innerText(), '(none loaded)');
      await menu.selectOption('landing');
      await waitText(page.locator('[data-testid=scenario-title]'), /^Records landing/);
      await box.waitFor({ state: 'detached' });
      assert.equal(await menu.inputValue(), 'landing');
      assert.equal(await menu.locator('option[value=""]').count(), 0);
    });
  }
});

test('a scenario over the work budget is refused before it runs, naming the limit', async () => {
  // Ten million one-record segments (segment.bytes 170, one 100-byte record per batch): ten
  // times the segments a scenario may roll.
  const step = { produce: { batches: 10_000, every: '1ms', records: [{ timestamp: 'now', value_bytes: 100 }] } };
  const body = JSON.stringify({
    title: 'ten million segments',
    kafka: '3.6', // 4.x refuses a segment.bytes under 1 MiB
    topic: { 'segment.bytes': 170 },
    start: '2026-01-15T00:00:00Z',
    steps: Array.from({ length: 1000 }, () => step),
  });
  await withPage(e2e, { path: null }, async (page) => {
    await page.route('**/segments-10m.json', (route) => route.fulfill({ contentType: 'application/json', body }));
    const start = Date.now();
    await page.goto(new URL('index.html?src=segments-10m.json', e2e.server.url).href);
    const box = page.locator('[data-testid=scenario-error]');
    await box.waitFor({ timeout: 10_000 });
    const text = await box.innerText();
    assert.ok(Date.now() - start < 10_000, 'refused up front, not after a replay');
    assert.match(text, /segments-10m\.json has a problem/);
    assert.match(text, /segment\.bytes 170/);
    assert.match(text, /a scenario may roll at most 1000000/);
    assert.equal(await page.locator('[data-testid=segment-count]').count(), 0, 'no partition was built');
  });
});

test('embed API edges: mount twice replaces, null and non-object arguments are refused clearly', async () => {
  await withPage(e2e, { path: '/embed-example.html' }, async (page) => {
    await page.locator('#explorer-builtin [data-testid=partition]').waitFor();
    const result = await page.evaluate(async () => {
      const m = await import('./logtime-web.js');
      const el = document.createElement('div');
      el.id = 'api';
      document.querySelector('main').append(el);
      const out = {};
      const first = m.mount(el, 'landing');
      m.mount(el, 'lookup-scan');
      try {
        first.update('landing');
      } catch (e) {
        out.stale = e.message;
      }
      try {
        m.mount(null, {});
      } catch (e) {
        out.nul = `${e.constructor.name}: ${e.message}`;
      }
      const x = m.mount(document.createElement('div'), 'landing');
      try {
        x.update([1, 2]);
      } catch (e) {
        out.array = e.message;
      }
      return out;
    });
    assert.match(result.stale, /replaced by a later mount/);
    assert.match(result.nul, /^Error: Logtime: mount\(element, options\): `element` is null/);
    assert.match(result.array, /options must be an object .* not an array/);
    await until(async () => (await page.locator('#api [data-testid=app-root]').count()) === 1 &&
      (await page.locator('#api [data-testid=app-root]').getAttribute('data-scenario')) === 'lookup-scan', { what: 'one explorer, the second' });
    // A bad scenario attribute shows the error box in that explorer; fixing it brings it back.
    const el = page.locator('#explorer-builtin');
    await el.evaluate((e) => e.setAttribute('scenario', 'Not A Name'));
    const box = el.locator('[data-testid=logtime-error]');
    await box.waitFor();
    assert.match(await box.innerText(), /invalid `scenario` value "Not A Name"/);
    assert.equal(await page.locator('#explorer-inline [data-testid=logtime-error]').count(), 0);
    await el.evaluate((e) => e.setAttribute('scenario', 'landing'));
    await el.locator('[data-testid=partition]').waitFor();
    await waitText(el.locator('[data-testid=scenario-title]'), /^Records landing/);
  });
});

test('nothing is lost without asking: stepping back, replaying and switching scenario', async () => {
  await withPage(e2e, { path: '/index.html?scenario=lookup-scan', reducedMotion: 'reduce' }, async (page) => {
    await page.locator('[data-testid=partition]').waitFor();
    await page.locator('[data-testid=step]').click();
    await page.locator('[data-testid=step]').click();
    await waitText(page.locator('.lt-scrub'), /Step 2 of 4/);
    const logEnd = async () => Number(await page.locator('[data-testid=log-end]').innerText());
    const before = await logEnd();
    const step1 = 1; // lookup-scan's first step sends one record
    await page.locator('[data-testid=send]').click(); // the reader's own batch, after step 2
    await page.locator('[data-testid=produce-ok]').waitFor();
    assert.equal(await logEnd(), before + 1);
    // Back: asks, naming what it would undo; keeping them changes nothing.
    await page.locator('[data-testid=step-back]').click();
    const confirm = page.locator('[data-testid=confirm]');
    await confirm.waitFor();
    assert.match(await confirm.innerText(), /Going back to step 1 undoes what you did after it: sent a batch of 1 record/);
    await page.locator('[data-testid=confirm-keep]').click();
    assert.equal(await confirm.count(), 0);
    assert.equal(await logEnd(), before + 1);
    await waitText(page.locator('.lt-scrub'), /Step 2 of 4/);
    // Forward and back past the batch keep it: only what comes after the target is undone.
    await page.locator('[data-testid=step]').click();
    await page.locator('[data-testid=step-back]').click();
    await waitText(page.locator('.lt-scrub'), /Step 2 of 4/);
    assert.equal(await logEnd(), before + 1);
    assert.equal(await confirm.count(), 0, 'nothing of the reader\'s undone, nothing asked');
    // Switching scenario asks too.
    await page.locator('[data-testid=scenario-menu]').selectOption('landing');
    await confirm.waitFor();
    assert.match(await confirm.innerText(), /Switching scenario drops what you did in this one/);
    await page.locator('[data-testid=confirm-keep]').click();
    assert.match(await page.locator('[data-testid=scenario-title]').innerText(), /Lookup/);
    // Undoing for real: the batch goes, and the browser's Back brings it back.
    await page.locator('[data-testid=step-back]').click();
    await page.locator('[data-testid=confirm-go]').click();
    await waitText(page.locator('.lt-scrub'), /Step 1 of 4/);
    assert.equal(await logEnd(), step1);
    await page.goBack();
    await until(async () => (await logEnd()) === before + 1, { what: 'the batch back' });
  });
});

test('an embed with the reader\'s actions asks before the page is left', async () => {
  await withPage(e2e, { path: '/docs-example.html', reducedMotion: 'reduce' }, async (page) => {
    const rej = page.locator('#docs-rejection');
    await rej.scrollIntoViewIfNeeded();
    await rej.locator('[data-testid=partition]').waitFor();
    await rej.locator('[data-testid=send]').click();
    await rej.locator('[data-testid=produce-ok]').waitFor();
    let asked = null;
    page.on('dialog', async (d) => {
      asked = d.type();
      await d.dismiss();
    });
    await page.reload({ timeout: 3000 }).catch(() => {});
    await until(async () => asked, { what: 'a beforeunload prompt' });
    assert.equal(asked, 'beforeunload');
    // Dismissed: the page and the reader's batch are still there.
    assert.equal(await rej.locator('[data-testid=produce-ok]').count(), 1);
  });
});
