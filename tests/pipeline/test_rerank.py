"""The rerank stage: the register_rerankers hook, fusion, the manifest switch, "static"."""

from __future__ import annotations

import sys
import threading
import time
from collections.abc import Callable, Sequence
from typing import ClassVar

import pytest

from insomnia_web import (
    ManifestError,
    PluginError,
    Reranker,
    RerankPassage,
    Runtime,
    ToolError,
    hookimpl,
)
from insomnia_web.rank import SourceDoc, select_excerpts
from insomnia_web.rank.rerank import fuse
from insomnia_web.rank.static_rerank import StaticReranker

from .test_web_search_cache import Web, env, search

__all__ = ["env"]  # the fixture, shared


class LavaFirst(Reranker):
    """A tiny reranker: lava scores 1, an eruption 0, anything else 0.5; it records its calls."""

    name: ClassVar[str] = "lava-first"
    calls: ClassVar[list[tuple[str, int]]] = []

    def score(self, query: str, passages: Sequence[RerankPassage]) -> list[float]:
        """1.0 for a passage mentioning lava, 0.0 for an eruption, else 0.5."""
        type(self).calls.append((query, len(passages)))
        return [_lava_score(p.text.lower()) for p in passages]


def _lava_score(text: str) -> float:
    if "lava" in text:
        return 1.0
    return 0.0 if "eruption" in text else 0.5


class LavaPlugin:
    """A plugin registering :class:`LavaFirst`."""

    __name__ = "lava-plugin"

    @hookimpl
    def register_rerankers(self, register: Callable[[type[Reranker]], None]) -> None:
        """Register the tiny reranker."""
        register(LavaFirst)


FILLER = "Harbour boats return at dusk with fish for the evening market and the town square."


def docs() -> list[SourceDoc]:
    """Three volcano passages; BM25 ranks the eruption first, the lava second, the museum last."""
    eruption = f"The volcano eruption of the volcano was a volcano event. {FILLER} " * 5
    lava = f"Lava flows followed the volcano. {FILLER} " * 5
    return [
        SourceDoc(url="https://a.test/", title="Volcano", text=f"{eruption}\n\n{lava}", rank=1),
        SourceDoc(
            url="https://b.test/", title="Town", text=f"A volcano museum. {FILLER * 9}", rank=2
        ),
    ]


def test_hook_register_rerankers_stamps_the_plugin_name() -> None:
    """A plugin's reranker is registered by name and attributed to it; "static" is built in."""
    runtime = Runtime(plugins=[LavaPlugin()], load_entrypoints=False)
    assert runtime.rerankers["lava-first"].plugin == "lava-plugin"
    assert runtime.rerankers["static"].cls is StaticReranker
    assert runtime.rerankers["static"].plugin == "web"


def test_hook_register_rerankers_refuses_a_non_reranker_and_a_duplicate() -> None:
    """Registering something that is not a Reranker, or a taken name, is an error."""

    class Bad:
        __name__ = "bad"

        @hookimpl
        def register_rerankers(self, register: Callable[[object], None]) -> None:
            register(object)

    class Dup:
        __name__ = "dup"

        @hookimpl
        def register_rerankers(self, register: Callable[[type[Reranker]], None]) -> None:
            register(StaticReranker)

    with pytest.raises(PluginError, match="bad"):
        Runtime(plugins=[Bad()], load_entrypoints=False)
    with pytest.raises(PluginError, match="'static'"):
        Runtime(plugins=[Dup()], load_entrypoints=False)


def test_fusion_promotes_what_the_reranker_prefers_without_ignoring_the_first_stage() -> None:
    """Reciprocal-rank fusion moves the reranker's favourite up, not always to the top; a tie
    in fused score goes to the reranker's choice, equal scores keep first-stage order."""
    assert fuse([5.0, 4.0, 3.0, 2.0, 1.0], [0.0, 0.0, 0.0, 0.0, 1.0]) == [0, 1, 4, 2, 3]
    assert fuse([3.0, 2.0, 1.0], [0.0, 0.0, 0.0]) == [0, 1, 2]
    assert fuse([2.0, 1.0], [0.0, 1.0]) == [1, 0]
    with pytest.raises(ValueError, match="2 scores for 3"):
        fuse([3.0, 2.0, 1.0], [1.0, 2.0])


def test_a_reranker_changes_what_a_tight_budget_takes() -> None:
    """Under a budget for one whole passage, BM25 takes the eruption passage whole, the
    reranker the lava one (the rest of the budget goes to sentences of the other)."""
    plain = select_excerpts("volcano", docs(), max_tokens=260)
    reranked = select_excerpts("volcano", docs(), max_tokens=260, reranker=LavaFirst())
    whole_plain = max(plain, key=lambda e: len(e.text))
    whole_reranked = max(reranked, key=lambda e: len(e.text))
    assert "eruption" in whole_plain.text
    assert "Lava" not in whole_plain.text
    assert "Lava" in whole_reranked.text
    assert "eruption" not in whole_reranked.text


@pytest.mark.asyncio
async def test_the_manifest_selects_a_plugin_reranker(env: Web) -> None:
    """web.pipeline.rerank names a registered reranker; WebSearch's ranking consults it."""
    LavaFirst.calls.clear()
    rt = env.runtime(pipeline={"rerank": "lava-first"}, plugins=(LavaPlugin(),))
    _, out = await search(rt, "tortoise lifespan")
    assert out["excerpts"]
    assert LavaFirst.calls
    assert LavaFirst.calls[0][0] == "tortoise lifespan"


