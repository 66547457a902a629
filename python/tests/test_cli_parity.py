"""The package gives the CLI's report: ``to_dict()`` equals ``json.loads`` of
``fieldscope eval --format json`` (the Rust binary, run here), and every
``to_*`` format equals its output byte for byte — on tests/data/example/,
on ``fieldscope synth`` data, and on every table-driven case of
tests/data/cases/."""

import json
import warnings
from pathlib import Path

import pytest

import fieldscope
from conftest import DATA, EXAMPLE, PLANTED_FAULTS, without_lines

FORMATS = ["json", "markdown", "latex", "csv", "html"]
CASES = sorted((DATA / "cases").glob("*.json"))


def render(report, fmt):
    return getattr(report, f"to_{fmt}")()


def test_example_every_format_is_byte_identical(cli):
    args = [
        "--truth", EXAMPLE / "truth.jsonl",
        "--pred", f"careful={EXAMPLE / 'careful.jsonl'}",
        "--pred", f"eager={EXAMPLE / 'eager.json'}",
        "--schema", EXAMPLE / "schema.json",
        "--config", EXAMPLE / "metrics_config.json",
    ]  # fmt: skip
    report = fieldscope.evaluate(
        EXAMPLE / "truth.jsonl",
        {"careful": EXAMPLE / "careful.jsonl", "eager": str(EXAMPLE / "eager.json")},
        schema=EXAMPLE / "schema.json",
        config=EXAMPLE / "metrics_config.json",
    )
    for fmt in FORMATS:
        assert render(report, fmt) == cli.ok("eval", *args, "--format", fmt), fmt
    assert report.to_dict() == json.loads(cli.ok("eval", *args))
    # The example's real numbers (careful: 25 exact of 30 present truth
    # values, 5 missed, no spurious, 4 true negatives under preset "exact").
    m = report.to_dict()["models"][0]
    assert m["name"] == "careful"
    assert report.models == ["careful", "eager"]
    assert report.documents == 3
    assert m["truth_count"] == 30


@pytest.mark.parametrize(
    "extra, kwargs",
    [
        (["--details"], {"details": True}),
        (["--preset", "invoice-cer", "--cost", "careful=0.5"], {"preset": "invoice-cer", "costs": {"careful": 0.5}}),
        (["--bootstrap", "200", "--seed", "9", "--alpha", "0.1"], {"bootstrap": 200, "seed": 9, "alpha": 0.1}),
        (["--metrics", "all", "--details"], {"metrics": "all", "details": True}),
        (["--metrics", "anls_star,nted"], {"metrics": ["anls_star", "nted"]}),
    ],
)  # fmt: skip
def test_example_options_match_the_cli(cli, extra, kwargs):
    args = ["--truth", EXAMPLE / "truth.jsonl", "--pred", EXAMPLE / "careful.jsonl",
            "--pred", EXAMPLE / "eager.json", "--schema", EXAMPLE / "schema.json"]  # fmt: skip
    report = fieldscope.evaluate(
        EXAMPLE / "truth.jsonl",
        [EXAMPLE / "careful.jsonl", EXAMPLE / "eager.json"],
        schema=EXAMPLE / "schema.json",
        **kwargs,
    )
    for fmt in FORMATS:
        assert render(report, fmt) == cli.ok("eval", *args, *extra, "--format", fmt), fmt


