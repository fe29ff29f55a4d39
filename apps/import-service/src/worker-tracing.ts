import { startTracing } from '@broker/telemetry';

startTracing('import-worker');
