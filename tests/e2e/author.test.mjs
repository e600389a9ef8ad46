// End-to-end tests of author mode (issue 38), with no JSON typed: a trainer's drill built by
// clicking and typing narration, saved, checked by `logtime check`, reopened by a drop and
// played by a learner to a score; and an on-call walkthrough from a partition Kafka wrote,
// narrated and highlighted, shared by link and stepped through in a fresh page. Each counts the
// clicks and keystrokes it took (printed as `author clicks N keys K`). Also: keyboard-only
// undo/redo, axe on author mode, and screenshots at 1280 and 375 px.
// Run after `trunk build --release --offline`:  node --test tests/e2e/author.test.mjs
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { ROOT, SCREENSHOTS, axe, screenshot, until, useE2E, waitText, withPage } from './harness.mjs';
import { drop, logtime, ready } from './author-kit.mjs';

const e2e = useE2E();

/** Counts what a person does: a click, a choice in a list (two clicks), text typed (a key per character). */
function counter() {
  const n = { clicks: 0, keys: 0 };
  return {
    n,
    click: async (loc) => {
      n.clicks += 1;
      await loc.click();
    },
    choose: async (loc, value) => {
      n.clicks += 2;
      await loc.selectOption(value);
    },
    type: async (loc, text) => {
      n.keys += text.length;
      await loc.fill(text);
    },
    // Leaving a field commits it: a Tab.
    tab: async (loc) => {
      n.keys += 1;
      await loc.press('Tab');
    },
  };
}

const steps = (page) => page.locator('[data-testid=author-steps] > li');

/** Sends one batch from the producer panel: `ago` before the broker clock (empty: now). */
async function send(page, c, ago, valueBytes) {
  await c.choose(page.locator('[data-testid=ts-mode]'), ago ? 'minus' : 'now');
  if (ago) await c.type(page.locator('[data-testid=ts-amount]'), ago);
  await c.type(page.getByLabel('Value bytes'), String(valueBytes));
  await c.click(page.locator('[data-testid=send]'));
  await page.locator('[data-testid=produce-ok]').waitFor();
}

