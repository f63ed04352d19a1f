"""Forum threads: repeated quotes and post chrome go, poster names and dates stay."""

from __future__ import annotations

import pytest

from insomnia_web.extract import extract_html
from insomnia_web.extract.counts import BlockCounts
from insomnia_web.extract.forum import (
    drop_forum_chrome,
    drop_lone_post,
    drop_post_chrome,
    drop_repeated_quotes,
    is_forum_thread,
    keep_post_bylines,
    may_mark_posts,
)
from insomnia_web.extract.signals import typed_items
from tests.extract.support import body_of as _body
from tests.extract.support import words_of as _text

_POST = (
    "I replaced the thermostat last winter and the boiler still cycles every ten minutes, "
    "even with the pump speed turned down to the lowest setting and the bypass valve open."
)
_REPLY = "Check the pressure relief valve first; mine was stuck half open for months."


def test_a_long_quote_of_an_earlier_post_is_dropped() -> None:
    """A reply's blockquote repeating a post on the page goes; the reply's own words stay."""
    body = _body(
        f"<div class=post><p>{_POST}</p></div>"
        f"<div class=post><blockquote>Sam wrote: {_POST}</blockquote><p>{_REPLY}</p></div>"
    )
    drop_repeated_quotes(body)
    assert _text(body).count("thermostat") == 1
    assert "pressure relief valve" in _text(body)


def test_a_class_marked_quote_box_is_dropped() -> None:
    """A forum quote box marked by its class (not a blockquote) is dropped the same way."""
    body = _body(f"<p>{_POST}</p><div class='bbcode_quote'><div>{_POST}</div></div><p>{_REPLY}</p>")
    drop_repeated_quotes(body)
    assert _text(body).count("thermostat") == 1


def test_short_and_unmatched_quotes_stay() -> None:
    """A short quote, and a long one whose source is not on the page, are kept."""
    short = "Sam wrote: the boiler still cycles."
    body = _body(
        f"<p>the boiler still cycles.</p><blockquote>{short}</blockquote>"
        f"<blockquote>{_POST}</blockquote><p>{_REPLY}</p>"
    )
    drop_repeated_quotes(body)
    assert short in _text(body)
    assert "thermostat" in _text(body)


def test_readable_extraction_keeps_one_copy_of_a_quoted_post() -> None:
    """End to end: a thread whose reply quotes the first post prints that post once."""
    posts = "".join(f"<article class=message><p>{_POST} Post {i}.</p></article>" for i in range(3))
    html = (
        f"<html><body><main>{posts}<article class=message>"
        f"<blockquote class='bbCodeBlock bbCodeBlock--quote'>Sam said: {_POST} Post 0.</blockquote>"
        f"<p>{_REPLY}</p></article></main></body></html>"
    )
    text = extract_html(html).text
    assert text.count("Post 0.") == 1
    assert "pressure relief valve" in text


def _post(name: str, date: str, text: str) -> str:
    return (
        "<article itemscope itemtype='https://schema.org/Comment'>"
        "<div class='message-user' itemprop='author' itemscope itemtype='https://schema.org/Person'>"
        f"<h4><a href='/members/1'><span itemprop='name'>{name}</span></a></h4><p>1,234 posts</p>"
        f"</div><ul><li><a href='/post-1'><time itemprop='datePublished'>{date}</time></a></li>"
        "</ul>"
        f"<div itemprop='text'>{text}</div></article>"
    )


def test_microdata_author_and_date_move_before_the_post_text() -> None:
    """A post's marked author and visible date become one line before its text, once."""
    body = _body(_post("spikeymike", "Jul 9, 2022", _REPLY))
    keep_post_bylines(body)
    text = _text(body)
    assert text.count("spikeymike") == 1
    assert text.index("spikeymike") < text.index("Jul 9, 2022") < text.index("pressure relief")
    article = body.find("article")
    assert article is not None
    line = article.find("p[br]")
    assert line is not None
    assert "spikeymike" in _text(line)


