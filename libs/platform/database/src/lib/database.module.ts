import { type DynamicModule, Global, Module } from '@nestjs/common';

import { Database } from './database';

/** Provides the process's Database (opened and migrated by the app's bootstrap). */
@Global()
@Module({})
export class DatabaseModule {
  static forRoot(database: Database): DynamicModule {
    return {
      module: DatabaseModule,
      providers: [{ provide: Database, useValue: database }],
      exports: [Database],
    };
  }
}
