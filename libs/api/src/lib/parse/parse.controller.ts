import { Body, Controller, HttpCode, Inject, Post, Req } from '@nestjs/common';
import { parseUploadUrlRequestSchema, type ParseUploadUrlRequest } from '@quarry/contracts';
import type { AuthContext } from '@quarry/identity';
import { ZodValidationPipe } from '@quarry/platform/http';
import type { FastifyRequest } from 'fastify';
import { Auth, CurrentAuth } from '../auth/auth.decorator';
import { defineOperations } from '../openapi/openapi.registry';
import { readParseUpload } from './parse-upload.reader';
import { ParseUploadsService } from './parse-uploads.service';
import { ParseService } from './parse.service';

defineOperations(
  {
    method: 'post',
    path: '/v2/parse/upload-url',
    summary: 'Mint an upload reference: PUT the file to uploadUrl, then POST /v2/parse {uploadRef}',
    tag: 'parse',
    body: parseUploadUrlRequestSchema,
    statuses: [429],
  },
  {
    method: 'put',
    path: '/v2/parse/upload/{uploadId}',
    summary: 'Upload the raw file of an upload reference (the signed uploadUrl is the credential)',
    tag: 'parse',
    public: true,
    statuses: [400, 404, 409, 413],
  },
  {
    method: 'post',
    path: '/v2/parse',
    summary:
      'Parse a document (PDF, Office, OpenDocument, RTF, CSV, HTML, EPUB, images) into markdown: multipart upload, or JSON {uploadRef, ...options}',
    tag: 'parse',
    multipart: [
      {
        name: 'file',
        description:
          'The document; its file name (extension) selects the parser. At most PARSE_MAX_FILE_BYTES.',
        file: true,
        required: true,
      },
      {
        name: 'options',
        description:
          'JSON: the scrape options of compat §3 without url (formats, parsers, timeout…); see PARSE_UNSUPPORTED_OPTIONS.',
      },
    ],
    statuses: [402, 408, 422],
  },
);

@Controller('v2/parse')
export class ParseController {
  constructor(
    @Inject(ParseService) private readonly parses: ParseService,
    @Inject(ParseUploadsService) private readonly uploads: ParseUploadsService,
  ) {}

  /** `POST /v2/parse` (compat §14): multipart `file` + `options` → the parsed document. */
  @Post()
  @HttpCode(200)
  @Auth({ scope: 'scrape', rateLimit: 'scrape' })
  async parse(@CurrentAuth() auth: AuthContext, @Req() request: FastifyRequest) {
    return this.parses.parse(auth, await readParseUpload(request));
  }

  /** `POST /v2/parse/upload-url` (compat §14). */
  @Post('upload-url')
  @HttpCode(200)
  @Auth({ scope: 'scrape', rateLimit: 'scrape' })
  uploadUrl(
    @CurrentAuth() auth: AuthContext,
    @Body(new ZodValidationPipe(parseUploadUrlRequestSchema)) request: ParseUploadUrlRequest,
  ) {
    return this.uploads.mint(auth, request);
  }
}
