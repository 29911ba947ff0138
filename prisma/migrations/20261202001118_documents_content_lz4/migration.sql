-- Hand-written migration: see docs/database.md.
-- Stored documents (markdown, html, metadata as jsonb, 10–100 kB each) are compressed with lz4
-- instead of pglz: pglz took ~1.5 ms of PostgreSQL CPU per 37 kB document against ~0.15 ms for lz4
-- (bench/crawl, docs/database.md). A PostgreSQL built without lz4 (and embedded PGlite) keeps pglz.
DO $$
BEGIN
  ALTER TABLE "documents" ALTER COLUMN "content" SET COMPRESSION lz4;
EXCEPTION
  WHEN feature_not_supported OR invalid_parameter_value THEN
    RAISE NOTICE 'lz4 is not available in this build: documents keep the default compression';
END
$$;
