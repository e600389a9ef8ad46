//! The picture's colours, light and dark: the explorer's own palette (`static/style.css`), as
//! plain values, since a picture has no stylesheet to ask (READMEs and rasterisers read fills).

use crate::format::AgeClass;

/// Light or dark.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Theme {
    /// Dark text on white.
    Light,
    /// Light text on near-black.
    Dark,
}

impl Theme {
    /// `light` or `dark`; anything else is an error naming the choices.
    pub fn parse(v: &str) -> Result<Theme, String> {
        match v {
            "light" => Ok(Theme::Light),
            "dark" => Ok(Theme::Dark),
            _ => Err(format!("{v:?} is not a theme (expected light or dark)")),
        }
    }

    /// The palette.
    pub fn palette(self) -> &'static Palette {
        match self {
            Theme::Light => &LIGHT,
            Theme::Dark => &DARK,
        }
    }
}

/// Colours by role.
pub struct Palette {
    /// The picture's background.
    pub bg: &'static str,
    /// A card's background.
    pub surface: &'static str,
    /// Rules and card edges.
    pub border: &'static str,
    /// Text.
    pub fg: &'static str,
    /// Secondary text.
    pub muted: &'static str,
    /// The lookup: searched segment, found entry, answer.
    pub accent: &'static str,
    /// The lookup's soft fill.
    pub accent_soft: &'static str,
    /// Records scanned.
    pub scan: &'static str,
    /// Pins retention.
    pub pinned: &'static str,
    /// Deleted, refused.
    pub danger: &'static str,
    /// Fresh, ageing, future stamps.
    pub fresh: &'static str,
    /// Nearing retention.
    pub ageing: &'static str,
    /// Ahead of the clock.
    pub future: &'static str,
}

impl Palette {
    /// The colour of an age class.
    pub fn age(&self, c: AgeClass) -> &'static str {
        match c {
            AgeClass::Future => self.future,
            AgeClass::Fresh => self.fresh,
            AgeClass::Ageing => self.ageing,
            AgeClass::Expired | AgeClass::NoStamp => self.muted,
        }
    }
}

const LIGHT: Palette = Palette {
    bg: "#ffffff",
    surface: "#f5f7fa",
    border: "#c4ccd8",
    fg: "#14181f",
    muted: "#4a5566",
    accent: "#1f5fbf",
    accent_soft: "#dce8fa",
    scan: "#c75b00",
    pinned: "#b3367a",
    danger: "#a1001c",
    fresh: "#007a5a",
    ageing: "#c75b00",
    future: "#b3367a",
};

const DARK: Palette = Palette {
    bg: "#0f1318",
    surface: "#171c23",
    border: "#3a4454",
    fg: "#e8edf4",
    muted: "#a9b4c4",
    accent: "#7fb0ff",
    accent_soft: "#1c2f4d",
    scan: "#e69f00",
    pinned: "#e58ac0",
    danger: "#ffb3bd",
    fresh: "#3ccfa0",
    ageing: "#e69f00",
    future: "#e58ac0",
};
