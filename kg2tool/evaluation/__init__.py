"""Evaluation: BFCL-style AST scoring of decoded tool calls, and loaders for BFCL-format data.

``ast_checker`` is pure Python (no torch, no bfcl-eval); ``bfcl_official`` wraps BFCL's own checker for the
agreement test and benchmark only.
"""

from .ast_checker import CheckResult, category_from_id, check, check_call, checker_kind, normalize_string

__all__ = ["CheckResult", "category_from_id", "check", "check_call", "checker_kind", "normalize_string"]
