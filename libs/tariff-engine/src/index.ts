export { ageAt, berlinCalendarDate, CALENDAR_ZONE, type CalendarDate, type Instant } from './calendar.js';
export {
  CatalogError,
  type CatalogIssue,
  formatIssuePath,
  issuesFromZod,
  readJsonCatalogFile,
} from './catalog-error.js';
export { CATALOGS_DIRECTORY, DEMO_PRIVATE_LIABILITY_CATALOG_PATH } from './demo-catalogs.js';
export {
  BASIS_POINTS_PER_UNIT,
  basisPointsToPercent,
  divideRoundHalfUp,
  formatCents,
  percentOf,
} from './money.js';
export * from './private-liability/index.js';
