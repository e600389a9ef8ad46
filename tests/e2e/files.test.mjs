// End-to-end tests of files people read and reopen: a scenario or lesson file dropped, picked or
// pasted on the import panel is opened (not read as kafka-dump-log output); "Save as a file"
// downloads it pretty, with RFC 3339 times and human durations, and the saved file opens again
// by a drop; a page opened from file:// says in one sentence that it needs a web server; the
// tutorial's drill (docs/scenarios.md) is dropped and played to a score; a lesson the model
// disagrees with is refused at its step and field.
// Run after `trunk build --release --offline`:  node --test tests/e2e/files.test.mjs
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { createRequire } from 'node:module';
import { DIST, ROOT, SCREENSHOTS, appRoot, screenshot, useE2E, waitText, withPage } from './harness.mjs';
import { drop } from './author-kit.mjs';
import { toItem } from './lesson-key.mjs';

const e2e = useE2E();
const require = createRequire(import.meta.url);
const STATIC = path.join(ROOT, 'static');

async function ready(page) {
  await appRoot(page);
  await page.locator('[data-testid=import-panel]').waitFor({ timeout: 20_000 });
  await waitText(page.locator('[data-testid=scenario-title]'), /^(?!Loading)\S/, { timeout: 20_000 });
}

async function title(page) {
  return (await page.locator('[data-testid=scenario-title]').innerText()).trim();
}

test('a dropped lesson file is opened as a lesson, not read as kafka-dump-log output', async () => {
  const file = path.join(STATIC, 'lessons', 'kip937-drill.json');
  const lesson = JSON.parse(fs.readFileSync(file, 'utf8'));
  await withPage(e2e, { path: '/index.html', reducedMotion: 'reduce' }, async (page) => {
    await ready(page);
    await drop(page, 'kip937-drill.json', fs.readFileSync(file, 'utf8'));
    await waitText(page.locator('[data-testid=scenario-title]'), new RegExp(`^${lesson.title.slice(0, 20)}`));
    await page.locator('[data-testid=lesson]').waitFor();
    assert.equal(await page.locator('[data-testid=import-error]').count(), 0);
  });
});

test('a picked scenario file and a pasted one are opened; a picked file that is not JSON still goes to the import', async () => {
  const file = path.join(STATIC, 'scenarios', 'replay-24h.json');
  const scenario = JSON.parse(fs.readFileSync(file, 'utf8'));
  const other = JSON.parse(fs.readFileSync(path.join(STATIC, 'scenarios', 'landing.json'), 'utf8'));
  await withPage(e2e, { path: '/index.html', reducedMotion: 'reduce' }, async (page) => {
    await ready(page);
    await page.locator('[data-testid=import-files]').setInputFiles(file);
    await waitText(page.locator('[data-testid=scenario-title]'), new RegExp(`^${scenario.title}$`));
    await page.locator('.lt-paste summary').click();
    await page.locator('[data-testid=import-paste]').fill(JSON.stringify(other));
    await page.locator('[data-testid=import-paste-go]').click();
    await waitText(page.locator('[data-testid=scenario-title]'), new RegExp(`^${other.title}$`));
    await page.locator('[data-testid=import-files]').setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('hello\n') });
    await waitText(page.locator('[data-testid=import-error]'), /notes\.txt/);
  });
});

