// First: tracing must be started before the modules it instruments are loaded.
import './tracing.js';
import 'reflect-metadata';
import { serve } from '@broker/platform';
import { AppModule } from './app.module.js';
import { loadImportConfig } from './config.js';
import { importHttpSettings } from './http-settings.js';

const config = loadImportConfig();
void serve(AppModule.forRoot(config), { service: 'import-service', config, ...importHttpSettings(config) });
