"""A reranker is built once per process, in a thread of its own, never on the event loop."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable, Sequence
from typing import Any, ClassVar

import pytest

from insomnia_web import Reranker, RerankPassage, SearchHit, SearchRequest, hookimpl

from .test_web_search_cache import Web, env, search

__all__ = ["env"]  # the fixture, shared

WAIT_S = 5.0
"""How long a test's build waits to be released before it gives up (a test bound only)."""


class Loading(Reranker):
    """A reranker whose ``__init__`` stands for a slow model load: it records the thread it
    runs in and sets :attr:`started`, waits for :attr:`release` when :attr:`held`, raises
    while :attr:`failures` is above zero, and sets :attr:`finished` when it succeeds. Each
    test makes a class of its own (:func:`loading_class`): builds are kept per class for
    the whole process."""

    name: ClassVar[str] = "loading"
    threads: ClassVar[list[threading.Thread]]
    started: ClassVar[threading.Event]
    release: ClassVar[threading.Event]
    finished: ClassVar[threading.Event]
    held: ClassVar[bool]
    failures: ClassVar[int]
    scored: ClassVar[list[str]]

    def __init__(self) -> None:
        cls = type(self)
        cls.threads.append(threading.current_thread())
        cls.started.set()
        if cls.held and not cls.release.wait(WAIT_S):
            raise TimeoutError("the test never released the build")
        if cls.failures > 0:
            cls.failures -= 1
            raise RuntimeError("model file is corrupt")
        cls.finished.set()

    def score(self, query: str, passages: Sequence[RerankPassage]) -> list[float]:
        """Keep the first-stage order; record the query."""
        type(self).scored.append(query)
        return [float(-i) for i in range(len(passages))]


def loading_class(*, held: bool = False, failures: int = 0) -> type[Loading]:
    """A fresh :class:`Loading` class with its own records."""
    attrs: dict[str, Any] = {
        "threads": [],
        "started": threading.Event(),
        "release": threading.Event(),
        "finished": threading.Event(),
        "held": held,
        "failures": failures,
        "scored": [],
    }
    return type("LoadingReranker", (Loading,), attrs)


def plugin_of(cls: type[Reranker]) -> object:
    """A plugin registering *cls*."""

    class LoadingPlugin:
        __name__ = "loading-plugin"

        @hookimpl
        def register_rerankers(self, register: Callable[[type[Reranker]], None]) -> None:
            """Register the test's reranker class."""
            register(cls)

    return LoadingPlugin()


async def wait_for(event: threading.Event) -> None:
    """Wait for *event*, set by a build thread, without holding the loop."""
    assert await asyncio.to_thread(event.wait, WAIT_S)


@pytest.mark.asyncio
async def test_a_reranker_is_built_in_a_thread_not_on_the_event_loop(env: Web) -> None:
    """The first excerpt search builds the reranker in a worker thread, not the loop's."""
    cls = loading_class()
    rt = env.runtime(pipeline={"rerank": "loading"}, plugins=(plugin_of(cls),))
    await search(rt, "tortoise lifespan")
    assert len(cls.threads) == 1
    assert cls.threads[0] is not threading.current_thread()
    assert cls.scored == ["tortoise lifespan"]


@pytest.mark.asyncio
async def test_concurrent_first_searches_wait_for_one_build(env: Web) -> None:
    """Two searches arriving while the model loads wait for the same build, the loop running
    meanwhile, and both use the one instance it makes."""
    cls = loading_class(held=True)
    rt = env.runtime(pipeline={"rerank": "loading"}, plugins=(plugin_of(cls),))
    first = asyncio.ensure_future(search(rt, "tortoise lifespan"))
    second = asyncio.ensure_future(search(rt, "giant tortoise"))
    await wait_for(cls.started)
    await asyncio.sleep(0.05)  # the second search reaches the build too
    assert not first.done()
    assert not second.done()
    cls.release.set()
    await asyncio.gather(first, second)
    assert len(cls.threads) == 1
    assert sorted(cls.scored) == ["giant tortoise", "tortoise lifespan"]


@pytest.mark.asyncio
async def test_a_build_that_raises_is_tried_again_by_the_next_search(env: Web) -> None:
    """A build that fails fails its search (internal_error naming the reranker) and is not
    kept: the next search builds the reranker again and uses it."""
    cls = loading_class(failures=1)
    rt = env.runtime(pipeline={"rerank": "loading"}, plugins=(plugin_of(cls),))
    failed = await rt.call_tool("WebSearch", {"query": "tortoise lifespan"})
    assert failed.error is not None
    assert failed.error.code == "internal_error"
    assert "'loading'" in failed.error.message
    assert "RuntimeError" in failed.error.message
    await search(rt, "tortoise lifespan")
    assert len(cls.threads) == 2
    assert cls.scored == ["tortoise lifespan"]


@pytest.mark.asyncio
async def test_a_build_that_outlives_the_deadline_goes_on_for_later_searches(env: Web) -> None:
    """A search waits for the build at most the pipeline's deadline, then answers without
    the reranker and says so; the build goes on, and the next search uses what it made."""
    cls = loading_class(held=True)
    pipeline = {"rerank": "loading", "deadline_s": 0.2}
    rt = env.runtime(pipeline=pipeline, plugins=(plugin_of(cls),))
    try:
        text, out = await search(rt, "tortoise lifespan")
    finally:
        cls.release.set()
    assert out["excerpts"]
    assert "the reranker 'loading' is still loading" in text
    assert cls.scored == []
    await wait_for(cls.finished)
    await search(rt, "giant tortoise")
    assert len(cls.threads) == 1
    assert cls.scored == ["giant tortoise"]


@pytest.mark.asyncio
async def test_an_answer_ranked_while_the_reranker_loads_is_not_stored(env: Web) -> None:
    """An excerpt answer made without the reranker, while it was still loading, is not kept
    in the cache: the same search once the reranker is built is ranked with it."""
    cls = loading_class(held=True)
    pipeline = {"rerank": "loading", "deadline_s": 0.2}
    rt = env.runtime(pipeline=pipeline, plugins=(plugin_of(cls),))
    try:
        await search(rt, "tortoise lifespan")
    finally:
        cls.release.set()
    await wait_for(cls.finished)
    text, _ = await search(rt, "tortoise lifespan")
    assert text.startswith("[cache: miss")
    assert cls.scored == ["tortoise lifespan"]


@pytest.mark.asyncio
async def test_the_reranker_loads_while_the_provider_answers(
    env: Web, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The reranker's build starts before the search provider is asked, so its model loads
    while the provider answers, not before it: a build held until the provider is asked
    finishes, and the search uses it."""
    cls = loading_class(held=True)
    asked_while_loading: list[bool] = []
    answer = env.answer

    def answer_once_loading(request: SearchRequest) -> list[SearchHit]:
        asked_while_loading.append(cls.started.wait(WAIT_S))
        cls.release.set()
        return answer(request)

    monkeypatch.setattr(env, "answer", answer_once_loading)
    rt = env.runtime(pipeline={"rerank": "loading"}, plugins=(plugin_of(cls),))
    await search(rt, "tortoise lifespan")
    assert asked_while_loading == [True]
    assert cls.scored == ["tortoise lifespan"]
