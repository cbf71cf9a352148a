"""Tooling for the site: example collection and checking, the verification record,
page/translation bookkeeping and the MkDocs hook that stamps pages.

Nothing here is about tensors; it exists so that every example on the site is
executed and every page says what was verified.
"""
