// Unit tests of logtime-embed.js's pure functions (no browser): the theme a page's background
// gives an embed that has no `theme` and whose page declares no colour scheme, and the room
// a poster reserves.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { expectedHeight, luminance, parseColor, schemeOfBackgrounds } from '../../static/logtime-embed.js';

test('computed colours parse in the forms Chromium gives', () => {
  assert.deepEqual(parseColor('rgb(251, 250, 247)'), { r: 251, g: 250, b: 247, a: 1 });
  assert.deepEqual(parseColor('rgba(0, 0, 0, 0)'), { r: 0, g: 0, b: 0, a: 0 });
  assert.deepEqual(parseColor('color(srgb 1 1 1 / 0.5)'), { r: 255, g: 255, b: 255, a: 0.5 });
  assert.equal(parseColor('oklch(0.5 0.1 200)'), null);
  assert.equal(parseColor('transparent'), null);
});

test('luminance runs from black to white', () => {
  assert.equal(luminance({ r: 0, g: 0, b: 0 }), 0);
  assert.ok(Math.abs(luminance({ r: 255, g: 255, b: 255 }) - 1) < 1e-9);
  // Green weighs most: a pure green is lighter than a pure blue.
  assert.ok(luminance({ r: 0, g: 255, b: 0 }) > luminance({ r: 0, g: 0, b: 255 }));
});

test('the first opaque background up from the element decides light or dark', () => {
  // A light page (the docs example's paper) with transparent elements in between.
  assert.equal(schemeOfBackgrounds(['rgba(0, 0, 0, 0)', 'rgba(0, 0, 0, 0)', 'rgb(251, 250, 247)']), 'light');
  // A dark page, and a dark card on a light page: the nearest wins.
  assert.equal(schemeOfBackgrounds(['rgba(0, 0, 0, 0)', 'rgb(21, 23, 26)']), 'dark');
  assert.equal(schemeOfBackgrounds(['rgb(27, 27, 27)', 'rgb(255, 255, 255)']), 'dark');
  // A faint tint does not count; the page under it does.
  assert.equal(schemeOfBackgrounds(['rgba(0, 0, 0, 0.05)', 'rgb(255, 255, 255)']), 'light');
  // Mid greys: #777 (luminance 0.18) is at the line; #808080 light, #666 dark.
  assert.equal(schemeOfBackgrounds(['rgb(128, 128, 128)']), 'light');
  assert.equal(schemeOfBackgrounds(['rgb(102, 102, 102)']), 'dark');
  // No background anywhere: the browser's white canvas.
  assert.equal(schemeOfBackgrounds(['rgba(0, 0, 0, 0)', 'rgba(0, 0, 0, 0)']), 'light');
  assert.equal(schemeOfBackgrounds([]), 'light');
});

test('a poster reserves more room for more panels, a narrow column and a lesson', () => {
  const two = expectedHeight(736, { panels: 'partition lookup' });
  const three = expectedHeight(736, { panels: 'partition lookup log' });
  assert.ok(three > two);
  assert.ok(expectedHeight(375, { panels: 'partition lookup' }) > two);
  assert.ok(expectedHeight(375, { lesson: true }) > expectedHeight(375, {}));
  assert.ok(expectedHeight(736, { panels: 'all' }) > three);
});
