import { Logger } from '@nestjs/common';
import { createHttpApp, type HttpAppSettings } from './http-app.js';
import { exitCleanlyOnSignals } from './shutdown.js';

export interface ServeSettings extends HttpAppSettings {
  service: string;
  /** The process's validated configuration: where to listen and how long a clean stop may take. */
  config: { HOST: string; PORT: number; SHUTDOWN_TIMEOUT_MS: number };
}

/**
 * Entry point of every HTTP process: create, listen, stop cleanly on signals.
 * A failure during boot (database unreachable, port taken) is logged as one line and exits 1.
 */
export async function serve(rootModule: object, settings: ServeSettings): Promise<void> {
  try {
    const app = await createHttpApp(rootModule, settings);
    const { HOST, PORT, SHUTDOWN_TIMEOUT_MS } = settings.config;
    exitCleanlyOnSignals(app, SHUTDOWN_TIMEOUT_MS);
    await app.listen(PORT, HOST);
    new Logger(settings.service).log(`Listening on http://${HOST}:${PORT}`);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    process.stderr.write(`${settings.service} failed to start: ${reason}\n`);
    process.exit(1);
  }
}
