"""Issue 32, "the first hour": suggestions everywhere a user looks
(``SuggestionWarning``, ``report.suggestions``, the HTML, Markdown and
notebook displays, ``apply_suggestions=True``), the notebook-safe
``_repr_html_``, ``app_url=`` and each warning once."""

import json
import re
import warnings

import pytest

import fieldscope
from conftest import NO_NUMBERS, TRUTH_AS_PREDICTIONS

# Before the suggestion is applied no truth value is a number; one test
# gives the truth as predictions.
pytestmark = [NO_NUMBERS, TRUTH_AS_PREDICTIONS]

# Six truth values, all strings that read as numbers (SPEC §2.1): share
# 6/6 = 1.0, so SPEC §7.4 suggests comparing `amount` as a number.
TRUTH = [
    {"id": "1", "amount": "10.0"},
    {"id": "2", "amount": "2,500"},
    {"id": "3", "amount": "7"},
    {"id": "4", "amount": "12.5"},
    {"id": "5", "amount": "$3"},
    {"id": "6", "amount": "9"},
]
PRED = {"m": [{"id": str(i + 1), "amount": v} for i, v in enumerate([10, 2500, 7, 12.5, 3, 8])]}
SUGGESTION = {
    "field": "amount",
    "type": "number",
    "share": 1.0,
    "config": {"field_types": {"amount": "number"}},
}
SENTENCE = (
    "Treat amount as a number: 100.0 % of its truth values are strings that read as numbers; "
    "compared as strings, equal numbers written differently count as wrong. Config: "
)


def evaluate(**kwargs):
    with pytest.warns(fieldscope.SuggestionWarning) as caught:
        report = fieldscope.evaluate(TRUTH, PRED, **kwargs)
    return report, [w for w in caught if w.category is fieldscope.SuggestionWarning]


def test_each_suggestion_is_one_warning_and_in_report_suggestions():
    report, caught = evaluate()
    assert [str(w.message) for w in caught] == [
        'compare `amount` as a number (100.0 % of its truth values read as one): '
        '{"field_types":{"amount":"number"}} (or evaluate(..., apply_suggestions=True))'
    ]
    assert issubclass(fieldscope.SuggestionWarning, UserWarning)
    assert "SuggestionWarning" in fieldscope.__all__
    assert report.suggestions == [SUGGESTION]
    assert report.suggestions == report.to_dict()["suggestions"]
    assert report.applied_suggestions == []
    assert "1 suggestion(s)" in repr(report)


def test_suggestions_are_listed_in_markdown_html_and_the_notebook_display():
    report, _ = evaluate()
    markdown = report.to_markdown()
    assert "\n## Suggestions\n\n" in markdown
    assert f'- {SENTENCE}{{"field\\_types":{{"amount":"number"}}}}\n' in markdown
    item = (
        "<li>Treat <code>amount</code> as a number: 100.0 % of its truth values are strings "
        "that read as numbers; compared as strings, equal numbers written differently count "
        "as wrong. Config: <code>{&quot;field_types&quot;:{&quot;amount&quot;:&quot;number"
        "&quot;}}</code></li>"
    )
    assert item in report.to_html()
    assert item in report._repr_html_()


def test_apply_suggestions_evaluates_with_them_in_one_call(cli, tmp_path):
    with warnings.catch_warnings():
        warnings.simplefilter("error", fieldscope.SuggestionWarning)
        report = fieldscope.evaluate(TRUTH, PRED, apply_suggestions=True)
    assert report.suggestions == []
    assert report.applied_suggestions == [SUGGESTION]
    d = report.to_dict()
    assert d["config"]["field_types"] == {"amount": "number"}
    # As numbers: 10 = "10.0", 2500 = "2,500", 7, 12.5, 3 = "$3" exact; 8 ≠ 9
    # incorrect (FP and FN by default): P = R = F1 = 5/6.
    micro = d["models"][0]["micro"]
    assert micro["precision"] == pytest.approx(5 / 6)
    assert micro["f1"] == pytest.approx(5 / 6)
    # The same as the CLI with the suggestion's type given.
    truth, pred = tmp_path / "truth.json", tmp_path / "m.json"
    truth.write_text(json.dumps(TRUTH), "utf-8")
    pred.write_text(json.dumps(PRED["m"]), "utf-8")
    expected = cli.report("--truth", truth, "--pred", f"m={pred}", "--field-type", "amount=number")
    assert {k: v for k, v in d.items() if k != "warnings"} == {
        k: v for k, v in expected.items() if k != "warnings"
    }
    # Without suggestions, apply_suggestions=True evaluates once, as usual.
    plain = [{"id": "1", "name": "é"}]
    assert fieldscope.evaluate(plain, {"m": plain}, apply_suggestions=True).applied_suggestions == []


def test_repr_html_is_a_fragment_styled_only_inside_its_root():
    report, _ = evaluate()
    fragment = report._repr_html_()
    assert fragment.startswith('<div class="fieldscope-report">\n<style>')
    assert fragment.endswith("</div>\n")
    for tag in ("<html", "<body", "<head>", "<!DOCTYPE", "<script", "<meta"):
        assert tag not in fragment, tag
    style = fragment.split("<style>", 1)[1].split("</style>", 1)[0]
    selectors = []
    for prelude in re.findall(r"([^{}]+)\{", style):
        prelude = prelude.strip()
        if prelude.startswith("@media"):
            continue
        selectors += [s.strip() for s in prelude.split(",")]
    assert len(selectors) > 50
    for s in selectors:
        assert s == ".fieldscope-report" or s.startswith(".fieldscope-report "), s
    # The page stays a whole document, with the same sections.
    page = report.to_html()
    assert page.startswith("<!DOCTYPE html>")
    assert page.split("<body>\n", 1)[1].split("</body>")[0] in fragment


def test_app_url_links_the_html_report_to_the_app():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", fieldscope.SuggestionWarning)
        report = fieldscope.evaluate(TRUTH, PRED, app_url="https://example.org/fs/")
        with pytest.raises(ValueError, match="key `app_url` expects an http:// or https:// address"):
            fieldscope.evaluate(TRUTH, PRED, app_url="javascript:alert(1)")
        with pytest.raises(TypeError, match="app_url: expected a str"):
            fieldscope.evaluate(TRUTH, PRED, app_url=3)
    assert report.to_dict()["config"]["app_url"] == "https://example.org/fs/"
    assert (
        '<dt>App</dt><dd id="app"><a href="https://example.org/fs/" rel="noopener noreferrer">'
        "https://example.org/fs/</a>: the inputs are not embedded in this page"
    ) in report.to_html()


def test_each_warning_is_shown_once_whichever_line_evaluates():
    truth = [{"id": "1", "a": "x"}, {"id": "2", "a": "y"}]
    pred = {"m": [{"id": "1", "a": "x"}]}  # "2" has no prediction: one warning
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("default")
        first = fieldscope.evaluate(truth, pred)
        second = fieldscope.evaluate(truth, pred)
        for _ in range(3):
            fieldscope.evaluate(truth, pred)
    # "2" unmatched, and no numeric truth value: two warnings, each once.
    assert first.warnings == second.warnings and len(first.warnings) == 2
    assert [str(w.message) for w in caught] == first.warnings
    # "always" still shows every one.
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        fieldscope.evaluate(truth, pred)
        fieldscope.evaluate(truth, pred)
    assert len(caught) == 4
