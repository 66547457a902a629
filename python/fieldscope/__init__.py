"""fieldscope: evaluate structured-data extraction from Python.

Precision, recall, F1 and accuracy (micro, macro over documents, macro over
fields), match categories, CER, line items and the document-level scores,
exactly as fieldscope's ``SPEC.md`` defines them, computed by the same Rust
core as the ``fieldscope`` command-line tool: :func:`evaluate` gives the
report ``fieldscope eval`` prints, byte for byte in every format;
:func:`learn`, :func:`evaluate_partial` and :func:`merge` split it over
shards of the documents (Dask, Spark, Ray: ``docs/distributed.md``).

>>> import fieldscope
>>> report = fieldscope.evaluate(
...     [{"id": "a", "total": 10}], {"m": [{"id": "a", "total": "10.00"}]}
... )
>>> report.to_dict()["models"][0]["micro"]["f1"]
1.0
"""

import json
import math
import os
import warnings
from pathlib import Path
from typing import Any, Dict, Iterable, List, Optional, Sequence, Tuple, Union

from fieldscope import _native
from fieldscope._errors import EvaluationWarning, InputError, SuggestionWarning
from fieldscope._cli import run

__all__ = [
    "evaluate",
    "sweep",
    "figures",
    "learn",
    "evaluate_partial",
    "merge",
    "Report",
    "Sweep",
    "InputError",
    "EvaluationWarning",
    "SuggestionWarning",
    "run",
    "__version__",
]

__version__: str = _native.VERSION

#: The literature metrics ``metrics=`` accepts (and ``"all"``).
METRICS = ("anls_star", "nted", "donut_f1")
_AVERAGES = ("macro_documents", "micro", "macro_fields")


# --- inputs -----------------------------------------------------------------


def _is_dataframe(obj: Any) -> bool:
    module = type(obj).__module__ or ""
    return module.startswith("pandas") and hasattr(obj, "to_dict") and hasattr(obj, "columns")


def _is_path(obj: Any) -> bool:
    return isinstance(obj, (str, os.PathLike))


def _path_name(obj: Any) -> str:
    return os.fsdecode(os.fspath(obj))


def _records_spec(obj: Any, memory_name: str, role: str) -> Tuple[str, str, Any]:
    """One records input as ``(kind, name, payload)`` for the native layer."""
    if _is_path(obj):
        name = _path_name(obj)
        return ("path", name, name)
    if isinstance(obj, (bytes, bytearray, memoryview)):
        return ("bytes", memory_name, bytes(obj))
    if _is_dataframe(obj):
        return ("frame", memory_name, obj.to_dict(orient="records"))
    if isinstance(obj, dict):
        return ("id_map", memory_name, obj)
    if isinstance(obj, (list, tuple)):
        return ("records", memory_name, obj)
    raise TypeError(
        f"{role}: expected a path (str or os.PathLike), bytes, a list of dicts, "
        f"a dict id → record or a pandas DataFrame, found {type(obj).__name__}"
    )


def _models_spec(predictions: Any) -> List[Tuple[str, Tuple[str, str, Any]]]:
    """``predictions`` as ``[(name, spec)]``: a dict name → input, or paths
    named by their stems (as ``--pred FILE``)."""
    if _is_path(predictions):
        predictions = [predictions]
    if isinstance(predictions, dict):
        models = []
        for name, source in predictions.items():
            if not isinstance(name, str):
                raise TypeError(
                    f"predictions: model names must be str, found {type(name).__name__} {name!r}"
                )
            models.append((name, _records_spec(source, f"<{name}>", f"predictions[{name!r}]")))
    elif isinstance(predictions, (list, tuple)):
        models = []
        for i, path in enumerate(predictions):
            if not _is_path(path):
                raise TypeError(
                    f"predictions[{i}]: a list of predictions holds paths (named by their "
                    f"file stems); give a dict name → input for other inputs, found "
                    f"{type(path).__name__}"
                )
            name = Path(_path_name(path)).stem or _path_name(path)
            models.append((name, _records_spec(path, f"<{name}>", f"predictions[{i}]")))
    else:
        raise TypeError(
            "predictions: expected a dict model name → input, or a list of paths, "
            f"found {type(predictions).__name__}"
        )
    if not models:
        raise ValueError("predictions: give at least one model")
    return models


def _document_spec(obj: Any, what: str) -> Optional[Tuple[str, str, Any]]:
    """A schema or config: a path or a dict (a schema may be a bool)."""
    if obj is None:
        return None
    if _is_path(obj):
        name = _path_name(obj)
        return ("path", name, name)
    if isinstance(obj, dict) or (what == "schema" and isinstance(obj, bool)):
        return ("value", what, obj)
    raise TypeError(f"{what}: expected a path or a dict, found {type(obj).__name__}")


def _corrections_spec(obj: Any) -> Optional[Tuple[str, str, Any]]:
    """Corrections (SPEC §9.3): a path to a JSON file or a list of dicts."""
    if obj is None:
        return None
    if _is_path(obj):
        name = _path_name(obj)
        return ("path", name, name)
    if isinstance(obj, (list, tuple)):
        return ("value", "corrections", list(obj))
    raise TypeError(
        f"corrections: expected a path or a list of dicts, found {type(obj).__name__}"
    )


