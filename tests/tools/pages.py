"""Documents the tool tests serve."""

from __future__ import annotations

ROWS = "".join(
    f"<tr><td>3.{i}</td><td>Python 3.{i} brought faster startup and better error messages"
    f"</td><td>{2015 + i}</td></tr>"
    for i in range(6)
)

ARTICLE = f"""<!doctype html>
<html><head><meta charset="utf-8"><title>Python release notes</title>
<style>body {{ color: red }}</style></head>
<body>
<nav><ul><li><a href="/">Home</a></li><li><a href="/blog">Navigation blog link</a></li></ul></nav>
<article>
<h1>Python releases</h1>
<p>This page lists the Python releases and what each of them brought to the developers who
use the language every day, from faster startup to clearer error messages.</p>
<table><thead><tr><th>Version</th><th>Notes</th><th>Year</th></tr></thead>
<tbody>{ROWS}</tbody></table>
<p>Each release is supported for five years after its first stable version came out, and
security fixes continue for the whole of that time.</p>
<ul><li>Read the changelog first.</li><li>Upgrade one minor version at a time.</li></ul>
</article>
<footer>Footer text copyright notice</footer>
<script>document.write("script text must not appear")</script>
</body></html>
"""

TABLE_MARKDOWN = "| Version | Notes | Year |\n| --- | --- | --- |"


def long_text(label: str, paragraphs: int = 40) -> str:
    """A plain-text document of *paragraphs* numbered paragraphs, each naming *label*."""
    return "\n\n".join(
        f"Paragraph {i} of version {label}: " + "lorem ipsum dolor sit amet " * 8
        for i in range(paragraphs)
    )
