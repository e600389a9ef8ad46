// Drills a trainer can grade (issue 39): three learners play the future drill in different
// variants and answer differently, each sends their results code; the class page re-scores
// them, shows learner × question and each question's figures, flags a code that was edited and
// one made for another version of the lesson, and its CSV matches the table. Then a drill run
// by keyboard only. Screenshots of feedback, the score card and the class page at 1280 and
// 375 px; axe on the pane and the class page.
//
// The right answers come from `logtime explain` (core's answer key), never from the page.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import zlib from 'node:zlib';
import { ROOT, appRoot, axe, screenshot, until, useE2E, waitText, withPage } from './harness.mjs';
import { answerKey, next, parseAnswer, toItem } from './lesson-key.mjs';

const e2e = useE2E();

/** A PNG of one element (the lesson pane, the class table) in tests/e2e/screenshots/. */
async function shotOf(locator, name) {
  const dir = path.join(ROOT, 'tests', 'e2e', 'screenshots');
  fs.mkdirSync(dir, { recursive: true });
  await locator.screenshot({ path: path.join(dir, `${name}.png`) });
}
const FILE = path.join(ROOT, 'static', 'lessons', 'future-drill.json');

/** Gives `a` (parsed from the key) in the open item. */
async function give(page, a) {
  const item = page.locator('[data-testid=lesson-item]');
  if (a.segments) {
    for (const s of a.segments) await page.locator(`[data-testid=segment-head-${s}]`).click();
  } else if (a.segment !== undefined) {
    await item.locator('[data-testid=answer-value]').fill(String(a.segment));
  } else if (a.none) {
    await item.locator('[data-testid=answer-none]').click();
    return;
  } else {
    await item.locator('[data-testid=answer-value]').fill(String(a.type));
  }
  await item.locator('[data-testid=answer-check]').click();
}

/**
 * Plays the drill with `seed`: the first question answered `first` ('right', 'wrong' then right,
 * or 'reveal'), the others right; tasks and record questions revealed. Returns the wrong
 * feedback's text, if any.
 */
async function play(page, seed, first, shots) {
  const key = answerKey(FILE, seed);
  let k = 0;
  let feedback = null;
  while (await toItem(page)) {
    const it = key[k];
    const item = page.locator('[data-testid=lesson-item]');
    const right = it.kind === 'question' ? parseAnswer(it.answer) : null;
    if (!right || right.records || (k === 0 && first === 'reveal')) {
      await item.locator('[data-testid=reveal-button]').click();
      await item.locator('[data-testid=item-revealed]').waitFor();
    } else {
      if (k === 0 && first === 'wrong') {
        assert.equal(right.segment !== undefined, true, 'the first question picks a segment');
        await item.locator('[data-testid=answer-value]').fill('0');
        await item.locator('[data-testid=answer-check]').click();
        feedback = await waitText(item.locator('[data-testid=feedback]'), /Not quite/);
        if (shots) await shotOf(page.locator('[data-testid=lesson]'), `grading-pane-feedback-${shots}`);
      }
      await give(page, right);
      await waitText(item.locator('[data-testid=feedback]'), /✓ Right/);
    }
    k++;
  }
  return { feedback, key };
}

/** The learner's results code, made at the end with their name. */
async function send(page, name) {
  const box = page.locator('[data-testid=send-results]');
  await box.locator('[data-testid=results-name]').fill(name);
  await box.locator('[data-testid=results-make]').click();
  const code = await box.locator('[data-testid=results-code]').inputValue({ timeout: 15_000 });
  assert.match(code, /^LTR1\.[A-Za-z0-9_-]+$/);
  return code;
}

/** One CSV line's fields (RFC 4180 quoting). */
function csvFields(line) {
  const out = [];
  let cur = '';
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i];
    if (quoted && ch === '"' && line[i + 1] === '"') { cur += '"'; i++; }
    else if (ch === '"') quoted = !quoted;
    else if (ch === ',' && !quoted) { out.push(cur); cur = ''; }
    else cur += ch;
  }
  out.push(cur);
  return out;
}

