"""The shape of a tool schema (OpenAI / Hugging Face function format) and the schemas of the operator tools
(`intersection`, `union`, `difference`, `count`, `compare`), which work on lists of names whatever the graph."""

from __future__ import annotations


def tool_schema(name: str, description: str, properties: dict, required: list[str]) -> dict:
    """One tool in the OpenAI / Hugging Face format: an object schema with `required`, no other properties."""
    return {
        "type": "function",
        "function": {
            "name": name,
            "description": description,
            "parameters": {
                "type": "object",
                "properties": properties,
                "required": required,
                "additionalProperties": False,
            },
        },
    }


_NAME_LIST = {"type": "array", "items": {"type": "string"}}


def operator_schemas() -> dict[str, dict]:
    """Name -> tool schema of the operator tools (set operations, count, compare).

    Long because it is data: the operator tools' JSON schemas written out.
    """
    sets = {
        "type": "array",
        "items": _NAME_LIST,
        "minItems": 2,
        "description": "Two or more lists of entity names, e.g. results of earlier calls.",
    }
    item = {
        "type": "object",
        "properties": {
            "name": {"type": "string", "description": "Entity name."},
            "value": {
                "anyOf": [
                    {"type": "number"},
                    {"type": "string", "format": "date"},
                    {"type": "string", "format": "date-time", "pattern": r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}"},
                ],
                "description": "A number, or an ISO 8601 date or date-time.",
            },
        },
        "required": ["name", "value"],
        "additionalProperties": False,
    }
    return {
        "intersection": tool_schema(
            "intersection",
            "Return the entity names that appear in every one of the given lists.",
            {"sets": sets},
            ["sets"],
        ),
        "union": tool_schema(
            "union",
            "Return the entity names that appear in at least one of the given lists.",
            {"sets": sets},
            ["sets"],
        ),
        "difference": tool_schema(
            "difference",
            "Return the entity names of `include` that are not in `exclude`.",
            {
                "include": {**_NAME_LIST, "description": "Names to keep."},
                "exclude": {**_NAME_LIST, "description": "Names to remove."},
            },
            ["include", "exclude"],
        ),
        "count": tool_schema(
            "count",
            "Count the distinct entity names in a list.",
            {"items": {**_NAME_LIST, "description": "A list of entity names."}},
            ["items"],
        ),
        "compare": tool_schema(
            "compare",
            "Given named values, return the name whose value is the largest (mode `max`) or smallest (`min`).",
            {
                "items": {"type": "array", "items": item, "minItems": 2, "description": "Named values to compare."},
                "mode": {"type": "string", "enum": ["max", "min"], "description": "`max` or `min`."},
            },
            ["items", "mode"],
        ),
    }
