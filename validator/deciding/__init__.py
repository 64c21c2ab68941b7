"""The deciding stage: claims, the rule checks, cheap first and the judge, and the verdicts
aggregated into one result."""
