"""Several schemas (SPEC §7.2) through the package: ``schema=`` as a list of
paths (each named by its file stem), a list of ``(name, schema)`` pairs or
a dict name → schema, with ``schema_by=``; the same report as the CLI's;
the usage errors; ``learn`` and ``evaluate_partial`` refusing several."""

import json

import pytest

import fieldscope

# Document a is served by schema a (total: number, required), b by schema
# b (name: string, nothing else); c names no schema.
TRUTH = [{"id": "a", "total": 1}, {"id": "b", "name": "x"}, {"id": "c", "total": 2}]
PRED = [{"id": "a", "total": "1"}, {"id": "b", "name": "x", "extra": 1}, {"id": "c", "total": "2.0"}]
SCHEMAS = {
    "a": {"type": "object", "properties": {"total": {"type": "number"}}, "required": ["total"]},
    "b": {"type": "object", "properties": {"name": {"type": "string"}}, "additionalProperties": False},
}


def write(tmp_path, folder="schemas"):
    (tmp_path / folder).mkdir(exist_ok=True)
    paths = []
    for name, schema in SCHEMAS.items():
        path = tmp_path / folder / f"{name}.json"
        path.write_text(json.dumps(schema), "utf-8")
        paths.append(path)
    return paths


def check_hand_values(report):
    m = report.to_dict()["models"][0]
    # a: total exact (a number by a's schema), not valid against a;
    # b: name exact, extra spurious, not valid against b; c: total exact
    # (no schema: a JSON number in the truth), valid.
    assert m["counts"] == {
        "exact": 3, "partial": 0, "incorrect": 0, "missed": 0, "spurious": 1, "true_negative": 0,
    }  # fmt: skip
    assert m["schema_validity_rate"] == pytest.approx(1 / 3, abs=1e-15)
    assert m["exact_match_rate"] == pytest.approx(1 / 3, abs=1e-15)
    assert [f["field"] for f in m["fields"]] == ["extra", "name", "total"]


def test_a_dict_of_named_schemas_picks_each_documents_own():
    with pytest.warns(fieldscope.EvaluationWarning, match=r'1 document names no given schema.*"c"'):
        report = fieldscope.evaluate(TRUTH, {"m": PRED}, schema=SCHEMAS, schema_by="id")
    check_hand_values(report)


def test_pairs_paths_and_the_cli_give_one_report(cli, tmp_path):
    paths = write(tmp_path)
    (tmp_path / "truth.json").write_text(json.dumps(TRUTH), "utf-8")
    (tmp_path / "m.json").write_text(json.dumps(PRED), "utf-8")
    with pytest.warns(fieldscope.EvaluationWarning):
        from_paths = fieldscope.evaluate(
            tmp_path / "truth.json", [tmp_path / "m.json"], schema=paths, schema_by="id"
        )
    check_hand_values(from_paths)
    expected = cli.report(
        "--truth", tmp_path / "truth.json", "--pred", tmp_path / "m.json",
        "--schema", paths[0], "--schema", paths[1], "--schema-by", "id",
    )  # fmt: skip
    assert from_paths.to_dict() == expected
    with pytest.warns(fieldscope.EvaluationWarning):
        from_pairs = fieldscope.evaluate(
            tmp_path / "truth.json",
            [tmp_path / "m.json"],
            schema=[("a", SCHEMAS["a"]), paths[1]],
            schema_by="id",
        )
    assert from_pairs.to_dict() == expected
    # schema_by given here beats the config's.
    with pytest.warns(fieldscope.EvaluationWarning):
        beaten = fieldscope.evaluate(
            tmp_path / "truth.json",
            [tmp_path / "m.json"],
            schema=paths,
            schema_by="id",
            config={"schema_by": "total"},
        )
    assert beaten.to_dict()["models"] == expected["models"]


def test_a_dict_with_schema_keywords_is_one_schema():
    one = {"properties": {"total": {"type": "number"}}, "required": ["total"]}
    report = fieldscope.evaluate(TRUTH, {"m": PRED}, schema=one)
    m = report.to_dict()["models"][0]
    # One dataset-wide field set: total, name and extra in every document,
    # so 5 true negatives (a: name, extra; b: total; c: name, extra); no
    # prediction is valid (a's and c's totals are strings, b lacks it).
    assert m["counts"]["true_negative"] == 5
    assert m["schema_validity_rate"] == 0.0


def test_several_schemas_need_schema_by_and_distinct_names(tmp_path):
    with pytest.raises(ValueError, match="2 schemas are given but not how a document picks its own"):
        fieldscope.evaluate(TRUTH, {"m": PRED}, schema=SCHEMAS)
    first = write(tmp_path, "one")
    second = write(tmp_path, "two")
    with pytest.raises(ValueError, match='two schemas are named "a"'):
        fieldscope.evaluate(TRUTH, {"m": PRED}, schema=[first[0], second[0]], schema_by="id")
    with pytest.raises(TypeError, match=r"schema\[0\]: expected a path or a \(name, schema\) pair"):
        fieldscope.evaluate(TRUTH, {"m": PRED}, schema=[{"type": "object"}], schema_by="id")


def test_learn_and_partial_results_refuse_several_schemas():
    for call in (fieldscope.learn, fieldscope.evaluate_partial):
        with pytest.raises(ValueError, match="several schemas cannot be learnt or evaluated in shards"):
            call(TRUTH, {"m": PRED}, schema=SCHEMAS, schema_by="id")
    # One named schema is the dataset's one schema: learnt as before.
    assert fieldscope.learn(TRUTH, {"m": PRED}, schema={"a": SCHEMAS["a"]}, schema_by="id")


def test_html_and_markdown_group_by_document_type_as_the_cli_does(cli, tmp_path):
    # Issue 34: with several schemas, to_html() and to_markdown() carry the
    # "By document type" table (schemas a and b, one document each), the
    # same bytes as `fieldscope eval --format html|markdown`.
    paths = write(tmp_path)
    (tmp_path / "truth.json").write_text(json.dumps(TRUTH), "utf-8")
    (tmp_path / "m.json").write_text(json.dumps(PRED), "utf-8")
    with pytest.warns(fieldscope.EvaluationWarning):
        report = fieldscope.evaluate(
            tmp_path / "truth.json", [tmp_path / "m.json"], schema=paths, schema_by="id"
        )
    args = ["--truth", tmp_path / "truth.json", "--pred", tmp_path / "m.json",
            "--schema", paths[0], "--schema", paths[1], "--schema-by", "id"]  # fmt: skip
    html = report.to_html()
    assert '<h3 id="by-type">By document type</h3>' in html
    assert '<a href="#group-1">a</a>' in html and '<a href="#group-2">b</a>' in html
    assert html == cli.ok("eval", *args, "--format", "html")
    markdown = report.to_markdown()
    # a: total exact → F1 1, accuracy 1; b: name exact, extra spurious
    # (no schema names it: not b's own field) → name alone: 1.
    assert "\n| a | 1 | **1.0000** / 1.0000 |\n" in markdown
    assert "\n| b | 1 | **1.0000** / 1.0000 |\n" in markdown
    assert markdown == cli.ok("eval", *args, "--format", "markdown")
    assert 'By document type' in report._repr_html_()
