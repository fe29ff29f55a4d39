import { Controller, Get, HttpStatus, Inject, Res } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { READINESS_CHECKS, type ReadinessCheck } from './readiness-check.js';

type DependencyState = 'up' | 'down';

export interface ReadinessReport {
  status: 'ready' | 'unavailable';
  dependencies: Record<string, DependencyState>;
  /** The dependencies that are down, by name. */
  failing: string[];
}

@Controller('health')
export class HealthController {
  constructor(
    @Inject(READINESS_CHECKS) private readonly checks: ReadinessCheck[],
    private readonly adapterHost: HttpAdapterHost,
  ) {}

  /** The process runs and its event loop answers. */
  @Get('live')
  live(): { status: 'alive' } {
    return { status: 'alive' };
  }

  /** Every dependency answers; 503 naming the failing ones otherwise. */
  @Get('ready')
  async ready(@Res({ passthrough: true }) response: unknown): Promise<ReadinessReport> {
    const results = await Promise.allSettled(this.checks.map((check) => check.probe()));
    const dependencies: Record<string, DependencyState> = {};
    this.checks.forEach((check, index) => {
      dependencies[check.dependency] = results[index]?.status === 'fulfilled' ? 'up' : 'down';
    });
    const failing = Object.keys(dependencies).filter((name) => dependencies[name] === 'down');
    this.adapterHost.httpAdapter.status(
      response,
      failing.length > 0 ? HttpStatus.SERVICE_UNAVAILABLE : HttpStatus.OK,
    );
    return { status: failing.length > 0 ? 'unavailable' : 'ready', dependencies, failing };
  }
}
