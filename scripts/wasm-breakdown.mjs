// Size of the explorer's wasm by crate, from `twiggy top` of a build that kept its name section.
// Usage: node scripts/wasm-breakdown.mjs <file.wasm> [top-n-functions]
// Prints `wasm_crate_bytes{crate=NAME}: RAW` lines (bytes before gzip), largest first, then the
// largest functions (stderr). A function whose name mentions one of this workspace's crates
// counts there (`<logtime_core::T as core::fmt::Debug>::fmt`, `drop_in_place<logtime_web::..>`),
// so the generic code a crate makes the compiler instantiate is charged to it; `yew` still
// includes every function component's view and hooks (`CompStateInner<COMP>::view` does not name
// the component).
import { execFileSync } from 'node:child_process';

const file = process.argv[2];
const top = Number(process.argv[3] || 25);
if (!file) {
  console.error('usage: node scripts/wasm-breakdown.mjs <file.wasm> [top-n]');
  process.exit(2);
}
const csv = execFileSync('twiggy', ['top', '-n', '1000000', '--format', 'csv', file], {
  encoding: 'utf8',
  maxBuffer: 1 << 28,
});
const OURS = ['logtime_web', 'logtime_core', 'logtime_model'];

function parseCsv(text) {
  const rows = [];
  for (const line of text.split('\n').slice(1)) {
    if (!line) continue;
    // The name may itself contain commas: the numbers are the last fields.
    const parts = line.split(',');
    if (parts.length < 5) continue;
    const size = Number(parts[parts.length - 4]);
    const name = parts.slice(0, parts.length - 4).join(',').replace(/^"|"$/g, '');
    if (!Number.isFinite(size)) continue;
    rows.push({ name, size });
  }
  return rows;
}

function crateOf(raw) {
  // std's crates carry a hash: `core[c5930c85a12de822]::fmt`.
  const name = raw.replace(/\[[0-9a-f]{16}\]/g, '');
  if (/subsection|^custom section|producers|target_features/.test(name)) return null;
  if (/^data\[/.test(name) || name.startsWith('data segment')) return '(data: strings, tables)';
  if (/^(type|import|export|elem|table|memory|global|custom|code)\b|section/.test(name)) {
    return '(wasm sections)';
  }
  if (/^"?(wasm-bindgen|__wbg|__wbindgen)/.test(name)) return 'wasm_bindgen (glue)';
  for (const c of OURS) if (name.includes(`${c}::`)) return c;
  const m = name.replace(/^</, '').match(/^([A-Za-z_][A-Za-z0-9_]*)::/);
  if (m) return m[1];
  if (/^(dlmalloc|__rust|rust_|__rdl|memcpy|memset|memmove|memcmp)/.test(name)) return 'std (alloc, mem*)';
  return '(unnamed)';
}

const rows = parseCsv(csv);
const by = new Map();
let total = 0;
for (const r of rows) {
  const c = crateOf(r.name);
  if (c === null) continue; // the name section: kept for this breakdown only, not shipped
  by.set(c, (by.get(c) || 0) + r.size);
  total += r.size;
}
for (const [c, size] of [...by].sort((a, b) => b[1] - a[1])) {
  console.log(`wasm_crate_bytes{crate=${c}}: ${size}  (${((100 * size) / total).toFixed(1)} %)`);
}
console.log(`wasm_bytes_total: ${total}`);
for (const r of rows.filter((r) => crateOf(r.name) !== null).sort((a, b) => b.size - a.size).slice(0, top)) {
  console.error(`[breakdown] ${String(r.size).padStart(7)}  ${r.name.slice(0, 140)}`);
}
