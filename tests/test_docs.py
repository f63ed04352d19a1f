"""Docs that tests keep honest: every hook documented, tested, and its examples run."""

from __future__ import annotations

import importlib
import inspect
import io
import json
import re
from pathlib import Path

import pytest

import insomnia_web
from insomnia_web import hookspecs
from insomnia_web.history import JsonlHistory, ToolResultEvent, decode_event

ROOT = Path(__file__).resolve().parents[1]
HOOKS_MD = (ROOT / "hooks.md").read_text()


def _hook_names() -> list[str]:
    return [
        name
        for name, fn in inspect.getmembers(hookspecs, inspect.isfunction)
        if hasattr(fn, "insomnia_spec")
    ]


def test_there_are_hooks() -> None:
    """The hookspec module defines the four hooks of the design."""
    assert sorted(_hook_names()) == [
        "check_permission",
        "register_rerankers",
        "register_search_providers",
        "register_tools",
    ]


@pytest.mark.parametrize("name", _hook_names())
def test_every_hook_is_documented_with_its_exact_signature(name: str) -> None:
    """hooks.md has a heading that is exactly ``name(arg1, arg2)`` for each hook."""
    params = inspect.signature(getattr(hookspecs, name)).parameters
    heading = f"## {name}({', '.join(params)})"
    assert heading in HOOKS_MD.splitlines()


@pytest.mark.parametrize("name", _hook_names())
def test_every_hook_section_covers_arguments_return_and_timing(name: str) -> None:
    """Each hook section names every argument, the return value, when and how it combines."""
    section = HOOKS_MD.split(f"## {name}(", 1)[1].split("\n## ", 1)[0]
    for param in inspect.signature(getattr(hookspecs, name)).parameters:
        assert f"- `{param}`:" in section
    for word in ("Returns:", "When:", "Combining:", "```python"):
        assert word in section


def _test_names() -> set[str]:
    """Names of the test functions under tests/, read from the source."""
    names: set[str] = set()
    for path in (ROOT / "tests").rglob("test_*.py"):
        names.update(re.findall(r"^(?:async )?def (test_\w+)\(", path.read_text(), flags=re.M))
    return names


@pytest.mark.parametrize("name", _hook_names())
def test_every_hook_has_a_test(name: str) -> None:
    """A test named for each hook exists: ``test_hook_<name>...`` (as datasette requires)."""
    assert any(test.startswith(f"test_hook_{name}") for test in _test_names()), (
        f"no test named test_hook_{name}_... under tests/"
    )


def _examples() -> list[str]:
    """The hook examples (the provider guide's blocks are run by tests/search)."""
    hooks_part = HOOKS_MD.split("## Writing a search provider", 1)[0]
    return re.findall(r"```python\n(.*?)```", hooks_part, flags=re.S)


@pytest.mark.parametrize("index", range(len(_examples())))
def test_hooks_md_examples_run(index: int) -> None:
    """Each Python example in hooks.md runs as written."""
    code = compile(_examples()[index], f"hooks.md example {index}", "exec")
    exec(code, {"__name__": "ex"})  # noqa: S102 - running the documentation's examples is the test


def test_public_api_is_sorted_and_importable() -> None:
    """``__all__`` is sorted and every name in it exists."""
    assert insomnia_web.__all__ == sorted(insomnia_web.__all__)
    for name in insomnia_web.__all__:
        assert hasattr(insomnia_web, name), name


# Modules the documentation may import from: the package itself and the public subpackages
# a provider author needs. Everything the docs import must be in that module's ``__all__``.
PUBLIC_MODULES = (
    "insomnia_web",
    "insomnia_web.net",
    "insomnia_web.rank",
    "insomnia_web.search",
    "insomnia_web.testing",
)
DOCS = ("hooks.md", "README.md", "docs/mcp.md", "docs/architecture.md")


def _doc_imports() -> list[tuple[str, str, str]]:
    """(document, module, name) for every ``from insomnia_web... import`` in the docs' code."""
    found = []
    for doc in DOCS:
        path = ROOT / doc
        if not path.exists():
            continue
        text = path.read_text()
        pairs = re.findall(r"^from (insomnia_web[\w.]*) import \(([^)]*)\)", text, flags=re.M)
        pairs += re.findall(r"^from (insomnia_web[\w.]*) import ([^(\n]+)$", text, flags=re.M)
        for module, names in pairs:
            for name in re.split(r"[\s,]+", names.strip()):
                if name:
                    found.append((doc, module, name.split(" as ")[0]))
    return found


def test_docs_import_only_the_public_api() -> None:
    """The docs import only from public modules, and only names in their ``__all__``."""
    imports = _doc_imports()
    assert imports, "no imports found in the docs: the pattern is wrong"
    for doc, module, name in imports:
        assert module in PUBLIC_MODULES, f"{doc} imports from non-public {module}"
        exported = importlib.import_module(module).__all__
        assert name in exported, f"{doc}: {name} is not in {module}.__all__"


def _readme_block(marker: str) -> str:
    text = (ROOT / "README.md").read_text()
    blocks: list[str] = re.findall(r"```python\n(.*?)```", text, flags=re.S)
    return next(b for b in blocks if marker in b)


