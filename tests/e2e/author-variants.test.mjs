// End-to-end tests of author mode's variants and learner's preview (issue 38), with no JSON
// typed: the trainer's drill (one day of retention, a replay of three-day-old events, "which
// segments does the next retention check delete?") gets `retention.ms` made a variable of two
// values by clicking and typing; core's refusal of a single value shows at its field; two seeds
// side by side give different answers; the saved file passes `logtime check`. Then the drill is
// played in the page as a learner (the verdicts its question hides stay hidden until it is
// answered), and back in author mode every edit, the undo history and the explorer's moment are
// as they were. Screenshots of the variable editor and the preview bar at 1280 and 375 px.
// Run after `trunk build --release --offline`:  node --test tests/e2e/author-variants.test.mjs
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { SCREENSHOTS, axe, until, useE2E, waitText, withPage } from './harness.mjs';
import { emptyDraft, logtime, ready } from './author-kit.mjs';

const e2e = useE2E();

/** Sends one batch from the producer panel: `ago` before the broker clock (empty: now). */
async function send(page, ago, valueBytes) {
  await page.locator('[data-testid=ts-mode]').selectOption(ago ? 'minus' : 'now');
  if (ago) await page.locator('[data-testid=ts-amount]').fill(ago);
  await page.getByLabel('Value bytes').fill(String(valueBytes));
  await page.locator('[data-testid=send]').click();
  await page.locator('[data-testid=produce-ok]').waitFor();
}

/** The drill of issue 38, built by clicking and typing (as author.test.mjs does), with a
 * retention check run after the first replayed batch (it deletes it): its verdicts are what the
 * question hides until it is answered. */
async function buildDrill(page) {
  await emptyDraft(page);
  const title = page.locator('[data-testid=author-title]');
  await title.fill('Two retentions, two answers');
  await title.press('Tab');
  await page.locator('[data-testid=author-lesson-kind]').selectOption('drill');
  await send(page, '3d', 600000);
  await waitText(page.locator('[data-testid=author-steps]'), /produce/);
  await page.locator('[data-testid=run-retention]').click();
  await waitText(page.locator('[data-testid=author-summary]'), /^2 steps/);
  await send(page, '71h', 600000);
  await send(page, '', 600000);
  await waitText(page.locator('[data-testid=author-summary]'), /^4 steps/);
  await page.locator('[data-testid=author-step-4] button').click();
  await page.locator('[data-testid=author-add-question]').click();
  await page.locator('[data-testid=author-step-5]').waitFor();
  const ask = page.locator('[data-testid=author-ask]');
  await ask.fill('Which segments does the next retention check delete?');
  await ask.press('Tab');
  const answer = await waitText(page.locator('[data-testid=author-answer-text]'), /^segments? \d+$/);
  await waitText(page.locator('[data-testid=author-summary]'), /5 steps · the check passes/);
  return Number(answer.match(/\d+$/)[0]);
}

/** Where the preview's explorer is: the one shown (the author's is hidden meanwhile). */
const shown = (page) => page.locator('.lt-app:not([hidden])');

