// First: tracing must be started before the modules it instruments are loaded.
import './tracing.js';
import 'reflect-metadata';
import { serve } from '@broker/platform';
import { AppModule } from './app.module.js';
import { loadAdminConfig } from './config.js';
import { adminHttpSettings } from './http-settings.js';

const config = loadAdminConfig();
void serve(AppModule.forRoot(config), { service: 'admin-service', config, ...adminHttpSettings(config) });
