"""The site side: the MkDocs hook that stamps pages from the verification record, the
checks of the sources, and the commands writers run (new page, glossary, translations).

The examples themselves are run by the engine, the installed package `verified` (engine/).
"""