test("retention.ms made a variable by clicking; two seeds, two answers; logtime check passes; the in-page learner's preview, and back with nothing lost", async () => {
  let saved;
  await withPage(e2e, { path: '/index.html', reducedMotion: 'reduce' }, async (page) => {
    await ready(page);
    const struck = await buildDrill(page);
    // The question's hide boxes hide the verdicts (the kind's default).
    assert.ok(await page.locator('[data-testid=author-hide-verdicts]').isChecked(), 'the strike question hides verdicts');

    // Vary… next to the topic's retention.ms: the name is suggested, the value is the lesson's own.
    const vary = page.locator('[data-testid=author-vary-topic-retention-ms]');
    await vary.click();
    const form = page.locator('[data-testid=author-vary-form]');
    await form.waitFor();
    assert.equal(await form.locator('[data-testid=author-vary-name]').inputValue(), 'retention');
    const list = form.locator('[data-testid=author-vary-list]');
    assert.equal(await list.inputValue(), '1d');
    // One value is not a variable: core says so at the field, and nothing changes.
    await form.locator('[data-testid=author-vary-apply]').click();
    const err = form.locator('[data-testid=author-vary-error]');
    assert.match(await waitText(err, /two values/), /^variants\.retention\.choices: a variable needs two values at least/);
    assert.equal(await list.getAttribute('aria-invalid'), 'true');
    assert.equal(await page.locator('[data-testid=author-variants]').count(), 0);
    // Two values.
    await list.fill('1d, 4d');
    await form.locator('[data-testid=author-vary-apply]').click();
    await form.waitFor({ state: 'detached' });
    const row = page.locator('[data-testid=author-vary-row-topic-retention-ms]');
    await waitText(row.locator('[data-testid=author-vary-variable]'), /\$retention/);
    assert.match(await row.innerText(), /varies: 1d, 4d/);
    await waitText(page.locator('[data-testid=author-summary]'), /the check passes/);

    // Two seeds side by side: each its value of retention and its own answer.
    const variants = page.locator('[data-testid=author-variants]');
    await variants.waitFor();
    const col = (s) => page.locator(`[data-testid=author-variant-${s}]`);
    const labels = [await col('a').locator('[data-testid=author-variant-label]').innerText(), await col('b').locator('[data-testid=author-variant-label]').innerText()];
    assert.match(labels.join(' | '), /retention = 1 ?d.*\|.*retention = 4 ?d|retention = 4 ?d.*\|.*retention = 1 ?d/, labels.join(' | '));
    const answers = [await col('a').locator('[data-testid=author-variant-answer]').innerText(), await col('b').locator('[data-testid=author-variant-answer]').innerText()];
    assert.notEqual(answers[0], answers[1]);
    assert.ok(answers.some((a) => new RegExp(`segments? ${struck}$`).test(a)), answers.join(' | '));
    console.log('two seeds:', labels.join(' | '), '::', answers.join(' | '));

    // Screenshots of the variable editor (open on the second value) at 1280 and 375 px.
    await page.locator('[data-testid=author-vary-topic-retention-ms]').click();
    await form.waitFor();
    assert.deepEqual(await axe(page), []);
    await page.locator('[data-testid=author-vary]').evaluate((el) => el.scrollIntoView({ block: 'center' }));
    await page.screenshot({ path: path.join(SCREENSHOTS, 'author-variants-desktop.png') });
    await page.setViewportSize({ width: 375, height: 800 });
    await page.waitForTimeout(200);
    await page.locator('[data-testid=author-vary]').evaluate((el) => el.scrollIntoView({ block: 'start' }));
    await page.screenshot({ path: path.join(SCREENSHOTS, 'author-variants-mobile.png') });
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    assert.ok(overflow <= 0, `the page scrolls sideways by ${overflow} px at 375 px`);
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.locator('[data-testid=author-vary-form] button:not([type=submit])').click();

    const [download] = await Promise.all([page.waitForEvent('download'), page.locator('[data-testid=author-save]').click()]);
    saved = fs.readFileSync(await download.path(), 'utf8');

    // The in-page preview: the author's explorer is hidden, the lesson plays as a learner's.
    const clock = await page.locator('[data-testid=clock]').innerText();
    const stepsBefore = await page.locator('[data-testid=author-steps] > li').count();
    await page.locator('[data-testid=author-preview]').click();
    const bar = page.locator('[data-testid=author-preview-bar]');
    await bar.waitFor();
    assert.equal(await page.locator('.lt-app[hidden] [data-testid=author]').count(), 1, 'the author pane is kept, hidden');
    const learner = shown(page);
    await learner.locator('[data-testid=lesson][data-mode=drill]').waitFor();
    assert.equal(await learner.locator('[data-testid=author]').count(), 0);
    assert.equal(await learner.locator('[data-testid=author-button]').count(), 0);
    await bar.screenshot({ path: path.join(SCREENSHOTS, 'author-preview-bar-desktop.png') });
    await page.screenshot({ path: path.join(SCREENSHOTS, 'author-preview-desktop.png') });
    const item = learner.locator('[data-testid=lesson-item]');
    for (let i = 0; i < 10 && !(await item.count()); i++) await learner.locator('[data-testid=lesson-next]').click();
    await item.waitFor();
    // Until it is answered, the verdicts of the check run at step 2 are hidden: no verdict list,
    // no verdict badge.
    await learner.locator(`[data-testid=segment-head-${struck}]`).waitFor();
    assert.equal(await learner.locator('[data-testid^=verdict-]').count(), 0, 'verdicts hidden before answering');
    assert.equal(await learner.locator('.lt-badge-pinned, .lt-badge-chained').count(), 0);
    assert.deepEqual(await axe(page), []);
    await page.setViewportSize({ width: 375, height: 800 });
    await page.waitForTimeout(200);
    await page.screenshot({ path: path.join(SCREENSHOTS, 'author-preview-mobile.png') });
    await page.setViewportSize({ width: 1280, height: 900 });
    await learner.locator(`[data-testid=segment-head-${struck}]`).click();
    await item.locator('[data-testid=answer-check]').click();
    await waitText(item.locator('[data-testid=feedback]'), /✓ Right/);
    // Answered: the verdicts the question hid are shown (segment 0 deleted by step 2's check).
    await waitText(learner.locator('[data-testid=verdict-0]'), /deleted/);
    for (let i = 0; i < 10 && !(await learner.locator('[data-testid=score]').count()); i++) {
      const next = learner.locator('[data-testid=lesson-next]');
      if (await next.count()) await next.click();
    }
    assert.match(await waitText(learner.locator('[data-testid=score]'), /\d+ \/ \d+/), /^(\d+) \/ \1$/);

    // A preview is not a learner's run: finishing it keeps no progress on this device.
    const kept = await page.evaluate(() => Object.keys(localStorage).filter((k) => k.startsWith('logtime.lesson.')));
    assert.deepEqual(kept, [], 'the preview kept no learner progress');
    assert.doesNotMatch(await learner.locator('[data-testid=scorecard]').innerText(), /Best score on this device/);
    // Back to editing: the draft, its variable, its undo history and the explorer's moment.
    await page.locator('[data-testid=author-preview-back]').click();
    await bar.waitFor({ state: 'detached' });
    await until(async () => page.locator('[data-testid=author-preview]').evaluate((el) => el.getRootNode().activeElement === el));
    assert.equal(await page.locator('[data-testid=author-steps] > li').count(), stepsBefore);
    assert.equal(await page.locator('[data-testid=clock]').innerText(), clock);
    await waitText(row.locator('[data-testid=author-vary-variable]'), /\$retention/);
    await page.locator('[data-testid=author-undo]').click();
    await waitText(page.locator('[data-testid=author-said]'), /Undone: made \/topic\/retention\.ms the variable retention/);
    await until(async () => (await row.locator('[data-testid=author-vary-variable]').count()) === 0);
    assert.match(await row.innerText(), /retention\.ms = 1d/);
    assert.equal(await page.locator('[data-testid=author-variants]').count(), 0);
    await page.locator('[data-testid=author-redo]').click();
    await waitText(row.locator('[data-testid=author-vary-variable]'), /\$retention/);
    // Made fixed: the lesson's own value back in its place.
    await page.locator('[data-testid=author-unvary-topic-retention-ms]').click();
    await until(async () => (await row.locator('[data-testid=author-vary-variable]').count()) === 0);
    assert.match(await row.innerText(), /retention\.ms = 1d/);
    assert.deepEqual(page.errors, []);
  });

  // The saved file: the variable in place, in the file's grammar; logtime check passes on it.
  assert.match(saved, /"retention\.ms": "\$retention"/);
  assert.match(saved, /"variants": \{\s*"retention": \{\s*"choices": \[\s*"1d",\s*"4d"\s*\]/);
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'logtime-variants-')), 'drill.json');
  fs.writeFileSync(file, saved);
  const checked = logtime('check', file);
  assert.match(checked, /: ok: drill "Two retentions, two answers"/, checked);
  console.log(checked.trim());
});

