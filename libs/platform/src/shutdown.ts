import type { INestApplicationContext } from '@nestjs/common';
import { Logger } from '@nestjs/common';
import { stopTracing } from '@broker/telemetry';
import { ProcessLogger } from './logging.js';

/**
 * On SIGTERM or SIGINT: stop accepting, let in-flight requests and jobs finish, close pools, export the last spans,
 * write the last log lines, exit 0.
 * Nest's own shutdown hooks re-raise the signal (exit 143); orchestrators expect 0 from a clean stop.
 * A shutdown that takes longer than the timeout exits 1.
 */
export function exitCleanlyOnSignals(app: INestApplicationContext, timeoutMs: number): void {
  const logger = new Logger('Shutdown');
  const shutDown = (signal: NodeJS.Signals) => {
    logger.log(`${signal} received, shutting down`);
    setTimeout(() => {
      logger.error(`Shutdown took longer than ${timeoutMs} ms, exiting`);
      app.get(ProcessLogger, { strict: false }).abandon();
      process.exit(1);
    }, timeoutMs).unref();
    app
      .close()
      .then(() => stopTracing())
      .then(() => app.get(ProcessLogger, { strict: false }).close())
      .then(
        () => process.exit(0),
        (error: unknown) => {
          logger.error({ err: error }, 'Shutdown failed');
          process.exit(1);
        },
      );
  };
  process.once('SIGTERM', shutDown);
  process.once('SIGINT', shutDown);
}
