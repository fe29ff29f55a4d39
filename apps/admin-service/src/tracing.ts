import { startTracing } from '@broker/telemetry';

startTracing('admin-service');