def test_page_extraction_keeps_poster_names_and_dates() -> None:
    """End to end: the profile column goes, the poster's name and date stay with the post."""
    posts = "".join(_post(f"user{i}", f"Jul {i + 1}, 2022", f"{_POST} Post {i}.") for i in range(4))
    text = extract_html(f"<html><body><main>{posts}</main></body></html>").text
    for i in range(4):
        assert f"user{i}" in text
        assert f"Jul {i + 1}, 2022" in text
    assert "1,234 posts" not in text


def test_a_meta_date_and_a_long_author_block_are_not_moved() -> None:
    """A machine-only date and an author element holding a whole profile stay where they are."""
    body = _body(
        "<div itemscope itemtype='https://schema.org/DiscussionForumPosting'>"
        "<meta itemprop='datePublished' content='2024-04-17T10:58:44Z'>"
        "<div itemprop='author'>Sam, member since 2011, 4,000 posts, moderator of boards</div>"
        f"<div itemprop='text'>{_REPLY}</div></div>"
    )
    before = _text(body)
    keep_post_bylines(body)
    assert _text(body) == before


def test_reactions_likes_signatures_and_notices_are_dropped() -> None:
    """Per-post counters, edit notes, signatures and board notices go; the posts stay."""
    body = _body(
        "<ul class='notices js-notices'><li>Members are reminded not to send money.</li></ul>"
        f"<article><div class=bbWrapper>{_POST}</div>"
        "<div class=message-lastEdit>Last edited: Jul 9, 2022</div>"
        "<div class='reactionsBar js-reactionsList'>Reactions: unixfool and felixen</div>"
        "<span class=post-likes>2 Likes</span>"
        "<div class=message-signature>My rig: a very old laptop</div></article>"
    )
    drop_post_chrome(body)
    assert _text(body) == _POST


def test_a_chrome_class_on_most_of_the_page_is_kept() -> None:
    """A wrapper holding most of the page is content even if its class names a notice."""
    body = _body(f"<div class=notices><p>{_POST}</p></div><p>{_REPLY}</p>")
    drop_post_chrome(body)
    assert "thermostat" in _text(body)


def test_forum_side_sections_under_their_headings_go() -> None:
    """Sections headed "Top Posters" or "Create an account" are not the thread."""
    posts = "".join(f"<article><p>{_POST} Post {i}.</p></article>" for i in range(4))
    html = (
        f"<html><body><main>{posts}"
        "<div><h4>Top Posters In This Topic</h4><ul><li>paul2009 12 posts</li></ul></div>"
        "<div><h2>Create an account or sign in to comment</h2>"
        "<p>You need to be a member in order to leave a comment</p></div>"
        "</main></body></html>"
    )
    text = extract_html(html).text
    assert "Post 3." in text
    for chrome in ("paul2009", "be a member"):
        assert chrome not in text


def _thread(replies: int, kind: str = "Comment") -> str:
    posts = "".join(
        f"<div itemscope itemtype='https://schema.org/{kind}'><p>{_REPLY} Reply {i}.</p></div>"
        for i in range(replies)
    )
    return (
        "<div itemscope itemtype='https://schema.org/DiscussionForumPosting'>"
        f"<p>{_POST}</p>{posts}</div>"
    )


def test_a_page_of_marked_posts_is_a_thread() -> None:
    """Posts marked by microdata holding most of the page make it a thread."""
    assert is_forum_thread(_body(_thread(3)))
    assert not is_forum_thread(_body(_thread(1)))


def test_answers_and_comments_under_a_story_are_no_thread() -> None:
    """A Q&A page, and a story whose marked comments hold little of it, are not threads."""
    assert not is_forum_thread(_body(_thread(3, kind="Answer")))
    story = "".join(f"<p>{_POST} Paragraph {i}.</p>" for i in range(12))
    comments = "".join(
        f"<div itemscope itemtype='https://schema.org/Comment'><p>{_REPLY}</p></div>"
        for _ in range(3)
    )
    assert not is_forum_thread(_body(f"<article>{story}</article>{comments}"))


