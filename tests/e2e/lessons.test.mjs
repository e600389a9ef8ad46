// Lessons in the browser (issue 11): every built-in lesson played through with right and wrong
// answers, hints and the score; a task solved by acting in the explorer; going back without
// losing work; a variant from a seed; modes as URL parameters and embed attributes; inspecting
// records and segments; keyboard; reduced motion; axe in every mode; screenshots of each mode.
//
// The right answers come from `logtime explain` (core's answer key for the same lesson and seed),
// never from the page: the page must not give them away.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { ROOT, appRoot, axe, screenshot, until, useE2E, waitText, withPage } from './harness.mjs';
import { answerKey as keyOf, next, parseAnswer, toItem } from './lesson-key.mjs';

const e2e = useE2E();

const LESSONS = ['future-walkthrough', 'future-drill', 'two-kinds-walkthrough', 'two-kinds-drill', 'kip937-drill'];

/** A built-in lesson's file. */
const lessonFile = (name) => path.join(ROOT, 'static', 'lessons', `${name}.json`);

/** Core's answer key for a built-in lesson. */
const answerKey = (name, seed) => keyOf(lessonFile(name), seed);

/** A wrong answer of the same kind. */
function wrongOf(a) {
  if (a.segments) return { segments: a.segments.length ? a.segments.slice(1) : ['first'] };
  if (a.segment !== undefined) return { segment: 'other', not: a.segment };
  if (a.none) return { type: 0 };
  if (a.kind === 'error') return { type: a.type === 0 ? 32 : 0 };
  if (a.kind === 'value') return { type: a.type - 1 };
  if (a.kind === 'offset') return { type: a.type + 1 };
  throw new Error('no wrong answer');
}

/** A segment's head by base offset, or the first one shown (`'first'`). */
const segHead = (page, s) => (s === 'first' ? page.locator('button.lt-seg-head').first() : page.locator(`[data-testid=segment-head-${s}]`));

async function give(page, a) {
  const item = page.locator('[data-testid=lesson-item]');
  if (a.segments) {
    for (const s of a.segments) await segHead(page, s).click();
  } else if (a.segment !== undefined) {
    // typed, as a learner does when the partition has too many segments to list
    let base = a.segment;
    if (base === 'other') {
      const ids = await page.locator('button.lt-seg-head').evaluateAll((bs) => bs.map((b) => Number(b.dataset.testid.split('-').pop())));
      base = ids.find((x) => x !== a.not) ?? a.not + 1;
    }
    await item.locator('[data-testid=answer-value]').fill(String(base));
  } else if (a.none) {
    await item.locator('[data-testid=answer-none]').click();
    return;
  } else {
    await item.locator('[data-testid=answer-value]').fill(String(a.type));
  }
  await item.locator('[data-testid=answer-check]').click();
}

/** Solves the future story's task by acting in the explorer: config panel, then DeleteRecords and a check. */
async function solveFutureTask(page, offset) {
  const after = page.locator('[data-testid="config-message.timestamp.after.max.ms"]');
  await after.fill('3600000');
  await after.press('Enter');
  await after.blur();
  await waitText(page.locator('[data-testid=goal]'), /✓/);
  const del = page.locator('[data-testid=delete-offset]');
  await del.fill(String(offset));
  await del.press('Tab');
  await page.locator('[data-testid=delete-records]').click();
  await page.locator('[data-testid=run-retention]').click();
}

/**
 * Plays `name` to its score: the first question answered wrong first, then with a hint; the
 * rest right; tasks revealed (or, for the future story, solved by acting). Returns the score.
 */
