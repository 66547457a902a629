"""Type stubs of the compiled part (internal: use the functions of
``fieldscope``)."""

from pathlib import Path
from typing import Any, List, Optional, Sequence, Tuple, Union

VERSION: str
RATE_KEYS: List[str]

Spec = Tuple[str, str, Any]
# `fieldscope._common`'s tuple: truth, models, schema, config, preset, costs.
Inputs = Tuple[
    Spec,
    Sequence[Tuple[str, Spec]],
    Union[None, Spec, List[Tuple[Optional[str], Spec]]],
    Optional[Spec],
    Optional[str],
    Sequence[Tuple[str, float]],
]

class NativeReport:
    warnings: List[str]
    models: List[str]
    documents: int
    suggestions: str
    def render(self, format: str) -> str: ...
    def render_fragment(self) -> str: ...

class NativeSweep:
    def render(self, format: str) -> str: ...

def evaluate(
    inputs: Inputs,
    details: bool,
    bootstrap: Optional[int],
    seed: int,
    alpha: float,
    metrics: Optional[str],
    schema_by: Optional[str] = None,
    layer: Optional[str] = None,
    corrections: Optional[Spec] = None,
) -> NativeReport: ...
def sweep(
    inputs: Inputs,
    param: str,
    values: Optional[List[float]],
    schema_by: Optional[str] = None,
) -> NativeSweep: ...
def figures(
    inputs: Inputs,
    out_dir: str,
    size: str,
    pdf: bool,
    svg: bool,
    values: Optional[List[float]],
    schema_by: Optional[str] = None,
) -> Tuple[List[Path], List[str]]: ...
def learn(
    inputs: Inputs,
    schema_by: Optional[str] = None,
) -> bytes: ...
def evaluate_partial(
    inputs: Inputs,
    learned: Optional[Tuple[str, bytes]],
    details: bool,
    schema_by: Optional[str] = None,
) -> bytes: ...
def merge(
    partials: Sequence[Tuple[str, bytes]],
    details: bool,
    bootstrap: Optional[int],
    seed: int,
    alpha: float,
) -> NativeReport: ...
def run_cli(args: List[str]) -> Tuple[int, bytes, bytes]: ...
def _panic_for_tests() -> None: ...
