"""The report as pandas DataFrames: rows and columns taken from the JSON
report (SPEC §5), nothing computed. pandas is imported here only, when a
frame is asked for."""

from typing import Any, Dict, List

from fieldscope import _native

COUNTS = ("exact", "partial", "incorrect", "missed", "spurious", "true_negative")
# SPEC §9.1, in the report's key order.
ERRORS = ("format", "scale", "swapped", "near_miss", "wrong", "missed", "spurious")
ERROR_LEVELS = ("model", "field")
SCORES = ("precision", "recall", "f1", "accuracy")
LITERATURE = ("anls_star", "nted", "donut_f1")
# The rates declared in the Rust core (`eval::rates`), then the other
# per-model scalars.
RATES = (
    *_native.RATE_KEYS,
    "numeric_precision",
    "field_f1_partial",
    "schema_validity_rate",
    "exact_match_rate",
    "document_extraction_score",
    "cer",
    "cost",
)


def _pandas() -> Any:
    try:
        import pandas
    except ImportError as e:  # pragma: no cover - exercised without pandas
        raise ImportError(
            "fieldscope's DataFrames need pandas: pip install pandas "
            '(or install fieldscope with its extra: pip install "./python[pandas]")'
        ) from e
    return pandas


def _float(x: Any) -> Any:
    """null (not applicable) → NaN, so numeric columns stay numeric."""
    return float("nan") if x is None else x


def models_frame(report: Dict[str, Any], averaging: str) -> Any:
    pd = _pandas()
    rows: List[Dict[str, Any]] = []
    with_items = any(m.get("items") is not None for m in report["models"])
    literature = [
        name
        for name in LITERATURE
        if any((m.get("literature") or {}).get(name) is not None for m in report["models"])
    ]
    for m in report["models"]:
        scores = m[averaging]
        row: Dict[str, Any] = {"model": m["name"]}
        for key in SCORES:
            row[key] = scores[key]
        if averaging == "macro_fields":
            row["fields_left_out"] = scores["fields_left_out"]
        for key in COUNTS:
            row[key] = m["counts"][key]
        row["truth_count"] = m["truth_count"]
        row["pred_count"] = m["pred_count"]
        row["m_total"] = m["m_total"]
        for key in ("precision", "recall", "f1"):
            row[f"partial_{key}"] = m["partial"][key]
        for key in RATES:
            row[key] = _float(m[key])
        if with_items:
            items = m.get("items") or {}
            for key in ("precision", "recall", "f1"):
                row[f"items_{key}"] = _float(items.get(key))
        for name in literature:
            row[name] = _float((m.get("literature") or {}).get(name))
        rows.append(row)
    return pd.DataFrame(rows).set_index("model")


def fields_frame(report: Dict[str, Any]) -> Any:
    pd = _pandas()
    rows = []
    for m in report["models"]:
        for f in m["fields"]:
            row: Dict[str, Any] = {"model": m["name"], "field": f["field"]}
            for key in COUNTS:
                row[key] = f["counts"][key]
            for key in SCORES:
                row[key] = f[key]
            row["cer"] = _float(f["cer"])
            row["mean_cer"] = _float(f["mean_cer"])
            rows.append(row)
    columns = ["model", "field", *COUNTS, *SCORES, "cer", "mean_cer"]
    return pd.DataFrame(rows, columns=columns).set_index(["model", "field"])


def documents_frame(report: Dict[str, Any]) -> Any:
    if any(m.get("document_details") is None for m in report["models"]):
        raise ValueError(
            "documents_frame() needs the per-document details: "
            "fieldscope.evaluate(..., details=True)"
        )
    pd = _pandas()
    rows = []
    for m in report["models"]:
        for d in m["document_details"]:
            row: Dict[str, Any] = {
                "model": m["name"],
                "id": d["id"],
                "has_prediction": d["has_prediction"],
                "schema_valid": d["schema_valid"],
                "exact_match": d["exact_match"],
            }
            for key in COUNTS:
                row[key] = d["counts"][key]
            for key in SCORES:
                row[key] = d[key]
            rows.append(row)
    columns = [
        "model",
        "id",
        "has_prediction",
        "schema_valid",
        "exact_match",
        *COUNTS,
        *SCORES,
    ]
    return pd.DataFrame(rows, columns=columns).set_index(["model", "id"])


def sweep_frame(sweep: Dict[str, Any]) -> Any:
    pd = _pandas()
    rows = []
    for m in sweep["models"]:
        for p in m["points"]:
            rows.append({"model": m["name"], **{k: _float(v) for k, v in p.items()}})
    columns = [
        "model",
        "value",
        "micro_f1",
        "micro_accuracy",
        "macro_documents_f1",
        "item_f1",
        "item_count_accuracy",
    ]
    return pd.DataFrame(rows, columns=columns).set_index(["model", "value"])


# SPEC §8.3–§8.5: the model-wide confidence scores, the per-field ones and
# the straight-through documents, as the JSON report names them.
CONFIDENCE_MODEL = (
    "pairs",
    "with_confidence",
    "accuracy",
    "mean_confidence",
    "brier",
    "ece",
    "ece_equal_mass",
    "mce",
    "auroc",
    "aurc",
)
STRAIGHT_THROUGH = ("threshold", "documents", "rate", "accuracy")
CONFIDENCE_FIELD = (
    "pairs",
    "accuracy",
    "mean_confidence",
    "ece",
    "auroc",
    "recommended_threshold",
    "coverage",
)
CONFIDENCE_LEVELS = (None, "model", "field")


