//! SPEC §7.1 through the browser app's settings layer (`Session`, tested
//! natively): `field_types` set in the settings panel's layer reaches the
//! evaluation, the URL fragment carries it, and the report carries the
//! suggestions (SPEC §7.4) the app lists.

use fieldscope::session::{settings_from_fragment, settings_to_fragment, Layered, Session};
use serde_json::json;

#[test]
fn field_types_in_the_settings_layer_and_the_url_fragment() {
    let mut session = Session::default();
    session.add_file(
        "truth.jsonl",
        br#"{"id":"1","amount":"1108605.0"}
{"id":"2","amount":"2500.0"}
{"id":"3","amount":"7"}
{"id":"4","amount":"12.5"}
{"id":"5","amount":"3"}
"#
        .to_vec(),
    );
    session.add_file(
        "m.jsonl",
        br#"{"id":"1","amount":"1,108,605"}
{"id":"2","amount":2500}
"#
        .to_vec(),
    );
    let before = session.evaluate().expect("report");
    assert_eq!(before.suggestions.len(), 1);
    assert_eq!(before.suggestions[0].field, "amount");
    assert_eq!(
        before.suggestions[0].config,
        json!({"field_types": {"amount": "number"}})
    );
    // The one click: the suggestion's config into the settings layer.
    session.set_setting("field_types", Some(json!({"amount": "number"})));
    let after = session.evaluate().expect("report");
    assert!(after.suggestions.is_empty());
    let amount = &after.models[0].fields[0];
    assert_eq!((amount.counts.exact, amount.counts.missed), (2, 3));
    // The fragment carries the setting (a path's dots stay inside the key).
    session.set_setting(
        "field_types",
        Some(json!({"vendor.name": "string", "amount": "number"})),
    );
    let fragment = settings_to_fragment(&session.settings);
    let back = settings_from_fragment(&fragment).expect("fragment reads back");
    assert_eq!(
        back["field_types"],
        json!({"vendor.name": "string", "amount": "number"})
    );
    // A wrong type is refused by the layer.
    assert!(settings_from_fragment(r#"settings={"field_types":{"a":"money"}}"#).is_none());
    session.set_setting("field_types", Some(json!({"amount": "money"})));
    assert!(session.config().unwrap_err().contains("field_types.amount"));
}
