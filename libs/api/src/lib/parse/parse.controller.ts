import { Controller, Header, Inject, Req } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';

import {
  parseFormatCatalogue,
  type ParseFormatsResponse,
  parseFormatsResponseSchema,
  type ParseUploadUrlRequest,
  parseUploadUrlRequestSchema,
  parseUploadUrlResponseSchema,
  scrapeResponseSchema,
} from '@quarry/contracts';
import type { AuthContext } from '@quarry/identity';
import { APP_CONFIG, type AppConfig } from '@quarry/platform/config';

import { CurrentAuth } from '../auth/auth.decorator';
import { Route } from '../openapi/route.decorator';
import { RouteBody } from '../openapi/route-input.decorator';
import { ParseService } from './parse.service';
import { readParseUpload } from './parse-upload.reader';
import { ParseUploadsService } from './parse-uploads.service';

@Controller('v2/parse')
export class ParseController {
  constructor(
    @Inject(ParseService) private readonly parses: ParseService,
    @Inject(ParseUploadsService) private readonly uploads: ParseUploadsService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** `GET /v2/parse/formats`: what this deployment parses (images need OCR, legacy Office LibreOffice). */
  @Route({
    method: 'get',
    path: 'formats',
    summary: 'File formats POST /v2/parse accepts ({format, kind, extensions, mimeTypes, available})',
    tag: 'parse',
    auth: { scope: 'scrape' },
    response: parseFormatsResponseSchema,
  })
  @Header('Cache-Control', 'private, max-age=3600')
  formats(): ParseFormatsResponse {
    const documents = this.config.documents;
    return {
      success: true,
      data: {
        formats: parseFormatCatalogue({
          ocr: documents.ocr.engine !== 'off',
          legacyOffice: !!documents.sofficePath,
        }),
      },
    };
  }

  /** `POST /v2/parse` (docs/documents.md#other-formats-post-v2parse): multipart `file` + `options` → the parsed document. */
  @Route({
    method: 'post',
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
          'JSON: the scrape options without url (formats, parsers, timeout…); see PARSE_UNSUPPORTED_OPTIONS.',
      },
    ],
    statuses: [402, 408, 422],
    auth: { scope: 'scrape', rateLimit: 'scrape' },
    response: scrapeResponseSchema,
  })
  async parse(@CurrentAuth() auth: AuthContext, @Req() request: FastifyRequest) {
    return this.parses.parse(auth, await readParseUpload(request));
  }

  /** `POST /v2/parse/upload-url` (docs/documents.md#other-formats-post-v2parse). */
  @Route({
    method: 'post',
    path: 'upload-url',
    summary: 'Mint an upload reference: PUT the file to uploadUrl, then POST /v2/parse {uploadRef}',
    tag: 'parse',
    body: parseUploadUrlRequestSchema,
    statuses: [429],
    auth: { scope: 'scrape', rateLimit: 'scrape' },
    response: parseUploadUrlResponseSchema,
  })
  uploadUrl(@CurrentAuth() auth: AuthContext, @RouteBody() request: ParseUploadUrlRequest) {
    return this.uploads.mint(auth, request);
  }
}