def _costs(costs: Optional[Dict[str, float]]) -> List[Tuple[str, float]]:
    if costs is None:
        return []
    if not isinstance(costs, dict):
        raise TypeError(f"costs: expected a dict model name → cost, found {type(costs).__name__}")
    out = []
    for name, value in costs.items():
        try:
            cost = float(value)
        except (TypeError, ValueError):
            raise ValueError(f"costs[{name!r}]: {value!r} is not a number") from None
        if not math.isfinite(cost):
            raise ValueError(f"costs[{name!r}]: {value!r} is not a finite number")
        out.append((str(name), cost))
    return out


def _metrics(metrics: Union[None, str, Iterable[str]]) -> Optional[str]:
    if metrics is None:
        return None
    names = metrics.split(",") if isinstance(metrics, str) else list(metrics)
    names = [str(n).strip() for n in names]
    for name in names:
        if name not in METRICS and name != "all":
            raise ValueError(
                f"metrics: unknown metric {name!r}; expected some of "
                f"{', '.join(METRICS)} (or 'all')"
            )
    return ",".join(names) if names else None


def _values(values: Optional[Iterable[float]]) -> Optional[List[float]]:
    if values is None:
        return None
    out = []
    for v in values:
        x = float(v)
        if not (math.isfinite(x) and x >= 0):
            raise ValueError(f"values: {v!r} is not a non-negative number")
        out.append(x)
    return out


# JSON Schema (draft-07) keywords: a dict holding one of them at the top is
# one schema, not a dict of named schemas.
_SCHEMA_KEYWORDS = frozenset(
    """$schema $id $ref $comment $defs title description default examples readOnly
    writeOnly type enum const properties required additionalProperties
    patternProperties propertyNames dependencies items additionalItems contains
    definitions if then else allOf anyOf oneOf not format minimum maximum
    exclusiveMinimum exclusiveMaximum multipleOf minLength maxLength pattern
    minItems maxItems uniqueItems minProperties maxProperties contentMediaType
    contentEncoding""".split()
)


def _is_named_schemas(obj: Any) -> bool:
    """A dict name → schema (SPEC §7.2): non-empty, every value a dict or a
    bool, and no key a JSON Schema keyword (else it is one schema)."""
    return (
        isinstance(obj, dict)
        and bool(obj)
        and all(isinstance(v, (dict, bool)) for v in obj.values())
        and not any(k in _SCHEMA_KEYWORDS for k in obj)
    )


def _schema_spec(schema: Any) -> Any:
    """One schema (a path or a dict), or several (SPEC §7.2): a list of
    paths (each named by its file stem) or of ``(name, schema)`` pairs, or
    a dict name → schema; for the native side a list of (name or None,
    spec)."""
    if schema is None:
        return None
    if isinstance(schema, (list, tuple)):
        out = []
        for i, item in enumerate(schema):
            if isinstance(item, tuple) and len(item) == 2 and isinstance(item[0], str):
                out.append((item[0], _document_spec(item[1], "schema")))
            elif _is_path(item):
                out.append((None, _document_spec(item, "schema")))
            else:
                raise TypeError(
                    f"schema[{i}]: expected a path or a (name, schema) pair, "
                    f"found {type(item).__name__}"
                )
        if not out:
            raise ValueError("schema: an empty list; give a schema or leave it out")
        return out
    if _is_named_schemas(schema):
        return [(str(name), _document_spec(s, "schema")) for name, s in schema.items()]
    return _document_spec(schema, "schema")


def _schema_by(schema_by: Optional[str]) -> Optional[str]:
    if schema_by is not None and not isinstance(schema_by, str):
        raise TypeError(f"schema_by: expected a str, found {type(schema_by).__name__}")
    return schema_by


def _common(truth, predictions, schema, config, preset, costs):
    if preset is not None and not isinstance(preset, str):
        raise TypeError(f"preset: expected a str, found {type(preset).__name__}")
    return (
        _records_spec(truth, "<truth>", "truth"),
        _models_spec(predictions),
        _schema_spec(schema),
        _document_spec(config, "config"),
        preset,
        _costs(costs),
    )


def _bootstrap_args(bootstrap: Union[None, bool, int], seed: Any, alpha: Any) -> Optional[int]:
    """``bootstrap``, ``seed`` and ``alpha`` checked; the resamples (``True``:
    1000) or ``None``."""
    if bootstrap is True:
        bootstrap = 1000
    elif bootstrap is False:
        bootstrap = None
    if bootstrap is not None:
        if not isinstance(bootstrap, int):
            raise TypeError(f"bootstrap: expected an int, found {type(bootstrap).__name__}")
        if bootstrap < 1:
            raise ValueError("bootstrap: needs at least 1 resample (1000 is the usual number)")
        if not (0.0 < float(alpha) < 1.0):
            raise ValueError(f"alpha: {alpha!r}; expected a number between 0 and 1")
    if not isinstance(seed, int) or seed < 0:
        raise ValueError(f"seed: {seed!r}; expected a non-negative int")
    return bootstrap


