import { type DynamicModule, Module } from '@nestjs/common';
import { MultiCallController } from './multi-call.controller.js';
import { MULTI_CALL_LIMITS, type MultiCallLimits } from './multi-call-limits.js';
import { MultiCallService } from './multi-call.service.js';

@Module({})
export class MultiCallModule {
  static forRoot(limits: MultiCallLimits): DynamicModule {
    return {
      module: MultiCallModule,
      controllers: [MultiCallController],
      providers: [MultiCallService, { provide: MULTI_CALL_LIMITS, useValue: limits }],
    };
  }
}