test("the trainer's drill: built by clicking, saved, checked by logtime, reopened by a drop, played to a score", async () => {
  const c = counter();
  let saved;
  await withPage(e2e, { path: '/index.html', reducedMotion: 'reduce' }, async (page) => {
    await ready(page);
    await c.click(page.locator('[data-testid=author-button]'));
    // An empty partition: Kafka 4.0, one day of retention, 1 MiB segments.
    await c.choose(page.locator('[data-testid=author-kafka]'), '4.0');
    await c.type(page.locator('[data-testid=author-config-value-0]'), '1d');
    await c.type(page.locator('[data-testid=author-config-value-1]'), '1MiB');
    await c.click(page.locator('[data-testid=author-from-empty]'));
    await page.locator('[data-testid=author]').waitFor();
    // Its title and kind.
    const title = page.locator('[data-testid=author-title]');
    await c.type(title, 'A replay into a one-day topic');
    await c.tab(title);
    await c.choose(page.locator('[data-testid=author-lesson-kind]'), 'drill');
    // The replay of three-day-old events, then live traffic: each send is a recorded step.
    await send(page, c, '3d', 600000);
    await waitText(page.locator('[data-testid=author-steps]'), /produce/);
    await send(page, c, '71h', 600000);
    await send(page, c, '', 600000);
    await waitText(page.locator('[data-testid=author-summary]'), /^3 steps/);
    // Narration on the first step, with its live preview.
    await c.click(page.locator('[data-testid=author-step-1] button'));
    const narration = page.locator('[data-testid=author-narration]');
    await c.type(narration, 'A replay job sends events from **three days ago**.');
    assert.match(await page.locator('[data-testid=author-preview-text] strong').innerText(), /three days ago/);
    await c.tab(narration);
    await waitText(page.locator('[data-testid=author-step-1]'), /produce/);
    // The question, after the last step: its kind, and what the learner is asked.
    await c.click(page.locator('[data-testid=author-step-3] button'));
    await c.click(page.locator('[data-testid=author-add-question]'));
    await page.locator('[data-testid=author-step-4]').waitFor();
    const ask = page.locator('[data-testid=author-ask]');
    await c.type(ask, 'Which segments does the next retention check delete?');
    await c.tab(ask);
    // Core computed the answer at the step; the check passes.
    assert.match(await waitText(page.locator('[data-testid=author-answer-text]'), /segment/), /segments? 0, 1/);
    await waitText(page.locator('[data-testid=author-summary]'), /4 steps · the check passes/);
    await screenshot(page, 'author-drill-desktop');
    await page.locator('[data-testid=author]').screenshot({ path: path.join(SCREENSHOTS, 'author-drill-pane-desktop.png') });
    const [download] = await Promise.all([page.waitForEvent('download'), c.click(page.locator('[data-testid=author-save]'))]);
    saved = fs.readFileSync(await download.path(), 'utf8');
    console.log('author clicks', c.n.clicks, 'keys', c.n.keys, "(the trainer's drill, saved)");
  });
  // A pretty file with the file grammar's times and sizes, that logtime check passes.
  assert.match(saved, /\n {2}"steps": \[/);
  assert.match(saved, /"timestamp": "now-3d"/);
  assert.match(saved, /Which segments does the next retention check delete\?/);
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'logtime-author-')), 'drill.json');
  fs.writeFileSync(file, saved);
  const checked = logtime('check', file);
  assert.match(checked, /: ok: drill "A replay into a one-day topic": 1 question/, checked);
  // Reopened by a drop, in a fresh page, and played as a learner to a score.
  await withPage(e2e, { path: '/index.html', reducedMotion: 'reduce' }, async (page) => {
    await ready(page);
    await drop(page, 'drill.json', saved);
    await page.locator('[data-testid=lesson][data-mode=drill]').waitFor();
    assert.equal((await page.locator('[data-testid=scenario-title]').innerText()).trim(), 'A replay into a one-day topic');
    const item = page.locator('[data-testid=lesson-item]');
    for (let i = 0; i < 10 && !(await item.count()); i++) await page.locator('[data-testid=lesson-next]').click();
    await item.waitFor();
    for (const s of [0, 1]) await page.locator(`[data-testid=segment-head-${s}]`).click();
    await item.locator('[data-testid=answer-check]').click();
    await waitText(item.locator('[data-testid=feedback]'), /✓ Right/);
    for (let i = 0; i < 10 && !(await page.locator('[data-testid=score]').count()); i++) {
      const next = page.locator('[data-testid=lesson-next]');
      if (await next.count()) await next.click();
    }
    assert.match(await waitText(page.locator('[data-testid=score]'), /\d+ \/ \d+/), /^(\d+) \/ \1$/);
  });
});

test('the on-call walkthrough: from an imported Kafka partition, narrated and highlighted, shared by link, stepped through', async () => {
  const c = counter();
  const dir = path.join(ROOT, 'tests', 'import', 'kafka', 'pinned-retention', 'closed', 'clicks-0');
  let url;
  await withPage(e2e, { path: '/index.html', reducedMotion: 'reduce' }, async (page) => {
    await ready(page);
    await c.type(page.locator('[data-testid=import-clock]'), '2027-03-11T00:00:00Z');
    await c.choose(page.locator('[data-testid=import-rules]'), '3.6');
    await c.click(page.locator('[data-testid=import-folder]'));
    await page.locator('[data-testid=import-folder]').setInputFiles(dir);
    await page.locator('[data-testid=inspect-walkthrough]').waitFor({ timeout: 20_000 });
    await c.click(page.locator('[data-testid=inspect-walkthrough]'));
    await page.locator('[data-testid=author]').waitFor();
    // A note that names the pinning segment, highlighting it (picked by clicking it).
    await c.click(page.locator('[data-testid=author-add-note]'));
    await page.locator('[data-testid=author-step-1]').waitFor();
    const narration = page.locator('[data-testid=author-narration]');
    await c.type(narration, 'Segment [18](segment:18) is stamped in 2030: it pins retention.');
    await c.tab(narration);
    await waitText(page.locator('[data-testid=author-preview-text]'), /Segment 18 is stamped/);
    await c.click(page.locator('[data-testid=author-pick]'));
    await c.click(page.locator('[data-testid=segment-head-18]'));
    await waitText(page.locator('[data-testid=author-highlights]'), /segment:18/);
    await c.click(page.locator('[data-testid=author-pick]'));
    // The fix, done in the explorer, is recorded.
    await c.click(page.locator('[data-testid=inspect-delete-go]'));
    await waitText(page.locator('[data-testid=author-steps]'), /delete/i);
    await waitText(page.locator('[data-testid=author-summary]'), /the check passes/);
    await c.click(page.locator('[data-testid=author-share]'));
    url = await (async () => {
      const link = page.locator('[data-testid=author-link]');
      await link.waitFor();
      return link.inputValue();
    })();
    console.log('author clicks', c.n.clicks, 'keys', c.n.keys, '(the on-call walkthrough, shared)');
  });
  assert.match(url, /\?z=/);
  await withPage(e2e, { path: url.slice(url.indexOf('/index.html')), reducedMotion: 'reduce' }, async (page) => {
    await ready(page);
    const lesson = page.locator('[data-testid=lesson]');
    await lesson.waitFor();
    await waitText(page.locator('[data-testid=narration]'), /Segment 18 is stamped in 2030/);
    // The highlight outlines the segment; the narration's link is live.
    await page.locator('[data-testid=narration] [data-mention=segment][data-value="18"]').waitFor();
    for (let i = 0; i < 10 && !(await page.locator('[data-testid=lesson-finished]').count()); i++) {
      await page.locator('[data-testid=lesson-next]').click();
    }
    await page.locator('[data-testid=lesson-finished]').waitFor();
  });
});

