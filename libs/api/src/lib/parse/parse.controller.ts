import { Controller, HttpCode, Inject, Post, Req } from '@nestjs/common';
import type { AuthContext } from '@quarry/identity';
import type { FastifyRequest } from 'fastify';
import { Auth, CurrentAuth } from '../auth/auth.decorator';
import { readParseUpload } from './parse-upload.reader';
import { ParseService } from './parse.service';

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
