import { Injectable } from '@nestjs/common';
import { Gauge } from 'prom-client';
import { DataSource } from 'typeorm';
import { ProcessMetrics } from '@broker/platform';

interface Backlog {
  pending: number;
  oldestSeconds: number;
}

/** One scrape reads the backlog once for both gauges (prom-client collects them at the same time). */
const READ_REUSE_MS = 1000;

/**
 * The outbox's backlog at the broker service's /metrics, read from the database when scraped (the pending messages'
 * partial index): how many messages wait for delivery, and how long the oldest has waited. Across tenants, so the
 * label set stays fixed. A scrape while the database is unreachable keeps the last values.
 */
@Injectable()
export class OutboxMetrics {
  private last: Backlog = { pending: 0, oldestSeconds: 0 };
  private reading?: { at: number; backlog: Promise<Backlog> };

  constructor(
    metrics: ProcessMetrics,
    private readonly db: DataSource,
  ) {
    const registers = [metrics.registry];
    const backlog = () => this.backlog();
    new Gauge({
      name: 'outbox_messages_pending',
      help: 'Customer messages (mail, SMS) in the outbox waiting for delivery',
      registers,
      async collect() {
        this.set((await backlog()).pending);
      },
    });
    new Gauge({
      name: 'outbox_oldest_pending_seconds',
      help: 'How long the oldest customer message waiting in the outbox has waited (0 when none waits)',
      registers,
      async collect() {
        this.set((await backlog()).oldestSeconds);
      },
    });
  }

  private backlog(): Promise<Backlog> {
    if (!this.reading || Date.now() - this.reading.at > READ_REUSE_MS)
      this.reading = { at: Date.now(), backlog: this.read() };
    return this.reading.backlog;
  }

  private async read(): Promise<Backlog> {
    const [row] = await this.db
      .query<{ pending: number; oldest_seconds: number | null }[]>(
        `SELECT count(*)::int AS pending, extract(epoch FROM now() - min(created_at))::float8 AS oldest_seconds
           FROM broker.outbox_message WHERE status = 'pending'`,
      )
      .catch(() => []);
    if (row) this.last = { pending: row.pending, oldestSeconds: row.oldest_seconds ?? 0 };
    return this.last;
  }
}
