// First: tracing must be started before the modules it instruments are loaded.
import './tracing.js';
import 'reflect-metadata';
import { serve } from '@broker/platform';
import { AppModule } from './app.module.js';
import { loadBrokerConfig } from './config.js';
import { BROKER_HTTP_SETTINGS } from './http-settings.js';

const config = loadBrokerConfig();
void serve(AppModule.forRoot(config), {
  service: 'broker-service',
  config,
  ...BROKER_HTTP_SETTINGS,
});
