// Narration links and what a question hides (issues 38 and 39):
// - a lesson's narration names segments and records as links: Tab reaches them, Enter follows
//   one, and the explorer outlines what it names and scrolls it into view;
// - while a pinning question is open nothing tells a stamp's age at a glance (tile colours, the
//   ▲ marks, "stamped in the future" in labels and titles, the future badge), and it all comes
//   back once the drill's questions that hide it are settled.
// Screenshots of the lesson pane with a question open at 375 and 1280 px.
import assert from 'node:assert/strict';
import path from 'node:path';
import { test } from 'node:test';
import { ROOT, appRoot, axe, screenshot, until, useE2E, waitText, withPage } from './harness.mjs';
import { answerKey, next, parseAnswer, toItem } from './lesson-key.mjs';

const e2e = useE2E();
const DRILL = path.join(ROOT, 'static', 'lessons', 'future-drill.json');

/** The focused element's data-testid and data-mention, through shadow roots. */
const focused = (page) =>
  page.evaluate(() => {
    let a = document.activeElement;
    while (a?.shadowRoot?.activeElement) a = a.shadowRoot.activeElement;
    return { id: a?.dataset?.testid ?? '', mention: a?.dataset?.mention ?? '', value: a?.dataset?.value ?? '' };
  });

/** Whether `locator`'s element is at least half inside the window. */
const inView = (locator) =>
  locator.evaluate((el) => {
    const r = el.getBoundingClientRect();
    const h = Math.min(r.bottom, innerHeight) - Math.max(r.top, 0);
    return r.width > 0 && h >= Math.min(r.height, innerHeight) / 2;
  });

/** The element a followed link names. */
const targetOf = (page, { mention, value }) =>
  page.locator(mention === 'segment' ? `[data-testid=segment-${value}]` : `[data-testid=record-${value.split('-')[0]}]`);

for (const viewport of ['desktop', 'mobile']) {
  test(`narration links are reached by Tab and followed with Enter (${viewport})`, async () => {
    await withPage(e2e, { path: '/index.html?scenario=future-walkthrough', reducedMotion: 'reduce', viewport }, async (page) => {
      await appRoot(page);
      const narration = page.locator('[data-testid=narration]');
      await narration.waitFor();
      const followed = new Set();
      for (let stop = 0; stop < 40 && followed.size < 2; stop++) {
        // The links at this stop whose target is not outlined yet (a segment, then records).
        const links = await narration.locator('[data-testid=mention-link]').evaluateAll((as) =>
          as.map((a) => ({ mention: a.dataset.mention, value: a.dataset.value })),
        );
        let want = null;
        for (const l of links) {
          if ((l.mention !== 'segment' && l.mention !== 'offsets') || followed.has(l.mention)) continue;
          // a range small enough to show as tiles (a bigger one shows as density bars)
          if (l.mention === 'offsets' && l.value.split('-').reduce((a, b) => b - a) > 100) continue;
          const outlined = await targetOf(page, l).evaluate((el) => el.classList.contains('lt-hl')).catch(() => false);
          if (!outlined) {
            want = l;
            break;
          }
        }
        if (want) {
          // The page scrolled away from the partition; the keyboard starts at the narration.
          await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
          await narration.focus();
          let on = null;
          for (let i = 0; i < 30; i++) {
            await page.keyboard.press('Tab');
            const f = await focused(page);
            if (f.id === 'mention-link' && f.mention === want.mention && f.value === want.value) {
              on = f;
              break;
            }
          }
          assert.ok(on, `Tab reached the ${want.mention} ${want.value} link`);
          await page.keyboard.press('Enter');
          const target = targetOf(page, want);
          await until(() => target.evaluate((el) => el.classList.contains('lt-hl')), { what: `${want.mention} ${want.value} outlined` });
          await until(() => inView(target), { what: `${want.mention} ${want.value} scrolled into view` });
          if (want.mention === 'offsets') {
            // Records are shown as tiles around them, each outlined.
            const [a, b] = want.value.split('-').map(Number);
            for (let o = a; o <= b; o++) assert.ok(await page.locator(`[data-testid=record-${o}].lt-hl`).count(), `record ${o} outlined`);
          }
          followed.add(want.mention);
          continue;
        }
        if (!(await next(page).isEnabled())) {
          // a question: reveal it and go on
          const reveal = page.locator('[data-testid=lesson-item] [data-testid=reveal-button]');
          if (await reveal.count()) await reveal.click();
          if (!(await next(page).isEnabled())) break;
        }
        await next(page).click();
      }
      assert.deepEqual([...followed].sort(), ['offsets', 'segment'], 'a segment link and a records link were followed');
      if (viewport === 'desktop') assert.deepEqual(await axe(page), []);
    });
  });
}

