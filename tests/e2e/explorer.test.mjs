// End-to-end tests of the explorer UI: play each built-in scenario and assert what the DOM
// shows (offsets, verdicts, Kafka's error text), fail on any console error, save screenshots.
// Run after `trunk build --release --offline`:  node --test tests/e2e/explorer.test.mjs
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { appRoot, loaded, screenshot, until, useE2E, waitText, withPage } from './harness.mjs';

const e2e = useE2E();

async function ready(page) {
  await appRoot(page);
  await page.locator('[data-testid=clock]').first().waitFor({ timeout: 20_000 });
  await page.locator('[data-testid=partition]').first().waitFor({ timeout: 20_000 });
  await loaded(page);
}

/** Clicks "step forward" until the scenario is done. */
async function stepAll(page, max = 200) {
  const step = page.locator('[data-testid=step]').first();
  for (let i = 0; i < max; i++) {
    if (await step.isDisabled()) return i;
    await step.click();
  }
  throw new Error('scenario did not finish');
}

/** Moves the scrubber to `value` (a step number, as a string) as a reader's drag ends. */
async function scrubTo(page, value) {
  await page.locator('[data-testid=scrubber]').evaluate((el, v) => {
    el.value = v;
    el.dispatchEvent(new Event('change', { bubbles: true }));
  }, value);
}

async function text(page, sel) {
  return (await page.locator(sel).first().innerText()).replace(/\s+/g, ' ');
}

async function shots(page, name) {
  for (const scheme of ['light', 'dark']) {
    await page.emulateMedia({ colorScheme: scheme });
    for (const [vp, size] of [['desktop', { width: 1280, height: 800 }], ['mobile', { width: 375, height: 800 }]]) {
      await page.setViewportSize(size);
      await page.waitForTimeout(150);
      await screenshot(page, `${name}-${vp}-${scheme}`);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      assert.ok(overflow <= 0, `${name} ${vp}: page scrolls sideways by ${overflow} px`);
    }
  }
  await page.setViewportSize({ width: 1280, height: 800 });
}

test('lookup-scan: T = 10:00:05 returns offset 3; offset 5 is after it but stamped before T', async () => {
  await withPage(e2e, { path: '/index.html?scenario=lookup-scan', reducedMotion: 'reduce' }, async (page) => {
    await ready(page);
    assert.match(await text(page, '[data-testid=scenario-title]'), /Lookup/);
    const steps = await stepAll(page);
    assert.equal(steps, 4);
    assert.match(await text(page, '[data-testid=lookup-answer]'), /offset 3\b/);
    assert.match(await text(page, '[data-testid=lookup-answer]'), /10:00:09/);
    await page.locator('[data-testid=segment-0]').waitFor();
    assert.match(await page.locator('[data-testid=record-3]').getAttribute('class'), /\banswer\b/);
    assert.match(await page.locator('[data-testid=record-5]').getAttribute('class'), /\blate\b/);
    assert.match(await text(page, '[data-testid=lookup-late]'), /offset 5/);
    // the walk: binary search, a batch skipped whole, then records scanned one by one
    const trace = await text(page, '.lt-trace');
    assert.match(trace, /time index/);
    assert.match(trace, /skip batch 0–0/);
    assert.match(trace, /read offset 3 .* the answer/);
    assert.match(await text(page, '[data-testid=live]'), /offset 3/);
    await shots(page, 'lookup-scan');
  });
});

test('lookup animation: the answer appears after the trace has been walked', async () => {
  await withPage(e2e, { path: '/index.html?scenario=lookup-scan' }, async (page) => {
    await ready(page);
    await stepAll(page);
    await page.locator('[data-testid=lookup-answer]').waitFor({ timeout: 15_000 });
    assert.match(await text(page, '[data-testid=lookup-answer]'), /offset 3\b/);
  });
});

