"""The text stage: Markdown structure, languages, sentences with offsets, citation markers
and the word forms the checks compare."""
