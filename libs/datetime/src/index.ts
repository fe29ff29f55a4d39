export { DateParseError, type DateParseReason } from './errors.js';
export { formatDate, formatDateTime } from './format.js';
export { parseDate, parseDateTime, parseTimestampHeader, todayIn } from './parse.js';
export { isValidZone, SERVICE_ZONE } from './zone.js';
