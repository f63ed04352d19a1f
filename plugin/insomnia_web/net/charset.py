"""Decoding a response body to text: header charset, then meta, then a simple detection.

Only web encodings (the WHATWG Encoding Standard's list) are honoured, through an allow
list: a page declaring ``charset=punycode`` or ``unicode_escape`` would otherwise pick a
slow or surprising Python codec. Labels WHATWG maps to windows-1252 (``iso-8859-1``,
``latin1``, ``us-ascii``) decode as cp1252, and a meta ``utf-16`` means UTF-8, as in
browsers. Invalid bytes are replaced; decoding never raises.
"""

from __future__ import annotations

import codecs
import re

__all__ = ["META_SNIFF_BYTES", "decode_text", "normalize_charset", "sniff_meta_charset"]

META_SNIFF_BYTES = 4096

_WEB_CODECS = frozenset(
    {
        "utf-8",
        "utf-16-le",
        "utf-16-be",
        "utf-16",
        "cp866",
        "koi8-r",
        "koi8-u",
        "mac-roman",
        "mac-cyrillic",
        "cp874",
        "gbk",
        "gb18030",
        "big5",
        "big5hkscs",
        "euc_jp",
        "iso2022_jp",
        "shift_jis",
        "cp932",
        "euc_kr",
        "cp949",
        *(f"iso8859-{n}" for n in (2, 3, 4, 5, 6, 7, 8, 10, 13, 14, 15, 16)),
        *(f"cp125{n}" for n in range(9)),
    }
)
# Labels browsers decode with a superset codec.
_SUPERSETS = {
    "latin-1": "cp1252",
    "iso8859-1": "cp1252",
    "ascii": "cp1252",
    "iso8859-9": "cp1254",
    "iso8859-11": "cp874",
    "euc_kr": "cp949",
    "shift_jis": "cp932",
    "gb2312": "gbk",
}
_BOMS = (
    (codecs.BOM_UTF8, "utf-8"),
    (codecs.BOM_UTF16_LE, "utf-16-le"),
    (codecs.BOM_UTF16_BE, "utf-16-be"),
)
_META = re.compile(
    rb"""<meta[^>]{0,512}?charset\s*=\s*["']?\s*([A-Za-z0-9_.:-]{1,40})""", re.IGNORECASE
)
_XML_DECL = re.compile(rb"""^<\?xml[^>]{0,200}?encoding\s*=\s*["']([A-Za-z0-9_.:-]{1,40})""")


def normalize_charset(label: str | None) -> str | None:
    """The Python codec for a charset *label* if it is a web encoding we honour, else None."""
    if not label:
        return None
    text = label.strip().strip("\"'").strip().lower()
    if not text or len(text) > 40:
        return None
    try:
        name = codecs.lookup(text).name
    except LookupError:
        return None
    name = _SUPERSETS.get(name, name)
    return name if name in _WEB_CODECS or name in _SUPERSETS.values() else None


def sniff_meta_charset(body: bytes) -> str | None:
    """The charset a ``<meta>`` tag or XML declaration names in the first 4 KB, if any."""
    head = body[:META_SNIFF_BYTES]
    match = _XML_DECL.match(head) or _META.search(head)
    if match is None:
        return None
    name = normalize_charset(match.group(1).decode("ascii"))
    if name is not None and name.startswith("utf-16"):
        return "utf-8"  # a document that can declare itself in ASCII is not UTF-16
    return name


def _is_utf8(body: bytes) -> bool:
    decoder = codecs.getincrementaldecoder("utf-8")()
    try:
        decoder.decode(body, final=False)  # a character cut at the end is still UTF-8
    except UnicodeDecodeError:
        return False
    return True


def decode_text(body: bytes, header_charset: str | None) -> tuple[str, str]:
    """Decode *body*; return ``(text, codec used)``.

    Order: byte-order mark, the header's charset, a meta/XML declaration, then detection
    (valid UTF-8, else cp1252). Unknown or unsafe labels are skipped.
    """
    for bom, bom_codec in _BOMS:
        if body.startswith(bom):
            return body[len(bom) :].decode(bom_codec, errors="replace"), bom_codec
    name = normalize_charset(header_charset) or sniff_meta_charset(body)
    if name is None:
        name = "utf-8" if _is_utf8(body) else "cp1252"
    return body.decode(name, errors="replace"), name
