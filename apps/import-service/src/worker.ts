import 'reflect-metadata';
import { serve } from '@broker/platform';
import { loadImportConfig } from './config.js';
import { WorkerModule } from './worker.module.js';

const config = loadImportConfig();
void serve(WorkerModule.forRoot(config), {
  service: 'import-worker',
  config,
});
