import { startTracing } from '@broker/telemetry';

startTracing('broker-service');
