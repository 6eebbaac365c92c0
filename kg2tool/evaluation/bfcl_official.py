"""Adapter to BFCL's official checker, for agreement tests and benchmarks only (never used for scoring).

It reproduces what BFCL's runner does with a *decoded* output: for AST categories, the output-format check
(``is_function_calling_format_output``) then ``ast_checker``; for irrelevance, ``is_empty_output``. The import
of ``bfcl_eval``'s checker pulls its model-handler SDKs: install them with ``.ci/install-bfcl.sh``.

BFCL's checker takes a model name, which only decides whether dotted function names must be written with
underscores; we pick a registered model of each kind rather than hard-coding one that might be renamed.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

from ..common.errors import MissingExtraError
from .ast_checker import checker_kind


def load_official() -> Callable[..., dict]:
    """Return ``official_check(functions, output, ground_truth, category, underscore_to_dot=False) -> dict``.

    The dict has ``valid`` and ``error_type``; if BFCL raises, ``valid`` is False and ``error_type`` is
    ``"official_raised:<ExceptionName>"`` (BFCL's runner would stop there; a crash scores nothing).
    """
    try:
        from bfcl_eval.constants.enums import Language
        from bfcl_eval.constants.model_config import MODEL_CONFIG_MAPPING
        from bfcl_eval.eval_checker.ast_eval.ast_checker import ast_checker
        from bfcl_eval.utils import is_empty_output, is_function_calling_format_output
    except ImportError as exc:
        raise MissingExtraError(f"BFCL's official checker is not importable ({exc}); run .ci/install-bfcl.sh") from exc

    def model_for(underscore_to_dot: bool) -> str:
        for name, config in MODEL_CONFIG_MAPPING.items():
            if "_" not in name and bool(config.underscore_to_dot) == underscore_to_dot:
                return name
        raise MissingExtraError(f"no BFCL model with underscore_to_dot={underscore_to_dot}")

    models = {flag: model_for(flag) for flag in (False, True)}

    def official_check(
        functions: list, output: Any, ground_truth: list | None, category: str, underscore_to_dot: bool = False
    ) -> dict:
        output = copy.deepcopy(output)
        if checker_kind(category) == "irrelevance":
            valid = bool(is_empty_output(output))
            return {"valid": valid, "error_type": None if valid else "irrelevance_error:decoder_success"}
        if not is_function_calling_format_output(output):
            return {"valid": False, "error_type": "ast_decoder:decoder_wrong_output_format"}
        try:
            result = ast_checker(
                copy.deepcopy(functions),
                output,
                copy.deepcopy(ground_truth),
                Language.PYTHON,
                category,
                models[underscore_to_dot],
            )
        except Exception as exc:  # noqa: BLE001 - any crash in BFCL is a result to report, not to hide
            return {"valid": False, "error_type": f"official_raised:{type(exc).__name__}"}
        return {"valid": bool(result["valid"]), "error_type": None if result["valid"] else result.get("error_type")}

    return official_check