#: The registry of fieldscope's warnings: one for the whole package, so
#: that under Python's default filter each message is shown once per
#: process, however many evaluations (or call sites) give it.
_REGISTRY: Dict[Any, Any] = {}


def _warn(messages: Sequence[str], category: type = EvaluationWarning) -> None:
    """Issues each message as ``category``, attributed to ``fieldscope``
    (not to the caller's line: Python's ``default`` action shows a message
    once per location, so the same warning of the same data would repeat
    once per calling line — the Dask example's three). Filters still
    apply: ``"always"`` (and ``pytest.warns``) sees every one."""
    for message in messages:
        warnings.warn_explicit(
            message, category, "fieldscope", 0, module="fieldscope", registry=_REGISTRY
        )


def _suggestion_message(s: Dict[str, Any]) -> str:
    """A suggestion in the CLI's words (``suggestion: …`` on its standard
    error), with the one line of config and how to apply them all."""
    config = json.dumps(s["config"], ensure_ascii=False, separators=(",", ":"))
    return (
        f"compare `{s['field']}` as a {s['type']} ({100.0 * s['share']:.1f} % of its truth "
        f"values read as one): {config} (or evaluate(..., apply_suggestions=True))"
    )


def _warn_suggestions(suggestions: Sequence[Dict[str, Any]]) -> None:
    _warn([_suggestion_message(s) for s in suggestions], SuggestionWarning)


def _app_url(app_url: Optional[str]) -> Optional[str]:
    if app_url is not None and not isinstance(app_url, str):
        raise TypeError(f"app_url: expected a str, found {type(app_url).__name__}")
    return app_url


def _applied_types(suggestions: Sequence[Dict[str, Any]]) -> Dict[str, str]:
    """The ``field_types`` of every suggestion, merged."""
    types: Dict[str, str] = {}
    for s in suggestions:
        types.update(s["config"].get("field_types", {}))
    return types


# --- the report ---------------------------------------------------------------


class _Rendered:
    """The CLI's ``--format`` outputs of a native result, byte for byte
    (``fieldscope eval`` for a :class:`Report`, ``fieldscope sweep`` for a
    :class:`Sweep`): one place for the methods the two share."""

    __slots__ = ()
    _native: Any

    def to_dict(self) -> dict:
        """``json.loads`` of the JSON output (for a report, SPEC §5). A new
        dict at each call."""
        return json.loads(self.to_json())

    def to_json(self) -> str:
        """The output of ``--format json``."""
        return self._native.render("json")

    def to_markdown(self) -> str:
        """The tables of ``--format markdown``."""
        return self._native.render("markdown")

    def to_latex(self) -> str:
        """The tables of ``--format latex`` (booktabs ``tabular``s)."""
        return self._native.render("latex")

    def to_csv(self) -> str:
        """The table of ``--format csv``."""
        return self._native.render("csv")


