import { startTracing } from '@broker/telemetry';

startTracing('calc-service');