def test_only_a_page_typing_a_post_item_may_mark_posts() -> None:
    """A page typing only its story marks no post; a typed post item may, even once gone."""
    story = _body(
        f"<article itemscope itemtype='https://schema.org/NewsArticle'><p>{_POST}</p></article>"
    )
    assert not may_mark_posts(story, typed_items(story))
    thread = _body(_thread(3))
    typed = typed_items(thread)
    for post in thread.findall(".//div[@itemscope]"):
        post.drop_tree()
    assert may_mark_posts(thread, typed)


def test_a_thread_is_read_by_the_page_extraction() -> None:
    """Every post of a marked thread is kept, short replies included."""
    html = f"<html><body><main>{_thread(4)}<p>Thanks!</p></main></body></html>"
    result = extract_html(html)
    assert result.method == "page"
    assert "Reply 3." in result.text


def test_a_quote_attribution_stays_as_plain_text() -> None:
    """A quote's "Sam said:" stays when the quote goes, and loses its link when it stays."""
    body = _body(
        f"<p>{_POST}</p>"
        "<blockquote class='bbCodeBlock bbCodeBlock--quote'>"
        f"<div class=bbCodeBlock-title><a href='/posts/1'>Sam said:</a></div><div>{_POST}</div>"
        "</blockquote>"
        "<blockquote><cite><a href='/members/2'>Ann</a> wrote:</cite>Yes, twice.</blockquote>"
    )
    drop_repeated_quotes(body)
    assert _text(body).count("thermostat") == 1
    assert "Sam said:" in _text(body)
    assert body.find(".//a") is None
    assert "Ann wrote:Yes, twice." in _text(body)


def test_post_controls_and_short_dates_are_dropped() -> None:
    """Reply/quote/report links, "Code: Select all" and a date's short form go."""
    body = _body(
        "<time class='ipsTime'><span class=ipsTime__long>June 14, 2024</span>"
        "<span class=ipsTime__short>1 yr</span></time>"
        f"<div class=codebox><p>Code: <a href='#'>Select all</a></p><pre>{_REPLY}</pre></div>"
        f"<p>{_POST}</p><a href='/newreply'>Reply With Quote</a> <a href='/report'>Report</a>"
        "<p>Quote of the day: reply to everyone.</p>"
    )
    drop_post_chrome(body)
    text = _text(body)
    assert "June 14, 2024" in text
    for chrome in ("1 yr", "Select all", "Reply With Quote", "Report"):
        assert chrome not in text
    assert "Quote of the day" in text


def test_a_control_read_through_lone_wrappers_goes_and_words_beside_it_stay() -> None:
    """A control inside lone wrappers goes with them; a word beside its link keeps the line."""
    body = _body(
        f"<p>{_POST}</p><ul><li><a href='#'><span><b>Reply</b></span></a></li></ul>"
        "<p><a href='#'>Reply</a> now</p>"
        "<div>\n <p><span>Share</span></p>\n</div>"
    )
    drop_post_chrome(body)
    text = _text(body)
    assert body.find(".//li") is None
    assert "Share" not in text
    assert "Reply now" in text


def test_a_control_is_read_apart_from_the_words_around_it() -> None:
    """A link holding a control goes even when its parent, read first, says more."""
    body = _body(f"<p>{_POST}</p><div><span>Answer below, or <a href='#q'>Quote</a></span></div>")
    drop_post_chrome(body)
    text = _text(body)
    assert "Answer below, or" in text
    assert "Quote" not in text


def test_poster_statistics_go_and_numbers_in_prose_stay() -> None:
    """Poster statistics ("Posts: 710", "29,553 posts") go; "50 posts" in a sentence stays."""
    body = _body(
        "<dl><dd>Registered: 2016-07-02</dd><dd>Posts: 710</dd></dl>"
        "<div><span>29,553 posts</span></div>"
        f"<p>{_POST} I read <span>50 posts</span> about it first.</p>"
    )
    drop_post_chrome(body)
    text = _text(body)
    for chrome in ("Registered", "Posts: 710", "29,553"):
        assert chrome not in text
    assert "50 posts about it" in text