class Report(_Rendered):
    """The report of one evaluation: what ``fieldscope eval`` prints.

    Made by :func:`evaluate`. ``to_dict()`` is the JSON report (SPEC §5);
    ``to_json()``, ``to_markdown()``, ``to_latex()``, ``to_csv()`` and
    ``to_html()`` are the CLI's ``--format`` outputs, byte for byte; the
    ``*_frame()`` methods give pandas DataFrames.

    Attributes
    ----------
    models : list of str
        The models' names, in the order given.
    documents : int
        The number of ground-truth documents.
    warnings : list of str
        The evaluation's warnings (also issued as :class:`EvaluationWarning`).
    suggestions : list of dict
        The evaluation's suggestions (SPEC §7.4; also issued as
        :class:`SuggestionWarning`, and listed in ``to_html()``,
        ``to_markdown()`` and the notebook display).
    applied_suggestions : list of dict
        What ``evaluate(..., apply_suggestions=True)`` applied.
    """

    __slots__ = ("_native", "_data", "_applied")

    def __init__(self, native: Any, applied: Optional[List[Dict[str, Any]]] = None) -> None:
        self._native = native
        self._data: Optional[dict] = None
        self._applied: List[Dict[str, Any]] = list(applied or [])

    @property
    def models(self) -> List[str]:
        return list(self._native.models)

    @property
    def documents(self) -> int:
        return int(self._native.documents)

    @property
    def warnings(self) -> List[str]:
        return list(self._native.warnings)

    @property
    def suggestions(self) -> List[Dict[str, Any]]:
        """The report's suggestions (SPEC §7.4), as in ``to_dict()``: a new
        list of ``{"field", "type", "share", "config"}`` dicts, in field
        order; empty when there are none (or all were applied)."""
        return json.loads(self._native.suggestions)

    @property
    def applied_suggestions(self) -> List[Dict[str, Any]]:
        """The suggestions ``apply_suggestions=True`` applied (those of the
        evaluation without them); empty otherwise."""
        return [dict(s) for s in self._applied]

    def _parsed(self) -> dict:
        if self._data is None:
            self._data = json.loads(self.to_json())
        return self._data

    def to_html(self) -> str:
        """The whole report as one self-contained HTML page (no script,
        nothing loaded from elsewhere), as ``fieldscope eval --format html``
        prints it."""
        return self._native.render("html")

    def _repr_html_(self) -> str:
        """What a notebook shows: the HTML report's sections and charts as
        one ``<div class="fieldscope-report">`` whose style applies only
        inside it (no ``body``, ``*`` or ``h1`` rule reaches the notebook);
        ``to_html()`` is the whole page."""
        return self._native.render_fragment()

    def __repr__(self) -> str:
        return (
            f"<fieldscope.Report: {self.documents} documents, "
            f"models {', '.join(self.models)}; {len(self._native.warnings)} warning(s), "
            f"{len(self.suggestions)} suggestion(s)>"
        )

    def models_frame(self, averaging: str = "macro_documents") -> "Any":
        """One row per model: the scores under one average, the counts and
        the model-wide rates.

        precision = TP / (TP + FP), recall = TP / (TP + FN),
        f1 = 2·P·R / (P + R), accuracy = (TP + TN) / N (SPEC §3.1), averaged
        as ``averaging`` says (SPEC §3.2).

        Parameters
        ----------
        averaging : {"macro_documents", "micro", "macro_fields"}, default "macro_documents"
            ``micro``: counts pooled over documents and fields;
            ``macro_documents``: the mean over documents (F1 the harmonic
            mean of the macro precision and recall, by default);
            ``macro_fields``: the mean over fields (adds ``fields_left_out``).

        Returns
        -------
        pandas.DataFrame
            Indexed by ``model``; columns ``precision``, ``recall``, ``f1``,
            ``accuracy`` (under ``averaging``), the counts ``exact``,
            ``partial``, ``incorrect``, ``missed``, ``spurious``,
            ``true_negative``, ``truth_count``, ``pred_count``, ``m_total``,
            the partial-credit ``partial_precision``, ``partial_recall``,
            ``partial_f1``, and ``hallucination_rate``, ``abstention_rate``,
            ``numeric_precision``, ``schema_validity_rate``,
            ``exact_match_rate``, ``document_extraction_score``, ``cer``,
            ``cost``; ``items_precision``, ``items_recall``, ``items_f1``
            when there are line items; the literature metrics when computed.
            ``None`` in the report (not applicable) is NaN.

        Raises
        ------
        ValueError
            An unknown ``averaging``.
        ImportError
            pandas is not installed (``pip install "fieldscope[pandas]"``).

        Examples
        --------
        >>> report.models_frame("micro")[["precision", "recall", "f1"]]  # doctest: +SKIP
        """
        from fieldscope._frames import models_frame

        if averaging not in _AVERAGES:
            raise ValueError(
                f"averaging: {averaging!r}; expected one of {', '.join(_AVERAGES)}"
            )
        return models_frame(self._parsed(), averaging)

    def fields_frame(self) -> "Any":
        """One row per (model, field): the field's counts and scores pooled
        over documents (SPEC §3.1), and its CER.

        Returns
        -------
        pandas.DataFrame
            Indexed by (``model``, ``field``); columns ``exact``,
            ``partial``, ``incorrect``, ``missed``, ``spurious``,
            ``true_negative``, ``precision``, ``recall``, ``f1``,
            ``accuracy``, ``cer`` (pooled: Σ edits / Σ truth length) and
            ``mean_cer`` (the mean of the documents' CER); NaN where the
            report says null.

        Raises
        ------
        ImportError
            pandas is not installed.

        Examples
        --------
        >>> report.fields_frame().loc["gpt"].sort_values("f1")  # doctest: +SKIP
        """
        from fieldscope._frames import fields_frame

        return fields_frame(self._parsed())

    def documents_frame(self) -> "Any":
        """One row per (model, document): whether it was predicted and
        schema-valid, its counts and its scores (SPEC §3.2's per-document
        precision, recall, accuracy; F1 from them).

        Needs the per-document details: ``evaluate(..., details=True)``.

        Returns
        -------
        pandas.DataFrame
            Indexed by (``model``, ``id``) in the truth's document order;
            columns ``has_prediction``, ``schema_valid``, ``exact_match``,
            the six counts, ``precision``, ``recall``, ``f1``, ``accuracy``.

        Raises
        ------
        ValueError
            The report was made without ``details=True``.
        ImportError
            pandas is not installed.

        Examples
        --------
        >>> r = fieldscope.evaluate(truth, preds, details=True)  # doctest: +SKIP
        >>> r.documents_frame().query("f1 < 0.5")  # doctest: +SKIP
        """
        from fieldscope._frames import documents_frame

        return documents_frame(self._parsed())

    def confidence_frame(self, level: Optional[str] = None) -> "Any":
        """The confidence scores (SPEC §8): one row per model and one per
        (model, field), as in each model's ``confidence`` block of the JSON
        report.

        A pair is (confidence, correct) for one compared value whose
        prediction carries a confidence; ``accuracy`` = Σy/n,
        ``mean_confidence`` = Σc/n, ``brier`` = Σ(c − y)²/n, ``ece`` and
        ``mce`` over ``bins`` equal-width bins, ``ece_equal_mass`` over
        bins of equal count, ``auroc`` (Mann–Whitney, ties ½), ``aurc`` (the
        area under the risk–coverage step curve).

        Parameters
        ----------
        level : {None, "model", "field"}, default None
            ``None``: every row, models and fields together, with a
            ``level`` column (``"model"`` or ``"field"``) and ``field``
            missing on a model's row (``None``, or NaN in pandas 3's
            string columns); each model's row first, then its
            fields by path. ``"model"``: the model rows only, indexed by
            ``model``. ``"field"``: the field rows only, indexed by
            (``model``, ``field``).

        Returns
        -------
        pandas.DataFrame
            Model rows: ``pairs``, ``with_confidence``, ``accuracy``,
            ``mean_confidence``, ``brier``, ``ece``, ``ece_equal_mass``,
            ``mce``, ``auroc``, ``aurc``, ``straight_through_threshold``,
            ``straight_through_documents``, ``straight_through_rate``,
            ``straight_through_accuracy``; a model without confidences
            (``"confidence": null``) has ``pairs`` 0 and NaN elsewhere.
            Field rows: ``pairs``, ``accuracy``, ``mean_confidence``,
            ``ece``, ``auroc``, ``recommended_threshold`` and ``coverage``
            (the share of the field's pairs accepted at that threshold).
            With ``level=None`` a column a row's level does not have is
            NaN. ``null`` in the report is NaN.

        Raises
        ------
        ValueError
            An unknown ``level``.
        ImportError
            pandas is not installed.

        Examples
        --------
        >>> report.confidence_frame("model")[["ece", "auroc", "aurc"]]  # doctest: +SKIP
        >>> report.confidence_frame("field").query("pairs >= 20")  # doctest: +SKIP
        """
        from fieldscope._frames import CONFIDENCE_LEVELS, confidence_frame

        if level not in CONFIDENCE_LEVELS:
            raise ValueError(f"level: {level!r}; expected None, 'model' or 'field'")
        return confidence_frame(self._parsed(), level)

    def errors_frame(self, level: str = "model") -> "Any":
        """The error types (SPEC §9.1): why values are not right, one row
        per model or per (model, field), as the JSON report's ``errors``.

        Each value whose truth and prediction are both present and that is
        not exact is the first of ``format`` (the same value in another
        number or date convention, or the same letters and digits),
        ``scale`` (off by 10^k, 1 ≤ |k| ≤ 6), ``swapped`` (another field's
        truth), ``near_miss`` (string similarity ≥ config
        ``errors.near_miss``, default 0.8), ``wrong``; ``missed`` and
        ``spurious`` are the outcome counts of those names.

        Parameters
        ----------
        level : {"model", "field"}, default "model"
            ``"model"``: one row per model, indexed by ``model``.
            ``"field"``: one row per row of each model's per-field table,
            indexed by (``model``, ``field``).

        Returns
        -------
        pandas.DataFrame
            Integer columns ``format``, ``scale``, ``swapped``,
            ``near_miss``, ``wrong``, ``missed``, ``spurious``.

        Raises
        ------
        ValueError
            An unknown ``level``.
        ImportError
            pandas is not installed.

        Examples
        --------
        >>> report.errors_frame()[["format", "scale", "swapped"]]  # doctest: +SKIP
        >>> report.errors_frame("field").query("swapped > 0")  # doctest: +SKIP
        """
        from fieldscope._frames import ERROR_LEVELS, errors_frame

        if level not in ERROR_LEVELS:
            raise ValueError(f"level: {level!r}; expected 'model' or 'field'")
        return errors_frame(self._parsed(), level)

    def reliability_frame(self) -> "Any":
        """The reliability bins (SPEC §8.3): one row per (model, bin) for
        each model with confidences, as its ``confidence.bins``.

        Bin k is [k/B, (k+1)/B), the last closed at 1 (B = config
        ``confidence.bins``, default 10); a confidence on an edge is in the
        upper bin.

        Returns
        -------
        pandas.DataFrame
            Indexed by (``model``, ``bin``), ``bin`` counting from 0;
            columns ``low``, ``high``, ``count``, ``accuracy`` (correct /
            count) and ``mean_confidence``, both NaN for an empty bin.

        Raises
        ------
        ImportError
            pandas is not installed.

        Examples
        --------
        >>> bins = report.reliability_frame().loc["gpt"]  # doctest: +SKIP
        >>> (bins["accuracy"] - bins["mean_confidence"]).abs()  # doctest: +SKIP
        """
        from fieldscope._frames import reliability_frame

        return reliability_frame(self._parsed())

    def slices_frame(self) -> "Any":
        """One row per (model, slice) (SPEC §9.2), as the JSON report's
        ``slices`` key lists them: each model's weak slices first (δ
        descending), then the others by key and value.

        A slice is the documents sharing a value of a ``slice_by`` key (a
        top-level truth key, or ``_items``, ``_fields``, ``_schema``; a
        number with more than 10 distinct values is cut into quartile bins
        ``[low, high]``; ``None`` the documents without the key). ``delta``
        = micro F1 of the other documents − micro F1 of the slice; ``p_value``
        = (1 + #{b : δ_b ≤ 0}) / (B + 1) over B bootstrap resamples;
        ``p_holm`` Holm-adjusted over the model's tested slices; ``weak``
        when ``p_holm`` ≤ ``slices.alpha``.

        Needs slices: ``evaluate(..., config={"slice_by": ["KEY"]})``.

        Returns
        -------
        pandas.DataFrame
            Columns ``model``, ``key``, ``value`` (the report's value: a
            string, number, ``None``, or a ``[low, high]`` list),
            ``documents``, the slice's micro ``precision``, ``recall``,
            ``f1``, ``accuracy``, and ``delta``, ``p_value``, ``p_holm``
            (NaN for a slice that is not tested: fewer than
            ``slices.min_documents`` documents inside or outside it) and
            ``weak``.

        Raises
        ------
        ValueError
            The report was made without ``slice_by``.
        ImportError
            pandas is not installed.

        Examples
        --------
        >>> r = fieldscope.evaluate(truth, preds, config={"slice_by": ["country"]})  # doctest: +SKIP
        >>> r.slices_frame().query("weak")  # doctest: +SKIP
        """
        from fieldscope._frames import slices_frame

        return slices_frame(self._parsed())

    def suspects_frame(self) -> "Any":
        """The suspected truth errors (SPEC §9.3), one row each, in the
        report's order (most support first, then the higher mean confidence,
        then id and field).

        A (document, field) slot is suspect when no model is exact or a true
        negative there and at least max(2, ⌈agreement·M⌉) of the M models
        (config ``audit.agreement``, default 0.5) agree on one present
        value; an item field is named ``items[i].field`` (truth item i,
        0-based). Fewer than two models: no row.

        Returns
        -------
        pandas.DataFrame
            Columns ``id``, ``field``, ``truth`` (None when absent),
            ``proposed``, ``models`` (a list of names), ``support`` (int64)
            and ``mean_confidence`` (NaN when no supporter carries one).

        Raises
        ------
        ImportError
            pandas is not installed.

        Examples
        --------
        >>> s = report.suspects_frame()  # doctest: +SKIP
        >>> corrections = [{"id": r.id, "field": r.field, "from": r.truth,
        ...                 "to": r.proposed} for r in s.itertuples()]  # doctest: +SKIP
        """
        from fieldscope._frames import suspects_frame

        return suspects_frame(self._parsed())


