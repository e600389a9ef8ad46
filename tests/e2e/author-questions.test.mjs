// End-to-end tests of author mode's questions about a produced batch (issue 38), with no JSON
// typed: an `error` question and a `choose` question built from batches composed in the
// explorer's Produce panel ("Use this batch", which takes the batch without sending it), core's
// computed answers and its refusal shown at the question, the file saved and passed by
// `logtime check`, then played by a learner who answers each wrong and then right. Also the
// grouped question editor at 1280 and 375 px (screenshots, axe, no sideways scroll).
// Run after `trunk build --release --offline`:  node --test tests/e2e/author-questions.test.mjs
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { SCREENSHOTS, axe, screenshot, until, useE2E, waitText, withPage } from './harness.mjs';
import { drop, emptyDraft, logtime, ready } from './author-kit.mjs';

const e2e = useE2E();

/** The question kinds' values in the pane's list (the index of each in `tools.rs` KINDS). */
async function kindValue(page, words) {
  return page.locator('[data-testid=author-kind] option', { hasText: words }).getAttribute('value');
}

/** Composes a batch `ahead` of the broker clock in the Produce panel and takes it (not sent). */
async function take(page, ahead, n) {
  await page.locator('[data-testid=ts-mode]').selectOption('plus');
  await page.locator('[data-testid=ts-amount]').fill(ahead);
  await page.locator('[data-testid=use-batch]').click();
  await waitText(page.locator('[data-testid=author-said]'), new RegExp(`Batch ${n} taken: 1 record stamped now\\+${ahead}`));
}

