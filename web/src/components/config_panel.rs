//! The Kafka version preset and every config under its Kafka name.

use logtime_core::human;
use logtime_model::{Config, ConfigValue, KafkaVersion};
use logtime_model::{ConfigKind, ConfigUnit, CONFIG_KEYS};
use yew::prelude::*;

use crate::author::PickPanel;
use logtime_core::scenario::narrate::Panel;

use super::input_value;
use crate::state::{ConfigState, Shared};

/// A human reading of a config value: `3600000` → `1 h`.
pub fn reading(unit: ConfigUnit, v: &ConfigValue) -> String {
    match (unit, v) {
        (ConfigUnit::Millis, ConfigValue::Number(n)) if *n < 0 => "no limit".into(),
        (ConfigUnit::Millis, ConfigValue::Number(n)) => human::duration(*n),
        (ConfigUnit::Bytes, ConfigValue::Number(n)) => human::bytes(*n),
        _ => String::new(),
    }
}

/// The config panel's props.
#[derive(Properties, PartialEq, Clone)]
pub struct ConfigPanelProps {
    /// The configs in force (`None` before a scenario loads).
    pub config: Option<Config>,
    /// The last refusal.
    pub state: Shared<ConfigState>,
    /// The version preset picked.
    pub on_version: Callback<KafkaVersion>,
    /// A config changed: its Kafka name and the value as typed.
    pub on_config: Callback<(String, String)>,
    /// Config rows a lesson points at, by Kafka name.
    #[prop_or_default]
    pub highlight: Vec<String>,
}

/// The Kafka version preset and every topic config under its Kafka name.
#[function_component(ConfigPanel)]
pub fn config_panel(p: &ConfigPanelProps) -> Html {
    let vid = super::use_uid("lt-ver");
    // While the author picks a step's highlights, each row has a toggle that picks it.
    let pick = use_context::<Option<crate::author::PickContext>>().flatten();
    let Some(cfg) = &p.config else {
        return html! {};
    };
    let on_version = {
        let cb = p.on_version.clone();
        Callback::from(move |e: Event| {
            if let Some(v) = KafkaVersion::parse(&input_value(&e)) {
                cb.emit(v);
            }
        })
    };
    let rows = CONFIG_KEYS.iter().filter(|k| k.exists_in(cfg.version)).map(|k| {
        let value = cfg.get(k.name).unwrap_or(ConfigValue::Text(String::new()));
        let id = format!("{vid}-{}", k.name.replace('.', "-"));
        let err = p.state.error.as_ref().filter(|(n, _)| n == k.name).map(|(_, m)| m.clone());
        let onchange = {
            let cb = p.on_config.clone();
            let name = k.name.to_string();
            Callback::from(move |e: Event| cb.emit((name.clone(), input_value(&e))))
        };
        let input = match k.kind {
            ConfigKind::Choice(words) => html! {
                <select id={id.clone()} {onchange} data-testid={format!("config-{}", k.name)}>
                    { for words.iter().map(|w| html!{ <option value={*w} selected={value.to_string() == *w}>{ *w }</option> }) }
                </select>
            },
            _ => html! {
                <input id={id.clone()} value={value.to_string()} {onchange} inputmode={if matches!(k.kind, ConfigKind::List(_)) {"text"} else {"numeric"}}
                       aria-invalid={if err.is_some() {"true"} else {"false"}} data-testid={format!("config-{}", k.name)}
                       aria-describedby={format!("{id}-doc")} />
            },
        };
        html! {
            <div data-config={k.name} class={classes!("lt-config-row", err.is_some().then_some("invalid"), p.highlight.iter().any(|h| h == k.name).then_some("lt-hl"))}>
                <label for={id.clone()}><code>{ k.name }</code>{ if k.broker { " (broker)" } else { "" } }</label>
                { crate::author::pick_config(pick.as_ref(), k.name) }
                { input }
                <span class="lt-reading">{ reading(k.unit, &value) }</span>
                <p class="lt-doc lt-muted" id={format!("{id}-doc")}>{ k.doc }</p>
                if let Some(m) = err { <p class="lt-field-error" role="alert" data-testid="config-error">{ m }</p> }
            </div>
        }
    });
    html! {
        <section role="group" class="lt-panel lt-config" aria-label="Topic config" data-panel="config">
            <h2><PickPanel panel={Panel::Config}>{ "Topic config" }</PickPanel></h2>
            <label class="lt-inline" for={vid.clone()}>
                <span>{ "Kafka version" }</span>
                <select id={vid.clone()} onchange={on_version} data-testid="kafka-version">
                    { for KafkaVersion::ALL.iter().map(|v| html! {
                        <option value={v.key()} selected={cfg.version == *v}>{ v.label() }</option>
                    }) }
                </select>
            </label>
            if let Some((n, m)) = p.state.error.as_ref().filter(|(n, _)| n == "version") {
                <p class="lt-field-error" role="alert">{ format!("{n}: {m}") }</p>
            }
            <div class="lt-config-list">{ for rows }</div>
        </section>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn readings() {
        assert_eq!(
            reading(ConfigUnit::Millis, &ConfigValue::Number(3_600_000)),
            "1 h"
        );
        assert_eq!(
            reading(ConfigUnit::Millis, &ConfigValue::Number(-1)),
            "no limit"
        );
        assert_eq!(
            reading(ConfigUnit::Bytes, &ConfigValue::Number(1_073_741_824)),
            "1 GiB"
        );
        assert_eq!(
            reading(ConfigUnit::None, &ConfigValue::Text("CreateTime".into())),
            ""
        );
    }
}
