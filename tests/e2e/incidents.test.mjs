// The incident library in the browser (issue 12): the menu's "Incidents" group with each
// incident's length and level; every incident played through as a walkthrough (to its end) and
// as a drill (every question answered, the first one wrong first and with a hint, tasks revealed,
// the score); each first screen's one-sentence summary; the stream lane of incident 8 visible,
// hidden while a stream question is open, and advancing read by read as records arrive.
//
// The right answers come from `logtime explain` (core's answer key for the same file), lengths,
// levels and summaries from the incident files: nothing is typed into the test.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { ROOT, SCREENSHOTS, screenshot, until, useE2E, waitText, withPage } from './harness.mjs';
import { answerKey, next, parseAnswer, toItem } from './lesson-key.mjs';

const e2e = useE2E();
const DIR = path.join(ROOT, 'static', 'incidents');

/** The incident files: `{ n, kind, file, name, lesson }`, in menu order. */
const FILES = fs
  .readdirSync(DIR)
  .filter((f) => /^\d\d-.*-(walkthrough|drill)\.json$/.test(f))
  .sort()
  .map((f) => {
    const [, n, kind] = f.match(/^(\d\d)-.*-(walkthrough|drill)\.json$/);
    const json = JSON.parse(fs.readFileSync(path.join(DIR, f), 'utf8'));
    return { n: Number(n), kind, file: path.join(DIR, f), name: `incident-${f.slice(0, -5)}`, lesson: json.lesson };
  })
  // each incident's walkthrough before its drill, as in the menu
  .sort((a, b) => a.n - b.n || (a.kind === 'drill') - (b.kind === 'drill'));

/** A wrong answer of the same kind. */
function wrongOf(a) {
  if (a.segments) return { segments: a.segments.length ? a.segments.slice(1) : null };
  if (a.records) return { records: a.records.length ? a.records.slice(1) : null };
  if (a.segment !== undefined) return { segment: null };
  if (a.none) return { type: 0, kind: 'offset' };
  if (a.kind === 'error') return { type: a.type === 0 ? 32 : 0, kind: 'error' };
  if (a.kind === 'value') return { type: a.type - 1, kind: 'value' };
  return { type: a.type + 1, kind: a.kind };
}

async function give(page, a) {
  const item = page.locator('[data-testid=lesson-item]');
  if (a.segments) {
    for (const s of a.segments) await page.locator(`[data-testid=segment-head-${s}]`).click();
  } else if (a.records) {
    for (const o of a.records) await page.locator(`[data-testid=record-${o}]`).click();
  } else if (a.segment !== undefined) {
    await page.locator(`[data-testid=segment-head-${a.segment}]`).click();
  } else if (a.none) {
    await item.locator('[data-testid=answer-none]').click();
    return;
  } else {
    await item.locator('[data-testid=answer-value]').fill(String(a.type));
  }
  await item.locator('[data-testid=answer-check]').click();
}

/** Undoes the picks of a set answer (segments and records toggle). */
async function unpick(page, a) {
  for (const s of a.segments ?? []) await page.locator(`[data-testid=segment-head-${s}]`).click();
  for (const o of a.records ?? []) await page.locator(`[data-testid=record-${o}]`).click();
}