test('author mode by keyboard: undo and redo, axe finds nothing, screenshots at 1280 and 375 px', async () => {
  await withPage(e2e, { path: '/index.html?mode=author&scenario=lookup-scan', reducedMotion: 'reduce' }, async (page) => {
    await ready(page);
    await page.locator('[data-testid=author]').waitFor();
    const before = await steps(page).count();
    // A retention check run from the keyboard is recorded.
    await page.locator('[data-testid=run-retention]').focus();
    await page.keyboard.press('Enter');
    await until(async () => (await steps(page).count()) === before + 1);
    await page.locator('[data-testid=author-undo]').focus();
    await page.keyboard.press('Control+z');
    await until(async () => (await steps(page).count()) === before);
    await page.keyboard.press('Control+Shift+z');
    await until(async () => (await steps(page).count()) === before + 1);
    await page.locator(`[data-testid=author-step-${before + 1}] button`).focus();
    await page.keyboard.press('Enter');
    await page.locator('[data-testid=author-editor]').waitFor();
    assert.deepEqual(await axe(page), []);
    await screenshot(page, 'author-desktop');
    await page.locator('[data-testid=author]').screenshot({ path: path.join(SCREENSHOTS, 'author-pane-desktop.png') });
    await page.setViewportSize({ width: 375, height: 800 });
    await page.waitForTimeout(200);
    // In one column the pane follows the partition, and the jump at the top reaches it.
    const top = async (sel) => (await page.locator(sel).boundingBox()).y;
    assert.ok((await top('[data-testid=author]')) > (await top('[data-testid=partition]')), 'the pane is below the partition');
    for (const other of ['section[data-panel=producer]', 'section[data-panel=config]', 'section[data-panel=retention]']) {
      if (await page.locator(other).count()) assert.ok((await top('[data-testid=author]')) < (await top(other)), `the pane is above ${other}`);
    }
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.locator('[data-testid=author-jump]').click();
    await until(async () => page.locator('[data-testid=author]').evaluate((el) => el.getRootNode().activeElement === el));
    await until(async () => page.locator('[data-testid=author]').evaluate((el) => { const r = el.getBoundingClientRect(); return r.top < window.innerHeight && r.bottom > 0; }));
    await page.evaluate(() => window.scrollTo(0, 0));
    await screenshot(page, 'author-mobile');
    await page.locator('[data-testid=author]').screenshot({ path: path.join(SCREENSHOTS, 'author-pane-mobile.png') });
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    assert.ok(overflow <= 0, `the page scrolls sideways by ${overflow} px at 375 px`);
    assert.deepEqual(await axe(page), []);
  });
});

