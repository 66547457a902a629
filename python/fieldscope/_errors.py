"""fieldscope's exceptions and warnings."""

from typing import Optional

__all__ = ["InputError", "EvaluationWarning", "SuggestionWarning"]


class InputError(ValueError):
    """Input that fieldscope cannot read: a file that is not UTF-8, a syntax
    error, a record that is not an object, a bad id map, an invalid JSON
    Schema, a bad key in a metrics-config file, a malformed list of dicts.

    The message is the one ``fieldscope eval`` prints after ``error:``
    (``file:line:column: record N: what was expected``).

    Attributes
    ----------
    path : str or None
        The file as given (``"<truth>"`` or ``"<NAME>"`` for an in-memory
        input), or None when no file is concerned.
    line, column : int or None
        1-based line and column (in characters) of the error, when known.
    record : str or None
        The record, e.g. ``'record 3'`` or ``'record "inv-002"'``.
    """

    def __init__(
        self,
        message: str,
        path: Optional[str] = None,
        line: Optional[int] = None,
        column: Optional[int] = None,
        record: Optional[str] = None,
    ) -> None:
        super().__init__(message)
        self.path = path
        self.line = line
        self.column = column
        self.record = record


class EvaluationWarning(UserWarning):
    """A warning of the evaluation (the report's ``warnings``, which the CLI
    prints as ``warning: …``): unmatched ids, duplicates, a truth file given
    as predictions, and the like."""


class SuggestionWarning(UserWarning):
    """A suggestion of the evaluation (SPEC §7.4; the report's
    ``suggestions``, which the CLI prints as ``suggestion: …``): a field
    whose truth values are all strings, at least 5, of which at least 95 %
    read as numbers (or dates), so that comparing it as a ``number`` (or
    ``date``) would count equal values written differently as equal. The
    message ends with the one line of config that applies it; pass
    ``apply_suggestions=True`` to :func:`fieldscope.evaluate` to evaluate
    with every suggestion applied."""
