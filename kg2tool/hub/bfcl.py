"""Write test conversations in the Berkeley Function Calling Leaderboard's own format.

For the single-turn categories (simple, multiple, parallel, parallel_multiple, irrelevance), one JSON-lines file
per category, named as BFCL names its files so that BFCL's checker and `kg2tool eval --bfcl-data` read them:

    bfcl/BFCL_v4_<category>.json                 {"id", "question": [[{"role": "user", "content"}]], "function"}
    bfcl/possible_answer/BFCL_v4_<category>.json {"id", "ground_truth": [{fn: {arg: [acceptable values]}}]}

Irrelevance has no possible-answer file (as in BFCL: a correct output makes no call). Ids are `<category>_<n>`,
the prefix BFCL's tooling reads the category from. Functions are converted to BFCL's type vocabulary (`dict`
for objects, `float` for numbers). Every value the graph accepts for an entity argument is listed: its unique
name, its label and alternative labels that the executor resolves to the same entity.
"""

from __future__ import annotations

from ..graph.model import KnowledgeGraph

BFCL_CATEGORIES = ("simple", "multiple", "parallel", "parallel_multiple", "irrelevance")
_TYPES = {"object": "dict", "number": "float"}


def to_bfcl_schema(schema: dict) -> dict:
    """JSON Schema -> BFCL's parameter description (types dict/float; keywords BFCL does not know dropped)."""
    out: dict = {}
    if "anyOf" in schema:
        out["type"] = "any"
    elif "type" in schema:
        t = schema["type"]
        out["type"] = _TYPES.get(t, t) if isinstance(t, str) else "any"
    for key in ("description", "enum", "required", "default"):
        if key in schema:
            out[key] = schema[key]
    if "properties" in schema:
        out["properties"] = {k: to_bfcl_schema(v) for k, v in schema["properties"].items()}
    if "items" in schema:
        out["items"] = to_bfcl_schema(schema["items"])
    return out


def to_bfcl_function(tool: dict) -> dict:
    """An OpenAI-format tool -> BFCL's function description (`name`, `description`, BFCL-typed `parameters`)."""
    fn = tool["function"]
    return {"name": fn["name"], "description": fn["description"], "parameters": to_bfcl_schema(fn["parameters"])}


def acceptable_values(kg: KnowledgeGraph, value):
    """Every value the executor accepts in place of `value` with the same result (names: all resolving labels)."""
    if isinstance(value, str):
        eid = kg.resolve(value)
        if eid is not None and kg.name(eid) == value:
            return kg.acceptable_names(eid)
    return [value]


def bfcl_records(rows: list[dict], kg: KnowledgeGraph) -> dict[str, tuple[list[dict], list[dict]]]:
    """category -> (test entries, possible answers) for the rows of the BFCL categories, in row order."""
    out: dict[str, tuple[list[dict], list[dict]]] = {c: ([], []) for c in BFCL_CATEGORIES}
    for row in rows:
        cat = row["category"]
        if cat not in out:
            continue
        tests, answers = out[cat]
        bid = f"{cat}_{len(tests)}"
        tests.append(
            {
                "id": bid,
                "question": [[{"role": "user", "content": row["messages"][0]["content"]}]],
                "function": [to_bfcl_function(t) for t in row["tools"]],
                "kg2tool_id": row["id"],
            }
        )
        if cat == "irrelevance":
            continue
        first_turn = row["messages"][1]["tool_calls"]
        truth = [
            {c["function"]["name"]: {k: acceptable_values(kg, v) for k, v in c["function"]["arguments"].items()}}
            for c in first_turn
        ]
        answers.append({"id": bid, "ground_truth": truth})
    return {c: v for c, v in out.items() if v[0]}