class Sweep(_Rendered):
    """A threshold sweep: micro F1, micro accuracy, macro-document F1 and the
    item scores of every model at each value of one threshold, each point a
    full evaluation — what ``fieldscope sweep`` prints. Made by :func:`sweep`.
    """

    __slots__ = ("_native",)

    def __init__(self, native: Any) -> None:
        self._native = native

    def frame(self) -> "Any":
        """One row per (model, value): ``micro_f1``, ``micro_accuracy``,
        ``macro_documents_f1``, ``item_f1``, ``item_count_accuracy``.

        Returns
        -------
        pandas.DataFrame
            Indexed by (``model``, ``value``).
        """
        from fieldscope._frames import sweep_frame

        return sweep_frame(self.to_dict())

    def __repr__(self) -> str:
        d = self.to_dict()
        return f"<fieldscope.Sweep of {d['key']}: {len(d['models'])} model(s)>"


# --- the functions --------------------------------------------------------------

Input = Any  # str | os.PathLike | bytes | list[dict] | dict[str, dict] | pandas.DataFrame
# One schema (a path, a dict) or several (SPEC §7.2): a list of paths or
# (name, schema) pairs, or a dict name → schema.
Schemas = Any
# The models' predictions: name → input, or paths (each named by its stem).
Predictions = Union[Dict[str, Input], Sequence[Union[str, "os.PathLike[str]"]]]
# A metrics config (SPEC §4): a path or a dict.
ConfigFile = Union[None, str, "os.PathLike[str]", dict]


