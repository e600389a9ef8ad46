// End-to-end tests of author mode's highlights and recording place (issue 38): a step's
// highlights picked by pointing at config rows and panel headings, by mouse and by keyboard
// (with the picking state shown and Esc ending it), saved, reopened by a drop and outlined when
// the lesson plays; and stepping back in the draft, which moves the explorer to that step so
// the next recording lands right after it, not at the end.
// Run after `trunk build --release --offline`:  node --test tests/e2e/author-highlights.test.mjs
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { SCREENSHOTS, axe, screenshot, until, useE2E, waitText, withPage } from './harness.mjs';
import { drop, emptyDraft, ready } from './author-kit.mjs';

const e2e = useE2E();

/** Sends one batch of one record stamped `ago` before the broker clock (empty: now). */
async function send(page, ago) {
  await page.locator('[data-testid=ts-mode]').selectOption(ago ? 'minus' : 'now');
  if (ago) await page.locator('[data-testid=ts-amount]').fill(ago);
  await page.locator('[data-testid=send]').click();
  await page.locator('[data-testid=produce-ok]').waitFor();
}

const steps = (page) => page.locator('[data-testid=author-steps] > li');
const summary = (page, i) => page.locator(`[data-testid=author-step-${i}] .lt-author-summary`).innerText();
const records = (page) => page.locator('[data-testid=partition] [data-testid^=record-]').count();

test('config rows and panels picked as highlights by mouse and by keyboard, saved, reopened and outlined when played', async () => {
  let saved;
  await withPage(e2e, { path: '/index.html', reducedMotion: 'reduce' }, async (page) => {
    await ready(page);
    await emptyDraft(page);
    const title = page.locator('[data-testid=author-title]');
    await title.fill('Two configs and a lookup');
    await title.press('Tab');
    await send(page, '2d');
    await send(page, '');
    await waitText(page.locator('[data-testid=author-summary]'), /^2 steps/);
    await page.locator('[data-testid=author-step-1] button').click();
    const narration = page.locator('[data-testid=author-narration]');
    await narration.fill('Retention and the segment size decide what goes; the lookup reads what stays.');
    await narration.press('Tab');
    // Picking: a status says so, the panels are outlined and their headings become buttons.
    await page.locator('[data-testid=author-pick]').click();
    await waitText(page.locator('[data-testid=author-picking]'), /Picking highlights for step 1: .*Esc ends picking/);
    assert.ok(await page.locator('.lt-app.lt-author-picking').count());
    await page.locator('[data-testid=pick-panel-lookup]').waitFor();
    assert.deepEqual(await axe(page), [], 'axe while picking');
    await screenshot(page, 'author-picking-desktop');
    await page.screenshot({ path: path.join(SCREENSHOTS, 'author-picking-desktop-view.png') });
    await page.setViewportSize({ width: 375, height: 800 });
    await page.waitForTimeout(200);
    await screenshot(page, 'author-picking-mobile');
    await page.locator('[data-testid=author-editor]').screenshot({ path: path.join(SCREENSHOTS, 'author-picking-mobile-editor.png') });
    await page.locator('section[data-panel=config]').screenshot({ path: path.join(SCREENSHOTS, 'author-picking-mobile-config.png') });
    await page.locator('section[data-panel=clock]').screenshot({ path: path.join(SCREENSHOTS, 'author-picking-mobile-clock.png') });
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    assert.ok(overflow <= 0, `the page scrolls sideways by ${overflow} px at 375 px`);
    await page.setViewportSize({ width: 1280, height: 900 });
    const highlights = page.locator('[data-testid=author-highlights]');
    // By mouse: a config row and a panel's heading.
    await page.locator('[data-testid="pick-config-retention.ms"]').click();
    await waitText(highlights, /config:retention\.ms/);
    await page.locator('[data-testid=pick-panel-lookup]').click();
    await waitText(highlights, /panel:lookup/);
    assert.equal(await page.locator('[data-testid=pick-panel-lookup]').getAttribute('aria-pressed'), 'true');
    // By keyboard: Enter on a panel heading, Space on a config row's toggle.
    await page.locator('[data-testid=pick-panel-retention]').focus();
    await page.keyboard.press('Enter');
    await waitText(highlights, /panel:retention/);
    await page.locator('[data-testid="pick-config-segment.bytes"]').focus();
    await page.keyboard.press(' ');
    await waitText(highlights, /config:segment\.bytes/);
    // Picked again, a highlight goes; the list's ✕ removes one too.
    await page.locator('[data-testid="pick-config-segment.bytes"]').click();
    await until(async () => !/segment\.bytes/.test(await highlights.innerText()));
    await page.getByRole('button', { name: 'Remove highlight panel:retention' }).click();
    await until(async () => !/panel:retention/.test(await highlights.innerText()));
    assert.deepEqual(
      await highlights.locator('code').allInnerTexts(),
      ['config:retention.ms', 'panel:lookup'],
    );
    // Outlined in the explorer as a lesson outlines them.
    await page.locator('section[data-panel=lookup][data-lt-pointed]').waitFor();
    await page.locator('.lt-config-row.lt-hl[data-config="retention.ms"]').waitFor();
    // Esc ends picking.
    await page.keyboard.press('Escape');
    await until(async () => (await page.locator('.lt-app.lt-author-picking').count()) === 0);
    assert.equal(await page.locator('[data-testid=pick-panel-lookup]').count(), 0);
    assert.ok(await page.locator('[data-testid=author-picking]').isHidden());
    const [download] = await Promise.all([page.waitForEvent('download'), page.locator('[data-testid=author-save]').click()]);
    saved = fs.readFileSync(await download.path(), 'utf8');
  });
  const doc = JSON.parse(saved);
  assert.deepEqual(doc.steps[0].show, ['config:retention.ms', 'panel:lookup']);
  // Reopened by a drop and played: the step's highlights are outlined.
  await withPage(e2e, { path: '/index.html', reducedMotion: 'reduce' }, async (page) => {
    await ready(page);
    await drop(page, 'highlights.json', saved);
    await page.locator('[data-testid=lesson]').waitFor();
    await waitText(page.locator('[data-testid=narration]'), /Retention and the segment size decide/);
    await page.locator('section[data-panel=lookup][data-lt-pointed]').waitFor();
    await page.locator('.lt-config-row.lt-hl[data-config="retention.ms"]').waitFor();
    assert.equal(await page.locator('[data-testid=pick-panel-lookup]').count(), 0, 'no pick buttons in a played lesson');
  });
});