test('"Save as a file" writes RFC 3339 times and human durations, and the saved file opens again by a drop', async () => {
  await withPage(e2e, { path: '/index.html?scenario=replay-24h', reducedMotion: 'reduce' }, async (page) => {
    await ready(page);
    const want = await title(page);
    const [download] = await Promise.all([page.waitForEvent('download'), page.locator('[data-testid=save-file]').click()]);
    assert.equal(download.suggestedFilename(), 'replay-into-a-24-h-topic.json');
    const saved = fs.readFileSync(await download.path(), 'utf8');
    assert.match(saved, /^\{\n {2}"title": /);
    assert.match(saved, /"start": "\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{3})?Z"/);
    assert.doesNotMatch(saved, /\b1\d{12}\b/, 'no epoch milliseconds');
    // Open something else, then the saved file.
    await page.locator('[data-testid=import-files]').setInputFiles(path.join(STATIC, 'scenarios', 'landing.json'));
    await waitText(page.locator('[data-testid=scenario-title]'), /^Records landing/);
    await drop(page, 'saved.json', saved);
    await waitText(page.locator('[data-testid=scenario-title]'), new RegExp(`^${want}$`));
    for (const [name, viewport] of [['files-save-1280', 'desktop'], ['files-save-375', 'mobile']]) {
      await page.setViewportSize(viewport === 'desktop' ? { width: 1280, height: 800 } : { width: 375, height: 800 });
      console.log(`[files] screenshot ${await screenshot(page, name)}`);
      // The panels this change touched, at the size a reader sees them.
      for (const [part, sel] of [['import', '[data-testid=import-panel]'], ['clock', '.lt-clockbar']]) {
        const file = path.join(SCREENSHOTS, `${name}-${part}.png`);
        await page.locator(sel).first().screenshot({ path: file });
        console.log(`[files] screenshot ${file}`);
      }
    }
    await page.addScriptTag({ content: fs.readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8') });
    const violations = await page.evaluate(async () =>
      (await globalThis.axe.run(document, { resultTypes: ['violations'] })).violations.map((v) => `${v.id}: ${v.help}`),
    );
    assert.deepEqual(violations, []);
  });
});

test('a page opened from file:// says in one sentence that it needs a web server and how to start one', async () => {
  await withPage(e2e, { path: null, allowErrors: [/./] }, async (page) => {
    await page.goto(`file://${path.join(DIST, 'index.html')}`);
    const msg = await waitText(page.locator('[role=alert]'), /web server/);
    assert.match(msg, /\.\/scripts\/serve\.sh/);
    assert.equal(msg.split(/\.\s/).length, 1, `one sentence: ${msg}`);
  });
});

/** The drill of docs/scenarios.md's "your first drill in ten minutes": its first ```json block. */
function tutorialDrill() {
  const doc = fs.readFileSync(path.join(ROOT, 'docs', 'scenarios.md'), 'utf8');
  const from = doc.indexOf('## Your first drill in ten minutes');
  const start = doc.indexOf('```json\n', from) + '```json\n'.length;
  return doc.slice(start, doc.indexOf('```', start));
}

test('the tutorial drill: dropped and played to a full score', async () => {
  const drill = tutorialDrill();
  await withPage(e2e, { path: '/index.html', reducedMotion: 'reduce' }, async (page) => {
    await ready(page);
    await drop(page, 'drill.json', drill);
    await page.locator('[data-testid=lesson][data-mode=drill]').waitFor();
    assert.ok(await toItem(page), 'the question is posed');
    const item = page.locator('[data-testid=lesson-item]');
    for (const s of [0, 1]) await page.locator(`[data-testid=segment-head-${s}]`).click();
    await item.locator('[data-testid=answer-check]').click();
    await waitText(item.locator('[data-testid=feedback]'), /✓ Right/);
    assert.equal(await toItem(page), false);
    assert.equal(await waitText(page.locator('[data-testid=score]'), /\d+ \/ \d+/), '10 / 10');
  });
});

test('a lesson whose stated answer the model disagrees with is refused, naming the step and the field', async () => {
  const wrong = tutorialDrill().replace('"expect": [0, 1]', '"expect": [0]');
  assert.notEqual(wrong, tutorialDrill());
  await withPage(e2e, { path: '/index.html', reducedMotion: 'reduce' }, async (page) => {
    await ready(page);
    await drop(page, 'wrong.json', wrong);
    const msg = await waitText(page.locator('[data-testid=scenario-error]'), /not played/);
    assert.match(msg, /step 3: question\.expect: the model's answer is segments 0, 1, not segments 0/);
    assert.equal(await page.locator('[data-testid=lesson]').count(), 0, 'not played');
  });
});
