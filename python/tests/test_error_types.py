"""Error types (SPEC §9.1) from Python: ``errors_frame`` on the hand-worked
case tests/data/cases/error_types.json (its ``description`` explains every
count), equal to the JSON report value for value."""

import json
from pathlib import Path

import pytest

import fieldscope

pd = pytest.importorskip("pandas")

# The case has a document without m's record; the empty report has no truth.
pytestmark = [
    pytest.mark.filterwarnings("ignore:.*no prediction record"),
    pytest.mark.filterwarnings("ignore:.*the ground truth has no records"),
    pytest.mark.filterwarnings("ignore:.*numeric_precision is null"),
]

CASE = json.loads(
    (Path(__file__).resolve().parents[2] / "tests/data/cases/error_types.json").read_text(
        encoding="utf-8"
    )
)
TYPES = ["format", "scale", "swapped", "near_miss", "wrong", "missed", "spurious"]


@pytest.fixture(scope="module")
def report():
    return fieldscope.evaluate(CASE["truth"], CASE["predictions"], config=CASE["config"])


def test_errors_frame_by_model(report):
    f = report.errors_frame()
    assert f.index.name == "model"
    assert list(f.index) == ["m", "n"]
    assert list(f.columns) == TYPES
    assert all(str(t) == "int64" for t in f.dtypes)
    # m: format 3 (vendor, total, invoice_date), scale 2 (total 9950 for
    # 99.5, qty 20 for 2), swapped 4, near_miss 1, wrong 2, missed 3,
    # spurious 1; n: vendor "ACME!!" format, net "٨٠" wrong.
    assert f.loc["m"].tolist() == [3, 2, 4, 1, 2, 3, 1]
    assert f.loc["n"].tolist() == [1, 0, 0, 0, 1, 0, 0]


def test_errors_frame_by_field(report):
    f = report.errors_frame("field")
    assert list(f.index.names) == ["model", "field"]
    assert f.loc[("m", "items[].qty")].tolist() == [0, 1, 1, 0, 1, 0, 0]
    assert f.loc[("m", "net")].tolist() == [0, 0, 1, 0, 0, 1, 0]
    assert f.loc[("m", "po")].tolist() == [0, 0, 0, 0, 0, 0, 1]
    assert ("n", "po") not in f.index  # n never has a po field
    # The field rows add up to the model's (no set field here).
    assert f.groupby(level="model").sum().equals(report.errors_frame())


def test_errors_frame_equals_the_json(report):
    parsed = json.loads(report.to_json())
    models = report.errors_frame()
    fields = report.errors_frame("field")
    for m in parsed["models"]:
        assert models.loc[m["name"]].to_dict() == m["errors"]
        for row in m["fields"]:
            assert fields.loc[(m["name"], row["field"])].to_dict() == row["errors"]


def test_unknown_level(report):
    with pytest.raises(ValueError, match="level: 'models'"):
        report.errors_frame("models")


def test_empty_report_has_empty_frames():
    r = fieldscope.evaluate([], {"m": []})
    assert r.errors_frame().loc["m"].tolist() == [0] * 7
    assert len(r.errors_frame("field")) == 0