test('a lookup past 300 one-record segments: 100 passes, then one folded line, in a box that follows the walk', async () => {
  const scenario = encodeURIComponent(JSON.stringify({
    title: 'A lookup past 300 segments',
    kafka: '3.6',
    start: '2026-01-15T00:00:00Z',
    topic: { 'segment.bytes': 170 },
    steps: [
      { produce: { batches: 300, every: '1ms', records: [{ timestamp: 'now', value_bytes: 100 }] } },
      { lookup: { timestamp: '2026-01-15T00:00:00.290Z' } },
    ],
  }));
  await withPage(e2e, { path: `/index.html?scenario=${scenario}` }, async (page) => {
    await ready(page);
    // The walk's pace follows the speed: 40 ms a line at 64×.
    await page.locator('[data-testid=speed]').selectOption('64');
    await stepAll(page);
    await page.locator('[data-testid=lookup-answer]').waitFor({ timeout: 30_000 });
    assert.match(await text(page, '[data-testid=lookup-answer]'), /offset 290\b/);
    assert.equal(await page.locator('.lt-trace-line').count(), 106);
    assert.match(await text(page, '[data-testid=trace-99]'), /pass over segment 99:/);
    assert.match(await text(page, '[data-testid=trace-100]'), /pass over 190 more segments, 100 to 289: the largest timestamp of each is before T/);
    assert.match(await text(page, '[data-testid=trace-101]'), /choose segment 290/);
    // The list scrolls inside its box, which the walk left at its end.
    const box = await page.locator('.lt-trace').evaluate((ol) => ({ h: ol.clientHeight, sh: ol.scrollHeight, top: ol.scrollTop }));
    assert.ok(box.h <= 400 && box.sh > 2 * box.h, JSON.stringify(box));
    assert.ok(box.top + box.h >= box.sh - 80, `the walk's last lines are in view: ${JSON.stringify(box)}`);
    await shots(page, 'lookup-folded');
  });
});

test('future-pins-retention: seed 001 verdicts, pinned until 21 Mar 2030, and the DeleteRecords remedy', async () => {
  await withPage(e2e, { path: '/index.html?scenario=future-pins-retention', reducedMotion: 'reduce' }, async (page) => {
    await ready(page);
    await stepAll(page);
    assert.match(await text(page, '[data-testid=clock]'), /12 Mar 2027 09:00/);
    assert.match(await text(page, '[data-testid=verdict-0]'), /deleted/);
    assert.match(await text(page, '[data-testid=verdict-10000]'), /deleted/);
    const pinned = await text(page, '[data-testid=verdict-20000]');
    assert.match(pinned, /pinned/);
    assert.match(pinned, /kept until 21 Mar 2030 11:20/);
    assert.match(await text(page, '[data-testid=verdict-30000]'), /kept behind 20000/);
    assert.match(await text(page, '[data-testid=verdict-40000]'), /20000/);
    assert.equal(await text(page, '[data-testid=log-start]'), '20,000');
    assert.match(await text(page, '[data-testid=segment-20000]'), /pinned/);
    assert.match(await text(page, '[data-testid=segment-20000]'), /14 Mar 2030 11:20/);
    assert.match(await text(page, '[data-testid=segment-40000]'), /active/);
    assert.match(await text(page, '[data-testid=lookup-answer]'), /offset 20000/);
    await shots(page, 'future-pins-retention');
    // remedy: DeleteRecords to 30000 (pre-filled), then the check deletes 20000 and 30000
    assert.equal(await page.locator('[data-testid=delete-offset]').inputValue(), '30000');
    await page.locator('[data-testid=remedy-delete]').click();
    await page.locator('[data-testid=verdict-40000]').waitFor();
    assert.match(await text(page, '[data-testid=verdict-20000]'), /deleted/);
    assert.match(await text(page, '[data-testid=verdict-30000]'), /deleted/);
    assert.equal(await text(page, '[data-testid=log-start]'), '40,000');
    assert.equal(await page.locator('[data-testid=segment-20000]').count(), 0);
    await screenshot(page, 'future-pins-retention-after-remedy');
  });
});

test('nanoseconds-4x: Kafka error 32 with its exact text and the nanoseconds diagnosis', async () => {
  await withPage(e2e, { path: '/index.html?scenario=nanoseconds-4x', reducedMotion: 'reduce' }, async (page) => {
    await ready(page);
    await stepAll(page);
    const err = await text(page, '[data-testid=produce-error]');
    assert.match(err, /One or more records have been rejected due to invalid timestamp/);
    assert.match(err, /error 32 INVALID_TIMESTAMP/);
    assert.match(err, /nanoseconds/);
    assert.match(err, /Accepted window/);
    await shots(page, 'nanoseconds-4x');
  });
});

