"""Decoding bodies: header charset, then meta, then detection; never a crash."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

import pytest
from aiohttp import web

from insomnia_web.net import SafeClient
from insomnia_web.net.charset import decode_text, normalize_charset, sniff_meta_charset

from .conftest import SITE

Serve = Callable[[web.Application], Awaitable[int]]
MakeClient = Callable[..., SafeClient]


def test_header_charset_wins() -> None:
    """A valid header charset is used even when a meta tag says otherwise."""
    body = '<meta charset="utf-8"><p>\u00e9</p>'.encode("cp1252")
    assert decode_text(body, "windows-1252") == ('<meta charset="utf-8"><p>\u00e9</p>', "cp1252")


def test_meta_charset_is_used_without_header() -> None:
    """Without a header charset, <meta charset> and http-equiv in the first 4 KB decide."""
    body = '<html><meta charset="koi8-r"><p>\u043f\u0440\u0438\u0432\u0435\u0442</p>'.encode(
        "koi8-r"
    )
    text, used = decode_text(body, None)
    assert used == "koi8-r"
    assert "\u043f\u0440\u0438\u0432\u0435\u0442" in text
    equiv = b'<meta http-equiv="Content-Type" content="text/html; charset=Shift_JIS">'
    assert sniff_meta_charset(equiv) == "cp932"


def test_meta_after_4kb_is_ignored() -> None:
    """A meta charset beyond the first 4 KB is not looked at."""
    body = b" " * 5000 + b'<meta charset="koi8-r">'
    assert sniff_meta_charset(body) is None


def test_xml_declaration_is_a_meta_source() -> None:
    """An XML declaration's encoding counts like a meta charset."""
    assert sniff_meta_charset(b'<?xml version="1.0" encoding="ISO-8859-2"?><a/>') == "iso8859-2"


def test_detection_prefers_valid_utf8_then_cp1252() -> None:
    """With no declaration, valid UTF-8 is UTF-8 and anything else decodes as cp1252."""
    assert decode_text("na\u00efve".encode(), None) == ("na\u00efve", "utf-8")
    assert decode_text("na\u00efve".encode("cp1252"), None) == ("na\u00efve", "cp1252")


def test_utf8_cut_mid_character_is_still_utf8() -> None:
    """A UTF-8 body truncated inside a character is detected as UTF-8."""
    body = ("\u20ac" * 10).encode()[:-1]
    text, used = decode_text(body, None)
    assert used == "utf-8"
    assert text.startswith("\u20ac" * 9)


@pytest.mark.parametrize(
    "label", ["bogus-charset", "punycode", "unicode_escape", "base64", "utf-7", "x" * 100]
)
def test_unknown_or_unsafe_charsets_fall_back(label: str) -> None:
    """Unknown, non-web and unsafe charset labels are ignored in favour of detection."""
    assert normalize_charset(label) is None
    assert decode_text(b"plain text", label) == ("plain text", "utf-8")


@pytest.mark.parametrize(
    ("label", "codec"),
    [
        ("ISO-8859-1", "cp1252"),
        ("latin1", "cp1252"),
        ("US-ASCII", "cp1252"),
        ("utf8", "utf-8"),
        ('"UTF-8"', "utf-8"),
        ("euc-kr", "cp949"),
        ("gb2312", "gbk"),
        ("windows-1251", "cp1251"),
    ],
)
def test_web_labels_map_like_browsers(label: str, codec: str) -> None:
    """Charset labels map to the codec a browser would use."""
    assert normalize_charset(label) == codec


def test_wrong_charset_replaces_invalid_bytes() -> None:
    """A body that is invalid in its declared charset decodes with replacement characters."""
    text, used = decode_text(b"caf\xe9 \xfa ok", "utf-8")
    assert used == "utf-8"
    assert text.endswith(" ok")
    assert "\ufffd" in text


def test_byte_order_mark_wins() -> None:
    """A byte-order mark decides the encoding."""
    assert decode_text("\ufeffhi".encode("utf-16-le"), "iso-8859-1") == ("hi", "utf-16-le")


def test_meta_utf16_means_utf8() -> None:
    """A meta tag claiming UTF-16 is read as UTF-8, as browsers do."""
    assert sniff_meta_charset(b'<meta charset="utf-16">') == "utf-8"


@pytest.mark.asyncio
async def test_binary_served_as_html_decodes_without_error(
    serve_app: Serve, make_client: MakeClient
) -> None:
    """Binary bytes labelled text/html come back as bytes and decode without raising."""
    blob = bytes(range(256)) * 64

    async def index(request: web.Request) -> web.Response:
        return web.Response(body=blob, headers={"Content-Type": "text/html; charset=nonsense"})

    app = web.Application()
    app.router.add_get("/", index)
    port = await serve_app(app)
    result = await make_client(port).fetch(f"http://{SITE}:{port}/")
    assert result.body == blob
    assert result.content_type == "text/html"
    assert result.charset == "nonsense"
    text, used = result.decode()
    assert used == "cp1252"
    assert len(text) == len(blob)