// ------------------------------------------------------------ codes edited outside the page

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
const crc32 = (s) => {
  let c = 0xffffffff;
  for (const b of Buffer.from(s, 'utf8')) c = CRC_TABLE[(c ^ b) & 0xff] ^ (c >>> 8);
  return ((c ^ 0xffffffff) >>> 0).toString(16).padStart(8, '0');
};
const canonical = (v) =>
  Array.isArray(v)
    ? `[${v.map(canonical).join(',')}]`
    : v && typeof v === 'object'
      ? `{${Object.keys(v).sort().map((k) => `${JSON.stringify(k)}:${canonical(v[k])}`).join(',')}}`
      : JSON.stringify(v);
const unpack = (code) => JSON.parse(zlib.inflateRawSync(Buffer.from(code.slice(5), 'base64url')).toString('utf8'));
const pack = (obj) => `LTR1.${zlib.deflateRawSync(Buffer.from(canonical(obj))).toString('base64url')}`;
/** Results re-signed (their check recomputed), as a page of another lesson version would write them. */
function resigned(obj) {
  const { check, ...body } = obj;
  return { ...body, check: crc32(canonical(body)) };
}

test('three learners send results; the class page re-scores them, flags the edited and the other version, and its CSV matches', async () => {
  const learners = [
    { name: 'Ada', seed: 1, first: 'right' },
    { name: 'Bob', seed: 2, first: 'wrong' },
    { name: 'Cy', seed: 3, first: 'reveal' },
  ];
  for (const l of learners) {
    const viewport = l.name === 'Bob' ? 'mobile' : 'desktop';
    await withPage(e2e, { path: `/index.html?scenario=future-drill&seed=${l.seed}`, reducedMotion: 'reduce', viewport }, async (page) => {
      await appRoot(page);
      await page.locator('[data-testid=lesson]').waitFor();
      const { feedback, key } = await play(page, l.seed, l.first, l.name === 'Bob' ? '375' : null);
      l.key = key;
      if (feedback) {
        // The wrong answer's feedback is about segment 0 and the rule it misses, never the answer.
        assert.match(feedback, /segment 0 is deleted/);
        assert.ok(!feedback.includes(key[0].answer), `feedback gives away ${key[0].answer}: ${feedback}`);
        l.feedback = feedback;
      }
      await page.locator('[data-testid=scorecard]').waitFor();
      await shotOf(page.locator('[data-testid=lesson]'), `grading-pane-scorecard-${l.name}-${viewport === 'mobile' ? 375 : 1280}`);
      l.code = await send(page, l.name);
      await shotOf(page.locator('[data-testid=send-results]'), `grading-send-${l.name}`);
      const link = await page.locator('[data-testid=results-link]').inputValue();
      assert.ok(link.endsWith(`/class.html#${l.code}`), link);
      if (l.name === 'Ada') assert.deepEqual(await axe(page), []);
    });
  }
  // The pinning question's answer differs between variants (so do the learners' numbers).
  assert.ok(new Set(learners.map((l) => l.key.map((i) => i.answer).join('|'))).size > 1, 'different variants');
  const ada = unpack(learners[0].code);
  assert.equal(ada.learner, 'Ada');
  assert.ok(!('score' in ada), 'no score in the results');
  const edited = pack({ ...unpack(learners[1].code), learner: 'Bob the forger' });
  const other = pack(resigned({ ...ada, learner: 'Ada (old version)', fingerprint: '0123456789abcdef' }));

  // The learner's link opens the class page on their lesson with their row.
  await withPage(e2e, { path: `/class.html#${learners[0].code}` }, async (page) => {
    await waitText(page.locator('[data-testid=class-row]'), /^Ada/, { timeout: 20_000 });
  });
  for (const viewport of ['desktop', 'mobile']) {
    await withPage(e2e, { path: '/class.html?lesson=future-drill', viewport }, async (page) => {
      await page.locator('[data-testid=class-paste]').waitFor({ timeout: 20_000 });
      await page.locator('[data-testid=class-paste]').fill([...learners.map((l) => l.code), edited, other].join('\n'));
      await page.locator('[data-testid=class-add]').click();
      await page.locator('[data-testid=class-row]').nth(4).waitFor();
      const rows = await page.locator('[data-testid=class-row]').evaluateAll((trs) =>
        trs.map((tr) => Array.from(tr.children, (c) => c.textContent.trim())),
      );
      assert.equal(rows.length, 5);
      const [a, b, c, e, o] = rows;
      assert.equal(a[0], 'Ada');
      assert.match(a[2], /^✓ \d+ s$/, `Ada right first time: ${a}`);
      assert.equal(b[0], 'Bob');
      assert.match(b[2], /^✓ after 2 tries, \d+ s$/, `Bob after a wrong answer: ${b}`);
      assert.equal(c[0], 'Cy');
      assert.match(c[2], /^revealed/, `Cy revealed: ${c}`);
      assert.match(e.at(-1), /the results were edited/);
      assert.equal(o[0], 'Ada (old version)');
      assert.match(o.at(-1), /another version of the lesson \(fingerprint 0123456789abcdef\)/);
      for (const r of [a, b, c]) assert.equal(r.at(-1), '', `no flag for ${r[0]}: ${JSON.stringify(rows)}`);
      // Bob's score is lower than Ada's: a wrong answer costs points, recomputed here.
      const score = (r) => Number(r[1].split('/')[0]);
      assert.ok(score(b) < score(a) && score(c) < score(a), `${a[1]} ${b[1]} ${c[1]}`);
      // The first question: Ada and her other-version copy right first time, of four who answered it.
      const first = await page.locator('[data-testid=class-first-try] td').nth(1).innerText();
      assert.equal(first, '2/4');
      await waitText(page.locator('[data-testid=class-wrong]'), /1× segment 0 — picked a segment the check deletes/);
      // The CSV says what the table says.
      const csv = (await page.locator('[data-testid=class-csv]').textContent()).trim().split('\n');
      assert.equal(csv.length, 7);
      assert.equal(csv[0].split(',')[0], 'learner');
      for (const [i, r] of rows.entries()) {
        const cells = csvFields(csv[i + 1]);
        assert.equal(cells[0], r[0]);
        assert.equal(cells[2], r[1]);
        assert.deepEqual(cells.slice(3), r.slice(2), 'every question cell and the flags');
        assert.equal(cells.length, r.length + 1, 'one column more: the seed');
      }
      assert.ok(csv[6].startsWith('right first time,,,2/4'), csv[6]);
      await screenshot(page, `grading-class-${viewport === 'mobile' ? 375 : 1280}`);
      await shotOf(page.locator('main'), `grading-class-main-${viewport === 'mobile' ? 375 : 1280}`);
      assert.deepEqual(await axe(page), []);
    });
  }
});

