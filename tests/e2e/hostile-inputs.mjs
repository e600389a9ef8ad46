// Hostile page inputs of issue 41, generated (no fixtures): shared by hostile.test.mjs (each is
// refused with its error and the explorer lives on) and measure-hostile.mjs (the heap after).
import zlib from 'node:zlib';

/** What the page's `pack` (glue.js) makes of `text`: raw deflate, base64url. */
export function pack(text) {
  return zlib.deflateRawSync(Buffer.from(text), { level: 9 }).toString('base64url');
}

/**
 * The variant bomb (finding 1) as a `z=` lesson link of about 1.5 KB: a 1 MB choice referenced
 * 1,000 times by one note, a gigabyte once substituted.
 */
export function variantBombZ() {
  return pack(JSON.stringify({
    title: 'hostile',
    start: '2027-03-12T09:00:00Z',
    variants: { big: { choices: ['x'.repeat(1_000_000)] } },
    steps: [{ note: '${big}'.repeat(1000) }],
  }));
}

/**
 * The retention link of finding 2 (about 200 characters): a million one-record segments kept
 * forever, then one retention step that would list every one of them.
 */
export function retentionZ() {
  return pack(JSON.stringify({
    kafka: '3.6',
    start: '2027-03-12T09:00:00Z',
    topic: { 'segment.bytes': 170, 'retention.ms': -1 },
    steps: [{ produce: { batches: 1_000_000, every: '1ms', records: [{ timestamp: 'now' }] } }, { retention: {} }],
  }));
}

/** A saved moment of 2,000 batches of 100,000 records each (a 48 KB `moment=`). */
export function momentBomb() {
  return '1' + '~p1804842000000_0x100000'.repeat(2000);
}

/**
 * A `z` of about `mb` MB (base64url) that inflates to about 1,000 times its deflate bytes (a
 * deflate bomb): the 1.4 MB link for `mb` 1.4, the 4.2 MB attribute for 4.2. Made from one
 * 64 MiB block of zeros deflated and flushed to a byte boundary, repeated, then a final empty
 * block, so that no gigabyte is ever held here.
 */
export function deflateBombZ(mb) {
  const chunk = zlib.deflateRawSync(Buffer.alloc(64 << 20), {
    level: 9,
    finishFlush: zlib.constants.Z_FULL_FLUSH,
  });
  const reps = Math.ceil((mb * 1e6 * 3) / 4 / chunk.length);
  const last = zlib.deflateRawSync(Buffer.alloc(0));
  return Buffer.concat([...Array(reps).fill(chunk), last]).toString('base64url');
}