test('while the pinning question is open nothing tells the future stamp; settled, the marks come back', async () => {
  const key = answerKey(DRILL);
  const pin = parseAnswer(key[0].answer).segment;
  for (const viewport of ['desktop', 'mobile']) {
    await withPage(e2e, { path: '/index.html?scenario=future-drill', reducedMotion: 'reduce', viewport }, async (page) => {
      await appRoot(page);
      assert.ok(await toItem(page));
      const item = page.locator('[data-testid=lesson-item]');
      const part = page.locator('[data-testid=partition]');
      await waitText(item, /Pick the segment that pins retention/);
      // Segment cards: no future badge, no "(in 2 y …)" after the largest stamp.
      await part.locator(`[data-testid=segment-${pin}]`).waitFor();
      assert.equal(await part.locator('.lt-badge-future, .lt-seg.future').count(), 0, 'no future badge');
      assert.doesNotMatch(await part.innerText(), /\bin \d+ (y|d)\b/, 'no relative stamp ahead of the clock');
      await part.locator('[data-testid=ages-hidden]').waitFor();
      assert.doesNotMatch(await page.locator('[data-testid=chart-key]').innerText(), /▲/);
      assert.doesNotMatch(await page.locator('[data-testid=timestamp-chart]').getAttribute('aria-label'), /future/);
      await part.screenshot({ path: path.join(ROOT, 'tests', 'e2e', 'screenshots', `narration-partition-density-${viewport === 'mobile' ? 375 : 1280}.png`) });
      // Tiles around the future stamp: neutral, and no label or title says "future" or an age.
      for (let i = 0; i < 4; i++) await page.locator('[data-testid=zoom-in]').click();
      const tile = part.locator(`[data-testid=record-${pin}]`);
      await tile.waitFor();
      assert.equal(await part.locator('.lt-tile.age-hidden').count() > 0, true);
      assert.equal(await part.locator('.lt-tile.age-future, .lt-tile.age-expired, .lt-tile.age-fresh, .lt-tile.age-ageing').count(), 0);
      const tells = await part.evaluate((p) =>
        [...p.querySelectorAll('[title], [aria-label]')]
          .map((e) => `${e.getAttribute('title') ?? ''} ${e.getAttribute('aria-label') ?? ''}`)
          .filter((t) => /future|within half of retention|nearing retention|older than retention/i.test(t)),
      );
      assert.deepEqual(tells, [], 'no attribute in the partition tells an age');
      // Details of the future record: its stamp, not its age.
      await tile.click();
      const details = page.locator('[data-testid=details]');
      await details.waitFor();
      assert.doesNotMatch(await details.innerText(), /in the future/);
      await screenshot(page, `narration-question-open-${viewport === 'mobile' ? 375 : 1280}`);
      await page.locator('[data-testid=lesson]').screenshot({ path: path.join(ROOT, 'tests', 'e2e', 'screenshots', `narration-pane-question-${viewport === 'mobile' ? 375 : 1280}.png`) });
      if (viewport === 'desktop') assert.deepEqual(await axe(page), []);
      // Settle the pinning question, then the strike question (which hides the same marks).
      await item.locator('[data-testid=answer-value]').fill(String(pin));
      await item.locator('[data-testid=answer-check]').click();
      await waitText(item.locator('[data-testid=feedback]'), /✓ Right/);
      assert.equal(await part.locator('.lt-tile.age-future').count(), 0, 'the strike question still hides them');
      await next(page).click();
      await item.locator('[data-testid=reveal-button]').click();
      await item.locator('[data-testid=item-revealed]').waitFor();
      await until(async () => (await part.locator('[data-testid=ages-hidden]').count()) === 0, { what: 'the age legend back' });
      assert.match(await page.locator('[data-testid=chart-key]').innerText(), /▲ future stamp/);
      await page.locator('[data-testid=details-close]').click().catch(() => {});
      await page.locator('[aria-label="Fit the whole log"]').click();
      for (let i = 0; i < 4; i++) await page.locator('[data-testid=zoom-in]').click();
      await until(async () => (await part.locator('.lt-tile').count()) > 0, { what: 'tiles' });
      assert.equal(await part.locator('.lt-tile.age-hidden').count(), 0, 'age colours are back');
      assert.ok(await part.locator('.lt-tile[aria-label*="retention"], .lt-tile[aria-label*="stamped in the future"]').count() > 0, 'labels say the age again');
    });
  }
});