test('compacted topic: compaction is not modelled, the log cleaner\'s next pass, null vs empty key, and the broker log of error 18', async () => {
  const scenario = encodeURIComponent(JSON.stringify({
    title: 'A compacted topic',
    description: 'A compacted topic with 1000-byte segments: a batch too large for a segment, then keys.',
    kafka: '3.6',
    start: '2027-03-12T09:00:00Z',
    topic: { 'cleanup.policy': 'compact,delete', 'segment.bytes': 1000, 'retention.ms': 60000 },
    steps: [{ produce: { records: [{ timestamp: 'now', key_bytes: 8, value_bytes: 2000 }] } }],
  }));
  await withPage(e2e, { path: `/index.html?scenario=${scenario}`, reducedMotion: 'reduce' }, async (page) => {
    await ready(page);
    // the explorer and the retention panel say what a compacted topic changes
    assert.match(await text(page, '[data-testid=compaction-note]'), /cleanup\.policy compact,delete: compaction is not modelled/);
    assert.match(await text(page, '[data-testid=compaction-note]'), /every log\.cleaner\.backoff\.ms \(15 s\)/);
    assert.match(await text(page, '[data-testid=retention-settings]'), /next log cleaner pass 12 Mar 2027 09:00:15/);
    assert.match(await text(page, '[data-testid=live]'), /compaction is not modelled/);
    // error 18: the producer gets Errors' default message, the broker logs the sizes
    await stepAll(page);
    const err = await text(page, '[data-testid=produce-error]');
    assert.match(err, /error 18 RECORD_LIST_TOO_LARGE/);
    assert.match(err, /The request included message batch larger than the configured segment size on the server\./);
    assert.doesNotMatch(err, /Accepted window/, 'the timestamp window is not why a batch is too large');
    assert.match(await text(page, '[data-testid=broker-log]'),
      /The broker logs: "Message batch size is 2078 bytes in append to partition clicks-0, which exceeds the maximum configured segment size of 1000\."/);
    await shots(page, 'compacted-size-error');
    // keys: a null key is refused (87), an empty key is a key and is appended
    assert.deepEqual(await page.locator('[data-testid=key-kind] option').allInnerTexts(),
      ['null key', 'empty key (0 bytes)', 'sized key']);
    assert.match(await text(page, '[data-testid=key-hint]'), /a null key: the record has no key \(key length -1\)/);
    await page.locator('[data-testid=send]').click();
    await waitText(page.locator('[data-testid=produce-error]'), /error 87/);
    assert.match(await text(page, '[data-testid=produce-error]'), /Compacted topic cannot accept message without key/);
    assert.equal(await page.locator('[data-testid=broker-log]').count(), 0, 'error 87 forwards its own text');
    await screenshot(page, 'compacted-null-key-desktop-light');
    await page.locator('[data-testid=key-kind]').selectOption('empty');
    assert.match(await text(page, '[data-testid=key-hint]'), /an empty key: a key of zero bytes \(key length 0\), not a null key/);
    await page.locator('[data-testid=send]').click();
    await page.locator('[data-testid=produce-ok]').waitFor();
    assert.match(await text(page, '[data-testid=produce-ok]'), /at offset 0 in segment 0/);
    await page.locator('[data-testid=key-kind]').selectOption('sized');
    await page.locator('[data-testid=key-bytes]').fill('4');
    assert.match(await text(page, '[data-testid=key-hint]'), /a key of 4 bytes: any topic accepts it/);
    await shots(page, 'compacted-keys');
    // back to delete: the retention task's schedule, and no note
    await page.locator('[data-testid="config-cleanup.policy"]').fill('delete');
    await page.locator('[data-testid="config-cleanup.policy"]').dispatchEvent('change');
    await page.locator('[data-testid=compaction-note]').waitFor({ state: 'detached' });
    assert.match(await text(page, '[data-testid=retention-settings]'), /next retention check/);
  });
});

test('producer panel: a nanosecond batch bounces, a correct one lands in the active segment', async () => {
  await withPage(e2e, { path: '/index.html?scenario=nanoseconds-4x' }, async (page) => {
    await ready(page);
    await page.locator('[data-testid=ts-unit]').selectOption('ns');
    await page.locator('[data-testid=send]').click();
    await page.locator('[data-testid=produce-error]').waitFor();
    assert.match(await text(page, '[data-testid=produce-error]'), /rejected due to invalid timestamp/);
    await page.locator('[data-testid=ts-unit]').selectOption('ms');
    await page.locator('[data-testid=send]').click();
    await page.locator('[data-testid=produce-ok]').waitFor();
    assert.match(await text(page, '[data-testid=produce-ok]'), /at offset 0 in segment 0/);
    await page.locator('[data-testid=record-0]').waitFor();
    // config panel: validation messages from core
    await page.locator('[data-testid="config-segment.bytes"]').fill('100');
    await page.locator('[data-testid="config-segment.bytes"]').dispatchEvent('change');
    await page.locator('[data-testid=config-error]').waitFor();
    assert.match(await text(page, '[data-testid=config-error]'), /invalid value 100 for configuration segment.bytes/);
  });
});

