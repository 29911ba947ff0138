import type { FastifyRequest } from 'fastify';

import {
  AppError,
  type DocumentKind,
  documentKindOf,
  PARSE_EXTENSIONS,
  type ParseRequest,
  parseRequestSchema,
  unsupportedParseOptions,
} from '@quarry/contracts';
import { parseOrThrow } from '@quarry/platform/runtime';

/** A validated upload: the file and its options (docs/documents.md#other-formats-post-v2parse). */
export interface ParseUpload {
  filename: string;
  contentType?: string;
  kind: DocumentKind;
  data: Buffer;
  request: ParseRequest;
}

/** A parse of a file uploaded earlier through an upload reference. */
export interface ParseReference {
  uploadRef: string;
  request: ParseRequest;
}

/** Size of the `options` field (a JSON string) accepted in a multipart upload. */
const MAX_OPTIONS_BYTES = 1024 * 1024;

/**
 * Reads `POST /v2/parse`: multipart with a `file` part and an optional `options` part (JSON).
 * Oversized files end in 413 (the multipart plugin's limit); everything else wrong is a 400 that
 * says what to fix.
 */
export async function readParseUpload(request: FastifyRequest): Promise<ParseUpload | ParseReference> {
  if (!request.isMultipart()) {
    const body = request.body as Record<string, unknown> | undefined;
    if (body && typeof body === 'object' && !Array.isArray(body) && 'uploadRef' in body) {
      const { uploadRef, ...options } = body;
      if (typeof uploadRef !== 'string' || !uploadRef)
        throw new AppError('BAD_REQUEST', {
          message: 'uploadRef must be the string returned by POST /v2/parse/upload-url',
        });
      return { uploadRef, request: validOptions(options) };
    }
    throw new AppError('BAD_REQUEST', {
      message:
        'POST /v2/parse expects multipart/form-data with the document in the field "file" and options as JSON in the field "options", or JSON with an uploadRef',
    });
  }
  let file: { filename: string; mimetype: string; data: Buffer } | undefined;
  let optionsText: string | undefined;
  try {
    for await (const part of request.parts({ limits: { fieldSize: MAX_OPTIONS_BYTES } })) {
      if (part.type === 'file') {
        if (part.fieldname !== 'file') {
          await part.toBuffer();
          throw new AppError('BAD_REQUEST', {
            message: `Unexpected file field "${part.fieldname}": send the document in the field "file"`,
          });
        }
        if (file) throw new AppError('BAD_REQUEST', { message: 'Send exactly one file per request' });
        file = { filename: part.filename ?? '', mimetype: part.mimetype, data: await part.toBuffer() };
      } else if (part.fieldname === 'options') {
        if (part.valueTruncated)
          throw new AppError('PAYLOAD_TOO_LARGE', {
            message: `The options field is larger than ${MAX_OPTIONS_BYTES} bytes`,
          });
        optionsText = String(part.value ?? '');
      }
    }
  } catch (error) {
    throw malformedMultipart(error);
  }
  if (!file)
    throw new AppError('BAD_REQUEST', {
      message: 'Missing file: send the document as the multipart field "file"',
    });
  const filename = file.filename.trim();
  if (!filename)
    throw new AppError('BAD_REQUEST', {
      message: 'The uploaded file needs a file name (its extension selects the parser)',
    });
  if (file.data.length === 0) throw new AppError('BAD_REQUEST', { message: 'The uploaded file is empty' });
  let options: unknown = {};
  if (optionsText !== undefined && optionsText.trim() !== '') {
    try {
      options = JSON.parse(optionsText);
    } catch {
      throw new AppError('BAD_REQUEST_INVALID_JSON', {
        message: 'Bad request, malformed JSON in the options field',
      });
    }
  }
  if (options === null || typeof options !== 'object' || Array.isArray(options))
    throw new AppError('BAD_REQUEST', { message: 'The options field must be a JSON object' });
  const parsed = validOptions(options);
  const kind = documentKindOf(filename, file.data);
  if (!kind) {
    const extensions = Object.keys(PARSE_EXTENSIONS).join(' ');
    throw new AppError('PARSE_UNSUPPORTED_FILE_TYPE', {
      message: `Unsupported file type "${filename}": supported extensions are ${extensions}`,
      details: { supported: Object.keys(PARSE_EXTENSIONS) },
    });
  }
  return { filename, contentType: file.mimetype || undefined, kind, data: file.data, request: parsed };
}

/**
 * What the multipart parser throws for a body it cannot read (no boundary in the content type, a
 * truncated or malformed part header) is the client's error: a 400 that says so. The API's own
 * errors and the plugin's limits (413 and the like, codes `FST_…`) pass through unchanged.
 */
function malformedMultipart(error: unknown): unknown {
  if (error instanceof AppError) return error;
  const code = (error as { code?: unknown })?.code;
  if (typeof code === 'string' && code.startsWith('FST_')) return error;
  const reason = error instanceof Error ? error.message : String(error);
  return new AppError('BAD_REQUEST', {
    message: `Malformed multipart/form-data body (${reason}): send the document in the field "file" with a boundary in the Content-Type`,
  });
}

/** Options validated against the contract, then against what parse supports. */
function validOptions(options: unknown): ParseRequest {
  const parsed = parseOrThrow(parseRequestSchema, options);
  const unsupported = unsupportedParseOptions(parsed);
  if (unsupported.length)
    throw new AppError('PARSE_UNSUPPORTED_OPTIONS', {
      message: `Unsupported options for parse: ${unsupported.join('; ')}`,
      details: unsupported,
    });
  return parsed;
}