test('a draft logtime check would refuse is not previewed: core says why, at its step', async () => {
  await withPage(e2e, { path: '/index.html?mode=author&scenario=lookup-scan', reducedMotion: 'reduce' }, async (page) => {
    await ready(page);
    await page.locator('[data-testid=author]').waitFor();
    // Raw HTML in step 2's narration: the file grammar refuses it.
    await page.locator('[data-testid=author-step-2] button').click();
    const narration = page.locator('[data-testid=author-narration]');
    await narration.fill('Look at <b>this</b>');
    await narration.press('Tab');
    await waitText(page.locator('[data-testid=author-summary]'), /1 problem found/);
    // Another step selected; the preview is refused and the problem's step is selected again.
    await page.locator('[data-testid=author-step-1] button').click();
    await page.locator('[data-testid=author-preview]').click();
    assert.match(await waitText(page.locator('[data-testid=author-said]'), /Not playable/), /^Not playable yet: step 2: narration: .*raw HTML is not allowed/);
    assert.equal(await page.locator('[data-testid=author-preview-bar]').count(), 0);
    assert.equal(await page.locator('.lt-app[hidden]').count(), 0);
    await waitText(page.locator('[data-testid=author-editor] h3'), /^Step 2/);
    assert.match(await page.locator('[data-testid=author-problems]').innerText(), /narration: .*raw HTML is not allowed/);
    assert.deepEqual(page.errors, []);
  });
});