def _model_row(m: Dict[str, Any]) -> Dict[str, Any]:
    """A model's confidence block as one row; a model without pairs
    (``"confidence": null``) has pairs 0 and NaN elsewhere."""
    c = m.get("confidence")
    row: Dict[str, Any] = {"model": m["name"]}
    for key in CONFIDENCE_MODEL:
        row[key] = (0 if key == "pairs" else float("nan")) if c is None else _float(c[key])
    through = (c or {}).get("straight_through") or {}
    for key in STRAIGHT_THROUGH:
        row[f"straight_through_{key}"] = _float(through.get(key))
    return row


def _field_rows(m: Dict[str, Any]) -> List[Dict[str, Any]]:
    c = m.get("confidence")
    rows = []
    for path, f in ((c or {}).get("fields") or {}).items():
        row: Dict[str, Any] = {"model": m["name"], "field": path}
        for key in CONFIDENCE_FIELD:
            row[key] = _float(f[key])
        rows.append(row)
    return rows


def confidence_frame(report: Dict[str, Any], level: Any) -> Any:
    pd = _pandas()
    model_columns = [
        *CONFIDENCE_MODEL,
        *(f"straight_through_{key}" for key in STRAIGHT_THROUGH),
    ]
    if level == "model":
        rows = [_model_row(m) for m in report["models"]]
        return pd.DataFrame(rows, columns=["model", *model_columns]).set_index("model")
    if level == "field":
        rows = [row for m in report["models"] for row in _field_rows(m)]
        return pd.DataFrame(rows, columns=["model", "field", *CONFIDENCE_FIELD]).set_index(
            ["model", "field"]
        )
    rows = []
    for m in report["models"]:
        rows.append({**_model_row(m), "level": "model", "field": None})
        rows.extend({**row, "level": "field"} for row in _field_rows(m))
    columns = ["model", "level", "field", *model_columns, "recommended_threshold", "coverage"]
    frame = pd.DataFrame(rows, columns=columns)
    # Every row has pairs; a field row has no straight-through documents.
    frame["pairs"] = frame["pairs"].astype("int64")
    return frame


def errors_frame(report: Dict[str, Any], level: str) -> Any:
    """SPEC §9.1: each model's ``errors`` (level "model", indexed by model)
    or each row of its per-field table's ``errors`` (level "field", indexed
    by model and field), the counts as they are in the JSON report."""
    pd = _pandas()
    if level == "model":
        rows = [{"model": m["name"], **m["errors"]} for m in report["models"]]
        index = ["model"]
    else:
        rows = [
            {"model": m["name"], "field": f["field"], **f["errors"]}
            for m in report["models"]
            for f in m["fields"]
        ]
        index = ["model", "field"]
    frame = pd.DataFrame(rows, columns=[*index, *ERRORS])
    return frame.astype({e: "int64" for e in ERRORS}).set_index(index)


def reliability_frame(report: Dict[str, Any]) -> Any:
    pd = _pandas()
    rows = []
    for m in report["models"]:
        for k, b in enumerate((m.get("confidence") or {}).get("bins") or []):
            rows.append(
                {
                    "model": m["name"],
                    "bin": k,
                    "low": b["low"],
                    "high": b["high"],
                    "count": b["count"],
                    "accuracy": _float(b["accuracy"]),
                    "mean_confidence": _float(b["mean_confidence"]),
                }
            )
    columns = ["model", "bin", "low", "high", "count", "accuracy", "mean_confidence"]
    return pd.DataFrame(rows, columns=columns).set_index(["model", "bin"])


SLICE_COLUMNS = [
    "model", "key", "value", "documents", *SCORES,
    "delta", "p_value", "p_holm", "weak",
]  # fmt: skip


def slices_frame(report: Dict[str, Any]) -> Any:
    slices = report.get("slices")
    if slices is None:
        raise ValueError(
            "slices_frame() needs slices: fieldscope.evaluate(..., "
            'config={"slice_by": ["KEY"]})'
        )
    pd = _pandas()
    rows = []
    for m in slices["models"]:
        for s in m["slices"]:
            row: Dict[str, Any] = {
                "model": m["name"],
                "key": s["key"],
                "value": s["value"],
                "documents": s["documents"],
            }
            for key in SCORES:
                row[key] = s["micro"][key]
            for key in ("delta", "p_value", "p_holm"):
                row[key] = _float(s[key])
            row["weak"] = s["weak"]
            rows.append(row)
    frame = pd.DataFrame(rows, columns=SLICE_COLUMNS)
    # The report's values as they are (None stays None, a bin a list).
    frame["value"] = pd.Series([row["value"] for row in rows], index=frame.index, dtype=object)
    frame["documents"] = frame["documents"].astype("int64")
    frame["weak"] = frame["weak"].astype("bool")
    return frame


SUSPECT_COLUMNS = ["id", "field", "truth", "proposed", "models", "support", "mean_confidence"]


def suspects_frame(report: Dict[str, Any]) -> Any:
    pd = _pandas()
    rows = [
        {
            "id": s["id"],
            "field": s["field"],
            "truth": s["truth"],
            "proposed": s["proposed"],
            "models": list(s["models"]),
            "support": s["support"],
            "mean_confidence": _float(s["mean_confidence"]),
        }
        for s in report.get("suspected_truth_errors") or []
    ]
    frame = pd.DataFrame(rows, columns=SUSPECT_COLUMNS)
    # JSON values as they are (an absent truth is None, not NaN; 3 stays 3).
    for column in ("truth", "proposed"):
        frame[column] = pd.Series([r[column] for r in rows], dtype=object)
    frame["support"] = frame["support"].astype("int64")
    frame["mean_confidence"] = frame["mean_confidence"].astype("float64")
    return frame
