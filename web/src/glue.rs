//! The browser-side helpers in `glue.js` (a wasm-bindgen snippet): the stopped-instance guard,
//! packing a scenario for a link (the browser's `CompressionStream`, deflate-raw, then
//! base64url), the clipboard, an iframe's height and elements' sizes. Off the browser they do
//! nothing.

#[cfg(target_arch = "wasm32")]
mod js {
    use wasm_bindgen::prelude::*;

    #[wasm_bindgen(module = "/src/glue.js")]
    extern "C" {
        #[wasm_bindgen(js_name = guard)]
        pub fn guard(host: &web_sys::Element);
        #[wasm_bindgen(js_name = unguard)]
        pub fn unguard(host: &web_sys::Element);
        #[wasm_bindgen(js_name = installGuard)]
        pub fn install_guard();
        #[wasm_bindgen(js_name = postHeight)]
        pub fn post_height();
        #[wasm_bindgen(js_name = pack)]
        pub fn pack(text: &str) -> js_sys::Promise;
        #[wasm_bindgen(js_name = unpack)]
        pub fn unpack(z: &str, limit: f64) -> js_sys::Promise;
        #[wasm_bindgen(js_name = copyText)]
        pub fn copy_text(text: &str) -> js_sys::Promise;
        #[wasm_bindgen(js_name = watchSize)]
        pub fn watch_size(el: &web_sys::Element, changed: &js_sys::Function) -> JsValue;
        #[wasm_bindgen(js_name = unwatchSize)]
        pub fn unwatch_size(observer: &JsValue);
    }
}

/// The longest scenario a link may unpack to (the scenario parser's own limits apply after).
pub const UNPACK_LIMIT: usize = 8 << 20;

/// Registers a host for the guard.
pub fn guard(host: &web_sys::Element) {
    #[cfg(target_arch = "wasm32")]
    js::guard(host);
    #[cfg(not(target_arch = "wasm32"))]
    let _ = host;
}

/// Forgets a host.
pub fn unguard(host: &web_sys::Element) {
    #[cfg(target_arch = "wasm32")]
    js::unguard(host);
    #[cfg(not(target_arch = "wasm32"))]
    let _ = host;
}

/// Installs the guard (once).
pub fn install_guard() {
    #[cfg(target_arch = "wasm32")]
    js::install_guard();
}

/// In an iframe, reports the page height to the host page.
pub fn post_height() {
    #[cfg(target_arch = "wasm32")]
    js::post_height();
}

#[cfg(target_arch = "wasm32")]
async fn text_of(p: js_sys::Promise) -> Result<String, String> {
    wasm_bindgen_futures::JsFuture::from(p)
        .await
        .map(|v| v.as_string().unwrap_or_default())
        .map_err(|e| {
            js_sys::Reflect::get(&e, &"message".into())
                .ok()
                .and_then(|m| m.as_string())
                .unwrap_or_else(|| "it could not be read".into())
        })
}

/// Packs a scenario's JSON for a link.
pub async fn pack(text: &str) -> Result<String, String> {
    #[cfg(target_arch = "wasm32")]
    return text_of(js::pack(text)).await;
    #[cfg(not(target_arch = "wasm32"))]
    {
        let _ = text;
        Err("packing needs a browser".into())
    }
}

/// Unpacks a link's scenario; the error is a reason for people.
pub async fn unpack(z: &str) -> Result<String, String> {
    #[cfg(target_arch = "wasm32")]
    return text_of(js::unpack(z, UNPACK_LIMIT as f64)).await;
    #[cfg(not(target_arch = "wasm32"))]
    {
        let _ = z;
        Err("unpacking needs a browser".into())
    }
}

/// Copies text to the clipboard; whether it could.
pub async fn copy_text(text: &str) -> bool {
    #[cfg(target_arch = "wasm32")]
    return wasm_bindgen_futures::JsFuture::from(js::copy_text(text))
        .await
        .ok()
        .and_then(|v| v.as_bool())
        .unwrap_or(false);
    #[cfg(not(target_arch = "wasm32"))]
    {
        let _ = text;
        false
    }
}

/// Watches an element's CSS size (see [`watch_size`]); stops when dropped.
pub struct SizeWatch {
    #[cfg(target_arch = "wasm32")]
    observer: wasm_bindgen::JsValue,
    #[cfg(target_arch = "wasm32")]
    _changed: wasm_bindgen::closure::Closure<dyn FnMut(f64, f64)>,
}

impl Drop for SizeWatch {
    fn drop(&mut self) {
        #[cfg(target_arch = "wasm32")]
        js::unwatch_size(&self.observer);
    }
}

/// Calls `changed(width, height)` with `el`'s CSS content size now (on the next frame) and
/// whenever it changes, from a ResizeObserver: reading a cached size never forces the layout
/// that `clientWidth` does after a DOM update.
pub fn watch_size(el: &web_sys::Element, changed: impl FnMut(f64, f64) + 'static) -> SizeWatch {
    #[cfg(target_arch = "wasm32")]
    {
        use wasm_bindgen::JsCast;
        let changed = wasm_bindgen::closure::Closure::<dyn FnMut(f64, f64)>::new(changed);
        let observer = js::watch_size(el, changed.as_ref().unchecked_ref());
        SizeWatch {
            observer,
            _changed: changed,
        }
    }
    #[cfg(not(target_arch = "wasm32"))]
    {
        let _ = (el, changed);
        SizeWatch {}
    }
}
