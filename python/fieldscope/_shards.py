"""An evaluation split over shards of the documents: :func:`learn`,
:func:`evaluate_partial` and :func:`merge` (``fieldscope learn``,
``fieldscope eval --partial`` and ``fieldscope merge`` as functions).

The shards can be evaluated anywhere — Dask, Spark, Ray, a process pool —
since a partial result is plain bytes; :func:`merge` gives the report one
:func:`fieldscope.evaluate` over all their documents gives, byte for byte.
The design and the format: ``docs/partial-results.md``; a Dask example:
``docs/distributed.md``.
"""

import json
import os
from typing import Any, Dict, Iterable, Optional, Tuple, Union

# fieldscope/__init__.py imports this module after defining these.
from fieldscope import (
    ConfigFile,
    Input,
    Predictions,
    Report,
    Schemas,
    _bootstrap_args,
    _common,
    _native,
    _schema_by,
    _warn,
    _warn_suggestions,
)


def _bytes_or_path(obj: Any, name: str, role: str) -> Tuple[str, bytes]:
    """A learned-fields file or a partial result: ``(name, bytes)``. A
    path is read (its name is the path); bytes are named ``name``."""
    if isinstance(obj, (str, os.PathLike)):
        path = os.fsdecode(os.fspath(obj))
        with open(path, "rb") as f:
            return (path, f.read())
    if isinstance(obj, (bytes, bytearray, memoryview)):
        return (name, bytes(obj))
    raise TypeError(
        f"{role}: expected bytes or a path (str or os.PathLike), found {type(obj).__name__}"
    )


def learn(
    truth: Input,
    predictions: Predictions,
    *,
    schema: Schemas = None,
    schema_by: Optional[str] = None,
    config: ConfigFile = None,
    preset: Optional[str] = None,
    costs: Optional[Dict[str, float]] = None,
) -> bytes:
    """Learn the fields of every document once, for :func:`evaluate_partial`
    over shards of them: ``fieldscope learn``.

    A field's kind comes from the schema, else from the ground truth's
    first present value, else from the predictions' (SPEC §1.2); which
    fields a model is scored on, the report's warnings and each model's
    cost are about all the documents. A shard alone can decide otherwise,
    so these decisions are made once, here, over every document (the
    passes before the comparison: about a third of an evaluation's time),
    and each shard compares under them.

    Parameters
    ----------
    truth, predictions, schema, schema_by, config, preset, costs
        All the documents, as for :func:`fieldscope.evaluate`. The report's
        warnings name the files as given here. Several schemas (SPEC §7.2)
        are refused with a ``ValueError``: a learned-fields file holds one
        dataset-wide field set, while with several schemas each document
        has its own; evaluate such a dataset in one :func:`fieldscope.evaluate`.

    Returns
    -------
    bytes
        The learned-fields file, byte for byte what ``fieldscope learn
        --out FILE`` writes for the same inputs (CBOR). Give it to every
        :func:`evaluate_partial` as ``learned=``.

    Raises
    ------
    InputError, ValueError, TypeError, OSError
        As for :func:`fieldscope.evaluate`.

    Examples
    --------
    >>> learned = fieldscope.learn("truth.jsonl", ["gpt.jsonl"])  # doctest: +SKIP
    """
    return _native.learn(
        _common(truth, predictions, schema, config, preset, costs),
        schema_by=_schema_by(schema_by),
    )