def test_an_unknown_reranker_is_refused_at_start(env: Web) -> None:
    """A rerank name no plugin registered stops the runtime from starting, naming the key
    and the choices, as an unknown search provider does."""
    with pytest.raises(ManifestError) as info:
        env.runtime(pipeline={"rerank": "nonesuch"})
    assert info.value.key == "web.pipeline.rerank"
    assert "choices: none, static" in str(info.value)


def test_static_without_the_extra_is_not_configured(monkeypatch: pytest.MonkeyPatch) -> None:
    """Without wordllama installed, "static" fails with not_configured naming the extra."""
    monkeypatch.setitem(sys.modules, "wordllama", None)
    with pytest.raises(ToolError) as info:
        StaticReranker()
    assert info.value.code == "not_configured"
    assert "'rerank' extra" in info.value.message
    assert "insomnia-web[rerank]" in (info.value.hint or "")


def test_static_reranker_prefers_the_passage_on_the_question() -> None:
    """With the extra installed, the bundled model ranks the passage answering the question
    first, one on its topic next and an unrelated one last, scaled from 0 to 1."""
    pytest.importorskip("wordllama")
    reranker = StaticReranker()
    passages = [
        RerankPassage(text="The bakery sells bread and cakes.", title="Shop", heading=None,
                      source_rank=1),
        RerankPassage(text="The tortoise can live for more than a century.", title="Animals",
                      heading="Lifespan", source_rank=2),
        RerankPassage(text="Tortoises are reptiles with shells; many people keep one as a pet.",
                      title="Animals", heading=None, source_rank=3),
    ]  # fmt: skip
    unrelated, answer, topic = reranker.score("how long do tortoises live", passages)
    assert unrelated == 0.0 < topic < answer == 1.0
    assert reranker.score("anything", []) == []


class Abort(BaseException):
    """What a plugin may raise that is not an ``Exception``."""


class Broken(Reranker):
    """A reranker that raises (an ``Exception`` or not), returns too few scores or a NaN,
    empties the list it was given, or hangs until :attr:`release` is set, as ``mode`` says."""

    name: ClassVar[str] = "broken"
    mode: ClassVar[str] = "raise"
    release: ClassVar[threading.Event] = threading.Event()
    hung: ClassVar[int] = 0

    def score(self, query: str, passages: Sequence[RerankPassage]) -> list[float]:
        """Fail the way :attr:`mode` names."""
        if self.mode == "raise":
            raise RuntimeError("model file is corrupt")
        if self.mode == "abort":
            raise Abort("not an Exception")
        if self.mode == "short":
            return [1.0]
        if self.mode == "mutate":
            assert isinstance(passages, list)
            passages.clear()
            return []
        if self.mode == "hang":
            type(self).hung += 1
            self.release.wait(10)
            return [0.0] * len(passages)
        return [float("nan")] * len(passages)


class BrokenPlugin:
    """A plugin registering :class:`Broken`."""

    __name__ = "broken-plugin"

    @hookimpl
    def register_rerankers(self, register: Callable[[type[Reranker]], None]) -> None:
        """Register the failing reranker."""
        register(Broken)


@pytest.mark.asyncio
@pytest.mark.parametrize("mode", ["raise", "abort", "short", "nan", "mutate"])
async def test_a_failing_reranker_costs_the_rerank_not_the_search(
    env: Web, mode: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A plugin reranker that raises (even a ``BaseException``), returns the wrong number of
    scores or a NaN, or empties the list of passages it was given, leaves the first-stage
    order; the search answers with its passages and says the reranker failed."""
    monkeypatch.setattr(Broken, "mode", mode)
    rt = env.runtime(pipeline={"rerank": "broken"}, plugins=(BrokenPlugin(),))
    text, out = await search(rt, "tortoise lifespan")
    assert out["excerpts"]
    assert any("reranker 'broken' failed" in w for w in out["warnings"])
    assert "reranker 'broken' failed" in text


@pytest.mark.asyncio
async def test_an_excerpt_answer_is_not_reused_under_another_reranker(env: Web) -> None:
    """An excerpt answer ranked without a reranker is not served to a manifest that names
    one (nor the reverse): the reranker changes which passages the answer holds."""
    LavaFirst.calls.clear()
    await search(env.runtime(), "tortoise lifespan")
    rt = env.runtime(pipeline={"rerank": "lava-first"}, plugins=(LavaPlugin(),))
    text, _ = await search(rt, "tortoise lifespan")
    assert text.startswith("[cache: miss")
    assert LavaFirst.calls


@pytest.mark.asyncio
async def test_a_hanging_reranker_is_given_up_at_the_deadline(
    env: Web, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A reranker that does not answer costs the rerank once the pipeline's deadline has
    passed: the search answers in about ``deadline_s``, its passages in first-stage order;
    while that call has not returned, later searches do not call it (one stuck thread)."""
    monkeypatch.setattr(Broken, "mode", "hang")
    monkeypatch.setattr(Broken, "hung", 0)
    rt = env.runtime(pipeline={"rerank": "broken", "deadline_s": 1}, plugins=(BrokenPlugin(),))
    started = time.monotonic()
    try:
        text, out = await search(rt, "tortoise lifespan")
        elapsed = time.monotonic() - started
        again, _ = await search(rt, "giant tortoise")
    finally:
        Broken.release.set()
    assert elapsed < 3
    assert out["excerpts"]
    assert "reranker 'broken' failed (no answer within" in text
    assert "reranker 'broken' failed (its call of an earlier search has not returned" in again
    assert Broken.hung == 1
