// <logtime-explorer>: embed compact, isolated Logtime explorers in any page, loaded when read.
//
//   <script type="module" src="logtime-embed.js"></script>
//   <logtime-explorer scenario="lookup-scan" panels="partition lookup log">
//     <p>Fallback shown while JavaScript is off or loading: <a href="index.html?scenario=lookup-scan">open the explorer</a>.</p>
//   </logtime-explorer>
//   <logtime-explorer src="scenarios/mine.json" load="click" poster="mine.svg"></logtime-explorer>
//   <logtime-explorer>                                                  inline scenario JSON
//     <script type="application/json">{ "…": "…" }</script>
//   </logtime-explorer>
//
// Attributes (README "Embedding"; read and checked by the wasm module, web/src/options.rs):
// scenario | src (or a child JSON script), panels, menu, theme, mode, step, lookup, moment, page,
// load, poster. Changing one updates that explorer; a bad value shows an error box naming the
// attribute in place of the explorer; removing the element destroys it.
//
// Loading: this script is all a page pays for until a reader engages an explorer.
//   load="visible" (the default)  the explorer loads when it comes within 600 px of the viewport;
//   load="click"                  it loads when the reader presses "Open the live explorer";
//   load="eager"                  it loads at once.
// Until then the element shows a poster: its own content (the fallback) if it has any, else the
// picture named by `poster` (an SVG from `logtime render`), else, for a built-in `scenario`, the
// built-in's poster static/posters/<scenario>.svg beside this script (dist/ copies static/
// whole); with a button that opens the live explorer at once (any mode). The poster reserves
// about the explorer's height, so that the swap does not push the page below it. A `load`
// value this script does not know loads at once, so that the explorer's error box names it. `el.engage()` loads an explorer from script.
//
// Each explorer renders in the element's shadow root with its own stylesheet: nothing of
// Logtime's CSS reaches the page and nothing of the page's reaches the explorer. Content inside
// the element is its fallback: shown while JS is off or loading, no longer rendered once the
// explorer mounts. The theme (without a `theme` attribute): the page's declared `color-scheme`
// (light or dark; auto, the reader's setting, when it declares both); when it declares none,
// the page's own background decides: the first opaque background from the element up to the
// root, light or dark by its luminance (none at all: the browser's white canvas, light).
//
// The WebAssembly module is loaded once per page (on the first explorer engaged), from next to
// this script (./logtime-web.js, as Trunk emits it with filehash = false), lessons included; a
// page can point elsewhere with <meta name="logtime-module" content="/path/to/logtime-web.js">.
// "Copy link to this moment" links to index.html next to the module unless the element has a
// `page`.

const TAG = 'logtime-explorer';
/** The attributes the element passes on (web/src/options.rs OPTION_NAMES, less `inline` and
 * `assign`: an assignment link opens the standalone page). */
const OPTIONS = ['scenario', 'src', 'z', 'panels', 'menu', 'theme', 'mode', 'seed', 'step', 'lookup', 'moment', 'page', 'load', 'poster'];
/** How far ahead of the viewport a `load="visible"` explorer starts loading. */
const AHEAD = '600px 0px';

function moduleUrl() {
  const meta = document.querySelector('meta[name="logtime-module"]');
  return new URL(meta?.content || './logtime-web.js', meta ? document.baseURI : import.meta.url);
}

let loading = null;
/** Loads and initialises the wasm module once; resolves to its exports. */
export function loadLogtime() {
  if (!loading) {
    const js = moduleUrl();
    const wasm = new URL(js.pathname.replace(/\.js$/, '_bg.wasm'), js);
    loading = import(js.href).then(async (m) => {
      await m.default({ module_or_path: wasm });
      return m;
    });
  }
  return loading;
}

/** The sRGB channels and alpha of a computed colour (`rgb()`, `rgba()` or `color(srgb …)`),
 *  or null for any other form. */
export function parseColor(css) {
  const m = /^rgba?\(([^)]*)\)$/.exec(css) || /^color\(srgb ([^)]*)\)$/.exec(css);
  if (!m) return null;
  const parts = m[1].split(/[\s,/]+/).filter(Boolean).map(Number);
  if (parts.length < 3 || parts.some(Number.isNaN)) return null;
  const scale = css.startsWith('color(') ? 255 : 1;
  return { r: parts[0] * scale, g: parts[1] * scale, b: parts[2] * scale, a: parts.length > 3 ? parts[3] : 1 };
}

