-- Hand-written migration: see docs/database.md.
-- Full-text vectors of stored documents are computed off the write path (docs/crawl.md "Search"):
-- the generated column cost about half of PostgreSQL's CPU in a crawl (to_tsvector of up to 32 kB of
-- markdown per insert). Documents are stored with `search` NULL; the search indexer fills it in
-- batches when ingestion leaves room, and a search first indexes the team's pending documents.
-- Existing vectors are dropped with the generated column and recomputed by the indexer.
DROP INDEX IF EXISTS "documents_search_idx";
ALTER TABLE "documents" DROP COLUMN "search";
ALTER TABLE "documents" ADD COLUMN "search" tsvector;
CREATE INDEX "documents_search_idx" ON "documents" USING GIN ("search");

-- prisma:unmanaged index "documents_search_pending_idx"
CREATE INDEX "documents_search_pending_idx" ON "documents" ("created_at") WHERE "search" IS NULL;

-- The vector of one document: title (A), description (B), the first 32 kB of its markdown (C).
CREATE FUNCTION document_search_vector(title text, description text, content jsonb) RETURNS tsvector
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT setweight(to_tsvector('english'::regconfig, coalesce(title, '')), 'A') ||
         setweight(to_tsvector('english'::regconfig, coalesce(description, '')), 'B') ||
         setweight(to_tsvector('english'::regconfig, left(coalesce(content ->> 'markdown', ''), 32768)), 'C')
$$;