test('stepping back to step 2 moves the explorer there, and the next batch lands as step 3', async () => {
  await withPage(e2e, { path: '/index.html', reducedMotion: 'reduce' }, async (page) => {
    await ready(page);
    await emptyDraft(page);
    for (const ago of ['3d', '2d', '1d']) await send(page, ago);
    await waitText(page.locator('[data-testid=author-summary]'), /^3 steps/);
    const place = page.locator('[data-testid=author-recording]');
    assert.equal((await place.innerText()).trim(), 'Recording at the end');
    assert.equal(await records(page), 3);
    // Back (←) from the end: the explorer shows the partition after step 2.
    await page.evaluate(() => document.activeElement?.blur());
    await page.keyboard.press('ArrowLeft');
    await waitText(place, /^Recording after step 2$/);
    await until(async () => (await records(page)) === 2);
    await send(page, '');
    await waitText(page.locator('[data-testid=author-summary]'), /^4 steps/);
    assert.match(await summary(page, 3), /stamped now$/);
    assert.match(await summary(page, 4), /stamped now-1d$/);
    await waitText(place, /^Recording after step 3$/);
    // Selecting a step in the pane moves there too; "Record at the end" goes back to the end.
    await page.locator('[data-testid=author-step-1] button').click();
    await waitText(place, /^Recording after step 1$/);
    await until(async () => (await records(page)) === 1);
    await page.locator('[data-testid=author-record-end]').click();
    await waitText(place, /^Recording at the end$/);
    await until(async () => (await records(page)) === 4);
    await send(page, '5h');
    await waitText(page.locator('[data-testid=author-summary]'), /^5 steps/);
    assert.match(await summary(page, 5), /stamped now-5h$/);
    const all = await Promise.all([1, 2, 3, 4, 5].map((i) => summary(page, i)));
    assert.deepEqual(all.map((s) => s.replace(/.*stamped /, '')), ['now-3d', 'now-2d', 'now', 'now-1d', 'now-5h']);
    assert.equal(await steps(page).count(), 5);
    // A record, then another with Shift: one range of offsets.
    await page.locator('[data-testid=author-step-5] button').click();
    await page.locator('[data-testid=author-pick]').click();
    await page.locator('[data-testid=partition] [data-testid=record-0]').click();
    await page.locator('[data-testid=partition] [data-testid=record-2]').click({ modifiers: ['Shift'] });
    await waitText(page.locator('[data-testid=author-highlights]'), /offsets:0-2/);
    assert.deepEqual(await page.locator('[data-testid=author-highlights] code').allInnerTexts(), ['offsets:0-2']);
  });
});