def test_label_and_value_statistics_in_their_own_box_are_dropped() -> None:
    """XenForo's box of poster statistics (``extraUserInfo``), a ``<dl>`` each, goes."""
    body = _body(
        "<div class='extraUserInfo'>"
        "<dl class='pairsJustified'><dt>Likes Received:</dt><dd><a href='/m/4'>103</a></dd></dl>"
        "<dl class='pairsJustified'><dt>Trophy Points:</dt><dd>113</dd></dl></div>"
        f"<p>{_POST}</p>"
    )
    drop_post_chrome(body)
    assert _text(body) == _POST


def test_ad_slot_label_between_posts_is_dropped() -> None:
    """The label of an ad slot between posts goes; a sentence about advertisements stays."""
    body = _body(
        "<div class=samCodeUnit><span>Advertisement - Members don't see this ad</span></div>"
        f"<p>{_POST}</p><p><span>Advertisement</span></p>"
        "<p>Advertisement spending rose last year.</p>"
    )
    drop_post_chrome(body)
    assert _text(body) == f"{_POST}Advertisement spending rose last year."


def test_thread_header_and_register_invitation_are_dropped() -> None:
    """The thread's starter and start date, and "You must log in or register", go."""
    body = _body(
        "<ul><li><span>Thread starter</span> <a href='/members/3'>boobaloobie</a></li>"
        "<li><span>Start date</span> <time>Jul 18, 2024</time></li></ul>"
        f"<p>{_POST}</p>"
        "<a class=button href='/login'><span>You must log in or register to reply here.</span></a>"
    )
    drop_post_chrome(body)
    assert _text(body) == _POST


def test_a_machine_written_thread_summary_is_dropped() -> None:
    """A block named as an AI summary (by class or id) is not what the posters wrote."""
    body = _body(
        "<div id=ai-summary-block><details><summary>Click for summary</summary>"
        "<p>The discussion revolves around boilers.</p></details></div>"
        f"<p>{_POST}</p>"
    )
    drop_post_chrome(body)
    assert _text(body) == _POST


def test_chrome_nested_in_chrome_goes_with_it() -> None:
    """A signature inside a reaction bar goes once, with the bar; the post stays."""
    body = _body(
        f"<div class=post><p>{_POST}</p><div class=reactionsBar>12 likes"
        "<div class=post-signature>My rig: a boiler</div></div></div>"
    )
    drop_post_chrome(body)
    assert _text(body) == _POST


@pytest.mark.timeout(10)
def test_deeply_nested_chrome_stays_linear() -> None:
    """Hundreds of nested chrome blocks below a long post all go, the outermost once."""
    depth = 200
    nested = "<div class=notices>note " * depth + "</div>" * depth
    body = _body(f"<div class=post><p>{_POST * 40}</p></div>{nested}")
    assert _text(body).count("note") == depth
    drop_post_chrome(body)
    assert "note" not in _text(body)


_THREAD = "".join(
    f"<article class='post-box'><p>{text}</p></article>"
    for text in (_POST, _REPLY, "Same here, a new valve fixed the cycling for good.", _POST)
)


def test_one_post_of_a_thread_is_not_the_article() -> None:
    """When readability kept one post of a thread of post boxes, its article is set aside."""
    body = _body(f"<div>{_THREAD}</div>")
    assert drop_lone_post(body, _REPLY) == ""


def test_an_article_with_all_posts_or_none_stays() -> None:
    """An article holding every post (a Q&A page), or none (a story over replies), stays."""
    body = _body(f"<div>{_THREAD}</div>")
    everything = _text(body)
    assert drop_lone_post(body, everything) == everything
    story = "The boiler story, told at length by the editor. " * 3
    assert drop_lone_post(body, story) == story


def test_a_long_post_among_short_ones_stays_the_article() -> None:
    """A kept post holding most of the thread's words is the page's content, not a lone post."""
    body = _body(f"<div>{_THREAD.replace(_POST, _POST * 6, 1)}</div>")
    assert drop_lone_post(body, _POST * 6) == _POST * 6


