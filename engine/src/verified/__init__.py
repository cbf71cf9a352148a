"""The verification engine: runs every example of the site and writes the verification
record, the one contract between the examples and the site (`verified.record`).

Its pytest plugin (`verified.plugin`) is registered through the `pytest11` entry point.
Nothing here is about tensors, and nothing imports MkDocs: the engine also runs on a GPU
machine that has only Python, torch and the engine's own few dependencies.
"""
