import 'reflect-metadata';
import { serve } from '@broker/platform';
import { AppModule } from './app.module.js';
import { loadImportConfig } from './config.js';
import { importOpenApi } from './openapi.js';

const config = loadImportConfig();
void serve(AppModule.forRoot(config), {
  service: 'import-service',
  config,
  openApi: importOpenApi(config),
});
