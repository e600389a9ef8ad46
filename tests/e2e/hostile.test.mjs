// Hostile links and attributes (issue 41): each small input that describes gigabytes of work is
// refused with its own clear error, and the explorer is alive afterwards (the menu still loads a
// built-in). The inputs are generated (hostile-inputs.mjs).
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { DIST, screenshot, useE2E, VIEWPORTS, waitText, withPage } from './harness.mjs';
import { deflateBombZ, momentBomb, retentionZ, variantBombZ } from './hostile-inputs.mjs';

const e2e = useE2E();

/** The standalone explorer still loads a built-in from its menu. */
async function menuStillWorks(page) {
  await page.locator('[data-testid=scenario-menu]').selectOption('lookup-scan');
  await page.locator('[data-testid=partition] [data-testid=segment-0]').waitFor();
  await waitText(page.locator('[data-testid=scenario-title]'), /./);
}

test('a variant-bomb lesson link says its variables add too much text; the explorer lives on', async () => {
  const z = variantBombZ();
  assert.ok(z.length < 2000, `a ${z.length}-character link`);
  await withPage(e2e, { path: `/index.html?z=${z}` }, async (page) => {
    const box = page.locator('[data-testid=scenario-error]');
    await box.waitFor({ timeout: 30_000 });
    const text = await box.innerText();
    assert.match(text, /add more than 16777216 bytes \(16 MiB\) of text/);
    assert.doesNotMatch(text, /RefCell|unreachable|RuntimeError/);
    await screenshot(page, 'hostile-variant-bomb-1280');
    await page.setViewportSize(VIEWPORTS.mobile);
    await screenshot(page, 'hostile-variant-bomb-375');
    await page.setViewportSize(VIEWPORTS.desktop);
    await menuStillWorks(page);
  });
});

test('the 196-character retention link is refused before it runs, naming the limit', async () => {
  const z = retentionZ();
  assert.equal(z.length, 196);
  await withPage(e2e, { path: `/index.html?z=${z}` }, async (page) => {
    const start = Date.now();
    const box = page.locator('[data-testid=scenario-error]');
    await box.waitFor({ timeout: 10_000 });
    assert.ok(Date.now() - start < 10_000, 'refused up front, not after a replay');
    const text = await box.innerText();
    assert.match(text, /step 1: retention: /);
    assert.match(text, /a scenario's retention steps may list at most 200000/);
    assert.equal(await page.locator('[data-testid=segment-count]').count(), 0, 'no partition was built');
    await menuStillWorks(page);
  });
});

test('a 48 KB moment of 2,000 batches of 100,000 records shows the damaged-moment notice', async () => {
  const m = momentBomb();
  assert.ok(m.length > 47_000 && m.length < 50_000, `${m.length} characters`);
  await withPage(e2e, { path: null }, async (page) => {
    // The test server (like most) refuses a request line of 48 KB: the page comes from here.
    const html = fs.readFileSync(path.join(DIST, 'index.html'), 'utf8');
    await page.route('**/index.html?*moment=*', (r) => r.fulfill({ contentType: 'text/html', body: html }));
    await page.goto(new URL(`index.html?scenario=lookup-scan&moment=${m}`, e2e.server.url).href);
    const notice = page.locator('[data-testid=moment-error]');
    await notice.waitFor({ timeout: 20_000 });
    const text = await notice.innerText();
    assert.match(text, /damaged \(truncated or edited\): entry 10: the batches hold 1100000 records by this entry; a saved moment holds at most 1000000/);
    assert.match(text, /Showing the scenario from its start/);
    assert.equal(await page.locator('[data-testid=logtime-stopped]').count(), 0);
    await screenshot(page, 'hostile-moment-bomb-1280');
    await page.setViewportSize(VIEWPORTS.mobile);
    await screenshot(page, 'hostile-moment-bomb-375');
    await page.setViewportSize(VIEWPORTS.desktop);
    // The scenario is at its start and steps on.
    await page.locator('[data-testid=step]').click();
    await waitText(page.locator('.lt-scrub'), /Step 1 of 4/);
    await page.locator('[data-testid=scenario-menu]').selectOption('landing');
    await waitText(page.locator('[data-testid=scenario-title]'), /^Records landing/);
  });
});

test('an embed given a 4.2 MB deflate-bomb attribute refuses it; the other explorers live on', async () => {
  const z = deflateBombZ(4.2);
  await withPage(e2e, { path: '/embed-example.html' }, async (page) => {
    await page.locator('#explorer-builtin [data-testid=partition]').waitFor();
    const start = Date.now();
    await page.evaluate((z) => {
      const el = document.createElement('logtime-explorer');
      el.id = 'bomb';
      el.setAttribute('z', z);
      document.querySelector('main').append(el);
      // It loads when read (load="visible"): bring it into view.
      el.scrollIntoView();
    }, z);
    const box = page.locator('#bomb [data-testid=scenario-error]');
    await box.waitFor({ timeout: 30_000 });
    assert.match(await box.innerText(), /damaged \(truncated or edited\): it unpacks to more than 8388608 bytes/);
    assert.ok(Date.now() - start < 20_000, 'refused at the limit, not after inflating the rest');
    assert.equal(await page.locator('[data-testid=logtime-stopped]').count(), 0);
    // The same element takes a built-in afterwards, and its neighbour still steps.
    await page.locator('#bomb').evaluate((el) => {
      el.removeAttribute('z');
      el.setAttribute('scenario', 'landing');
    });
    await page.locator('#bomb [data-testid=partition]').waitFor();
    await page.locator('#explorer-builtin [data-testid=step]').first().click();
  });
});
