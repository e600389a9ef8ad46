// The page's first module has no lesson engine (web/src/upgrade.rs): a page that shows
// scenarios never downloads it, and a lesson opened from the menu, a link or an embed's
// attributes hands the explorer to the module that has it, keeping the page's URL, history and
// the embed element working.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { screenshot, until, useE2E, waitText, withPage } from './harness.mjs';

const e2e = useE2E();

/** Counts the page's requests for each of the two explorer modules and for the JSON files. */
function watchLoads(page) {
  const seen = { web: 0, full: 0, json: [] };
  page.on('request', (req) => {
    const u = req.url();
    if (u.endsWith('/logtime-web_bg.wasm')) seen.web++;
    if (u.endsWith('/logtime-full_bg.wasm')) seen.full++;
    if (u.endsWith('.json')) seen.json.push(new URL(u).pathname);
  });
  return seen;
}

test('the explorer page never loads the lesson module; a lesson from the menu hands over and Back returns', async () => {
  await withPage(e2e, { path: null }, async (page) => {
    const seen = watchLoads(page);
    await page.goto(new URL('index.html?scenario=lookup-scan', e2e.server.url).href);
    await page.locator('[data-testid=partition]').waitFor();
    await page.locator('[data-testid=step]').click();
    await waitText(page.locator('.lt-scrub'), /Step 1 of/);
    await until(async () => page.url().includes('step=1'), { what: 'the moment in the URL' });
    await page.waitForTimeout(300);
    assert.deepEqual([seen.web, seen.full], [1, 0], 'a scenario needs the first module only');

    await page.locator('[data-testid=scenario-menu]').focus();
    await page.locator('[data-testid=scenario-menu]').selectOption('future-walkthrough');
    await page.locator('[data-testid=lesson]').waitFor({ timeout: 20_000 });
    await waitText(page.locator('[data-testid=scenario-title]'), /^Timestamps from the future/);
    assert.deepEqual([seen.web, seen.full], [1, 1], 'the lesson module, once');
    assert.deepEqual(seen.json.filter((p) => p.includes('future-walkthrough')), ['/static/lessons/future-walkthrough.json'],
      'the lesson file is fetched once, by the module that plays it');
    assert.equal(new URL(page.url()).search, '?scenario=future-walkthrough', 'the lesson from its start, not the step of the scenario before');
    assert.equal(await page.locator('[data-testid=app-root]').count(), 1, 'one explorer in the page');
    await until(() => page.evaluate(() => document.querySelector('#app').shadowRoot.activeElement?.dataset.testid === 'scenario-menu'),
      { what: 'focus back on the menu' });
    await screenshot(page, 'handover-menu-lesson');

    // The lesson module plays on: the next stop, then Back to the scenario (its own history).
    await page.locator('[data-testid=lesson-next]').click();
    await page.goBack();
    await waitText(page.locator('[data-testid=scenario-title]'), /^Lookup: the scan past T$/);
    await page.locator('[data-testid=partition]').waitFor();
    assert.equal(await page.locator('[data-testid=lesson]').count(), 0);
    assert.equal(seen.full, 1);
  });
});

test('a link to a built-in lesson loads only the lesson module, and fetches the lesson once', async () => {
  await withPage(e2e, { path: null }, async (page) => {
    const seen = watchLoads(page);
    await page.goto(new URL('index.html?scenario=incident-01-nanoseconds-drill', e2e.server.url).href);
    await page.locator('[data-testid=lesson]').waitFor({ timeout: 20_000 });
    await waitText(page.locator('[data-testid=scenario-title]'), /^Incident 1 drill: /);
    assert.deepEqual([seen.web, seen.full], [0, 1]);
    assert.deepEqual(seen.json, ['/static/incidents/01-nanoseconds-drill.json']);
    assert.equal(new URL(page.url()).search, '?scenario=incident-01-nanoseconds-drill', 'the URL is left as it was');
  });
});

