// First: tracing must be started before the modules it instruments are loaded.
import './worker-tracing.js';
import 'reflect-metadata';
import { serve } from '@broker/platform';
import { loadImportWorkerConfig } from './config.js';
import { WorkerModule } from './worker.module.js';

const config = loadImportWorkerConfig();
void serve(WorkerModule.forRoot(config), {
  service: 'import-worker',
  config,
});
