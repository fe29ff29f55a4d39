import 'reflect-metadata';
import { serve } from '@broker/platform';
import { AppModule } from './app.module.js';
import { loadBrokerConfig } from './config.js';
import { BROKER_OPENAPI, EMPLOYEE_OPENAPI } from './openapi.js';

const config = loadBrokerConfig();
void serve(AppModule.forRoot(config), {
  service: 'broker-service',
  config,
  openApi: [EMPLOYEE_OPENAPI, BROKER_OPENAPI],
});
