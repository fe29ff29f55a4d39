// First: tracing must be started before the modules it instruments are loaded.
import './tracing.js';
import 'reflect-metadata';
import { CONFIG_EXIT_CODE } from '@broker/config';
import { serve } from '@broker/platform';
import { CatalogError } from '@broker/tariff-engine';
import { AppModule } from './app.module.js';
import { loadCalcConfig } from './config.js';
import { CALC_HTTP_SETTINGS } from './http-settings.js';

const config = loadCalcConfig();

/** The app module with its tariff catalogs; an invalid catalog stops the process like invalid configuration. */
function appModule() {
  try {
    return AppModule.forRoot(config);
  } catch (error) {
    if (!(error instanceof CatalogError)) throw error;
    process.stderr.write(`calc-service cannot start: ${error.message}\n`);
    process.exit(CONFIG_EXIT_CODE);
  }
}

void serve(appModule(), {
  ...CALC_HTTP_SETTINGS,
  service: 'calc-service',
  config,
});