async function playThrough(page, name, key, { actOnFuture = true } = {}) {
  let k = 0;
  let expectGot = 0;
  let expectMax = 0;
  let wrongDone = false;
  while (await toItem(page)) {
    const it = key[k];
    assert.ok(it, `${name}: more items than the answer key`);
    const item = page.locator('[data-testid=lesson-item]');
    expectMax += it.points;
    if (it.kind === 'task') {
      if (actOnFuture && name.startsWith('future')) {
        const fix = name === 'future-walkthrough' ? 30000 : Number(key.find((x) => x.kind === 'question' && /^offset/.test(x.answer ?? ''))?.answer.split(' ')[1]) + 10000;
        await solveFutureTask(page, fix);
        await waitText(item.locator('[data-testid=item-done]'), /Done: the goal holds/);
        expectGot += it.points;
      } else {
        if (await item.locator('[data-testid=hint]').isEnabled()) {
          await item.locator('[data-testid=hint]').click();
          await item.locator('[data-testid=hints] li').first().waitFor();
        }
        await item.locator('[data-testid=reveal-button]').click();
        await item.locator('[data-testid=item-revealed]').waitFor();
      }
    } else if (parseAnswer(it.answer).records) {
      // records are struck tile by tile; a big partition's may not all be in view: revealed instead
      await item.locator('[data-testid=reveal-button]').click();
      await item.locator('[data-testid=item-revealed]').waitFor();
    } else {
      const right = parseAnswer(it.answer);
      let cost = 0;
      if (!wrongDone) {
        await give(page, wrongOf(right));
        await waitText(item.locator('[data-testid=feedback]'), /Not quite/);
        // segments picked for the wrong answer stay picked: clear them
        if (right.segments) for (const s of wrongOf(right).segments) await segHead(page, s).click();
        cost = 2;
        if (await item.locator('[data-testid=hint]').isEnabled()) {
          await item.locator('[data-testid=hint]').click();
          await item.locator('[data-testid=hints] li').first().waitFor();
          cost += 3;
        }
        wrongDone = true;
      }
      await give(page, right);
      await waitText(item.locator('[data-testid=feedback]'), /✓ Right/);
      expectGot += Math.max(0, it.points - cost);
    }
    k++;
  }
  assert.equal(k, key.length, `${name}: every item was posed`);
  const score = await waitText(page.locator('[data-testid=score]'), /\d+ \/ \d+/);
  assert.equal(score, `${expectGot} / ${expectMax}`, `${name}: the score counts hints and wrong answers`);
  return score;
}

for (const name of LESSONS) {
  test(`lesson ${name}: played through with wrong and right answers, hints and a score`, async () => {
    const key = answerKey(name);
    assert.ok(key.length > 0);
    await withPage(e2e, { path: `/index.html?scenario=${name}`, reducedMotion: 'reduce' }, async (page) => {
      await page.locator('[data-testid=lesson]').waitFor();
      await playThrough(page, name, key);
      // the summary the learner can copy (clipboard or, failing that, shown to select)
      await page.locator('[data-testid=copy-score]').click();
      await until(async () => (await page.locator('[data-testid=scorecard] [role=status]').count()) > 0, { what: 'copy status' });
      // progress is kept per lesson on this device, and can be reset
      await waitText(page.locator('[data-testid=scorecard]'), /Best score on this device: \d+ \/ \d+ \(finished 1 time\)/);
      const stored = await page.evaluate((k) => localStorage.getItem(k), `logtime.lesson.${name}`);
      assert.match(stored, /^\d+\/\d+\/1$/);
      await page.locator('[data-testid=reset-progress]').click();
      assert.equal(await page.evaluate((k) => localStorage.getItem(k), `logtime.lesson.${name}`), null);
    });
  });
}

const INCIDENTS = fs
  .readdirSync(path.join(ROOT, 'static', 'incidents'))
  .filter((f) => f.endsWith('.json'))
  .map((f) => `incident-${f.slice(0, -5)}`)
  .sort();

test('the menu lists scenarios, lessons and incidents in groups', async () => {
  await withPage(e2e, { path: '/index.html', reducedMotion: 'reduce' }, async (page) => {
    await page.locator('[data-testid=scenario-menu]').waitFor();
    const groups = await page.locator('[data-testid=scenario-menu] optgroup').evaluateAll((gs) =>
      gs.map((g) => [g.label, [...g.querySelectorAll('option')].map((o) => o.value)]),
    );
    assert.deepEqual(groups.map((g) => g[0]), ['Scenarios', 'Lessons', 'Incidents']);
    assert.deepEqual(groups[1][1], LESSONS);
    assert.deepEqual([...groups[2][1]].sort(), INCIDENTS);
    // picking a lesson opens it in its mode
    await page.locator('[data-testid=scenario-menu]').selectOption('kip937-drill');
    await page.locator('[data-testid=lesson][data-mode=drill]').waitFor();
  });
});

test('a variant from a seed: the numbers of explain --seed, and a new variant on retry', async () => {
  const key = answerKey('future-drill', 5);
  const dflt = answerKey('future-drill');
  assert.notDeepEqual(key.map((k) => k.answer), dflt.map((k) => k.answer), 'seed 5 is another variant');
  await withPage(e2e, { path: '/index.html?scenario=future-drill&seed=5', reducedMotion: 'reduce' }, async (page) => {
    await waitText(page.locator('[data-testid=variant]'), /Variant 5/);
    await playThrough(page, 'future-drill', key, { actOnFuture: false });
    const card = await page.locator('[data-testid=scorecard]').innerText();
    assert.match(card, /Variant: /);
    await page.locator('[data-testid=new-variant]').click();
    const v = await waitText(page.locator('[data-testid=variant]'), /Variant \d+/);
    assert.notEqual(v, 'Variant 5');
    assert.equal(await page.locator('[data-testid=scorecard]').count(), 0, 'a fresh start');
  });
});