def evaluate(
    truth: Input,
    predictions: Predictions,
    *,
    schema: Schemas = None,
    schema_by: Optional[str] = None,
    config: ConfigFile = None,
    preset: Optional[str] = None,
    costs: Optional[Dict[str, float]] = None,
    details: bool = False,
    bootstrap: Union[None, bool, int] = None,
    seed: int = 1,
    alpha: float = 0.05,
    metrics: Union[None, str, Iterable[str]] = None,
    app_url: Optional[str] = None,
    apply_suggestions: bool = False,
    corrections: Union[None, str, "os.PathLike[str]", List[dict]] = None,
) -> Report:
    """Compare the ground truth with each model's predictions (SPEC §1–§5).

    Each (document, field) pair is exact, partial, incorrect, missed,
    spurious or a true negative (SPEC §2.3); then, with TP = exact,
    FP = incorrect + partial + spurious, FN = missed (+ incorrect + partial
    under ``incorrect_counts_as = ["fp", "fn"]``):
    precision = TP / (TP + FP), recall = TP / (TP + FN),
    F1 = 2·P·R / (P + R), accuracy = (TP + TN) / N, under three averages
    (micro, macro over documents, macro over fields; SPEC §3.2). The same
    computation as ``fieldscope eval``, with the GIL released.

    Parameters
    ----------
    truth : path, bytes, list of dict, dict, or pandas.DataFrame
        The ground truth. A path (``str`` or ``os.PathLike``) to a ``.json``
        (array, or object id → record), ``.jsonl`` or ``.csv`` file; the
        bytes of such a file (the format sniffed from the content); a list
        of records (dicts); a dict id → record; or a DataFrame, one row per
        record (its columns the fields; NaN, ``pd.NA`` and ``pd.NaT`` are
        null; the index is not used).
    predictions : dict of str to input, or list of paths
        Each model's predictions: a dict model name → any input ``truth``
        accepts, or a list of paths (each model named by its file stem).
        In-memory inputs are named ``"<NAME>"`` in messages.
    schema : path, dict, or several, optional
        A JSON Schema (draft-07) of the records: field types and schema
        validity (SPEC §3.5). Several schemas (SPEC §7.2), each named by
        the file stem of its path (``schemas/inv_0042.json`` is
        ``"inv_0042"``, ``x.schema.json`` is ``"x.schema"``): a list of
        paths or of ``(name, schema)`` pairs, or a dict name → schema (a
        dict holding a JSON Schema keyword such as ``"type"`` or
        ``"properties"`` at its top is one schema). With several, each
        document is evaluated with the schema it names by ``schema_by``,
        on its own field set; a document that names none is evaluated
        without one (one warning lists them). A list of one is one schema.
    schema_by : str, optional
        With several schemas (required then, here or as the config's
        ``schema_by``): ``"id"`` (a document's id is its schema's name) or
        a top-level truth field whose value, trimmed, is the name. Beats
        the config's ``schema_by``.
    config : path or dict, optional
        The metrics configuration (``metrics_config.json``, SPEC §4).
    preset : {"standard", "exact", "not-found", "invoice-cer"}, optional
        A preset; beats the config's ``preset``.
    costs : dict of str to float, optional
        A model's cost (overrides the records' ``cost`` values; SPEC §3.6).
    details : bool, default False
        Add per-document details (each field's truth, prediction, outcome,
        similarity, CER): ``documents_frame()`` needs them.
    bootstrap : int or True, optional
        Add percentile bootstrap intervals with this many resamples of the
        documents (``True``: 1000) and paired bootstrap tests between models
        (Holm-adjusted): the report's ``bootstrap`` key.
    seed : int, default 1
        The bootstrap's seed (the same seed gives the same intervals).
    alpha : float, default 0.05
        Significance level of the paired tests, in (0, 1).
    metrics : str or list of str, optional
        Also compute literature metrics: ``"anls_star"``, ``"nted"``,
        ``"donut_f1"``, or ``"all"``.
    app_url : str, optional
        Where the fieldscope browser app is hosted (an ``http://`` or
        ``https://`` address; the config key ``app_url``, the CLI's
        ``--app-url``): ``to_html()`` links to it and says how to re-open
        the report there.
    apply_suggestions : bool, default False
        Evaluate with every suggestion (SPEC §7.4) applied: when the
        evaluation suggests field types, evaluate again with them added to
        the config's ``field_types`` and return that report (its
        ``applied_suggestions`` list them). The same as passing each
        suggestion's ``config`` in ``config=``.
    corrections : path or list of dict, optional
        Corrections applied to the truth before evaluating (SPEC §9.3), as
        ``fieldscope eval --corrections``: a JSON file or a list of
        ``{"id", "field", "from", "to"}`` (``field`` with 0-based item
        indices, ``items[1].qty``; ``from`` the truth's present value, or
        None for an absent one). Each applied correction is a warning; one
        that does not fit the truth raises ``InputError`` naming it.

    Returns
    -------
    Report
        Its ``to_dict()`` equals ``json.loads`` of ``fieldscope eval
        --format json`` on the same inputs.

    Raises
    ------
    InputError
        An input cannot be read: bad encoding or syntax, a record that is
        not an object, an invalid schema, a bad key in a config file. The
        message is the CLI's; ``.path``, ``.line``, ``.column`` say where.
    ValueError
        A bad configuration key or value (the message names the key), an
        unknown preset or metric, a bad argument.
    TypeError
        An input of a type not listed above.
    OSError
        A file cannot be read.

    Warns
    -----
    EvaluationWarning
        Each of the report's warnings (unmatched ids, duplicates, …).
    SuggestionWarning
        Each of the report's suggestions (none left after
        ``apply_suggestions=True``).

    Each message is issued once per process under Python's default
    warning filter, whichever line calls.

    Examples
    --------
    >>> truth = [{"id": "1", "name": "abcdef"}]
    >>> report = fieldscope.evaluate(truth, {"m": [{"id": "1", "name": "abcxyz"}]})
    >>> report.to_dict()["models"][0]["partial"]["f1"]
    0.5

    Several schemas, each document picking its own by a truth field:

    >>> truth = [{"id": "1", "kind": "inv", "total": 5}, {"id": "2", "kind": "rec", "store": "A"}]
    >>> schemas = {"inv": {"properties": {"total": {"type": "number"}}},
    ...            "rec": {"properties": {"store": {"type": "string"}}}}
    >>> r = fieldscope.evaluate(truth, {"m": truth}, schema=schemas, schema_by="kind")
    >>> r.to_dict()["models"][0]["counts"]["true_negative"]
    0
    """
    common = _common(truth, predictions, schema, config, preset, costs)
    bootstrap = _bootstrap_args(bootstrap, seed, alpha)
    layer: Dict[str, Any] = {}
    if _app_url(app_url) is not None:
        layer["app_url"] = app_url
    corrections_spec = _corrections_spec(corrections)

    def once(layer: Dict[str, Any]) -> Any:
        return _native.evaluate(
            common,
            bool(details),
            bootstrap,
            seed,
            float(alpha),
            _metrics(metrics),
            schema_by=_schema_by(schema_by),
            layer=json.dumps(layer) if layer else None,
            corrections=corrections_spec,
        )

    native = once(layer)
    applied: List[Dict[str, Any]] = []
    if apply_suggestions:
        applied = json.loads(native.suggestions)
        if applied:
            native = once({**layer, "field_types": _applied_types(applied)})
    _warn(native.warnings)
    _warn_suggestions(json.loads(native.suggestions))
    return Report(native, applied)


