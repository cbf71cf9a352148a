"""The site side of Tensors, Verified: the MkDocs plugin (`verified_site.plugin`) and what it
reads and renders. It reads the verification record that the engine (`verified`) writes and
imports the engine, never the reverse.
"""
