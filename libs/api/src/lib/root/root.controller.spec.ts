import 'reflect-metadata';

import { Controller, Module } from '@nestjs/common';
import { DiscoveryModule, NestFactory } from '@nestjs/core';
import { z } from 'zod';

import { APP_CONFIG } from '@quarry/platform/config';

import { Route } from '../openapi/route.decorator';
import { RootController } from './root.controller';

@Controller('v2/things')
class ThingsController {
  @Route({
    method: 'get',
    path: ':thingId',
    summary: 'A thing',
    tag: 'things',
    auth: 'public',
    response: z.object({ success: z.literal(true), name: z.string() }),
  })
  get() {
    return { success: true as const, name: 'x' };
  }
}

@Module({
  imports: [DiscoveryModule],
  controllers: [RootController, ThingsController],
  providers: [{ provide: APP_CONFIG, useValue: { service: { publicUrl: 'http://api.test' } } }],
})
class TestModule {}

describe('RootController', () => {
  it('serves the OpenAPI document of the controllers the application registered', async () => {
    const app = await NestFactory.createApplicationContext(TestModule, {
      logger: false,
      abortOnError: false,
    });
    try {
      const sut = app.get(RootController);
      const document = sut.openapi();
      expect(document.servers).toEqual([{ url: 'http://api.test' }]);
      expect(Object.keys(document.paths)).toEqual(
        expect.arrayContaining([
          '/',
          '/v2/openapi.json',
          '/v2/things/{thingId}',
          '/v2/parse/upload/{uploadId}',
        ]),
      );
      const operation = document.paths['/v2/things/{thingId}']['get'] as {
        parameters: { name: string; in: string }[];
        responses: Record<
          string,
          { content: { 'application/json': { schema: { properties: Record<string, unknown> } } } }
        >;
      };
      expect(operation.parameters).toEqual([expect.objectContaining({ name: 'thingId', in: 'path' })]);
      expect(Object.keys(operation.responses['200'].content['application/json'].schema.properties)).toEqual([
        'success',
        'name',
      ]);
      expect(Object.keys(operation.responses)).toEqual(expect.arrayContaining(['500', '503']));
    } finally {
      await app.close();
    }
  });
});