test('a lesson-shaped file from a URL is handed over; a broken file is reported by the first module', async () => {
  await withPage(e2e, { path: null, allowErrors: [/HTTP 404/] }, async (page) => {
    const seen = watchLoads(page);
    await page.goto(new URL('index.html?src=static/lessons/kip937-drill.json', e2e.server.url).href);
    await page.locator('[data-testid=lesson]').waitFor({ timeout: 20_000 });
    assert.equal(seen.full, 1);
  });
  await withPage(e2e, { path: null }, async (page) => {
    const seen = watchLoads(page);
    await page.route('**/broken.json', (r) => r.fulfill({ contentType: 'application/json', body: '{"kafka": 3}' }));
    await page.goto(new URL('index.html?src=broken.json', e2e.server.url).href);
    await page.locator('[data-testid=logtime-error], .lt-error').first().waitFor();
    assert.match(await page.locator('.lt-error').first().innerText(), /kafka/);
    assert.equal(seen.full, 0, 'no lesson module for a file that is no lesson');
  });
});

test('an embed handed over keeps following its attributes and is destroyed with its element', async () => {
  const html = `<!doctype html><html><head><script type="module" src="logtime-embed.js"></script></head><body>
    <logtime-explorer id="lesson" scenario="two-kinds-walkthrough" theme="light"></logtime-explorer>
    <logtime-explorer id="plain" scenario="lookup-scan" panels="partition"></logtime-explorer></body></html>`;
  await withPage(e2e, { path: null }, async (page) => {
    const seen = watchLoads(page);
    await page.route('**/handover-embed.html', (r) => r.fulfill({ contentType: 'text/html', body: html }));
    await page.goto(new URL('handover-embed.html', e2e.server.url).href);
    const lesson = page.locator('#lesson');
    await lesson.locator('[data-testid=lesson]').waitFor({ timeout: 20_000 });
    await page.locator('#plain [data-testid=partition]').waitFor();
    assert.deepEqual([seen.web, seen.full], [1, 1]);
    const ready = await page.evaluate(() => new Promise((done) => {
      const el = document.querySelector('#lesson');
      el.setAttribute('theme', 'dark');
      setTimeout(() => done(el.shadowRoot.querySelector('[data-testid=app-root]')?.dataset.theme), 300);
    }));
    assert.equal(ready, 'dark', 'the handed-over explorer follows the attribute');
    await page.evaluate(() => document.querySelector('#lesson').remove());
    await until(() => page.evaluate(() => !document.querySelector('[data-logtime-mounted]#lesson')), { what: 'removed' });
    // The plain embed is still the first module's, and still works.
    await page.locator('#plain [data-testid=step]').click().catch(() => {});
    assert.equal(await page.locator('#plain [data-testid=partition]').count(), 1);
  });
});

test('when the lesson module cannot be loaded, the explorer says so and keeps working', async () => {
  await withPage(e2e, { path: null, allowErrors: [/logtime-full/, /Failed to load resource/] }, async (page) => {
    await page.route('**/logtime-full_bg.wasm', (r) => r.abort());
    await page.goto(new URL('index.html?scenario=lookup-scan', e2e.server.url).href);
    await page.locator('[data-testid=partition]').waitFor();
    await page.locator('[data-testid=scenario-menu]').selectOption('future-drill');
    const error = page.locator('[data-testid=scenario-error]');
    await error.waitFor({ timeout: 20_000 });
    assert.match(await error.innerText(), /could not start: logtime-full\.js could not be loaded/);
    // The menu still works in the first module.
    await page.locator('[data-testid=scenario-menu]').selectOption('landing');
    await page.locator('[data-testid=partition]').waitFor();
    await waitText(page.locator('[data-testid=scenario-title]'), /^Records landing/);
    assert.equal(await page.locator('[data-testid=lesson]').count(), 0);
  });
});

