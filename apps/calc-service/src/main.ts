import 'reflect-metadata';
import { serve } from '@broker/platform';
import { AppModule } from './app.module.js';
import { loadCalcConfig } from './config.js';
import { CALC_HTTP_SETTINGS } from './http-settings.js';

const config = loadCalcConfig();
void serve(AppModule.forRoot(config), {
  ...CALC_HTTP_SETTINGS,
  service: 'calc-service',
  config,
});