test("a question's settings: hidden-until-answered as core resolves it, hints edited and removed, words for a wrong-answer class, two seeds' variants", async () => {
  await withPage(e2e, { path: '/index.html?mode=author&scenario=future-drill', reducedMotion: 'reduce' }, async (page) => {
    await ready(page);
    await page.locator('[data-testid=author]').waitFor();
    // Step 21 asks for the pinning segment and sets no `hide`: the boxes show the kind's default.
    await page.locator('[data-testid=author-step-21] button').click();
    const hides = page.locator('[data-testid=author-hides]');
    await hides.waitFor();
    assert.equal(await hides.getAttribute('data-explicit'), 'false');
    const box = (k) => page.locator(`[data-testid=author-hide-${k}]`);
    for (const k of ['verdicts', 'pinned_badges', 'remedies', 'answer_panel', 'age_marks']) assert.ok(await box(k).isChecked(), `${k} hidden by default`);
    for (const k of ['lookup_trace', 'stream_verdicts']) assert.ok(!(await box(k).isChecked()), `${k} not hidden by default`);
    // Unticking one writes the rest of the default; the kind's default comes back by its button.
    await box('age_marks').click();
    await until(async () => (await hides.getAttribute('data-explicit')) === 'true');
    assert.ok(!(await box('age_marks').isChecked()));
    assert.ok(await box('verdicts').isChecked());
    await page.locator('[data-testid=author-hide-default]').click();
    await until(async () => (await hides.getAttribute('data-explicit')) === 'false');
    assert.ok(await box('age_marks').isChecked());
    // Hints: rewritten in place, removed, added.
    const hints = page.locator('[data-testid=author-hints] li');
    assert.equal(await hints.count(), 2);
    const first = page.locator('[data-testid=author-hint-0]');
    await first.fill('Walk the segments from the oldest.');
    await first.press('Tab');
    await page.locator('[data-testid=author-hint-remove-1]').click();
    await until(async () => (await hints.count()) === 1);
    assert.equal(await page.locator('[data-testid=author-hint-0]').inputValue(), 'Walk the segments from the oldest.');
    const add = page.locator('[data-testid=author-hint]');
    await add.fill('Look for a largest timestamp ahead of the clock.');
    await add.press('Enter');
    await until(async () => (await hints.count()) === 2);
    // The author's own words for a class of wrong answer core names for this kind.
    const wrongs = page.locator('[data-testid=author-wrongs] input');
    assert.ok((await wrongs.count()) >= 2, 'a pinning question names several wrong-answer classes');
    const wrong = wrongs.first();
    const cls = (await wrong.getAttribute('data-testid')).replace('author-wrong-', '');
    await wrong.fill('That segment goes: it cannot hold the others back.');
    await wrong.press('Tab');
    await page.locator('[data-testid=author-step-22] button').click();
    await page.locator('[data-testid=author-step-21] button').click();
    assert.equal(await page.locator(`[data-testid=author-wrong-${cls}]`).inputValue(), 'That segment goes: it cannot hold the others back.');
    // The sample wrong answer (a deleted segment) reads the author's words, one full stop.
    const said = await waitText(page.locator('[data-testid=author-wrong]'), /cannot hold the others back/);
    assert.doesNotMatch(said, /back\.\./);
    await waitText(page.locator('[data-testid=author-summary]'), /the check passes/);
    // Two seeds' variants side by side: each its values and its four answers.
    const variants = page.locator('[data-testid=author-variants]');
    await variants.waitFor();
    for (const side of ['a', 'b']) {
      const col = page.locator(`[data-testid=author-variant-${side}]`);
      assert.match(await col.locator('[data-testid=author-variant-label]').innerText(), /case|retention/);
      assert.equal(await col.locator('[data-testid=author-variant-answer]').count(), 4);
    }
    const seedA = page.locator('[data-testid=author-seed-a]');
    await seedA.fill('7');
    await seedA.press('Tab');
    await waitText(page.locator('[data-testid=author-variant-a] h4'), /Seed A \(7\)/);
    assert.deepEqual(await axe(page), []);
    await page.locator('[data-testid=author]').screenshot({ path: path.join(SCREENSHOTS, 'author-question-pane-desktop.png') });
  });
});