def sweep(
    truth: Input,
    predictions: Predictions,
    param: str,
    values: Optional[Iterable[float]] = None,
    *,
    schema: Schemas = None,
    schema_by: Optional[str] = None,
    config: ConfigFile = None,
    preset: Optional[str] = None,
    costs: Optional[Dict[str, float]] = None,
) -> Sweep:
    """Evaluate again at every value of one threshold, as ``fieldscope sweep``.

    Each point is a full evaluation with one configuration key changed:
    ``similarity`` sets ``partial_matching.string.exact_threshold`` (and
    ``string_match.method = "similarity"``), ``cer`` sets
    ``string_match.cer_threshold`` (and ``method = "cer"``), ``item`` sets
    ``item_f1_threshold``.

    Parameters
    ----------
    truth, predictions, schema, schema_by, config, preset, costs
        As for :func:`evaluate`.
    param : {"similarity", "cer", "item"}
        The threshold to move.
    values : iterable of float, optional
        The values (non-negative); default 0, 0.05, …, 1.

    Returns
    -------
    Sweep
        Its ``to_json()`` is ``fieldscope sweep --format json``'s output.

    Raises
    ------
    InputError, ValueError, TypeError, OSError
        As for :func:`evaluate`; ``ValueError`` for an unknown ``param``.

    Examples
    --------
    >>> s = fieldscope.sweep("truth.jsonl", ["gpt.jsonl"], "cer", [0.1, 0.2])  # doctest: +SKIP
    >>> s.frame()  # doctest: +SKIP
    """
    common = _common(truth, predictions, schema, config, preset, costs)
    return Sweep(
        _native.sweep(common, str(param), _values(values), schema_by=_schema_by(schema_by))
    )


