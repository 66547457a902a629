"""Type stubs of the compiled part (internal: use the functions of
``fieldscope``)."""

from pathlib import Path
from typing import Any, List, Optional, Sequence, Tuple, Union

VERSION: str
RATE_KEYS: List[str]

Spec = Tuple[str, str, Any]

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
    truth: Spec,
    models: Sequence[Tuple[str, Spec]],
    schema: Union[None, Spec, List[Tuple[Optional[str], Spec]]],
    config: Optional[Spec],
    preset: Optional[str],
    costs: Sequence[Tuple[str, float]],
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
    truth: Spec,
    models: Sequence[Tuple[str, Spec]],
    schema: Union[None, Spec, List[Tuple[Optional[str], Spec]]],
    config: Optional[Spec],
    preset: Optional[str],
    costs: Sequence[Tuple[str, float]],
    param: str,
    values: Optional[List[float]],
    schema_by: Optional[str] = None,
) -> NativeSweep: ...
def figures(
    truth: Spec,
    models: Sequence[Tuple[str, Spec]],
    schema: Union[None, Spec, List[Tuple[Optional[str], Spec]]],
    config: Optional[Spec],
    preset: Optional[str],
    costs: Sequence[Tuple[str, float]],
    out_dir: str,
    size: str,
    pdf: bool,
    svg: bool,
    values: Optional[List[float]],
    schema_by: Optional[str] = None,
) -> Tuple[List[Path], List[str]]: ...
def learn(
    truth: Spec,
    models: Sequence[Tuple[str, Spec]],
    schema: Union[None, Spec, List[Tuple[Optional[str], Spec]]],
    config: Optional[Spec],
    preset: Optional[str],
    costs: Sequence[Tuple[str, float]],
    schema_by: Optional[str] = None,
) -> bytes: ...
def evaluate_partial(
    truth: Spec,
    models: Sequence[Tuple[str, Spec]],
    schema: Union[None, Spec, List[Tuple[Optional[str], Spec]]],
    config: Optional[Spec],
    preset: Optional[str],
    costs: Sequence[Tuple[str, float]],
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