test("error and choose questions from batches composed in the Produce panel: answers computed, saved, checked, played", async () => {
  let saved;
  await withPage(e2e, { path: '/index.html', reducedMotion: 'reduce' }, async (page) => {
    await ready(page);
    // An empty Kafka 4.0 partition (message.timestamp.after.max.ms is 1 hour by default).
    await emptyDraft(page);
    const title = page.locator('[data-testid=author-title]');
    await title.fill('Stamps a broker refuses');
    await title.press('Tab');
    await page.locator('[data-testid=author-lesson-kind]').selectOption('drill');

    // An `error` question: the pane asks for a batch until one is taken from the Produce panel.
    await page.locator('[data-testid=author-kind]').selectOption(await kindValue(page, 'error the broker answers to a batch'));
    await page.locator('[data-testid=author-batch-needed]').waitFor();
    await take(page, '2h', 1);
    // Taken, not sent: nothing was recorded.
    assert.equal(await page.locator('[data-testid=author-steps] > li').count(), 0);
    await page.locator('[data-testid=author-add-question]').click();
    await page.locator('[data-testid=author-step-1][data-kind=question]').waitFor();
    const ask = page.locator('[data-testid=author-ask]');
    await ask.fill('What does the broker answer to this batch?');
    await ask.press('Tab');
    assert.match(await waitText(page.locator('[data-testid=author-answer-text]'), /\S/), /INVALID_TIMESTAMP/);
    assert.match(await waitText(page.locator('[data-testid=author-about]'), /stamped/), /^About: the broker's answer to a batch of 1 record stamped \d/);
    assert.match(await page.locator('[data-testid=author-answer]').innerText(), /A learner who answers right reads/);

    // A `choose` question: the config, then the batch it must accept and the one it must reject.
    await take(page, '1m', 2);
    await page.locator('[data-testid=author-kind]').selectOption(await kindValue(page, 'accepts one batch and rejects another'));
    await page.locator('[data-testid=author-choose-config]').selectOption('message.timestamp.after.max.ms');
    // The wrong way round first: no value accepts the later batch and rejects the nearer one,
    // and core says so at the question.
    await page.locator('[data-testid=author-batch-accept]').selectOption('t0');
    await page.locator('[data-testid=author-batch-reject]').selectOption('t1');
    await page.locator('[data-testid=author-add-question]').click();
    await page.locator('[data-testid=author-step-2][data-kind=question]').waitFor();
    await ask.fill('Which value accepts the first batch and refuses the second?');
    await ask.press('Tab');
    const problem = page.locator('[data-testid=author-problems] [data-field="question.choose"]');
    assert.match(await waitText(problem, /\S/), /cannot be answered here: every value of message\.timestamp\.after\.max\.ms that accepts/);
    await waitText(page.locator('[data-testid=author-summary]'), /problem/);
    await page.locator('[data-testid=author-delete]').click();
    await until(async () => (await page.locator('[data-testid=author-steps] > li').count()) === 1);
    // The right way round, each batch named for the learner's feedback.
    await page.locator('[data-testid=author-step-1] button').click();
    await page.locator('[data-testid=author-kind]').selectOption(await kindValue(page, 'accepts one batch and rejects another'));
    await page.locator('[data-testid=author-batch-accept]').selectOption('t1');
    await page.locator('[data-testid=author-batch-accept-label]').fill('the 1-minute-ahead batch');
    await page.locator('[data-testid=author-batch-reject]').selectOption('t0');
    await page.locator('[data-testid=author-batch-reject-label]').fill('the 2-hours-ahead batch');
    await page.locator('[data-testid=author-add-question]').click();
    await page.locator('[data-testid=author-step-2][data-kind=question]').waitFor();
    await ask.fill('Which message.timestamp.after.max.ms accepts the first batch and refuses the second?');
    await ask.press('Tab');
    assert.match(await waitText(page.locator('[data-testid=author-answer-text]'), /any value/), /any value from 60000 to 7199999/);
    // The author sees what the question is about: the config and both batches by their names.
    assert.equal(await waitText(page.locator('[data-testid=author-about]'), /reject/), 'About: message.timestamp.after.max.ms must accept the 1-minute-ahead batch and reject the 2-hours-ahead batch');
    await waitText(page.locator('[data-testid=author-summary]'), /2 steps · the check passes/);

    // The question editor, grouped: at 1280 px and at 375 px (no sideways scroll), axe clean.
    const groups = page.locator('[data-testid=author-question] > fieldset > legend');
    assert.deepEqual(await groups.allInnerTexts(), ['What is asked', 'Answer and feedback', 'Hints, explanation, points', "Hidden until answered (the kind's default)"]);
    assert.deepEqual(await axe(page), []);
    await page.locator('[data-testid=author-editor]').scrollIntoViewIfNeeded();
    await screenshot(page, 'author-questions-desktop');
    await page.locator('[data-testid=author]').screenshot({ path: path.join(SCREENSHOTS, 'author-questions-pane-desktop.png') });
    await page.locator('[data-testid=author-question]').screenshot({ path: path.join(SCREENSHOTS, 'author-question-editor-desktop.png') });
    await page.setViewportSize({ width: 375, height: 800 });
    await page.waitForTimeout(200);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    assert.ok(overflow <= 0, `the page scrolls sideways by ${overflow} px at 375 px`);
    await page.locator('[data-testid=author]').screenshot({ path: path.join(SCREENSHOTS, 'author-questions-pane-mobile.png') });
    await page.locator('[data-testid=author-question]').screenshot({ path: path.join(SCREENSHOTS, 'author-question-editor-mobile.png') });
    await page.locator('section[data-panel=producer]').screenshot({ path: path.join(SCREENSHOTS, 'author-use-batch-mobile.png') });
    assert.deepEqual(await axe(page), []);
    await page.setViewportSize({ width: 1280, height: 900 });

    const [download] = await Promise.all([page.waitForEvent('download'), page.locator('[data-testid=author-save]').click()]);
    saved = fs.readFileSync(await download.path(), 'utf8');
  });
  // The batches are written in the file's grammar, and logtime check passes the file.
  assert.match(saved, /"timestamp": "now\+2h"/);
  assert.match(saved, /"label": "the 1-minute-ahead batch"/);
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'logtime-author-q-')), 'stamps.json');
  fs.writeFileSync(file, saved);
  const checked = logtime('check', file);
  assert.match(checked, /: ok: drill "Stamps a broker refuses": 2 questions/, checked);

  // A learner plays it: each question answered wrong, then right.
  await withPage(e2e, { path: '/index.html', reducedMotion: 'reduce' }, async (page) => {
    await ready(page);
    await drop(page, 'stamps.json', saved);
    await page.locator('[data-testid=lesson][data-mode=drill]').waitFor();
    const answers = [
      { asks: /Error code/, wrong: '0', right: 'INVALID_TIMESTAMP' },
      { asks: /Value of message\.timestamp\.after\.max\.ms/, wrong: '10800000', right: '3600000' },
    ];
    for (const a of answers) {
      const item = page.locator('[data-testid=lesson-item]');
      for (let i = 0; i < 10 && !(await item.locator('[data-testid=answer-value]').count()); i++) await page.locator('[data-testid=lesson-next]').click();
      assert.match(await item.locator('form label').innerText(), a.asks);
      const value = item.locator('[data-testid=answer-value]');
      await value.fill(a.wrong);
      await item.locator('[data-testid=answer-check]').click();
      await waitText(item.locator('[data-testid=feedback]'), /✗ Not quite/);
      await value.fill(a.right);
      await item.locator('[data-testid=answer-check]').click();
      await waitText(item.locator('[data-testid=feedback]'), /✓ Right/);
    }
    for (let i = 0; i < 10 && !(await page.locator('[data-testid=score]').count()); i++) {
      const next = page.locator('[data-testid=lesson-next]');
      if (await next.count()) await next.click();
    }
    const score = await waitText(page.locator('[data-testid=score]'), /\d+ \/ \d+/);
    const [got, of] = score.match(/(\d+) \/ (\d+)/).slice(1).map(Number);
    assert.ok(got > 0 && got < of, `one wrong try each costs points: ${score}`);
  });
});
