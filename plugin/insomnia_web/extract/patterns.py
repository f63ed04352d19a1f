"""What boilerplate looks like: tags, roles, class and id words, headings, and the thresholds
of the rules that read them, a frozen dataclass per rule.

The thresholds were tuned on the extraction benchmark (``bench/extract.py``); each one names
the rule it belongs to.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = [
    "ARTICLE_EXTRA_RE",
    "BOILERPLATE_BLOCKS",
    "BOILERPLATE_RE",
    "CONTAINER_TAGS",
    "DROP_ROLES",
    "DROP_TAGS",
    "HEADING_TAGS",
    "KEEP_RE",
    "LINK_BLOCK_TAGS",
    "LINK_LINES",
    "LINK_LISTS",
    "MAIN_REGION",
    "MAX_NAME_CHARS",
    "BoilerplateBlocks",
    "LinkLines",
    "LinkLists",
    "MainRegion",
    "NamePattern",
]


class NamePattern:
    """A case-insensitive regular expression over class, id and style names, fast on ASCII.

    Python's ``re.IGNORECASE`` search of a long alternation is several times slower than a
    case-sensitive one, and pages test every element's names: an ASCII text is lowercased
    and searched case-sensitively (the same matches, since the pattern's letters are all
    lowercase), any other text with the ignore-case pattern.
    """

    __slots__ = ("_any_case", "_lower", "pattern")

    def __init__(self, pattern: str) -> None:
        letters = re.sub(r"\\.", "", pattern)  # an escape such as \\W is no letter
        if letters != letters.lower():
            raise ValueError(f"a name pattern must be written in lowercase: {pattern!r}")
        self.pattern = pattern
        self._lower = re.compile(pattern)
        self._any_case = re.compile(pattern, re.I)

    def search(self, text: str) -> re.Match[str] | None:
        """The first match of the pattern in *text*, ignoring case, or ``None``."""
        if text.isascii():
            return self._lower.search(text.lower())
        return self._any_case.search(text)


DROP_TAGS = frozenset(("nav", "aside", "button", "select", "input", "textarea", "label"))
DROP_ROLES = frozenset(
    [
        "navigation",
        "banner",
        "contentinfo",
        "complementary",
        "search",
        "dialog",
        "alertdialog",
        "menu",
        "menubar",
        "toolbar",
        "tooltip",  # shown on hover, beside the text it explains
    ]
)
# Side columns are also named "sidebarRight" (one word) or "marginal" (the margin column of
# German and French CMS templates).
# "subscription-eligible" (and -enabled, -available, -price) marks a product card that can be
# bought on subscription, not a newsletter box.
# "related" is read inside a joined name too ("relatedArticlesText", "postrelated"): the word
# names a block of links to other stories whatever it is glued to.
# Not "modal": shops render product details (measurements, materials) into modal sheets that
# open from a link; popups that are chrome carry role="dialog" or are named popup or overlay.
BOILERPLATE_RE = NamePattern(
    r"(?:^|[-_ ])(?:nav|navbar|navigation|menu|menubar|submenu|megamenu|footer|site-?footer|"
    r"page-?footer|masthead|site-?header|global-?header|topbar|top-?bar|header-?bar|sidebar|"
    r"sidebar-?(?:left|right)|marginal|"
    r"side-?bar|breadcrumbs?|crumbs|cookies?|cookie-?banner|consent|gdpr|"
    r"share|sharing|social|social-?links|share-?buttons|newsletter|subscribe|"
    r"subscription(?![-_](?:eligible|enabled|available|price|product|item))|"
    r"signup|sign-?up|[a-z\d]*related[a-z\d]*|recommended|popular|trending|promo|advert|ads|"
    r"ad-?slot|adsbygoogle|sponsor|sponsored|popup|overlay|skip-?link|editsection|"
    r"pagination|pager|comment-?form|comments|comment-?list|commentlist|comment-?section|"
    r"reviews?|recommendations?|respond|disqus|toolbar|tags|tag-?cloud|author-?bio|"
    r"language-?switcher|lang-?switch|search-?form|searchbox|search-?bar|offcanvas|"
    r"off-?canvas|drawer|visually-?hidden|sr-only|screen-?reader-?text|print-?only|"
    r"show-for-sr|screen-?reader(?:-?only)?|screenreader|nocontent|"
    r"no-?print(?:-?content)?|hidden-print|d-print-none|sharedaddy|shariff|"
    r"author-?box|"
    r"user-?info|user-?details|user-?extras|user-?stats|user-?title|user-?banner|"
    r"message-?user|message-?user-?details|message-?user-?extras|postprofile|author-?pane|"
    r"cauthorpane|member-?info|signature|disclaimers?|footnotes?|legal|"
    r"usps?|trust-?badges?|upsell|cross-?sells?|recently-?viewed|size-?guide|wishlist|"
    r"store-?locator|back-?in-?stock|notify-?me|klarna|afterpay|affirm|sezzle|shop-?pay|"
    r"payment-?(?:methods|icons|options)|paypal-?message|installments?|returns?-?policy|"
    r"delivery-?(?:info|options|estimate|message)|"
    r"shipping-?(?:info|message|banner|bar|estimate|calculator)|loyalty|rewards?|"
    r"free-?shipping|promo-?banner|ask-?a?-?question|questions-?(?:and-?)?answers|"
    r"stock-?(?:status|level|message)|price-?(?:alert|match)|gift-?(?:card|wrap|message)s?|"
    r"variant-?(?:picker|selector)|swatch(?:es)?|quantity|qty|add-?to-?cart)"
    r"(?:$|[-_ ])"
)
KEEP_RE = NamePattern(r"(?:^|[-_ ])(?:main|content|article|post|body|entry|thread)(?:$|[-_ ])")
ARTICLE_EXTRA_RE = NamePattern(
    r"(?:^|[-_ ])(?:caption|captions|credit|credits|byline|bylines|dateline|timestamp|"
    r"published|updated|author-?info|author-?name|photo-?credit|image-?credit|wp-caption-text)"
    r"(?:$|[-_ ])"
)
MAX_NAME_CHARS = 400
"""A class/id string longer than this is generated noise (utility classes), not names; no
class rule reads it."""


@dataclass(frozen=True)
class BoilerplateBlocks:
    """Blocks dropped as chrome by their tag, role, class or id (``prune.drop_boilerplate``)."""

    max_share_by_tag: float = 0.85
    """A block dropped for its tag or role may still hold this share of the page ..."""
    max_share_by_class: float = 0.25
    """... one dropped for its class, id or form tag only this much (a class name can
    mislead: "page-with-sidebar")."""


@dataclass(frozen=True)
class MainRegion:
    """Where the content region is (``boilerplate.prune_boilerplate``)."""

    min_main_share: float = 0.5
    """``<main>`` (or ``role=main``) is the region when it holds at least this share of the
    page."""
    single_article_share: float = 0.3
    """Within it, the page's only ``<article>`` is the region when it holds at least this
    share of the words: a story whose sidebar, teaser columns and comment widgets hold
    more than it does is still the story (a listing's cards are many articles, or none)."""
    narrow_share: float = 0.9
    """The region narrows to a child holding this share of its words ..."""
    linked_weight: float = 0.5
    """... where linked words count for this much (a list of cards is content, a menu beside
    the text is not)."""


@dataclass(frozen=True)
class LinkLists:
    """Menus and link lists inside the region (``prune.drop_link_lists``)."""

    max_link_density: float = 0.9
    """A link list has more than this share of its words inside links ..."""
    max_words_per_link: int = 4
    """... and at most this many words per link."""
    content_share: float = 0.2
    """Sibling link lists holding this share of the region together are content, not menus."""
    index_page_link_share: float = 0.7
    """A region with this share of its words inside links is an index page: its lists stay."""
    max_block_share: float = 0.3
    """A link-dense block holding more than this share of the region is searched, not
    dropped."""


@dataclass(frozen=True)
class LinkLines:
    """Paragraphs of an article that are mostly a link (``prune.drop_link_lines``): "Read
    more: ...", a related story's title, a subscription or app link."""

    max_words: int = 40
    """A link line has at most this many words (a paragraph of the story that links a
    source is longer) ..."""
    min_link_share: float = 0.6
    """... and at least this share of them inside links."""
    max_article_share: float = 0.2
    """Link lines holding more than this share of the article together are its content (a
    list of resources), and stay."""


BOILERPLATE_BLOCKS = BoilerplateBlocks()
MAIN_REGION = MainRegion()
LINK_LISTS = LinkLists()
LINK_LINES = LinkLines()
HEADING_TAGS = frozenset(("h1", "h2", "h3", "h4", "h5", "h6"))
LINK_BLOCK_TAGS = frozenset(("ul", "ol", "div", "section", "table", "p", "dl", "span", "li"))
CONTAINER_TAGS = frozenset(("html", "body", "main", "article"))
