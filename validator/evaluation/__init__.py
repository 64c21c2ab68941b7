"""Tooling around the validator: data sets (``provenance eval``), the labelled suite and judge
meta-evaluation (``provenance meta-eval``), GroUSE's grounded-QA metrics and the HTML report.
The validator never imports this package."""