def figures(
    truth: Input,
    predictions: Predictions,
    out_dir: Union[str, "os.PathLike[str]"],
    *,
    size: str = "full",
    formats: Iterable[str] = ("pdf", "svg"),
    values: Optional[Iterable[float]] = None,
    schema: Schemas = None,
    schema_by: Optional[str] = None,
    config: ConfigFile = None,
    preset: Optional[str] = None,
    costs: Optional[Dict[str, float]] = None,
) -> List[Path]:
    """Write every chart of the report and of the three threshold sweeps, as
    ``fieldscope figures``: ``ID.svg`` / ``ID.pdf`` per chart and
    ``captions.md``.

    The charts: metric bars (macro over documents), outcome distribution,
    per-field F1 heatmap, predicted vs true values, CER distribution, the
    item metrics when there are line items, and the sweeps' line charts.
    Text is 8.5 pt at the chosen width; PDFs embed Liberation Sans.

    Parameters
    ----------
    truth, predictions, schema, schema_by, config, preset, costs
        As for :func:`evaluate`.
    out_dir : path
        The directory to write to (created if missing).
    size : {"full", "column"}, default "full"
        ``full``: 7 in wide; ``column``: 3.3 in (one column of two).
    formats : iterable of {"pdf", "svg"}, default ("pdf", "svg")
    values : iterable of float, optional
        The sweeps' threshold values; default 0, 0.05, …, 1.

    Returns
    -------
    list of pathlib.Path
        The files written, ``captions.md`` last.

    Raises
    ------
    InputError, ValueError, TypeError, OSError
        As for :func:`evaluate`; ``ValueError`` for an unknown size or format.

    Examples
    --------
    >>> fieldscope.figures("truth.jsonl", ["gpt.jsonl"], "figures", size="column")  # doctest: +SKIP
    """
    common = _common(truth, predictions, schema, config, preset, costs)
    if isinstance(formats, str):
        formats = formats.split(",")
    wanted = {str(f).strip().lower() for f in formats}
    unknown = wanted - {"pdf", "svg"}
    if unknown or not wanted:
        raise ValueError(
            f"formats: {sorted(unknown) if unknown else 'empty'}; expected 'pdf', 'svg' or both"
        )
    size = str(size).strip().lower()
    paths, messages = _native.figures(
        common,
        _path_name(out_dir),
        size,
        "pdf" in wanted,
        "svg" in wanted,
        _values(values),
        schema_by=_schema_by(schema_by),
    )
    _warn(messages)
    return [Path(p) for p in paths]


# The sharded evaluation (learn, evaluate_partial, merge): its own module,
# which uses Report and the input helpers above.
from fieldscope._shards import evaluate_partial, learn, merge  # noqa: E402
