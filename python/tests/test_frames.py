"""The DataFrames: their index, columns and values, checked against numbers
worked out by hand on tests/data/example/ (default configuration, with
the schema)."""

import math

import pytest

import fieldscope
from conftest import EXAMPLE

pd = pytest.importorskip("pandas")

MODEL_COLUMNS = [
    "precision", "recall", "f1", "accuracy",
    "exact", "partial", "incorrect", "missed", "spurious", "true_negative",
    "truth_count", "pred_count", "m_total",
    "partial_precision", "partial_recall", "partial_f1",
    "hallucination_rate", "abstention_rate", "numeric_precision", "field_f1_partial",
    "schema_validity_rate", "exact_match_rate", "document_extraction_score", "cer", "cost",
    "items_precision", "items_recall", "items_f1",
]  # fmt: skip


@pytest.fixture(scope="module")
def report():
    return fieldscope.evaluate(
        EXAMPLE / "truth.jsonl",
        {"careful": EXAMPLE / "careful.jsonl", "eager": EXAMPLE / "eager.json"},
        schema=EXAMPLE / "schema.json",
        details=True,
    )


def test_models_frame_micro(report):
    f = report.models_frame("micro")
    assert f.index.name == "model"
    assert list(f.index) == ["careful", "eager"]
    assert list(f.columns) == MODEL_COLUMNS
    c = f.loc["careful"]
    # careful: 25 exact of 30 present truth values, 5 missed, nothing
    # spurious or wrong, 4 true negatives.
    assert (c["exact"], c["missed"], c["incorrect"], c["spurious"], c["true_negative"]) == (25, 5, 0, 0, 4)
    assert c["precision"] == 25 / 25
    assert c["recall"] == pytest.approx(25 / 30, abs=1e-15)
    assert c["f1"] == pytest.approx(2 * 1 * (25 / 30) / (1 + 25 / 30), abs=1e-15)
    assert c["accuracy"] == pytest.approx((25 + 4) / (30 + 0 + 4), abs=1e-15)
    assert c["abstention_rate"] == pytest.approx(5 / 30, abs=1e-15)
    assert c["hallucination_rate"] == 0.0
    assert c["cost"] == pytest.approx(0.033)


def test_models_frame_averages_and_their_extra_column(report):
    d = report.to_dict()["models"]
    docs = report.models_frame()
    assert docs.loc["careful", "precision"] == d[0]["macro_documents"]["precision"]
    assert docs.loc["eager", "f1"] == d[1]["macro_documents"]["f1"]
    fields = report.models_frame("macro_fields")
    assert list(fields.columns[:5]) == ["precision", "recall", "f1", "accuracy", "fields_left_out"]
    assert fields.loc["careful", "f1"] == d[0]["macro_fields"]["f1"]
    assert fields.loc["careful", "fields_left_out"] == 0


def test_fields_frame(report):
    f = report.fields_frame()
    assert f.index.names == ["model", "field"]
    assert list(f.columns) == [
        "exact", "partial", "incorrect", "missed", "spurious", "true_negative",
        "precision", "recall", "f1", "accuracy", "cer", "mean_cer",
    ]  # fmt: skip
    codes = f.loc[("careful", "codes")]
    # careful's codes: 2 exact, 1 missed, 1 true negative.
    assert (codes["exact"], codes["missed"], codes["true_negative"]) == (2, 1, 1)
    assert codes["precision"] == 1.0
    assert codes["recall"] == pytest.approx(2 / 3, abs=1e-15)
    assert codes["f1"] == pytest.approx(0.8, abs=1e-15)
    assert codes["accuracy"] == pytest.approx(3 / 4, abs=1e-15)
    # No CER for a list of codes: null in the report, NaN here.
    assert math.isnan(codes["cer"]) and math.isnan(codes["mean_cer"])
    assert len(f.loc["careful"]) == len(report.to_dict()["models"][0]["fields"])


def test_documents_frame(report):
    f = report.documents_frame()
    assert f.index.names == ["model", "id"]
    assert list(f.index.get_level_values("id")[:3]) == ["inv-001", "inv-002", "inv-003"]
    doc = f.loc[("careful", "inv-001")]
    # inv-001: 12 exact, 2 missed, 1 true negative.
    assert (doc["exact"], doc["missed"], doc["true_negative"]) == (12, 2, 1)
    assert doc["precision"] == 1.0
    assert doc["recall"] == pytest.approx(12 / 14, abs=1e-15)
    assert doc["f1"] == pytest.approx(12 / 13, abs=1e-15)
    assert doc["accuracy"] == pytest.approx(13 / 15, abs=1e-15)
    assert bool(doc["has_prediction"]) and bool(doc["schema_valid"]) and not bool(doc["exact_match"])


def test_documents_frame_needs_details():
    r = fieldscope.evaluate(EXAMPLE / "truth.jsonl", [EXAMPLE / "careful.jsonl"])
    with pytest.raises(ValueError, match=r"details=True"):
        r.documents_frame()


def test_literature_columns_when_computed():
    r = fieldscope.evaluate(EXAMPLE / "truth.jsonl", [EXAMPLE / "careful.jsonl"], metrics="all")
    f = r.models_frame()
    lit = r.to_dict()["models"][0]["literature"]
    for name in ("anls_star", "nted", "donut_f1"):
        assert f.loc["careful", name] == lit[name]


def test_html_repr_is_the_report_as_a_scoped_fragment(report):
    # Issue 32: a notebook gets the page's sections in one root element
    # whose style applies only inside it; to_html() stays the whole page.
    html = report._repr_html_()
    assert html.startswith('<div class="fieldscope-report">\n<style>.fieldscope-report ')
    assert report.to_html().split("<body>\n", 1)[1].split("</body>", 1)[0] in html
    assert "<script" not in html.lower()
    assert "careful" in html
    assert repr(report) == (
        "<fieldscope.Report: 3 documents, models careful, eager; 0 warning(s), 0 suggestion(s)>"
    )


def test_frames_import_pandas_only_when_asked(tmp_path):
    import subprocess
    import sys

    code = (
        "import sys, fieldscope\n"
        "r = fieldscope.evaluate([{'id': 'a', 'x': 1}], {'m': [{'id': 'a', 'x': 1}]})\n"
        "r.to_html(); r.to_dict()\n"
        "assert 'pandas' not in sys.modules, 'pandas imported'\n"
        "r.models_frame()\n"
        "assert 'pandas' in sys.modules\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True, cwd=tmp_path)


def test_frames_without_pandas_say_how_to_install_it(tmp_path):
    import subprocess
    import sys

    code = (
        "import sys\n"
        "sys.modules['pandas'] = None  # as if it were not installed\n"
        "import fieldscope\n"
        "r = fieldscope.evaluate([{'id': 'a', 'x': 1}], {'m': [{'id': 'a', 'x': 1}]})\n"
        "try:\n"
        "    r.fields_frame()\n"
        "except ImportError as e:\n"
        "    assert 'pip install' in str(e) and 'pandas' in str(e), str(e)\n"
        "else:\n"
        "    raise SystemExit('no ImportError')\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True, cwd=tmp_path)
