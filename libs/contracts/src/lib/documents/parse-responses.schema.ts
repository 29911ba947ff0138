import { z } from 'zod';

/** Answer of `POST /v2/parse/upload-url` (docs/documents.md#other-formats-post-v2parse): where and how to PUT the file. */
export const parseUploadUrlResponseSchema = z.object({
  success: z.literal(true),
  data: z.object({
    uploadUrl: z.string(),
    uploadRef: z.string(),
    method: z.literal('PUT'),
    headers: z.record(z.string(), z.string()),
    expiresAt: z.string(),
    maxSizeBytes: z.int(),
  }),
});
export type ParseUploadUrlResponse = z.infer<typeof parseUploadUrlResponseSchema>;

/** Answer of `PUT /v2/parse/upload/:uploadId`. */
export const parseUploadResponseSchema = z.object({ success: z.literal(true), sizeBytes: z.int() });
