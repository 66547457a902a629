"""Type stubs of fieldscope (see the docstrings in __init__.py)."""

import os
from pathlib import Path
from typing import Any, Dict, Iterable, List, Literal, Optional, Sequence, Tuple, Union

from fieldscope._errors import EvaluationWarning as EvaluationWarning
from fieldscope._errors import InputError as InputError
from fieldscope._errors import SuggestionWarning as SuggestionWarning

__version__: str
METRICS: tuple[str, ...]

PathLike = Union[str, "os.PathLike[str]"]
Record = Dict[str, Any]
#: A records input: a path, the bytes of a file, a list of records, a dict
#: id → record, or a pandas DataFrame (one row per record).
Input = Union[PathLike, bytes, bytearray, memoryview, Sequence[Record], Dict[str, Record], Any]
Predictions = Union[Dict[str, Input], Sequence[PathLike], PathLike]
Document = Union[PathLike, Dict[str, Any]]
# One schema, or several (SPEC §7.2): paths (named by file stem), (name,
# schema) pairs, or a dict name → schema.
Schemas = Union[
    Document,
    bool,
    Sequence[Union[PathLike, Tuple[str, Union[Document, bool]]]],
    Dict[str, Union[Dict[str, Any], bool]],
]
Averaging = Literal["macro_documents", "micro", "macro_fields"]
Preset = Literal["standard", "exact", "not-found", "invoice-cer"]

class Report:
    @property
    def models(self) -> List[str]: ...
    @property
    def documents(self) -> int: ...
    @property
    def warnings(self) -> List[str]: ...
    @property
    def suggestions(self) -> List[Dict[str, Any]]: ...
    @property
    def applied_suggestions(self) -> List[Dict[str, Any]]: ...
    def to_dict(self) -> Dict[str, Any]: ...
    def to_json(self) -> str: ...
    def to_markdown(self) -> str: ...
    def to_latex(self) -> str: ...
    def to_csv(self) -> str: ...
    def to_html(self) -> str: ...
    def _repr_html_(self) -> str: ...
    def models_frame(self, averaging: Averaging = "macro_documents") -> Any: ...
    def fields_frame(self) -> Any: ...
    def documents_frame(self) -> Any: ...
    def confidence_frame(self, level: Optional[Literal["model", "field"]] = None) -> Any: ...
    def reliability_frame(self) -> Any: ...
    def slices_frame(self) -> Any: ...
    def suspects_frame(self) -> Any: ...

class Sweep:
    def to_dict(self) -> Dict[str, Any]: ...
    def to_json(self) -> str: ...
    def to_markdown(self) -> str: ...
    def to_latex(self) -> str: ...
    def to_csv(self) -> str: ...
    def frame(self) -> Any: ...

def evaluate(
    truth: Input,
    predictions: Predictions,
    *,
    schema: Optional[Schemas] = None,
    schema_by: Optional[str] = None,
    config: Optional[Document] = None,
    preset: Optional[Preset] = None,
    costs: Optional[Dict[str, float]] = None,
    details: bool = False,
    bootstrap: Union[None, bool, int] = None,
    seed: int = 1,
    alpha: float = 0.05,
    metrics: Union[None, str, Iterable[str]] = None,
    app_url: Optional[str] = None,
    apply_suggestions: bool = False,
    corrections: Union[None, str, "os.PathLike[str]", List[dict]] = None,
) -> Report: ...
def sweep(
    truth: Input,
    predictions: Predictions,
    param: Literal["similarity", "cer", "item"],
    values: Optional[Iterable[float]] = None,
    *,
    schema: Optional[Schemas] = None,
    schema_by: Optional[str] = None,
    config: Optional[Document] = None,
    preset: Optional[Preset] = None,
    costs: Optional[Dict[str, float]] = None,
) -> Sweep: ...
def figures(
    truth: Input,
    predictions: Predictions,
    out_dir: PathLike,
    *,
    size: Literal["full", "column"] = "full",
    formats: Iterable[Literal["pdf", "svg"]] = ("pdf", "svg"),
    values: Optional[Iterable[float]] = None,
    schema: Optional[Schemas] = None,
    schema_by: Optional[str] = None,
    config: Optional[Document] = None,
    preset: Optional[Preset] = None,
    costs: Optional[Dict[str, float]] = None,
) -> List[Path]: ...
def learn(
    truth: Input,
    predictions: Predictions,
    *,
    schema: Optional[Schemas] = None,
    schema_by: Optional[str] = None,
    config: Optional[Document] = None,
    preset: Optional[Preset] = None,
    costs: Optional[Dict[str, float]] = None,
) -> bytes: ...
def evaluate_partial(
    truth: Input,
    predictions: Predictions,
    *,
    schema: Optional[Schemas] = None,
    schema_by: Optional[str] = None,
    config: Optional[Document] = None,
    preset: Optional[Preset] = None,
    costs: Optional[Dict[str, float]] = None,
    learned: Union[None, bytes, PathLike] = None,
    details: bool = False,
) -> bytes: ...
def merge(
    partials: Iterable[Union[bytes, PathLike]],
    *,
    details: bool = False,
    bootstrap: Union[None, bool, int] = None,
    seed: int = 1,
    alpha: float = 0.05,
) -> Report: ...
def run(argv: Optional[List[str]] = None) -> int: ...
