-- CreateTable
CREATE TABLE "parse_uploads" (
    "id" UUID NOT NULL,
    "team_id" UUID NOT NULL,
    "filename" TEXT NOT NULL,
    "content_type" TEXT,
    "declared_size" INTEGER,
    "blob_key" TEXT,
    "size_bytes" INTEGER,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "uploaded_at" TIMESTAMPTZ(3),
    "parsed_at" TIMESTAMPTZ(3),

    CONSTRAINT "parse_uploads_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "parse_uploads_team_id_created_at_idx" ON "parse_uploads"("team_id", "created_at");

-- AddForeignKey
ALTER TABLE "parse_uploads" ADD CONSTRAINT "parse_uploads_team_id_fkey" FOREIGN KEY ("team_id") REFERENCES "teams"("id") ON DELETE CASCADE ON UPDATE CASCADE;
