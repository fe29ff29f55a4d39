import { type DynamicModule, Inject, Module, type OnApplicationShutdown } from '@nestjs/common';
import { Redis } from 'ioredis';
import { IMPORT_EVENTS_REDIS, IMPORT_EVENTS_SETTINGS, ImportEvents } from './import-events.js';

/** ImportEvents on a Redis connection of its own (the API's streams and the worker's publishing). */
@Module({})
export class ImportEventsModule implements OnApplicationShutdown {
  constructor(@Inject(IMPORT_EVENTS_REDIS) private readonly redis: Redis) {}

  static forRoot(settings: { redisUrl: string; prefix: string }): DynamicModule {
    return {
      module: ImportEventsModule,
      providers: [
        {
          provide: IMPORT_EVENTS_REDIS,
          useFactory: () =>
            new Redis(settings.redisUrl, { maxRetriesPerRequest: 1, enableOfflineQueue: false }),
        },
        { provide: IMPORT_EVENTS_SETTINGS, useValue: { prefix: settings.prefix } },
        ImportEvents,
      ],
      exports: [ImportEvents],
    };
  }

  onApplicationShutdown(): void {
    this.redis.disconnect();
  }
}