def evaluate_partial(
    truth: Input,
    predictions: Predictions,
    *,
    schema: Schemas = None,
    schema_by: Optional[str] = None,
    config: ConfigFile = None,
    preset: Optional[str] = None,
    costs: Optional[Dict[str, float]] = None,
    learned: Union[None, bytes, str, "os.PathLike[str]"] = None,
    details: bool = False,
) -> bytes:
    """Compare one shard of the documents and return its partial result:
    ``fieldscope eval --partial``.

    Each document's contribution — every comparison's outcome (SPEC §2.3)
    and CER counts, set and line-item tallies, numeric counts — is kept
    apart, so :func:`merge` can add the shards up in document order exactly
    as one evaluation does: integer counts, and floating-point sums adding
    the same terms in the same order.

    Parameters
    ----------
    truth, predictions, schema, schema_by, config, preset, costs
        This shard's documents and their predictions, as for
        :func:`fieldscope.evaluate` (the predictions of the shard's truth
        documents; split them by the truth's ids). ``schema``, ``config``,
        ``preset`` and the model names must be those given to :func:`learn`.
        Several schemas (SPEC §7.2) are refused with a ``ValueError``, as
        by :func:`learn`.
    learned : bytes or path, optional
        The fields learnt from every document (:func:`learn`). Without it
        the shard learns from itself alone, and its partial result merges
        only with itself.
    details : bool, default False
        Keep each compared value, so that ``merge(..., details=True)``
        (and ``documents_frame()``) can show them.

    Returns
    -------
    bytes
        The partial result, byte for byte what ``fieldscope eval --partial
        FILE`` writes for the same inputs (a CBOR sequence: a header with
        the format and fieldscope versions, the configuration and the
        learnt fields, then one item per document).

    Raises
    ------
    InputError
        An input cannot be read, or ``learned`` does not fit these inputs
        (another configuration, schema or model names; a field or a
        document it does not know); the message says what differs.
    ValueError, TypeError, OSError
        As for :func:`fieldscope.evaluate`.

    Examples
    --------
    >>> part = fieldscope.evaluate_partial(  # doctest: +SKIP
    ...     "truth-00.jsonl", {"gpt": "gpt-00.jsonl"}, learned=learned
    ... )
    """
    common = _common(truth, predictions, schema, config, preset, costs)
    given = None if learned is None else _bytes_or_path(learned, "learned", "learned")
    return _native.evaluate_partial(
        common, given, bool(details), schema_by=_schema_by(schema_by)
    )


def merge(
    partials: Iterable[Union[bytes, str, "os.PathLike[str]"]],
    *,
    details: bool = False,
    bootstrap: Union[None, bool, int] = None,
    seed: int = 1,
    alpha: float = 0.05,
) -> Report:
    """Merge partial results into the report of all their documents:
    ``fieldscope merge``.

    The documents are added up in the order the partials are given (their
    truth records in that order), as one evaluation adds them; then the
    ratios (SPEC §3), the averages and, if asked, the bootstrap (SPEC §3.8)
    are computed as :func:`fieldscope.evaluate` computes them.

    Parameters
    ----------
    partials : iterable of bytes or paths
        Partial results from :func:`evaluate_partial` (or files from
        ``fieldscope eval --partial``), in the order their documents
        follow each other. In messages, bytes are named ``partials[i]``.
    details : bool, default False
        Add per-document details (the partials must have been made with
        ``details=True``).
    bootstrap : int or True, optional
        Bootstrap intervals and paired tests with this many resamples
        (``True``: 1000), as for :func:`fieldscope.evaluate`.
    seed : int, default 1
        The bootstrap's seed.
    alpha : float, default 0.05
        Significance level of the paired tests, in (0, 1).

    Returns
    -------
    Report
        The report :func:`fieldscope.evaluate` gives over all the
        documents (with the inputs given to :func:`learn`): ``to_dict()``
        and every ``to_*()`` equal, byte for byte, and equal to ``fieldscope
        merge``'s output.

    Raises
    ------
    InputError
        A partial result that is broken or of another format or fieldscope
        version, partials made under another configuration, schema or model
        names or learnt from other documents, a document in two partials,
        a shard missing or out of order, ``details=True`` asked of partials
        made without details; the message names the partial and what
        differs.
    ValueError
        No partial result, or a bad ``bootstrap``, ``seed`` or ``alpha``.
    TypeError
        A partial that is neither bytes nor a path.

    Warns
    -----
    EvaluationWarning
        Each of the report's warnings.
    SuggestionWarning
        Each of the report's suggestions (SPEC §7.4).

    Examples
    --------
    >>> report = fieldscope.merge([part0, part1, part2])  # doctest: +SKIP
    >>> report.to_dict() == fieldscope.evaluate(truth, preds).to_dict()  # doctest: +SKIP
    True
    """
    if isinstance(partials, (bytes, bytearray, memoryview, str, os.PathLike)):
        partials = [partials]
    given = [
        _bytes_or_path(p, f"partials[{i}]", f"partials[{i}]") for i, p in enumerate(partials)
    ]
    if not given:
        raise ValueError("partials: give at least one partial result")
    bootstrap = _bootstrap_args(bootstrap, seed, alpha)
    native = _native.merge(given, bool(details), bootstrap, seed, float(alpha))
    _warn(native.warnings)
    _warn_suggestions(json.loads(native.suggestions))
    return Report(native)
