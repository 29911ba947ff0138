import { Controller, HttpCode, Inject, Post, Req } from '@nestjs/common';
import type { AuthContext } from '@quarry/identity';
import type { FastifyRequest } from 'fastify';
import { Auth, CurrentAuth } from '../auth/auth.decorator';
import { defineOperations } from '../openapi/openapi.registry';
import { readParseUpload } from './parse-upload.reader';
import { ParseService } from './parse.service';

defineOperations({
  method: 'post',
  path: '/v2/parse',
  summary: 'Parse an uploaded document (PDF, Office, OpenDocument, RTF, CSV, HTML, EPUB, images) into markdown',
  tag: 'parse',
  multipart: [
    { name: 'file', description: 'The document; its file name (extension) selects the parser. At most PARSE_MAX_FILE_BYTES.', file: true, required: true },
    { name: 'options', description: 'JSON: the scrape options of compat §3 without url (formats, parsers, timeout…); see PARSE_UNSUPPORTED_OPTIONS.' },
  ],
  statuses: [402, 408, 422],
});

@Controller('v2/parse')
export class ParseController {
  constructor(@Inject(ParseService) private readonly parses: ParseService) {}

  /** `POST /v2/parse` (compat §14): multipart `file` + `options` → the parsed document. */
  @Post()
  @HttpCode(200)
  @Auth({ scope: 'scrape', rateLimit: 'scrape' })
  async parse(@CurrentAuth() auth: AuthContext, @Req() request: FastifyRequest) {
    return this.parses.parse(auth, await readParseUpload(request));
  }
}
