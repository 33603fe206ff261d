"""Tools for the documentation site: running its code blocks, the mkdocs hook that draws
its pictures, and the generators of its conformance and API-map pages."""
