//! The header: the scenario's title and description, and the menu of built-in scenarios.

use yew::prelude::*;

use crate::builtins::GROUPS;

/// The scenario menu's props.
#[derive(Properties, PartialEq, Clone)]
pub struct ScenarioMenuProps {
    /// The built-in shown, if any.
    pub current: Option<AttrValue>,
    /// The scenario's title.
    pub title: AttrValue,
    /// The scenario's description.
    pub description: AttrValue,
    /// A built-in picked from the menu, by name.
    pub on_pick: Callback<String>,
    /// Show the menu (an embed shows only the title and description).
    #[prop_or(true)]
    pub menu: bool,
    /// Show the description (an embed leaves it to the page's prose).
    #[prop_or(true)]
    pub describe: bool,
}

/// The menu of built-in scenarios, with the current one's title and description.
#[function_component(ScenarioMenu)]
pub fn scenario_menu(p: &ScenarioMenuProps) -> Html {
    let id = super::use_uid("lt-menu");
    let onchange = {
        let cb = p.on_pick.clone();
        Callback::from(move |e: Event| cb.emit(super::input_value(&e)))
    };
    let cur = p.current.clone().unwrap_or_default();
    // A name the menu does not list (a link's typo, shown with its error) selects none of its
    // entries: a select with none selected would show its first one as if it were open.
    let listed = crate::builtins::find(&cur).is_some();
    html! {
        <header class="lt-head">
            <div class="lt-brand">
                <span class="lt-logo" aria-hidden="true">{ "◷" }</span>
                <div>
                    <h1 class="lt-title" data-testid="scenario-title">{ p.title.clone() }</h1>
                    if p.menu || p.describe { <p class="lt-desc">{ p.description.clone() }</p> }
                </div>
            </div>
            if p.menu {
            <label class="lt-menu" for={id.clone()}>
                <span>{ "Scenario or lesson" }</span>
                <select id={id.clone()} data-testid="scenario-menu" {onchange}>
                    if !listed {
                        <option value="" selected=true>
                            { if p.current.is_none() { "(from the page)" } else { "(none loaded)" } }
                        </option>
                    }
                    { for GROUPS.iter().filter(|(_, e)| !e.is_empty()).map(|(group, entries)| html!{
                        <optgroup label={*group}>
                        { for entries.iter().map(|b| html!{
                            { super::option(b.name, cur.as_str() == b.name, b.label) }
                        }) }
                        </optgroup>
                    }) }
                </select>
            </label>
            }
        </header>
    }
}
