"""The package's layers (docs/architecture.md): every import points down, never up or sideways, and no cycles.

Imports are read with `ast` from the source, including imports inside functions (a lazy import is still an arrow).
"""

from __future__ import annotations

import ast
from pathlib import Path

import networkx as nx

PACKAGE = Path(__file__).resolve().parent.parent / "kg2tool"

# Lowest first. Packages on the same layer are siblings and must not import each other.
LAYERS = [
    ["kg2tool", "kg2tool.common"],
    ["kg2tool.graph", "kg2tool.llm"],
    ["kg2tool.hub"],
    ["kg2tool.synth"],
    ["kg2tool.train", "kg2tool.evaluation"],
    ["kg2tool.demo"],
    ["kg2tool.commands"],
    ["kg2tool.cli"],
    ["kg2tool.__main__"],
]


def module_name(path: Path, package: Path = PACKAGE) -> str:
    parts = list(path.relative_to(package.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


# Inside kg2tool.synth, lowest first: the same rule one level down (plans and the row in flight at the bottom,
# the run that drives everything at the top; language does not import walk).
SYNTH_LAYERS = [
    ["kg2tool.synth", "kg2tool.synth.candidate", "kg2tool.synth.plans"],
    ["kg2tool.synth.language"],
    ["kg2tool.synth.tools"],
    ["kg2tool.synth.walk"],
    ["kg2tool.synth.traces"],
    ["kg2tool.synth.dialogue"],
    ["kg2tool.synth.checks"],
    ["kg2tool.synth.paraphrase"],
    ["kg2tool.synth.run"],
]


def unit_of(module: str, layers: list[list[str]] = LAYERS) -> str:
    """The layer unit a module belongs to: the longest entry of `layers` that is the module or a package above it."""
    best = ""
    for layer in layers:
        for unit in layer:
            if (module == unit or module.startswith(unit + ".")) and len(unit) > len(best):
                best = unit
    assert best, module
    return best


def layer_of(unit: str, layers: list[list[str]] = LAYERS) -> int:
    return next(i for i, layer in enumerate(layers) if unit in layer)


def imports_of(path: Path, package: Path = PACKAGE) -> set[str]:
    """The kg2tool modules `path` imports (`from X import Y` counts X.Y when that is a module)."""
    root = package.parent
    module = module_name(path, package)
    package = module if path.name == "__init__.py" else module.rsplit(".", 1)[0]
    out = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            out |= {a.name for a in node.names if a.name.split(".")[0] == "kg2tool"}
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            if target.split(".")[0] != "kg2tool":
                continue
            for alias in node.names:
                sub = f"{target}.{alias.name}"
                is_module = (root / (sub.replace(".", "/") + ".py")).is_file() or (
                    root / sub.replace(".", "/") / "__init__.py"
                ).is_file()
                out.add(sub if is_module else target)
    return out


def import_graph(package: Path = PACKAGE) -> nx.DiGraph:
    graph = nx.DiGraph()
    for path in sorted(package.rglob("*.py")):
        src = module_name(path, package)
        graph.add_node(src)
        for dst in imports_of(path, package):
            graph.add_edge(src, dst)
    return graph


def test_every_module_has_a_layer():
    for module in import_graph():
        unit_of(module)  # raises when a new top-level module or package is not placed in LAYERS


def against_layers(graph: nx.DiGraph, layers: list[list[str]] = LAYERS, within: str = "") -> list[tuple[str, str]]:
    """Edges from a unit to another unit on the same or a higher layer (only edges inside `within` when given)."""
    if within:
        graph = graph.subgraph([m for m in graph if m == within or m.startswith(within + ".")])
    return [
        (src, dst)
        for src, dst in graph.edges
        if unit_of(src, layers) != unit_of(dst, layers)
        and layer_of(unit_of(dst, layers), layers) >= layer_of(unit_of(src, layers), layers)
    ]


def test_imports_point_down():
    bad = [f"{s} -> {d} ({unit_of(s)}: layer {layer_of(unit_of(s))}, {unit_of(d)}: layer {layer_of(unit_of(d))})"
           for s, d in against_layers(import_graph())]  # fmt: skip
    assert not bad, "imports against the layers of docs/architecture.md:\n" + "\n".join(bad)


def test_synth_imports_point_down():
    graph = import_graph()
    bad = [f"{s} -> {d}" for s, d in against_layers(graph, SYNTH_LAYERS, within="kg2tool.synth")]
    assert not bad, "imports against synth's layers (SYNTH_LAYERS, docs/architecture.md):\n" + "\n".join(bad)


def test_synth_top_level_stays_small():
    """kg2tool/synth/ holds a few concepts (subpackages and modules), not a flat room of files."""
    top = [p.name for p in (PACKAGE / "synth").iterdir() if p.name != "__pycache__"]
    assert len(top) <= 16, sorted(top)


def test_no_import_cycles():
    graph = import_graph()
    # a package's __init__ importing nothing, and submodules importing their package's face, is not a cycle
    cycles = [c for c in nx.simple_cycles(graph) if len(c) > 1]
    assert not cycles, f"import cycles: {cycles[:5]}"


def test_the_checker_sees_a_bad_import(tmp_path):
    """The layer check itself works: an upward and a sideways import planted in a copy of the package are reported."""
    import shutil

    copy = tmp_path / "kg2tool"
    shutil.copytree(PACKAGE, copy, ignore=shutil.ignore_patterns("__pycache__", "_templates"))
    walk = copy / "synth" / "walk" / "walker.py"
    walk.write_text(walk.read_text(encoding="utf-8") + "\nfrom ...evaluation import runner\n", encoding="utf-8")
    sft = copy / "train" / "sft.py"
    sft.write_text(sft.read_text(encoding="utf-8") + "\n\ndef f():\n    from ..evaluation.gold import x\n", encoding="utf-8")
    assert sorted(against_layers(import_graph(copy))) == [
        ("kg2tool.synth.walk.walker", "kg2tool.evaluation.runner"),
        ("kg2tool.train.sft", "kg2tool.evaluation.gold"),
    ]


MODULE_LINES = 600
FUNCTION_LINES = 60
REASON = "Long because"  # a module or function over the limit says why in its docstring, starting with this


def test_modules_and_functions_stay_small():
    """A module holds one idea and a function does one thing: a module over ~600 lines or a function over ~60 says
    in its docstring why it is one piece ("Long because ...")."""
    bad = []
    for path in sorted(PACKAGE.rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        tree = ast.parse(text)
        lines = len(text.splitlines())
        if lines > MODULE_LINES and REASON not in (ast.get_docstring(tree) or ""):
            bad.append(f"{path.relative_to(PACKAGE.parent)}: {lines} lines")
        for node in ast.walk(tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                length = node.end_lineno - node.lineno + 1
                if length > FUNCTION_LINES and REASON not in (ast.get_docstring(node) or ""):
                    bad.append(f"{path.relative_to(PACKAGE.parent)}:{node.lineno} {node.name}: {length} lines")
    assert not bad, "too long, and no reason given in the docstring:\n" + "\n".join(bad)


def test_architecture_doc_names_every_module():
    """docs/architecture.md has a line for every module of the package (its path relative to kg2tool/)."""
    doc = (PACKAGE.parent / "docs" / "architecture.md").read_text(encoding="utf-8")
    missing = [str(p.relative_to(PACKAGE)) for p in sorted(PACKAGE.rglob("*.py"))
               if p.name != "__init__.py" and f"`{p.relative_to(PACKAGE).as_posix()}`" not in doc]  # fmt: skip
    assert not missing, "modules docs/architecture.md does not name:\n" + "\n".join(missing)