def evaluate_recording(truth, predictions, **kwargs):
    """``fieldscope.evaluate`` and the messages of the EvaluationWarnings it
    issued (every one: the filter is "always")."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        report = fieldscope.evaluate(truth, predictions, **kwargs)
    issued = [str(w.message) for w in caught if w.category is fieldscope.EvaluationWarning]
    return report, issued


@PLANTED_FAULTS
def test_synth_data_with_schema_matches_the_cli(cli, synth_dir):
    models = ["good", "conservative", "aggressive"]
    args = ["--truth", synth_dir / "truth.jsonl", "--schema", synth_dir / "invoice.schema.json"]
    for name in models:
        args += ["--pred", synth_dir / f"{name}.jsonl"]
    report = fieldscope.evaluate(
        synth_dir / "truth.jsonl",
        [synth_dir / f"{name}.jsonl" for name in models],
        schema=synth_dir / "invoice.schema.json",
        details=True,
    )
    assert report.to_dict() == json.loads(cli.ok("eval", *args, "--details"))
    assert report.to_html() == cli.ok("eval", *args, "--details", "--format", "html")
    assert report.documents == 300


@pytest.mark.parametrize("case", CASES, ids=[c.stem for c in CASES])
def test_table_driven_case_matches_the_cli_and_the_hand_computed_values(cli, case, tmp_path):
    spec = json.loads(case.read_text("utf-8"))
    truth = tmp_path / "truth.json"
    truth.write_text(json.dumps(spec["truth"]), "utf-8")
    args = ["--truth", truth]
    preds = {}
    for name, records in spec["predictions"].items():
        path = tmp_path / f"{name}.json"
        path.write_text(json.dumps(records), "utf-8")
        args += ["--pred", f"{name}={path}"]
        preds[name] = path
    kwargs = {}
    for key in ("config", "schema"):
        if key in spec:
            path = tmp_path / f"{key}.json"
            path.write_text(json.dumps(spec[key]), "utf-8")
            args += [f"--{key}", path]
            kwargs[key] = spec[key]
    # Several schemas (SPEC §7.2): one file per schema, named by its stem;
    # in memory, a dict name → schema.
    file_kwargs = {k: tmp_path / f"{k}.json" for k in kwargs}
    if "schemas" in spec:
        (tmp_path / "schemas").mkdir()
        paths = []
        for name, schema in spec["schemas"].items():
            path = tmp_path / "schemas" / f"{name}.json"
            path.write_text(json.dumps(schema), "utf-8")
            args += ["--schema", path]
            paths.append(path)
        kwargs["schema"] = spec["schemas"]
        file_kwargs["schema"] = paths
    expected = cli.report(*args)

    # From the files: everything equal, warnings included — each issued
    # once as an EvaluationWarning (the cases' data gives them on purpose).
    from_files, issued = evaluate_recording(truth, preds, **file_kwargs)
    assert from_files.to_dict() == expected
    assert issued == from_files.warnings
    # From lists of dicts and dicts: the same report; the warnings name
    # "<NAME>" where the CLI names the file.
    report, issued = evaluate_recording(spec["truth"], spec["predictions"], **kwargs)
    assert issued == report.warnings
    from_memory = report.to_dict()
    warnings = from_memory.pop("warnings")
    cli_warnings = expected.pop("warnings")
    assert from_memory == expected
    renamed = [w.replace("<truth>", str(truth)) for w in warnings]
    for name, path in preds.items():
        renamed = [w.replace(f"<{name}>", str(path)) for w in renamed]
    assert without_lines(renamed) == without_lines(cli_warnings)

    # And the values the case file gives, computed by hand.
    for pointer, value in spec["expect"].items():
        actual = pointer_get(from_files.to_dict(), pointer)
        assert same(actual, value), f"{case.name}: {pointer}: expected {value}, got {actual}"


def pointer_get(value, pointer):
    """The value at a JSON pointer; None where there is none (as the Rust
    test reads it)."""
    for part in pointer.strip("/").split("/"):
        if isinstance(value, list):
            if not part.isdigit() or int(part) >= len(value):
                return None
            value = value[int(part)]
        elif isinstance(value, dict):
            if part not in value:
                return None
            value = value[part]
        else:
            return None
    return value


def same(actual, expected):
    """Equality with floats to 1e-12 (as tests/suite/cases.rs compares)."""
    if isinstance(expected, float) or isinstance(actual, float):
        if actual is None or expected is None:
            return actual is expected
        return abs(actual - expected) <= 1e-12 * max(abs(expected), 1.0)
    if isinstance(expected, dict):
        return (
            isinstance(actual, dict)
            and actual.keys() == expected.keys()
            and all(same(actual[k], v) for k, v in expected.items())
        )
    if isinstance(expected, list):
        return (
            isinstance(actual, list)
            and len(actual) == len(expected)
            and all(same(a, e) for a, e in zip(actual, expected))
        )
    return actual == expected


def test_sweep_matches_the_cli(cli):
    args = ["--truth", EXAMPLE / "truth.jsonl", "--pred", EXAMPLE / "careful.jsonl",
            "--pred", EXAMPLE / "eager.json", "--param", "cer", "--values", "0.1,0.3,0.9"]  # fmt: skip
    s = fieldscope.sweep(
        EXAMPLE / "truth.jsonl",
        [EXAMPLE / "careful.jsonl", EXAMPLE / "eager.json"],
        "cer",
        [0.1, 0.3, 0.9],
    )
    for fmt in ["json", "markdown", "latex", "csv"]:
        assert getattr(s, f"to_{fmt}")() == cli.ok("sweep", *args, "--format", fmt), fmt
    frame = s.frame()
    assert list(frame.columns) == [
        "micro_f1",
        "micro_accuracy",
        "macro_documents_f1",
        "item_f1",
        "item_count_accuracy",
    ]
    assert frame.index.names == ["model", "value"]
    assert len(frame) == 6
    d = s.to_dict()
    assert frame.loc[("eager", 0.3), "micro_f1"] == d["models"][1]["points"][1]["micro_f1"]
    with pytest.raises(ValueError, match="param"):
        fieldscope.sweep(EXAMPLE / "truth.jsonl", [EXAMPLE / "careful.jsonl"], "speed")


def test_figures_write_the_cli_files(cli, tmp_path):
    out_cli = tmp_path / "cli"
    out_py = tmp_path / "py"
    args = ["--truth", EXAMPLE / "truth.jsonl", "--pred", EXAMPLE / "careful.jsonl",
            "--values", "0.2,0.8", "--size", "column", "--format", "svg"]  # fmt: skip
    listed = cli.ok("figures", *args, "--out", out_cli).splitlines()
    written = fieldscope.figures(
        EXAMPLE / "truth.jsonl",
        [EXAMPLE / "careful.jsonl"],
        out_py,
        size="column",
        formats=["svg"],
        values=[0.2, 0.8],
    )
    assert [p.name for p in written] == [Path(p).name for p in listed]
    assert written[-1].name == "captions.md"
    for p in written:
        assert p.read_bytes() == (out_cli / p.name).read_bytes(), p.name
    pdfs = fieldscope.figures(
        EXAMPLE / "truth.jsonl", [EXAMPLE / "careful.jsonl"], tmp_path / "pdf", values=[0.5]
    )
    assert any(p.suffix == ".pdf" and p.read_bytes().startswith(b"%PDF") for p in pdfs)
    with pytest.raises(ValueError, match="size"):
        fieldscope.figures(EXAMPLE / "truth.jsonl", [EXAMPLE / "careful.jsonl"], tmp_path, size="A4")
    with pytest.raises(ValueError, match="formats"):
        fieldscope.figures(EXAMPLE / "truth.jsonl", [EXAMPLE / "careful.jsonl"], tmp_path, formats=["png"])