test('landing: records land and segments roll on size and on time, each saying why', async () => {
  await withPage(e2e, { path: '/index.html?scenario=landing', reducedMotion: 'reduce' }, async (page) => {
    await ready(page);
    await page.locator('[data-testid=step]').click();
    await page.locator('[data-testid=record-0]').waitFor();
    await stepAll(page);
    const part = await text(page, '[data-testid=partition]');
    assert.match(part, /rolled on size/);
    assert.match(part, /rolled on time/);
    assert.match(part, /active/);
    assert.match(part, /time index/);
    await shots(page, 'landing');
  });
});

test('replay-24h: a replay older than retention is deleted within minutes; raising retention.ms keeps it', async () => {
  await withPage(e2e, { path: '/index.html?scenario=replay-24h', reducedMotion: 'reduce' }, async (page) => {
    await ready(page);
    await stepAll(page);
    assert.notEqual(await text(page, '[data-testid=log-start]'), '0');
    assert.match(await text(page, '.lt-retention'), /deleted/);
    await page.locator('[data-testid=remedy-retention]').click();
    await screenshot(page, 'replay-24h-desktop-light');
  });
});

test('keyboard: space plays, arrows step; step back rebuilds deterministically', async () => {
  await withPage(e2e, { path: '/index.html?scenario=lookup-scan', reducedMotion: 'reduce' }, async (page) => {
    await ready(page);
    await page.locator('.lt-app').focus();
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    await waitText(page.locator('.lt-scrub'), /Step 2 of 4/);
    const clock2 = await text(page, '[data-testid=clock]');
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowLeft');
    await waitText(page.locator('.lt-scrub'), /Step 2 of 4/);
    assert.equal(await text(page, '[data-testid=clock]'), clock2);
    await page.keyboard.press(' ');
    await waitText(page.locator('.lt-scrub'), /Step 4 of 4/);
  });
});

test('the charts say when there is nothing to plot, and keep no plot of a later step after a rewind', async () => {
  await withPage(e2e, { path: '/index.html?scenario=lookup-scan', reducedMotion: 'reduce' }, async (page) => {
    await ready(page);
    const charts = '[data-testid=timestamp-chart], [data-testid=disk-chart]';
    const pixels = () => page.$$eval(charts, (cs) => cs.map((c) => c.toDataURL()));
    const settle = async () => {
      // The charts redraw a few times a second: wait until two reads agree.
      let last = await pixels();
      return until(async () => {
        await page.waitForTimeout(300);
        const now = await pixels();
        const same = now.every((u, k) => u === last[k]);
        last = now;
        return same && now;
      }, { timeout: 6_000, what: 'the charts to stop changing' });
    };
    await waitText(page.locator('.lt-scrub'), /Step 0 of 4/);
    const empty = await settle();
    // Not a plain fill: each chart writes why it is empty.
    const uniform = await page.$$eval(charts, (cs) => cs.map((c) => {
      const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
      for (let i = 4; i < d.length; i += 4) {
        if (d[i] !== d[0] || d[i + 1] !== d[1] || d[i + 2] !== d[2]) return false;
      }
      return true;
    }));
    assert.deepEqual(uniform, [false, false], 'an empty chart is a plain fill');
    await stepAll(page);
    const full = await settle();
    assert.notEqual(full[0], empty[0], 'the timestamp chart plots the records');
    assert.notEqual(full[1], empty[1], 'the disk chart plots the size');
    await scrubTo(page, '0');
    await waitText(page.locator('.lt-scrub'), /Step 0 of 4/);
    assert.deepEqual(await settle(), empty, 'after the rewind the charts are as they were at the start');
  });
});

test('million: plays, draws density bars on a canvas, zooms down to single records', async () => {
  await withPage(e2e, { path: '/index.html?scenario=million', reducedMotion: 'reduce' }, async (page) => {
    await ready(page);
    await page.locator('[data-testid=speed]').selectOption('64');
    await page.locator('[data-testid=play]').click();
    await waitText(page.locator('[data-testid=log-end]'), /^([2-9]\d{2}|\d{4,}),\d{3}$/, { timeout: 60_000 });
    await page.locator('[data-testid=play]').click(); // pause
    await page.locator('[data-testid=density]').waitFor();
    await screenshot(page, 'million-desktop-light');
    for (let i = 0; i < 12 && (await page.locator('[data-testid=density]').count()) > 0; i++) {
      await page.locator('[data-testid=zoom-in]').click();
    }
    assert.ok((await page.locator('.lt-tile').count()) > 0, 'zoomed in to single records');
    await screenshot(page, 'million-zoomed-desktop-light');
  });
});