test('error codes by name, and a drill run by keyboard only', async () => {
  await withPage(e2e, { path: '/index.html?scenario=future-drill&seed=1', reducedMotion: 'reduce' }, async (page) => {
    await appRoot(page);
    const step = page.locator('[data-testid=lesson-step]');
    await step.waitFor();
    const before = await step.innerText();
    // No click first: → on the page body moves the lesson on.
    await page.keyboard.press('ArrowRight');
    await waitText(step, new RegExp(`^(?!${before}$)`));
    const key = answerKey(FILE, 1);
    for (let i = 0; i < 40 && !(await page.locator('[data-testid=lesson-item] [data-testid=reveal-button]').count()); i++) {
      await page.keyboard.press('ArrowRight');
    }
    // Next waits for an answer: the focus is on the question, not the page body.
    const inItem = () =>
      page.evaluate(() => {
        let a = document.activeElement;
        while (a?.shadowRoot?.activeElement) a = a.shadowRoot.activeElement;
        return !!a?.closest('[data-testid=lesson-item]');
      });
    assert.ok(await inItem(), 'focus moved to the question');
    const right = parseAnswer(key[0].answer);
    for (let i = 0; i < 12; i++) {
      const on = await page.evaluate(() => {
        let a = document.activeElement;
        while (a?.shadowRoot?.activeElement) a = a.shadowRoot.activeElement;
        return a?.dataset?.testid ?? '';
      });
      if (on === 'answer-value') break;
      await page.keyboard.press('Tab');
    }
    // A wrong answer first: its feedback, at 1280 px.
    await page.keyboard.type('0');
    await page.keyboard.press('Enter');
    await waitText(page.locator('[data-testid=feedback]'), /Not quite/);
    await shotOf(page.locator('[data-testid=lesson]'), 'grading-pane-feedback-1280');
    await page.keyboard.press('Control+A');
    await page.keyboard.type(String(right.segment));
    await page.keyboard.press('Enter');
    await waitText(page.locator('[data-testid=feedback]'), /✓ Right/);
    await page.locator('[data-testid=explanation]').waitFor();
    assert.ok(await next(page).isEnabled());
  });
  // An error question takes Kafka's name in lower case.
  const kip = path.join(ROOT, 'static', 'lessons', 'kip937-drill.json');
  const first = answerKey(kip)[0].answer;
  const name = first.split(' ')[2];
  assert.match(name, /^[A-Z_]+$/, first);
  await withPage(e2e, { path: '/index.html?scenario=kip937-drill', reducedMotion: 'reduce' }, async (page) => {
    await appRoot(page);
    assert.ok(await toItem(page));
    const item = page.locator('[data-testid=lesson-item]');
    await item.locator('[data-testid=answer-value]').fill('not_a_code');
    await item.locator('[data-testid=answer-check]').click();
    await waitText(item.locator('[data-testid=lesson-error]'), /"not_a_code" is not a Kafka error name/);
    await item.locator('[data-testid=answer-value]').fill(name.toLowerCase());
    await item.locator('[data-testid=answer-check]').click();
    await waitText(item.locator('[data-testid=feedback]'), /✓ Right/);
  });
});

