import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { Global, Module } from '@nestjs/common';

import { APP_CONFIG, type AppConfig } from '@quarry/platform/config';

import { BlobStore } from './blob-store';

/** The signing secret: BLOB_SIGNING_SECRET, else one generated once and kept in DATA_DIR (one-process mode). */
export function blobSigningSecret(config: AppConfig): string {
  if (config.blob.signingSecret) return config.blob.signingSecret;
  const file = join(config.dataDir, 'blob-signing.key');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(config.dataDir, { recursive: true });
  const secret = randomBytes(32).toString('hex');
  writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}

@Global()
@Module({
  providers: [
    {
      provide: BlobStore,
      useFactory: (config: AppConfig) =>
        new BlobStore({
          dir: config.blob.dir,
          publicUrl: config.service.publicUrl,
          signingSecret: blobSigningSecret(config),
        }),
      inject: [APP_CONFIG],
    },
  ],
  exports: [BlobStore],
})
export class BlobModule {}