test('million at 64×: the clock every frame, the panels\' words ten times a second, all of them the moment once paused', async () => {
  await withPage(e2e, { path: '/index.html?scenario=million', reducedMotion: 'reduce' }, async (page) => {
    await ready(page);
    await page.locator('[data-testid=speed]').selectOption('64');
    // Count the changes of the clock bar's record count, of the partition's log end offset and
    // of the narration while the scenario plays for a second: about 64 of its 111 steps, so
    // that it is still playing (at its end a play stops, and Play would start it again).
    await page.evaluate(() => {
      const root = document.querySelector('#app').shadowRoot;
      globalThis.__changes = { progress: 0, logEnd: 0, log: 0 };
      const count = (el, key) => new MutationObserver(() => globalThis.__changes[key]++)
        .observe(el, { childList: true, characterData: true, subtree: true });
      count(root.querySelector('.lt-progress'), 'progress');
      count(root.querySelector('[data-testid=log-end]'), 'logEnd');
      count(root.querySelector('[data-testid=event-log]'), 'log');
    });
    const play = page.locator('[data-testid=play]');
    await play.click();
    const started = Date.now();
    await page.waitForTimeout(1_000);
    const changes = await page.evaluate(() => ({ ...globalThis.__changes }));
    const played = Date.now() - started;
    if ((await play.getAttribute('aria-pressed')) === 'true') await play.click(); // pause
    await until(async () => (await play.getAttribute('aria-pressed')) === 'false', { timeout: 2_000, what: 'the play to pause' });
    assert.ok(changes.logEnd >= 3, `the figures follow the play: ${JSON.stringify(changes)}`);
    assert.ok(changes.logEnd <= played / 100 + 2, `at most ten times a second over ${played} ms: ${JSON.stringify(changes)}`);
    assert.ok(changes.progress > changes.logEnd, `the clock bar more often than the panels: ${JSON.stringify(changes)}`);
    // Paused, every panel shows the moment the clock bar shows.
    const records = async () => (await text(page, '.lt-progress')).match(/([\d,]+) records?\b/)?.[1];
    await until(async () => (await records()) === (await text(page, '[data-testid=log-end]')), { timeout: 1_000, what: 'the log end offset to catch up with the clock bar' });
    const step = (await text(page, '.lt-scrub')).match(/Step (\d+) of/)?.[1];
    assert.ok(Number(step) > 0, 'it played');
    assert.match(await text(page, '[data-testid=event-log] li'), /./, 'the narration shows a line');
  });
});

test('million: the density view labels its segments, the same pixels with or without an OffscreenCanvas', async () => {
  // The labels are drawn on an OffscreenCanvas strip and copied onto the view (draw.rs,
  // label_strip); a browser without one gets them drawn straight onto the view.
  const band = async (withoutOffscreen) => {
    let pixels;
    await withPage(e2e, { path: null, reducedMotion: 'reduce' }, async (page) => {
      if (withoutOffscreen) await page.addInitScript(() => { delete globalThis.OffscreenCanvas; });
      await page.goto(new URL('index.html?scenario=million&step=5', e2e.server.url).href);
      await ready(page);
      const density = page.locator('[data-testid=density]');
      await density.waitFor();
      assert.equal(await page.evaluate(() => typeof OffscreenCanvas), withoutOffscreen ? 'undefined' : 'function');
      // The top 16 px: the labels' band, above the bars (which start at 18 px).
      pixels = await density.evaluate((c) => Array.from(c.getContext('2d').getImageData(0, 0, c.width, 16).data));
    });
    return pixels;
  };
  const offscreen = await band(false);
  const direct = await band(true);
  // dark text on the light background: a label's glyphs
  const ink = (px) => px.filter((v, i) => i % 4 === 0 && v < 100).length;
  assert.ok(ink(offscreen) > 200, `the labels are drawn (${ink(offscreen)} dark pixels)`);
  assert.equal(ink(direct), ink(offscreen), 'the same labels without an OffscreenCanvas');
  assert.ok(offscreen.every((v, i) => Math.abs(v - direct[i]) <= 8), 'the same pixels, to antialiasing');
});

