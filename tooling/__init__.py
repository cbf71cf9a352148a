"""The commands writers run (new page, glossary, translations) and the helpers of the checks
(data files and their schemas, source checks, framework tabs, budgets, the suite's
timing).

The examples are run by the engine (`verified`, engine/); the site is built by its MkDocs
plugin (`verified_site`, mkdocs-plugin/). Both are installed packages.
"""