test('in an iframe, a lesson picked from the menu leaves the host page\'s history alone', async () => {
  const host = `<!doctype html><html><body><iframe id="f" src="index.html?scenario=lookup-scan" style="width:1200px;height:900px"></iframe></body></html>`;
  await withPage(e2e, { path: null }, async (page) => {
    await page.route('**/frame-host.html', (r) => r.fulfill({ contentType: 'text/html', body: host }));
    await page.goto(new URL('frame-host.html', e2e.server.url).href);
    const frame = page.frameLocator('#f');
    await frame.locator('[data-testid=partition]').waitFor();
    const before = await page.evaluate(() => history.length);
    await frame.locator('[data-testid=scenario-menu]').selectOption('two-kinds-drill');
    await frame.locator('[data-testid=lesson]').waitFor({ timeout: 20_000 });
    assert.equal(await page.evaluate(() => history.length), before);
    const src = await page.frames()[1].evaluate(() => location.search);
    assert.match(src, /scenario=two-kinds-drill/);
  });
});

test('a scenario in a lesson mode by link loads only the lesson module', async () => {
  await withPage(e2e, { path: null }, async (page) => {
    const seen = watchLoads(page);
    await page.goto(new URL('index.html?scenario=lookup-scan&mode=drill', e2e.server.url).href);
    await page.locator('[data-testid=lesson]').waitFor({ timeout: 20_000 });
    assert.deepEqual([seen.web, seen.full], [0, 1]);
  });
});

test('in the lesson module, the URL names what is shown: a lesson picked after two steps has no step, and reloads at its start', async () => {
  await withPage(e2e, { path: null }, async (page) => {
    const seen = watchLoads(page);
    const menu = page.locator('[data-testid=scenario-menu]');
    const lessonStep = page.locator('[data-testid=lesson-step]');
    await page.goto(new URL('index.html?scenario=future-walkthrough', e2e.server.url).href);
    await page.locator('[data-testid=lesson]').waitFor({ timeout: 20_000 });
    const start = await lessonStep.innerText();

    await menu.selectOption('lookup-scan');
    await waitText(page.locator('[data-testid=scenario-title]'), /^Lookup: the scan past T$/);
    await until(async () => new URL(page.url()).search === '?scenario=lookup-scan', { what: 'the scenario in the URL' });
    await page.locator('[data-testid=step]').click();
    await waitText(page.locator('.lt-scrub'), /Step 1 of/);
    await page.locator('[data-testid=step]').click();
    await waitText(page.locator('.lt-scrub'), /Step 2 of/);
    await until(async () => new URL(page.url()).search === '?scenario=lookup-scan&step=2', { what: 'the moment in the URL' });

    await menu.selectOption('future-walkthrough');
    await page.locator('[data-testid=lesson]').waitFor({ timeout: 20_000 });
    await waitText(page.locator('[data-testid=scenario-title]'), /^Timestamps from the future/);
    await until(async () => new URL(page.url()).search === '?scenario=future-walkthrough',
      { what: `the lesson's own URL (not ${page.url()})` });
    assert.equal(await lessonStep.innerText(), start, 'the lesson from its start');
    await page.waitForTimeout(300);
    assert.equal(new URL(page.url()).search, '?scenario=future-walkthrough', 'no stale step written later');
    await screenshot(page, 'lesson-module-url-after-scenario');

    await page.reload();
    await page.locator('[data-testid=lesson]').waitFor({ timeout: 20_000 });
    await waitText(page.locator('[data-testid=scenario-title]'), /^Timestamps from the future/);
    assert.equal(await lessonStep.innerText(), start, 'reloads to the lesson at its start');

    // And back: a scenario picked from the lesson gets its own URL once it loads, then its steps.
    await menu.selectOption('lookup-scan');
    await waitText(page.locator('[data-testid=scenario-title]'), /^Lookup: the scan past T$/);
    await until(async () => new URL(page.url()).search === '?scenario=lookup-scan', { what: 'the scenario in the URL' });
    await page.locator('[data-testid=step]').click();
    await until(async () => new URL(page.url()).search === '?scenario=lookup-scan&step=1', { what: 'its step in the URL' });
    assert.equal(seen.web, 0, 'the lesson module alone');
  });
});
