import 'reflect-metadata';
import { serve } from '@broker/platform';
import { AppModule } from './app.module.js';
import { loadCalcConfig } from './config.js';

const config = loadCalcConfig();
void serve(AppModule.forRoot(config), {
  service: 'calc-service',
  config,
});