def test_readme_tool_specs_example_builds_a_tools_array(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """The README's tool_specs example prints a chat-completions tools array of every tool."""
    code = compile(_readme_block("tool_specs()"), "README tool_specs example", "exec")
    exec(code, {"__name__": "ex"})  # noqa: S102 - running the documentation's example is the test
    tools = json.loads(capsys.readouterr().out)
    assert [t["function"]["name"] for t in tools] == ["WebSearch", "WebFetch", "SaveFinding"]
    for tool in tools:
        assert tool["type"] == "function"
        assert tool["function"]["parameters"]["type"] == "object"
        assert tool["function"]["description"]


def test_tool_specs_carry_schemas_and_annotations() -> None:
    """Each spec has the tool's name, title, schemas, annotations and plugin."""
    runtime = insomnia_web.Runtime(load_entrypoints=False)
    specs = {spec.name: spec for spec in runtime.tool_specs()}
    fetch = specs["WebFetch"]
    tool = runtime.get_tool("WebFetch")
    assert fetch.input_schema == tool.input_schema()
    assert fetch.output_schema == tool.output_schema()
    assert fetch.annotations == tool.annotations
    assert (fetch.title, fetch.plugin) == ("Fetch a web page", "web")


def test_readme_host_example_prints_the_refusal_and_the_events(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The README's host example, with nobody to ask, prints what its text block shows."""
    monkeypatch.setattr("sys.stdin", io.StringIO())
    code = compile(_readme_block("TerminalPrompter()"), "README host example", "exec")
    exec(code, {"__name__": "ex"})  # noqa: S102 - running the documentation's example is the test
    lines = capsys.readouterr().out.splitlines()
    shown = _readme_text_block_after("TerminalPrompter()").splitlines()
    assert lines[:3] == shown[:3]
    events = [json.loads(line) for line in lines[3:]]
    assert [e["type"] for e in events] == ["tool_call", "permission", "tool_result"]
    for event, line in zip(events, shown[3:], strict=True):
        printed = json.loads(line.replace(",…}", ',"…":0}'))  # the README elides with …
        assert list(printed) == list(event), line
        for key, value in printed.items():
            timed = key == "duration_ms"  # the README shows a run on a quick machine
            if not timed and "…" not in json.dumps(value, ensure_ascii=False):
                assert event[key] == value, key


def _readme_text_block_after(marker: str) -> str:
    """The first ``text`` block after the Python block holding *marker*."""
    text = (ROOT / "README.md").read_text()
    after = text.split(marker, 1)[1]
    blocks: list[str] = re.findall(r"```text\n(.*?)```", after, flags=re.S)
    return blocks[0]


README_EXAMPLE_MARKERS = ("tool_specs()", "TerminalPrompter()")
"""The README's Python blocks, each by a text only it holds; the tests above run each."""


def test_every_readme_python_block_is_run_by_a_test() -> None:
    """Each Python block of the README is one the tests above run, so none can drift."""
    text = (ROOT / "README.md").read_text()
    blocks: list[str] = re.findall(r"```python\n(.*?)```", text, flags=re.S)
    for block in blocks:
        assert sum(marker in block for marker in README_EXAMPLE_MARKERS) == 1, block[:200]
    assert len(blocks) == len(README_EXAMPLE_MARKERS)


def test_readme_says_how_the_history_file_stores_a_page_once(tmp_path: Path) -> None:
    """What the README says of a stored tool_result holds: an output string its text repeats
    is written as ``{"$in_text": [start, end]}``, that slice of the text, and
    ``decode_event`` puts it back."""
    page = "A paragraph of the page, long enough to be stored only once in the file. " * 4
    event = ToolResultEvent(call_id="c", ok=True, output={"text": page}, text=f"URL: x\n{page}")
    sink = JsonlHistory(tmp_path / "history.jsonl")
    sink.append(event)
    line = sink.path.read_bytes().strip()
    stored = json.loads(line)
    start, end = stored["output"]["text"]["$in_text"]
    assert stored["text"][start:end] == page
    assert decode_event(line) == event
    readme = " ".join((ROOT / "README.md").read_text().split())
    assert '`{"$in_text": [start, end]}`, the slice of `text` it equals' in readme
    assert "`insomnia_web.decode_event(line)`" in readme


def test_the_docs_say_runtime_is_how_a_host_runs_the_tools() -> None:
    """hooks.md, the README and ``ToolContext`` say that a host runs the tools through
    ``Runtime`` (a ``ToolContext`` is built by the runtime for each call, with the reason),
    and hooks.md no longer invites a host to run tools itself."""
    hooks = " ".join(HOOKS_MD.split())
    readme = " ".join((ROOT / "README.md").read_text().split())
    for text in (hooks, readme):
        assert "`Runtime` is the supported way to run the tools" in text
    assert "A host that runs tools itself" not in hooks
    doc = " ".join((insomnia_web.ToolContext.__doc__ or "").split())
    assert "Built by the runtime for each call" in doc
