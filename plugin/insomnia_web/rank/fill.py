"""Fill the room a selection leaves with the leading sentences of the next-best passage.

Passages are 60-150 words, so a selection that stops when the next passage does not fit
leaves up to a passage's worth of the budget unused. :func:`fill_room` spends it: the best
candidate not taken (nor a near-duplicate of one taken) is cut after the last sentence
that fits, and the cut is marked with :data:`CUT_MARK`. A cut falls only at a sentence end
(``.``, ``!``, ``?``, ``…`` before a space, or a CJK full stop, exclamation or question
mark, which need no space after them), never inside a word
or a sentence, and only when it keeps at least :data:`MIN_FILL_TOKENS` tokens of text:
a shorter fragment rarely holds an answer. Table rows are not cut.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from .budget import passage_cost, source_label_cost
from .candidates import Candidate
from .dedup import is_near_duplicate, shingles
from .tokens import estimate_tokens

__all__ = ["CUT_MARK", "FILL_TRIES", "MIN_FILL_TOKENS", "fill_room", "leading_sentences"]

CUT_MARK = " …"
"""Appended to a passage cut short."""
MIN_FILL_TOKENS = 20
"""Fewest tokens of passage text a fill keeps; with less room nothing is added."""
FILL_TRIES = 5
"""Candidates not taken that are tried, best first, before the room is left unused."""

_SENTENCE_END_RE = re.compile(
    r"(?<=[.!?…])[\"'”’)\]]*(?=\s)|[。！？][\"'”’)\]」』）]*"  # noqa: RUF001 - CJK full stops
)


def leading_sentences(text: str, fits: int) -> str | None:
    """The longest run of *text*'s leading whole sentences that costs at most *fits* tokens
    with :data:`CUT_MARK`, marked; ``None`` when that is under :data:`MIN_FILL_TOKENS`
    tokens of text or no sentence end fits."""
    best: str | None = None
    for match in _SENTENCE_END_RE.finditer(text):
        head = text[: match.end()].rstrip()
        if head == text.rstrip():
            break
        if estimate_tokens(head + CUT_MARK) > fits:
            break
        best = head
    if best is None or estimate_tokens(best) < MIN_FILL_TOKENS:
        return None
    return best + CUT_MARK


def _cut(c: Candidate, room: int, labelled: set[int]) -> Candidate | None:
    """*c* cut to its leading sentences so that it costs at most *room*, or ``None``."""
    if c.text.startswith("|"):
        return None
    overhead = passage_cost(c.source.title, c.heading, "")
    if c.doc not in labelled:
        overhead += source_label_cost(c.source.title, c.source.url, c.source.byline)
    head = leading_sentences(c.text, room - overhead)
    if head is None:
        return None
    kept = len(head) - len(CUT_MARK)
    cut = Candidate(
        doc=c.doc, source=c.source, kind=c.kind, text=head, start=c.start,
        end=c.end if c.end < 0 else c.end - (len(c.text) - kept), index=c.index,
        heading=c.heading, raw_text=head[:kept],
    )  # fmt: skip
    cut.score = c.score
    return cut


def fill_room(
    ranked: Sequence[Candidate],
    taken: Sequence[Candidate],
    taken_shingles: Sequence[frozenset[tuple[str, ...]]],
    labelled: set[int],
    room: int,
) -> Candidate | None:
    """The leading sentences of the best candidate of *ranked* not in *taken*, within *room*
    tokens (its source's label included when *labelled* lacks its page); ``None`` when no
    such cut of the first :data:`FILL_TRIES` candidates is worth adding. A candidate that
    repeats a passage taken, or whose cut does, is passed over."""
    if room < MIN_FILL_TOKENS:
        return None
    chosen = {id(c) for c in taken}
    tries = 0
    for c in ranked:
        if id(c) in chosen:
            continue
        tries += 1
        if tries > FILL_TRIES:
            break
        cut = _cut(c, room, labelled)
        if cut is None or _repeats(c.raw_text, taken_shingles):
            continue
        if not _repeats(cut.raw_text, taken_shingles):
            return cut
    return None


def _repeats(text: str, taken_shingles: Sequence[frozenset[tuple[str, ...]]]) -> bool:
    """True when *text* is a near-duplicate of a passage taken (:mod:`.dedup`)."""
    sh = shingles(text)
    return any(is_near_duplicate(sh, other) for other in taken_shingles)
