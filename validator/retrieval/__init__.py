"""The retrieval stage: sources cut into chunks, embedded, indexed (FAISS and BM25), and the
evidence for each claim found and bounded."""