def test_the_boards_footer_below_a_thread_goes() -> None:
    """What a visitor may do, thread links and the board's clock go; the post stays."""
    body = _body(
        f"<div class=post><p>{_POST}</p></div>"
        "<table><tr><td>"
        "<div>You <strong>may not</strong> post replies</div>"
        "<div><a href=#>BB code</a> is <strong>On</strong></div>"
        "<div>HTML code is <strong>Off</strong></div></td></tr></table>"
        "<div><strong>«</strong> <a href=#>Previous Thread</a> | <a href=#>Next Thread</a> "
        "<strong>»</strong></div>"
        "<div>All times are GMT +1. The time now is <span class=time>14:01</span>.</div>"
    )
    drop_post_chrome(body)
    assert _text(body) == _POST


def test_a_sentence_about_posting_rules_stays() -> None:
    """A post's sentence that mentions the rules is longer than a footer line and stays."""
    line = "You may not post replies here until the forum rules allow it again, sadly."
    body = _body(f"<div class=post><p>{line}</p></div>")
    drop_post_chrome(body)
    assert _text(body) == line


def test_a_placeholder_still_loading_goes() -> None:
    """A block marked aria-busy (scripts fill it later) holds no content yet and goes."""
    body = _body(
        f"<div class=post><p>{_POST}</p></div>"
        "<ol aria-busy=true><li><span class=avatar>?</span> Loading</li>"
        "<li><span class=avatar>?</span> Loading</li></ol>"
    )
    drop_post_chrome(body)
    assert _text(body) == _POST


def test_a_posts_linked_number_goes_but_a_rank_stays() -> None:
    """A post's number linking to the post goes; a rank printed as plain text stays."""
    body = _body(
        f"<div class=post><a href='#post-2'>#2</a><p>{_POST}</p></div>"
        "<ol><li><div>#1</div><p>Best boiler</p></li></ol>"
    )
    drop_post_chrome(body)
    assert "#2" not in _text(body)
    assert "#1" in _text(body)


def test_forum_chrome_hands_back_the_counts_of_a_tree_it_left_whole() -> None:
    """A page without post chrome keeps its tree, and its word counts come back for reuse."""
    body = _body(f"<div class=story><p>{_POST}</p><p><a href='/x'>More</a> {_REPLY}</p></div>")
    counts = drop_forum_chrome(body).exact
    assert counts is not None
    fresh = BlockCounts(body)
    assert counts.words == fresh.words
    assert counts.link_words == fresh.link_words
    assert counts.links == fresh.links
    chrome = _body(f"<div class=post><p>{_POST}</p><a href='#r'>Reply</a></div>")
    assert drop_forum_chrome(chrome).exact is None


def test_forum_chrome_counts_bound_a_tree_it_only_removed_text_from() -> None:
    """After chrome went, the counts read before bound every element's words; after a
    byline came out of an attribute, there are none."""
    chrome = _body(
        f"<div class=post><p>{_POST}</p><p>Yes<a href='#r'>Reply</a>indeed</p>"
        "<div class=post-signature>My rig: a boiler</div></div>"
    )
    most = drop_forum_chrome(chrome).most
    assert most is not None
    fresh = BlockCounts(chrome)
    assert all(most.words[el] >= n for el, n in fresh.words.items())
    assert most.words[chrome] > fresh.words[chrome]
    byline = (
        "<div itemscope itemtype='https://schema.org/Comment'>"
        "<meta itemprop=author content='Sam Lee'><div itemprop=text><p>Yes.</p></div></div>"
    )
    assert drop_forum_chrome(_body(byline * 3)).most is None


def test_counts_made_without_links_count_them_alike_on_first_use() -> None:
    """Counts made words-only give the same link words and link counts, nested links
    included, when they are first read."""
    body = _body(
        f"<div><p>{_POST} <a href='/a'>one <a href='/b'>two three</a></a></p>"
        "<ul><li><a href='/c'>four</a> five</li></ul></div>"
    )
    fresh = BlockCounts(body)
    lazy = BlockCounts(body, links=False)
    assert lazy.words == fresh.words
    assert lazy.links == fresh.links
    assert lazy.link_words == fresh.link_words
    assert lazy.links[body] == 3
