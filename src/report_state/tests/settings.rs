//! The settings as the report state holds them (issue 33: the panels send
//! [`Event::Settings`] rather than writing a signal): an edit that changes
//! the layer is shown and asks for a report under it, one that changes
//! nothing asks for nothing, and the worker's file list brings the config
//! files' JSON and a bundle's layer.

use super::*;
use serde_json::json;

fn report_settings(commands: &[Command]) -> Option<Map<String, Value>> {
    commands.iter().find_map(|c| match c {
        Command::Post(Request::Run {
            task: Task::Report { settings },
            ..
        }) => Some(settings.clone()),
        _ => None,
    })
}

fn shown_settings(commands: &[Command]) -> Option<&Settings> {
    commands.iter().find_map(|c| match c {
        Command::ShowSettings(s) => Some(s),
        _ => None,
    })
}

fn files_answer(config: Option<Value>, settings: Option<Map<String, Value>>) -> Event {
    Event::Answer(Answer::Files {
        files: vec![FileSummary {
            id: 7,
            name: "metrics.json".into(),
            role: Role::Config,
            bytes: 30,
            records: None,
            pending: false,
            error: None,
            model: String::new(),
            cost: None,
            config,
        }],
        shows_example: false,
        settings,
        schemas: None,
    })
}

#[test]
fn an_edit_is_shown_and_asks_for_the_report_under_it_once() {
    let (page, c) = Page::opening(Map::new(), false);
    let (page, _) = page.on(ready(run_of(&c), 3, ValidityStatus::Final));
    let set = || {
        Event::Settings(SettingsEdit::Set {
            path: "string_match.method".into(),
            value: Some(json!("levenshtein")),
        })
    };
    let (page, c) = page.on(set());
    let want = json!({"string_match": {"method": "levenshtein"}});
    assert_eq!(report_settings(&c).map(Value::Object), Some(want.clone()));
    assert_eq!(
        shown_settings(&c).map(|s| Value::Object(s.layer.clone())),
        Some(want.clone())
    );
    assert_eq!(Value::Object(page.settings().layer.clone()), want);
    // The same value again: nothing to show, no new report.
    let (page, c) = page.on(set());
    assert_eq!(c, vec![]);
    // The restart's `Again` asks under the settings held.
    let (_, c) = page.on(Event::Again);
    assert_eq!(report_settings(&c).map(Value::Object), Some(want));
    assert_eq!(shown_settings(&c), None);
}

#[test]
fn the_file_list_brings_config_files_and_a_bundles_layer() {
    let (page, c) = Page::opening(Map::new(), false);
    let (page, _) = page.on(ready(run_of(&c), 3, ValidityStatus::Final));
    // A config file: shown under the layer (the type menus read it); the
    // drop that brought it asked for its report already.
    let config = json!({"numeric_string_fields": ["iban"]});
    let (page, c) = page.on(files_answer(Some(config.clone()), None));
    assert_eq!(
        shown_settings(&c).map(|s| s.config_files().to_vec()),
        Some(vec![("metrics.json".to_string(), config.clone())])
    );
    assert_eq!(report_settings(&c), None);
    // Listed again, unchanged: nothing.
    let (page, c) = page.on(files_answer(Some(config.clone()), None));
    assert!(!c.iter().any(|c| matches!(c, Command::ShowSettings(_))));
    // A bundle's layer replaces the page's and asks for its report.
    let mut layer = Map::new();
    layer.insert("preset".into(), json!("lenient"));
    let (page, c) = page.on(files_answer(Some(config.clone()), Some(layer.clone())));
    assert_eq!(report_settings(&c), Some(layer.clone()));
    assert_eq!(
        shown_settings(&c).map(|s| s.layer.clone()),
        Some(layer.clone())
    );
    // The same layer again asks for nothing more.
    let (_, c) = page.on(files_answer(Some(config), Some(layer)));
    assert_eq!(report_settings(&c), None);
}
