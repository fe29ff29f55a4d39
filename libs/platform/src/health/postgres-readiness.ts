import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { type ReadinessCheck, withTimeout } from './readiness-check.js';

@Injectable()
export class PostgresReadiness implements ReadinessCheck {
  readonly dependency = 'postgres';

  constructor(private readonly dataSource: DataSource) {}

  probe(): Promise<void> {
    return withTimeout(this.dataSource.query('SELECT 1'), 2_000, this.dependency);
  }
}