/** The first screen: the file's one-sentence summary (markup aside) above the narration. */
async function firstScreen(page, inc) {
  await page.locator('[data-testid=lesson]').waitFor();
  const shown = await waitText(page.locator('[data-testid=lesson-summary]'), /\w/);
  const plain = (s) => s.replace(/[*`]/g, '').replace(/\[([^\]]*)\]\([^)]*\)/g, '$1').replace(/\s+/g, ' ').trim();
  assert.equal(plain(shown), plain(inc.lesson.summary), `${inc.name}: the first screen says what went wrong and what the reader learns`);
  assert.equal((plain(inc.lesson.summary).match(/[.!?](\s|$)/g) ?? []).length, 1, `${inc.name}: the summary is one sentence`);
}

/** Plays a drill to its score; returns what the test checked, for the report. */
async function playDrill(page, inc, key) {
  let k = 0;
  let got = 0;
  let max = 0;
  let wrongDone = false;
  while (await toItem(page)) {
    const it = key[k];
    assert.ok(it, `${inc.name}: more items than core's answer key`);
    const item = page.locator('[data-testid=lesson-item]');
    max += it.points;
    if (it.kind === 'task') {
      await item.locator('[data-testid=hint]').click();
      await item.locator('[data-testid=hints] li').first().waitFor();
      await item.locator('[data-testid=reveal-button]').click();
      await item.locator('[data-testid=item-revealed]').waitFor();
    } else {
      const right = parseAnswer(it.answer);
      let cost = 0;
      const wrong = wrongOf(right);
      const canWrong = !(wrong.segments === null || wrong.records === null || wrong.segment === null);
      if (!wrongDone && canWrong) {
        // the costs are the page's own (the hint button and the card say them)
        const hintText = await item.locator('[data-testid=hint]').innerText();
        const hintCost = Number(hintText.match(/−(\d+) points/)[1]);
        const wrongCost = Number(((await item.innerText()).match(/A wrong answer costs (\d+) points/) ?? [0, 0])[1]);
        await give(page, wrong);
        await waitText(item.locator('[data-testid=feedback]'), /Not quite/);
        await unpick(page, wrong);
        await item.locator('[data-testid=hint]').click();
        await item.locator('[data-testid=hints] li').first().waitFor();
        cost = hintCost + wrongCost;
        wrongDone = true;
      }
      await give(page, right);
      await waitText(item.locator('[data-testid=feedback]'), /✓ Right/);
      got += Math.max(0, it.points - cost);
    }
    k++;
  }
  assert.equal(k, key.length, `${inc.name}: every item of core's key was posed`);
  const score = await waitText(page.locator('[data-testid=score]'), /\d+ \/ \d+/);
  assert.equal(score, `${got} / ${max}`, `${inc.name}: the score`);
}

test('the menu groups the incidents with their length and level', async () => {
  await withPage(e2e, { path: '/index.html', reducedMotion: 'reduce' }, async (page) => {
    const options = page.locator('[data-testid=scenario-menu] optgroup[label=Incidents] option');
    await options.first().waitFor({ state: 'attached' });
    assert.equal(await options.count(), FILES.length);
    assert.equal(FILES.length, 16, 'eight incidents, each a walkthrough and a drill');
    for (const [i, inc] of FILES.entries()) {
      const o = options.nth(i);
      assert.equal(await o.getAttribute('value'), inc.name);
      const label = await o.innerText();
      assert.ok(
        label.startsWith(`${inc.n}. `) && label.endsWith(`: ${inc.kind}, ${inc.lesson.minutes} min, ${inc.lesson.level}`),
        `${inc.name}: ${label}`,
      );
    }
    // picking one from the menu opens it in its own mode
    await page.locator('[data-testid=scenario-menu]').selectOption(FILES.find((f) => f.n === 8 && f.kind === 'walkthrough').name);
    await page.locator('[data-testid=lesson][data-mode=walkthrough]').waitFor();
    await page.locator('[data-testid=stream-lane]').waitFor();
  });
});

for (const inc of FILES) {
  test(`${inc.name}: played through as a ${inc.kind}, answers from core`, async () => {
    const key = answerKey(inc.file);
    if (inc.kind === 'drill') assert.ok(key.filter((i) => i.kind === 'question').length >= 3, `${inc.name}: three questions at least`);
    await withPage(e2e, { path: `/index.html?scenario=${inc.name}`, reducedMotion: 'reduce' }, async (page) => {
      await firstScreen(page, inc);
      assert.equal(await page.locator('[data-testid=stream-lane]').count(), inc.n === 8 ? 1 : 0, 'a lane only where the file declares a stream');
      if (inc.kind === 'drill') {
        await playDrill(page, inc, key);
      } else {
        assert.equal(key.length, 0, 'a walkthrough asks nothing');
        const step = page.locator('[data-testid=lesson-step]');
        let steps = 0;
        while (await next(page).isEnabled()) {
          const before = await step.innerText();
          await next(page).click();
          await until(async () => (await step.innerText()) !== before || !(await next(page).isEnabled()), { what: 'a step forward' });
          await waitText(page.locator('[data-testid=narration]'), /\w/);
          steps++;
          assert.ok(steps < 80, 'the walkthrough ends');
        }
        await page.locator('[data-testid=lesson-finished]').waitFor();
        assert.ok(steps >= 3, `${inc.name}: ${steps} stops`);
      }
    });
  });
}

/** The lane's numbers, from the page. */
async function lane(page) {
  const l = page.locator('[data-testid=stream-lane]');
  return {
    read: Number(await l.getAttribute('data-read')),
    total: Number(await l.getAttribute('data-total')),
    late: Number((await l.locator('[data-testid=lane-late]').innerText()).replace(/,/g, '')),
    canvas: await l.locator('canvas').evaluate((c) => c.toDataURL()),
  };
}

test('incident 8: the stream lane is visible and follows the records read', async () => {
  const drillKey = answerKey(FILES.find((f) => f.n === 8 && f.kind === 'drill').file);
  const late = parseAnswer(drillKey[0].answer).records;
  for (const viewport of ['desktop', 'mobile']) {
    await withPage(e2e, { path: '/index.html?scenario=incident-08-event-time-downstream-walkthrough', viewport, reducedMotion: 'reduce' }, async (page) => {
      await page.locator('[data-testid=stream-lane]').waitFor();
      let last = await lane(page);
      assert.equal(last.read, 0);
      let grew = 0;
      let drew = 0;
      while (await next(page).isEnabled()) {
        await next(page).click();
        // the processor reads every record up to the high watermark
        const logEnd = async () => Number((await page.locator('[data-testid=log-end]').innerText()).replace(/,/g, ''));
        await until(async () => (await lane(page)).read === (await logEnd()), { what: 'every record appended read by the processor' });
        const now = await lane(page);
        assert.equal(now.total, await logEnd());
        if (now.read > last.read) grew++;
        if (now.canvas !== last.canvas) drew++;
        assert.ok(now.late >= last.late, 'dropped records stay dropped');
        if (now.read === 11 && viewport === 'desktop') await screenshot(page, 'incident-8-lane-desktop');
        last = now;
      }
      assert.ok(grew >= 8 && drew >= 8, `the lane advanced with the records (${grew} steps read more, ${drew} redrew)`);
      // what core's answer key says is dropped (the drill's default variant is the walkthrough's traffic)
      assert.equal(last.late, late.length, 'the records dropped as late are core\'s');
      const windows = await page.locator('[data-testid=lane-window]').allInnerTexts();
      assert.ok(windows.some((w) => /10:00–10:05: 3 counted, \d+ late, closed by record 5/.test(w)), windows.join(' | '));
      await waitText(page.locator('[data-testid=lane-newest]'), /Last read: record/);
      await screenshot(page, `incident-8-lane-end-${viewport}`);
      await page.locator('[data-testid=stream-lane]').screenshot({ path: path.join(SCREENSHOTS, `incident-8-lane-only-${viewport}.png`) });
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      assert.ok(overflow <= 0, `${viewport}: ${overflow} px of sideways scroll`);
    });
  }
});

test('incident 8: with motion the lane reads the new records one by one', async () => {
  await withPage(e2e, { path: '/index.html?scenario=incident-08-event-time-downstream-walkthrough' }, async (page) => {
    await page.locator('[data-testid=stream-lane]').waitFor();
    const l = page.locator('[data-testid=stream-lane]');
    const seen = new Set();
    for (let i = 0; i < 4; i++) {
      await next(page).click();
      // the lane catches up with the partition within a few ticks
      await until(async () => {
        seen.add(await l.getAttribute('data-read'));
        return (await l.getAttribute('data-read')) === (await l.getAttribute('data-total'));
      }, { what: 'the lane catching up' });
    }
    assert.ok(Number(await l.getAttribute('data-read')) > 0);
    assert.ok(seen.size >= 2, 'the lane moved through intermediate reads');
  });
});

test('incident 8 drill: the lane hides what the processor did while a stream question is open', async () => {
  await withPage(e2e, { path: '/index.html?scenario=incident-08-event-time-downstream-drill', reducedMotion: 'reduce' }, async (page) => {
    await toItem(page);
    const l = page.locator('[data-testid=stream-lane]');
    await l.locator('[data-testid=lane-hidden]').waitFor();
    assert.equal(await l.locator('[data-testid=lane-late]').count(), 0, 'no late count while it is asked');
    assert.equal(await l.locator('canvas').count(), 0);
    await screenshot(page, 'incident-8-drill-hidden-desktop');
    await page.locator('[data-testid=lesson-item] [data-testid=reveal-button]').click();
    await page.locator('[data-testid=item-revealed]').waitFor();
    await toItem(page);
  });
});
