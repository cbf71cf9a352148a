"""Site stage: checks on the sources (pages, translations, snippets) and on the built site.

The built-site checks read `site/` (the `site` fixture, in tests/conftest.py), produced
by `mkdocs build --strict` in the stage before (see the Makefile's `test` target).
"""
