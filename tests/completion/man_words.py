#!/usr/bin/env python3
"""Finds words run together in a rendered man page.

An alternating-font macro joins its arguments without spaces, so
`.BR \\-a ). A LID is reached` renders as "-a).ALIDisreached". Every
long rendered word must therefore be a word of the page's source.
Usage: man_words.py PAGE RENDERED  (RENDERED: `man -l PAGE` as plain text)
Prints the words that are not in the source, one a line.
"""
import re
import sys

page, rendered = sys.argv[1], sys.argv[2]
src = open(page, encoding="utf-8").read()
# The source's words without troff's escapes and quotes.
src = re.sub(r"\\f[BIRP]|\\&|\\%|\\\(em|\\\(en", "", src).replace("\\-", "-").replace('"', "")
text = open(rendered, encoding="utf-8").read()
# Words hyphenated at the end of a line are joined back.
text = re.sub(r"[\u2010-]\n\s*", "", text)
bad = set()
for word in text.split():
    core = word.strip("()[]`'\",.;:").lstrip("-")
    if len(core) >= 20 and re.fullmatch(r"[A-Za-z][A-Za-z().,;:']+", core) and core not in src:
        bad.add(core)
for word in sorted(bad):
    print(word)