// ------------------------------------------------------------ an assignment link

/** core's `seed_for(name, fingerprint)`: SHA-256 of `fingerprint:name` (trimmed, lower case). */
async function seedFor(name, fp) {
  const { createHash } = await import('node:crypto');
  const d = createHash('sha256').update(`${fp}:${name.trim().toLowerCase()}`).digest();
  return Number(d.readBigUInt64BE(0) >> 11n);
}

/** Solves the future drill's task by acting: the after window in the config panel, then
 * DeleteRecords past the pinned segment and a retention check; the goal is checked live. */
async function solveByActing(page, fix) {
  const marks = () => page.locator('[data-testid=goal] .lt-goal-mark').allInnerTexts();
  const met = async () => (await marks()).filter((m) => m === '✓').length;
  await page.locator('[data-testid=goal]').waitFor();
  const before = await met();
  assert.ok(before < (await marks()).length, 'the goal does not hold yet');
  const after = page.locator('[data-testid="config-message.timestamp.after.max.ms"]');
  await after.fill('3600000');
  await after.press('Enter');
  await after.blur();
  // One more check of the goal holds now, not all: checked after each action.
  await until(async () => (await met()) === before + 1, { what: 'the config check met' });
  assert.equal(await page.locator('[data-testid=lesson-item] [data-testid=item-done]').count(), 0);
  const del = page.locator('[data-testid=delete-offset]');
  await del.fill(String(fix));
  await del.press('Tab');
  await page.locator('[data-testid=delete-records]').click();
  await page.locator('[data-testid=run-retention]').click();
  await waitText(page.locator('[data-testid=lesson-item] [data-testid=item-done]'), /Done: the goal holds/);
}

