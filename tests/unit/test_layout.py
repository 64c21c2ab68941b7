"""The package's layout: the stages in folders, at most eight modules at its top, and no import
cycle, the package root included (an import inside a function counts too)."""

import ast

from conftest import REPO

PACKAGE = REPO / "validator"


def module_name(path) -> str:
    parts = list(path.relative_to(PACKAGE).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def exists(name: str) -> bool:
    where = PACKAGE.joinpath(*name.split(".")) if name else PACKAGE
    return where.with_suffix(".py").is_file() or (where / "__init__.py").is_file()


def imports() -> dict[str, set[str]]:
    """Each module of ours -> the modules of ours it imports."""
    graph = {}
    for path in PACKAGE.rglob("*.py"):
        name = module_name(path)
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        found = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.ImportFrom) or not node.level:
                continue
            base = package.split(".") if package else []
            base = base[: len(base) - (node.level - 1)]
            target = ".".join(base + ([node.module] if node.module else []))
            for alias in node.names:
                inner = f"{target}.{alias.name}" if target else alias.name
                found.add(inner if exists(inner) else target)
        graph[name] = (found | lazy_imports(path)) - {name}
    return graph


def lazy_imports(path) -> set[str]:
    """The modules the package root imports on first use of a name (its ``_HOMES``)."""
    if path != PACKAGE / "__init__.py":
        return set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Assign) and any(getattr(t, "id", "") == "_HOMES"
                                                for t in node.targets):
            return {value.value.lstrip(".") for value in node.value.values}
    raise AssertionError("the package root has no _HOMES: read its imports another way")


def cycle(graph: dict[str, set[str]]) -> list[str] | None:
    state, path = {}, []

    def visit(node: str) -> list[str] | None:
        state[node] = "open"
        path.append(node)
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == "open":
                return path[path.index(nxt):] + [nxt]
            if nxt not in state and (found := visit(nxt)):
                return found
        state[node] = "done"
        path.pop()
        return None

    for node in sorted(graph):
        if node not in state and (found := visit(node)):
            return found
    return None


def test_there_is_no_import_cycle_the_root_included():
    graph = imports()
    assert {"main", "evaluation.dataframes"} <= graph[""]  # the root's own imports are read
    assert "main" in graph["evaluation.sample_check"] and "" not in graph["evaluation.sample_check"]
    assert cycle(graph) is None, " -> ".join(cycle(graph) or [])


def test_the_cycle_finder_finds_one():
    assert cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert cycle({"a": {"b"}, "b": set()}) is None


def test_at_most_eight_modules_at_the_top_and_the_stages_in_folders():
    top = sorted(p.stem for p in PACKAGE.glob("*.py") if p.name != "__init__.py")
    assert len(top) <= 8, top
    for stage in ("text", "retrieval", "rules", "judges", "deciding", "evaluation", "cli"):
        assert (PACKAGE / stage / "__init__.py").is_file(), stage