test('the warm-up waits for a long idle moment: none of it runs while every frame is busy, as in a play', async () => {
  // glue.js's whenIdle, which the warm-up (warm.rs) asks for each of its pieces (up to 50 ms
  // on 2 cores): the browser's idle callbacks also fire in the few ms left after a busy frame, where a piece
  // would push the next frame out.
  await withPage(e2e, { path: '/index.html?scenario=million' }, async (page) => {
    await ready(page);
    const r = await page.evaluate(async () => {
      const url = performance
        .getEntriesByType('resource')
        .map((e) => e.name)
        .find((n) => /\/snippets\/logtime-web-[^/]+\/src\/glue\.js$/.test(n));
      if (!url) return { url: null };
      const { whenIdle } = await import(url);
      let ran = null;
      const start = performance.now();
      whenIdle(() => {
        ran = performance.now();
      });
      // A second of frames that each keep the main thread 12 ms of their 16.7.
      await new Promise((done) => {
        const frame = () => {
          const t = performance.now();
          while (performance.now() - t < 12);
          if (performance.now() - start < 1000) requestAnimationFrame(frame);
          else done();
        };
        requestAnimationFrame(frame);
      });
      const busyEnd = performance.now();
      const during = ran;
      await new Promise((done) => setTimeout(done, 1000));
      return { url, during, after: ran === null ? null : ran - busyEnd };
    });
    assert.ok(r.url, 'the page loaded glue.js from its snippets');
    assert.equal(r.during, null, 'nothing ran during the busy frames');
    assert.ok(r.after !== null && r.after >= 0, `it ran once the page was idle (${r.after})`);
  });
});

test('million: a rebuild to the last step runs in chunks with a progress bar, then says where it got to', async () => {
  await withPage(e2e, { path: '/index.html?scenario=million', reducedMotion: 'reduce' }, async (page) => {
    await ready(page);
    // Note every time the progress bar is shown (the first chunk renders it before the next).
    await page.evaluate(() => {
      globalThis.__rebuildSeen = 0;
      const root = document.querySelector('#app').shadowRoot;
      new MutationObserver(() => {
        if (root.querySelector('[data-testid=rebuild-progress]')) globalThis.__rebuildSeen++;
      }).observe(root, { childList: true, subtree: true, attributes: true });
    });
    const scrubber = page.locator('[data-testid=scrubber]');
    const total = await scrubber.getAttribute('max');
    await scrubTo(page, total);
    await waitText(page.locator('[data-testid=event-log]'), new RegExp(`Rebuilt to step ${total} of ${total}\\.`), { timeout: 120_000 });
    assert.equal(await scrubber.inputValue(), total);
    assert.ok((await page.evaluate(() => globalThis.__rebuildSeen)) > 0, 'the progress bar was shown');
    assert.equal(await page.locator('[data-testid=rebuild]').count(), 0, 'and is gone once rebuilt');
  });
});

test('a bad inline scenario shows an error box naming the problem, not a dead page', async () => {
  const bad = encodeURIComponent('{"title":"broken","steps":[{"advance":"5x"}]}');
  await withPage(e2e, { path: `/index.html?scenario=${bad}` }, async (page) => {
    await appRoot(page);
    const box = page.locator('[data-testid=scenario-error]');
    await box.waitFor({ timeout: 20_000 });
    assert.equal(await box.getAttribute('role'), 'alert');
    assert.match(await box.innerText(), /start|step 0/);
    await screenshot(page, 'bad-scenario-desktop-light');
  });
});

test('two explorers on one page stay independent', async () => {
  await withPage(e2e, { path: '/embed-example.html', reducedMotion: 'reduce' }, async (page) => {
    const roots = page.locator('[data-testid=app-root]');
    await roots.first().waitFor();
    await page.locator('[data-testid=clock]').nth(1).waitFor({ timeout: 20_000 });
    const clocks = page.locator('[data-testid=clock]');
    const before = await clocks.nth(1).innerText();
    const steps = page.locator('[data-testid=step]');
    await steps.first().click();
    await steps.first().click();
    await page.waitForTimeout(200);
    assert.equal(await clocks.nth(1).innerText(), before, 'the second explorer did not move');
    assert.match(await page.locator('.lt-scrub').first().innerText(), /Step 2 of/);
    assert.match(await page.locator('.lt-scrub').nth(1).innerText(), /Step 0 of/);
  });
});