test('an assignment link: each name gets its own variant, a task solved by acting scores, the class page replays each', async () => {
  let link = null;
  for (const viewport of ['desktop', 'mobile']) {
    await withPage(e2e, { path: '/class.html?lesson=future-drill', viewport }, async (page) => {
      const box = page.locator('[data-testid=class-assign]');
      await box.waitFor({ timeout: 20_000 });
      await box.locator('summary').click();
      link = await box.locator('[data-testid=assign-link]').inputValue();
      assert.match(link, /\/index\.html\?scenario=future-drill&assign=[0-9a-f]{16}$/);
      await shotOf(page.locator('main'), `grading-class-assign-${viewport === 'mobile' ? 375 : 1280}`);
      if (viewport === 'desktop') assert.deepEqual(await axe(page), []);
    });
  }
  const fp = link.split('assign=')[1];
  const learners = [{ name: 'Ada Lovelace' }, { name: 'Grace Hopper' }];
  for (const l of learners) {
    l.seed = await seedFor(l.name, fp);
    const viewport = l.name.startsWith('Grace') ? 'mobile' : 'desktop';
    await withPage(e2e, { path: `/index.html${link.slice(link.indexOf('?'))}`, reducedMotion: 'reduce', viewport }, async (page) => {
      await appRoot(page);
      const form = page.locator('[data-testid=assignment]');
      await form.locator('[data-testid=assign-name]').waitFor({ timeout: 20_000 });
      if (l.name.startsWith('Ada')) {
        // No name, no variant.
        await form.locator('[data-testid=assign-start]').click();
        await waitText(form, /type your name first/);
        await shotOf(page.locator('[data-testid=lesson]'), 'grading-pane-assignment-1280');
      }
      await form.locator('[data-testid=assign-name]').fill(l.name);
      await form.locator('[data-testid=assign-start]').click();
      await waitText(page.locator('[data-testid=assigned]'), new RegExp(`Assignment for ${l.name}`));
      // The variant the name picks: core's seed_for, computed here the same way.
      await waitText(page.locator('[data-testid=variant]'), new RegExp(`^Variant ${l.seed}$`));
      if (viewport === 'mobile') await shotOf(page.locator('[data-testid=lesson]'), 'grading-pane-assignment-375');
      const key = answerKey(FILE, l.seed);
      l.key = key;
      const fix = parseAnswer(key.find((k) => k.kind === 'question' && /^offset/.test(k.answer)).answer).type + 10000;
      let k = 0;
      while (await toItem(page)) {
        const it = key[k];
        if (it.kind === 'task') {
          await solveByActing(page, fix);
        } else {
          const right = parseAnswer(it.answer);
          if (right.records) {
            await page.locator('[data-testid=lesson-item] [data-testid=reveal-button]').click();
          } else {
            await give(page, right);
            await waitText(page.locator('[data-testid=lesson-item] [data-testid=feedback]'), /✓ Right/);
          }
        }
        k++;
      }
      assert.equal(k, key.length);
      const score = await waitText(page.locator('[data-testid=score]'), /\d+ \/ \d+/);
      // Every item right first time, the task solved by acting: full marks.
      assert.equal(score, '50 / 50');
      // The results carry the name the variant came from (fixed in the send box).
      assert.equal(await page.locator('[data-testid=results-name]').inputValue(), l.name);
      await page.locator('[data-testid=results-make]').click();
      l.code = await page.locator('[data-testid=results-code]').inputValue({ timeout: 15_000 });
      const r = unpack(l.code);
      assert.equal(r.learner, l.name);
      assert.equal(r.seed, l.seed);
      assert.equal(r.fingerprint, fp);
      assert.ok(r.moves.some((m) => m.act), `the acts are in the results: ${JSON.stringify(r.moves.slice(0, 2))}`);
    });
  }
  assert.notEqual(learners[0].key.map((k) => k.answer).join('|'), learners[1].key.map((k) => k.answer).join('|'), 'two names, two variants');
  await withPage(e2e, { path: '/class.html?lesson=future-drill' }, async (page) => {
    await page.locator('[data-testid=class-paste]').waitFor({ timeout: 20_000 });
    await page.locator('[data-testid=class-paste]').fill(learners.map((l) => l.code).join('\n'));
    await page.locator('[data-testid=class-add]').click();
    await page.locator('[data-testid=class-row]').nth(1).waitFor();
    const rows = await page.locator('[data-testid=class-row]').evaluateAll((trs) =>
      trs.map((tr) => Array.from(tr.children, (c) => c.textContent.trim())),
    );
    const csv = (await page.locator('[data-testid=class-csv]').textContent()).trim().split('\n');
    for (const [i, l] of learners.entries()) {
      const row = rows[i];
      assert.equal(row[0], l.name);
      assert.equal(row[1], '50/50', `${l.name} re-scored in their own variant: ${row}`);
      assert.equal(row.at(-1), '', `no flag: ${row}`);
      // The task (the fourth item) solved by acting counts as done.
      assert.match(row[5], /^✓ \d+ s$/, `the task: ${row}`);
      assert.equal(csvFields(csv[i + 1])[1], String(l.seed), 'the CSV names the variant');
    }
  });
});