test('going back asks, keeps the work as a branch, and returns to it', async () => {
  await withPage(e2e, { path: '/index.html?scenario=future-walkthrough', reducedMotion: 'reduce' }, async (page) => {
    await page.locator('[data-testid=lesson]').waitFor();
    await toItem(page);
    const after = page.locator('[data-testid="config-message.timestamp.after.max.ms"]');
    await after.fill('3600000');
    await after.press('Enter');
    await after.blur();
    await waitText(page.locator('[data-testid=goal]'), /✓/);
    const step = await page.locator('[data-testid=lesson-step]').innerText();
    await page.locator('[data-testid=lesson-back]').click();
    await waitText(page.locator('[data-testid=confirm]'), /takes back what you did since: set message\.timestamp\.after\.max\.ms/);
    // keeping them changes nothing
    await page.locator('[data-testid=confirm-keep]').click();
    assert.equal(await page.locator('[data-testid=lesson-step]').innerText(), step);
    await page.locator('[data-testid=lesson-back]').click();
    await page.locator('[data-testid=confirm-go]').click();
    await page.locator('[data-testid=branch]').waitFor();
    assert.notEqual(await page.locator('[data-testid=lesson-step]').innerText(), step);
    assert.notEqual(await after.inputValue(), '3600000', 'the earlier moment');
    await screenshot(page, 'lesson-branch-desktop');
    await page.locator('[data-testid=return-branch]').click();
    await waitText(page.locator('[data-testid=lesson-step]'), new RegExp(step));
    assert.equal(await after.inputValue(), '3600000', 'the work is back');
    await waitText(page.locator('[data-testid=goal]'), /✓/);
  });
});

test('keyboard: arrows step the lesson, Enter on a segment or record opens its details', async () => {
  await withPage(e2e, { path: '/index.html?scenario=two-kinds-walkthrough', reducedMotion: 'reduce' }, async (page) => {
    await page.locator('[data-testid=lesson]').waitFor();
    const before = await page.locator('[data-testid=lesson-step]').innerText();
    await page.locator('[data-testid=narration]').focus();
    await page.keyboard.press('ArrowRight');
    await until(async () => (await page.locator('[data-testid=lesson-step]').innerText()) !== before, { what: 'a step forward' });
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowLeft');
    const head = page.locator('button.lt-seg-head').first();
    await head.focus();
    await page.keyboard.press('Enter');
    await waitText(page.locator('[data-testid=details]'), /Segment .*largest timestamp \(UTC\)/);
    const tile = page.locator('.lt-tile').first();
    await tile.focus();
    await page.keyboard.press('Enter');
    const d = await waitText(page.locator('[data-testid=details]'), /Record at offset/);
    assert.match(d, /timestamp \(UTC\) \d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z/);
    assert.match(d, /epoch ms -?\d+/);
    assert.match(d, /time index/);
    assert.match(d, /timestamp rule (CreateTime|LogAppendTime)/);
    // tiles show the full time of day
    assert.match(await tile.locator('.lt-tile-ts').innerText(), /^\d\d:\d\d:\d\d(\.\d{3})?$/);
    await screenshot(page, 'lesson-details-desktop');
    await page.locator('[data-testid=details-close]').click();
    assert.equal(await page.locator('[data-testid=details]').count(), 0);
  });
});

test('reduced motion is honoured in lessons; with motion, records land animated', async () => {
  await withPage(e2e, { path: '/index.html?scenario=two-kinds-walkthrough', reducedMotion: 'reduce' }, async (page) => {
    await page.locator('[data-testid=lesson]').waitFor();
    await next(page).click();
    assert.equal(await page.locator('.lt-app.reduced-motion').count(), 1);
    assert.equal(await page.locator('.lt-tile.landing').count(), 0);
  });
  await withPage(e2e, { path: '/index.html?scenario=two-kinds-walkthrough' }, async (page) => {
    await page.locator('[data-testid=lesson]').waitFor();
    assert.equal(await page.locator('.lt-app.reduced-motion').count(), 0);
  });
});

