import { type DynamicModule, Global, Module } from '@nestjs/common';

import { MESSAGE_BUS, type MessageBus } from './message-bus';

/** Provides the process's MessageBus (started by the app's bootstrap). */
@Global()
@Module({})
export class BusModule {
  static forRoot(bus: MessageBus): DynamicModule {
    return {
      module: BusModule,
      providers: [{ provide: MESSAGE_BUS, useValue: bus }],
      exports: [MESSAGE_BUS],
    };
  }
}
