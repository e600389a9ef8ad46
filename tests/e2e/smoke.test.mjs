// Smoke test of the built site (dist/): the app mounts, embeds are independent, no errors.
// Run: node --test tests/e2e/   (after trunk build --release --offline)
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { appRoot, screenshot, until, useE2E, withPage } from './harness.mjs';

const e2e = useE2E();

test('index.html mounts the explorer into #app without console errors', async () => {
  await withPage(e2e, { path: '/' }, async (page) => {
    const root = await appRoot(page, { within: '#app' });
    assert.equal(await root.getAttribute('data-scenario-kind'), 'builtin');
    assert.equal(await page.locator('[data-testid=app-root]').count(), 1);
    assert.equal(await page.locator('[data-testid=logtime-error]').count(), 0);
    assert.equal(await page.locator('.logtime-loading').isVisible(), false, 'loading text no longer shown');
  });
});

test('?scenario= and ?src= choose the scenario; bad values show an error naming the parameter', async () => {
  await withPage(e2e, { path: '/index.html?scenario=lookup-scan' }, async (page) => {
    const root = await appRoot(page);
    assert.equal(await root.getAttribute('data-scenario'), 'lookup-scan');
  });
  await withPage(e2e, { path: '/index.html?src=static%2Fscenarios%2Flanding.json' }, async (page) => {
    const root = await appRoot(page);
    assert.equal(await root.getAttribute('data-scenario-kind'), 'url');
  });
  await withPage(e2e, { path: '/index.html?scenario=Not%20A%20Name' }, async (page) => {
    const box = page.locator('#app [data-testid=logtime-error]');
    await box.waitFor({ timeout: 20_000 });
    assert.equal(await box.getAttribute('role'), 'alert');
    assert.match(await box.innerText(), /`\?scenario`/);
  });
});

test('two <logtime-explorer> on embed-example.html mount independently; the iframe works', async () => {
  await withPage(e2e, { path: '/embed-example.html' }, async (page) => {
    const first = page.locator('logtime-explorer#explorer-builtin');
    const second = page.locator('logtime-explorer#explorer-inline');
    const r1 = await appRoot(first);
    // The second loads as it nears the viewport (load="visible", the default).
    await second.scrollIntoViewIfNeeded();
    const r2 = await appRoot(second);
    assert.equal(await first.locator('[data-testid=app-root]').count(), 1);
    assert.equal(await second.locator('[data-testid=app-root]').count(), 1);
    assert.equal(await r1.getAttribute('data-scenario'), 'lookup-scan');
    assert.equal(await r2.getAttribute('data-scenario-kind'), 'inline');
    // The inline JSON <script> child is kept (the app renders into its own host div).
    assert.equal(await second.locator(':scope > script[type="application/json"]').count(), 1);

    // Changing one explorer's attribute updates it alone.
    await first.evaluate((el) => el.setAttribute('scenario', 'landing'));
    await until(async () => (await first.locator('[data-testid=app-root]').getAttribute('data-scenario')) === 'landing', {
      timeout: 10_000,
      what: 'the first explorer showing landing',
    });
    assert.equal(await r2.getAttribute('data-scenario-kind'), 'inline');

    // Removing one destroys it and leaves the other running.
    await first.evaluate((el) => el.remove());
    assert.equal(await page.locator('logtime-explorer#explorer-inline [data-testid=app-root]').count(), 1);

    // The iframe (full app, ?scenario=lookup-scan) mounts too.
    await page.locator('#explorer-iframe').scrollIntoViewIfNeeded();
    const frame = page.frameLocator('#explorer-iframe');
    const fr = await appRoot(frame);
    assert.equal(await fr.getAttribute('data-scenario'), 'lookup-scan');
  });
});

test('a bad attribute shows an error box naming it, and the other explorers still work', async () => {
  await withPage(
    e2e,
    { path: '/embed-example.html' },
    async (page) => {
      await appRoot(page.locator('#explorer-builtin'));
      await page.evaluate(() => {
        const el = document.createElement('logtime-explorer');
        el.id = 'bad';
        el.setAttribute('src', 'javascript:alert(1)');
        document.querySelector('main').append(el);
      });
      // Appended below the fold: it loads (and says what is wrong) as it nears the viewport.
      await page.locator('#bad').scrollIntoViewIfNeeded();
      const box = page.locator('#bad [data-testid=logtime-error]');
      await box.waitFor({ timeout: 10_000 });
      assert.match(await box.innerText(), /`src`/);
      assert.match(await box.innerText(), /not allowed/);
      assert.equal(await page.locator('#explorer-builtin [data-testid=app-root]').count(), 1);
    },
  );
});

for (const [viewport, colorScheme] of [
  ['desktop', 'light'],
  ['desktop', 'dark'],
  ['mobile', 'light'],
  ['mobile', 'dark'],
]) {
  test(`screenshots: ${viewport} ${colorScheme}`, async () => {
    await withPage(e2e, { path: '/', viewport, colorScheme }, async (page) => {
      await page.emulateMedia({ colorScheme });
      await appRoot(page);
      await screenshot(page, `index-${viewport}-${colorScheme}`); // before asserting: keep evidence
      const bg = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
      assert.equal(bg, colorScheme === 'dark' ? 'rgb(15, 19, 24)' : 'rgb(255, 255, 255)');
      // No horizontal scrolling, down to 375 px; name the widest offenders.
      const [overflow, offenders] = await page.evaluate(() => {
        const w = document.documentElement.clientWidth;
        const wide = [...document.querySelectorAll('body *')]
          .filter((el) => el.getBoundingClientRect().right > w + 0.5)
          .slice(0, 5)
          .map((el) => `<${el.tagName.toLowerCase()} class="${el.className}">${(el.textContent || '').trim().slice(0, 40)}`);
        return [document.documentElement.scrollWidth - w, wide];
      });
      assert.ok(overflow <= 0, `page scrolls horizontally by ${overflow}px; too wide: ${offenders.join(' | ')}`);
    });
    await withPage(e2e, { path: '/embed-example.html', viewport, colorScheme }, async (page) => {
      await page.emulateMedia({ colorScheme });
      await appRoot(page.locator('#explorer-builtin'));
      await appRoot(page.locator('#explorer-inline'));
      await screenshot(page, `embed-${viewport}-${colorScheme}`);
    });
  });
}