test('modes: URL parameter and embed attribute; a lesson in the explorer; a scenario walked through', async () => {
  await withPage(e2e, { path: '/index.html?scenario=future-walkthrough&mode=presenter', reducedMotion: 'reduce' }, async (page) => {
    await page.locator('[data-testid=lesson][data-mode=presenter]').waitFor();
    assert.equal(await page.locator('.lt-app.lt-presenter').count(), 1);
  });
  await withPage(e2e, { path: '/index.html?scenario=future-drill&mode=explorer', reducedMotion: 'reduce' }, async (page) => {
    await page.locator('[data-testid=partition]').waitFor();
    assert.equal(await page.locator('[data-testid=lesson]').count(), 0, 'no lesson pane in the explorer');
    await page.locator('[data-testid=step]').waitFor();
  });
  await withPage(e2e, { path: '/index.html?scenario=lookup-scan&mode=walkthrough', reducedMotion: 'reduce' }, async (page) => {
    await page.locator('[data-testid=lesson][data-mode=walkthrough]').waitFor();
    await next(page).click();
    await waitText(page.locator('[data-testid=narration]'), /\w/);
  });
  await withPage(e2e, { path: '/index.html?scenario=future-drill&mode=quiz', allowErrors: [/mode/] }, async (page) => {
    await waitText(page.locator('[data-testid=logtime-error]'), /invalid `\?mode` value "quiz": unknown mode \(expected one of: explorer, walkthrough, drill, presenter, author\)/);
  });
  const html = `<!doctype html><html lang="en"><head><title>t</title><script type="module" src="logtime-embed.js"></script></head><body><main>
    <logtime-explorer id="d" scenario="two-kinds-drill" mode="drill"></logtime-explorer>
    <logtime-explorer id="w" scenario="future-walkthrough" mode="walkthrough" panels="partition config retention"></logtime-explorer></main></body></html>`;
  await withPage(e2e, { path: null, reducedMotion: 'reduce' }, async (page) => {
    await page.route('**/lesson-embeds.html', (r) => r.fulfill({ contentType: 'text/html', body: html }));
    await page.goto(new URL('lesson-embeds.html', e2e.server.url).href);
    await page.locator('#d [data-testid=lesson][data-mode=drill]').waitFor();
    await page.locator('#w').scrollIntoViewIfNeeded(); // loads as it nears the viewport
    await page.locator('#w [data-testid=lesson][data-mode=walkthrough]').waitFor();
    // independent: stepping one leaves the other
    const w = await page.locator('#w [data-testid=lesson-step]').innerText();
    await page.locator('#d [data-testid=lesson-next]').click();
    assert.equal(await page.locator('#w [data-testid=lesson-step]').innerText(), w);
  });
});

const MODES = [
  { mode: 'walkthrough', scenario: 'future-walkthrough', steps: 2 },
  { mode: 'drill', scenario: 'future-drill', steps: 2, wrong: true },
  { mode: 'presenter', scenario: 'future-walkthrough', steps: 4 },
];
for (const { mode, scenario, steps, wrong } of MODES) {
  for (const colorScheme of ['light', 'dark']) {
    test(`${mode} (${colorScheme}): axe finds nothing; screenshots at desktop and 375 px`, async () => {
      for (const viewport of ['desktop', 'mobile']) {
        await withPage(e2e, { path: `/index.html?scenario=${scenario}&mode=${mode}`, viewport, colorScheme, reducedMotion: 'reduce' }, async (page) => {
          await appRoot(page);
          await page.locator('[data-testid=lesson]').waitFor();
          for (let i = 0; i < steps; i++) await next(page).click();
          if (wrong) {
            await page.locator('[data-testid=answer-value]').fill('10000');
            await page.locator('[data-testid=answer-check]').click();
            await waitText(page.locator('[data-testid=feedback]'), /Not quite/);
            await page.locator('[data-testid=hint]').click();
          }
          const violations = await axe(page);
          assert.deepEqual(violations, [], `${mode} ${viewport} ${colorScheme}`);
          if (colorScheme === 'light' || viewport === 'desktop') await screenshot(page, `lesson-${mode}-${viewport}-${colorScheme}`);
          // the document does not scroll sideways on a phone
          const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
          assert.ok(overflow <= 0, `${mode} ${viewport}: ${overflow} px of sideways scroll`);
        });
      }
    });
  }
}

test('the score card: axe finds nothing; screenshots', async () => {
  for (const viewport of ['desktop', 'mobile']) {
    await withPage(e2e, { path: '/index.html?scenario=two-kinds-drill', viewport, reducedMotion: 'reduce' }, async (page) => {
      await page.locator('[data-testid=lesson]').waitFor();
      await playThrough(page, 'two-kinds-drill', answerKey('two-kinds-drill'));
      assert.deepEqual(await axe(page), []);
      await screenshot(page, `lesson-score-${viewport}`);
    });
  }
});

test('a stop that points at a panel outlines that panel, and only it', async () => {
  await withPage(e2e, { path: '/index.html?scenario=future-walkthrough', reducedMotion: 'reduce' }, async (page) => {
    await page.locator('[data-testid=lesson]').waitFor();
    // The first stop shows panel:partition: outlined, and the page is not scrolled to it.
    await page.locator('[data-panel=partition][data-lt-pointed]').waitFor();
    assert.equal(await page.locator('[data-lt-pointed]').count(), 1);
    assert.equal(await page.evaluate(() => window.scrollY), 0);
  });
});