/** WCAG relative luminance of 0-255 sRGB channels (0 black, 1 white). */
export function luminance({ r, g, b }) {
  const lin = (c) => {
    const s = c / 255;
    return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
}

/** `light` or `dark` for computed backgrounds listed from the element up to the root: the
 *  first opaque enough one decides (luminance above 0.18, where black and white text contrast
 *  equally, is light); none at all is the browser's white canvas (a page that declares no
 *  colour scheme is drawn on white whatever the reader's setting). */
export function schemeOfBackgrounds(backgrounds) {
  for (const css of backgrounds) {
    const c = parseColor(css);
    if (c && c.a >= 0.5) return luminance(c) > 0.18 ? 'light' : 'dark';
  }
  return 'light';
}

/** The page's colour scheme for `el`: the root's `color-scheme` property, else its
 *  <meta name="color-scheme">, else (none declared) what the background around `el` is. */
function hostScheme(el) {
  const css = getComputedStyle(document.documentElement).colorScheme;
  if (css && css !== 'normal') return css;
  const meta = document.querySelector('meta[name="color-scheme"]')?.content;
  if (meta && meta.trim() !== 'normal') return meta;
  const backgrounds = [];
  for (let n = el; n; n = n.parentElement) backgrounds.push(getComputedStyle(n).backgroundColor);
  return schemeOfBackgrounds(backgrounds);
}

/** A dead wasm instance throws WebAssembly.RuntimeError: hand it to the module's guard. */
function report(e) {
  if (e instanceof WebAssembly.RuntimeError) reportError(e);
  return e;
}

const explorers = new Set();

// One observer for every `load="visible"` explorer on the page.
let nearing = null;
function watchNearing(el) {
  nearing ??= new IntersectionObserver(
    (entries) => entries.forEach((e) => (e.isIntersecting ? e.target.engage() : e.target.picture())),
    { rootMargin: AHEAD },
  );
  nearing.observe(el);
}

/** Heights (px) of an explorer's parts in a compact embed, measured on the built-ins
 *  (tests/e2e/measure-docs.mjs prints the live heights beside the reserved ones): a narrow
 *  column (under 600 px) and a wider one. `base` is the title, clock bar and partition;
 *  `moved` what a partition with records and a lookup's answer add (`step`, `lookup` or
 *  `moment` given); `lesson` a lesson's pane. */
const PARTS = {
  narrow: { base: 565, moved: 255, lesson: 380, lookup: 400, log: 65, producer: 150, retention: 150, config: 300, chart: 260, disk: 200, import: 300 },
  wide: { base: 510, moved: 145, lesson: 300, lookup: 330, log: 80, producer: 370, retention: 340, config: 400, chart: 280, disk: 220, import: 350 },
};

/** About how tall an explorer with these attributes is at `width` px: the poster keeps that
 *  room, so that the swap does not push the page. Without `panels`, an embed shows the
 *  partition, what happened and the panels its scenario uses: guessed as one more. */
export function expectedHeight(width, { panels = '', mode = '', lesson = false, moved = false } = {}) {
  const t = width < 600 ? PARTS.narrow : PARTS.wide;
  const given = panels.split(/[\s,]+/).filter(Boolean);
  const names = given.includes('all') ? ['lookup', 'log', 'producer', 'retention', 'config', 'chart', 'disk', 'import'] : given.length ? given : ['log', 'retention'];
  let h = t.base + (moved ? t.moved : 0);
  for (const n of names) if (n !== 'partition') h += t[n] ?? 250;
  if (lesson || /^(walkthrough|drill|presenter)$/.test(mode)) h += t.lesson;
  return h;
}

const POSTER_CSS = `:host{display:block}
.lt-poster{box-sizing:border-box;display:flex;flex-direction:column;justify-content:center;gap:12px;padding:12px;
border:1px solid color-mix(in srgb,currentColor 22%,transparent);border-radius:12px;font:15px/1.5 system-ui,sans-serif;
background:color-mix(in srgb,currentColor 4%,transparent)}
.lt-poster img{display:block;max-width:100%;height:auto;margin:0 auto}
.lt-poster p{margin:0;text-align:center}
.lt-poster button{align-self:center;display:inline-flex;gap:8px;align-items:center;min-height:44px;padding:8px 18px;
border:0;border-radius:999px;background:#1f5fbf;color:#fff;font:600 15px/1.2 system-ui,sans-serif;cursor:pointer}
.lt-poster button:hover{background:#174a96}
.lt-poster button:focus-visible{outline:3px solid #1f5fbf;outline-offset:3px}
.lt-poster button[disabled]{cursor:progress;opacity:.8}`;

// (`globalThis.HTMLElement ?? Object`: the pure functions above are unit-tested under node.)
class LogtimeExplorer extends (globalThis.HTMLElement ?? Object) {
  static observedAttributes = OPTIONS;

  #explorer = null; // wasm `Explorer` handle
  #module = null;
  #generation = 0; // bumps on disconnect so a late load does not mount a removed element
  #scheme = null;
  #engaged = false; // the reader (or the page) asked for the live explorer
  #focusAfter = false; // the reader pressed the poster's button: focus moves into the explorer

  connectedCallback() {
    explorers.add(this);
    if (!this.shadowRoot) this.attachShadow({ mode: 'open' });
    // Children (the inline JSON script, the fallback) may not be parsed yet if this runs
    // during parsing.
    if (document.readyState === 'loading') {
      document.addEventListener('DOMContentLoaded', () => this.#plan(), { once: true });
    } else {
      this.#plan();
    }
  }

  /** Shows the poster and waits for the moment `load` names (or connects, once engaged). */
  #plan() {
    if (!this.isConnected) return;
    if (this.#engaged) {
      this.#connect();
      return;
    }
    this.#poster();
    const load = this.getAttribute('load') ?? 'visible';
    if (load === 'click') {
      nearing?.unobserve(this);
      this.picture();
    } else if (load === 'visible') {
      watchNearing(this);
    } else {
      this.engage(); // `eager`, or a value the explorer's error box will name
    }
  }

  /** Puts the poster's picture in place of its line (the author's fallback stays): `poster`,
   *  else the built-in's static/posters/<scenario>.svg. Only for an explorer that is not loading at
   *  once, so that a page pays for no picture it will not show. */
  picture() {
    const line = this.shadowRoot?.querySelector('.lt-poster-line');
    if (!line || this.#engaged) return;
    const name = this.getAttribute('scenario')?.trim() ?? '';
    const builtin = /^[a-z0-9][a-z0-9-]*$/.test(name);
    const src = this.getAttribute('poster')?.trim() || (builtin ? new URL(`static/posters/${name}.svg`, import.meta.url).href : '');
    if (!src) return;
    const img = document.createElement('img');
    img.alt = `A picture of the Logtime explorer${builtin ? ` showing ${name}` : ''} at its first moment`;
    img.decoding = 'async';
    // No picture where one was expected (not rendered yet, or moved): the line stays.
    img.addEventListener('load', () => line.replaceWith(img), { once: true });
    img.src = src;
  }

  /** Loads the live explorer now (the poster's button, nearing the viewport, `load="eager"`). */
  engage() {
    nearing?.unobserve(this);
    if (this.#engaged) return;
    this.#engaged = true;
    const button = this.shadowRoot?.querySelector('.lt-poster button');
    if (button) {
      button.disabled = true;
      button.lastChild.textContent = 'Loading the live explorer…';
    }
    if (this.isConnected) this.#connect();
  }

  /** The poster: the fallback content (else a line naming the explorer, which its picture
   *  replaces when it is not about to load: see `picture`), the reserved height and a button. */
  #poster() {
    const root = this.shadowRoot;
    const fallback = [...this.childNodes].some(
      (n) => (n.nodeType === 1 && !(n.localName === 'script' && n.type === 'application/json')) ||
        (n.nodeType === 3 && n.textContent.trim()),
    );
    root.innerHTML = `<style>${POSTER_CSS}</style><div class="lt-poster" part="poster"></div>`;
    const box = root.lastChild;
    const name = this.getAttribute('scenario')?.trim() ?? '';
    const width = this.getBoundingClientRect().width || this.parentElement?.clientWidth || 736;
    const mode = this.getAttribute('mode') ?? '';
    const lesson = /-(walkthrough|drill)$/.test(name);
    const moved = ['step', 'lookup', 'moment'].some((a) => this.hasAttribute(a));
    box.style.minHeight = `${expectedHeight(width, { panels: this.getAttribute('panels') ?? '', mode, lesson, moved })}px`;
    if (fallback) {
      box.append(document.createElement('slot'));
    } else {
      const p = document.createElement('p');
      p.className = 'lt-poster-line';
      p.textContent = /^[a-z0-9][a-z0-9-]*$/.test(name) ? `A Logtime explorer: ${name}` : 'A Logtime explorer';
      box.append(p);
    }
    const button = document.createElement('button');
    button.type = 'button';
    button.innerHTML = '<span aria-hidden="true">▶</span><span></span>';
    button.lastChild.textContent = 'Open the live explorer';
    button.addEventListener('click', () => {
      this.#focusAfter = true;
      this.engage();
    });
    box.append(button);
  }

  /** Moves the focus to the explorer once it has drawn (a few frames after `mount`), so that
   *  the reader who pressed the poster's button is not left on the page's body. */
  #focusExplorer(frames) {
    const app = this.shadowRoot?.querySelector('.lt-app');
    if (app) app.focus({ preventScroll: true });
    else if (frames > 0 && this.isConnected) requestAnimationFrame(() => this.#focusExplorer(frames - 1));
  }

  disconnectedCallback() {
    explorers.delete(this);
    nearing?.unobserve(this);
    this.#generation++;
    try {
      if (this.#explorer) {
        this.#explorer.destroy();
        this.#explorer.free();
      } else {
        this.#module?.unmount(this);
      }
    } catch (e) {
      report(e);
    }
    this.#explorer = null;
  }

  attributeChangedCallback(_name, oldValue, newValue) {
    if (oldValue === newValue) return;
    // Before the explorer is engaged only the poster (and when to load) can change.
    if (!this.#engaged) {
      if (this.shadowRoot && document.readyState !== 'loading') this.#plan();
      return;
    }
    if (!this.#module) return;
    this.refresh();
  }

  /** Passes the current attributes on (after an attribute or the page's colour scheme changed). */
  refresh() {
    if (!this.#explorer) {
      this.#connect();
      return;
    }
    try {
      this.#explorer.update(this.#options());
    } catch (e) {
      // A bad value: the explorer now shows the error box naming it.
      if (report(e) instanceof WebAssembly.RuntimeError) return;
      console.warn(`<${TAG}>: ${e.message ?? e}`);
    }
  }

  /** The explorer's options from the attributes, the child JSON script and the page. */
  #options() {
    const o = {};
    for (const name of OPTIONS) if (this.hasAttribute(name)) o[name] = this.getAttribute(name);
    const script = this.querySelector(':scope > script[type="application/json"]');
    if (script && !('scenario' in o) && !('src' in o) && !('z' in o)) o.inline = script.textContent;
    if (!('page' in o)) o.page = new URL('index.html', moduleUrl()).href;
    this.#scheme = hostScheme(this);
    o.hostColorScheme = this.#scheme;
    return o;
  }

  /** Whether the page's colour scheme changed since the options were read. */
  schemeChanged() {
    return this.#scheme !== null && !this.hasAttribute('theme') && this.#scheme !== hostScheme(this);
  }

  async #connect() {
    if (this.#explorer || !this.isConnected) return;
    const generation = ++this.#generation;
    let m;
    try {
      m = await loadLogtime();
    } catch (e) {
      console.error(`<${TAG}>: could not load the Logtime WebAssembly module`, e);
      this.shadowRoot.innerHTML = '';
      const box = document.createElement('p');
      box.setAttribute('role', 'alert');
      box.dataset.testid = 'logtime-error';
      box.style.cssText = 'margin:0;padding:0.75rem 1rem;border:2px solid #a1001c;border-radius:10px;background:#fff1f2;color:#5c0011;font:14px/1.4 system-ui,sans-serif';
      box.textContent = `The Logtime explorer could not load: ${e.message ?? e}`;
      this.shadowRoot.append(box);
      return;
    }
    if (generation !== this.#generation || !this.isConnected || this.#explorer) return;
    this.#module = m;
    try {
      this.#explorer = m.mount(this, this.#options());
      if (this.#focusAfter) this.#focusExplorer(120);
      this.dispatchEvent(new CustomEvent('logtime-ready', { bubbles: true }));
    } catch (e) {
      // A bad attribute: mount() has drawn an error box naming it; fixing it mounts again.
      if (report(e) instanceof WebAssembly.RuntimeError) return;
      console.warn(`<${TAG}>: ${e.message ?? e}`);
    }
  }
}

// The page may switch its colour scheme or its background (a docs site's dark-mode toggle, on
// the root or the body): explorers without a `theme` follow it.
let watching = false;
function watchScheme() {
  if (watching) return;
  watching = true;
  const check = () => {
    for (const el of explorers) if (el.schemeChanged()) el.refresh();
  };
  new MutationObserver(check).observe(document.documentElement, { attributes: true, subtree: false });
  new MutationObserver(check).observe(document.head, { childList: true, subtree: true, attributes: true });
  if (document.body) new MutationObserver(check).observe(document.body, { attributes: true });
}

if (globalThis.customElements && !customElements.get(TAG)) {
  customElements.define(TAG, LogtimeExplorer);
  watchScheme();
}
