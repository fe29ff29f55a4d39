import { ensureTemplateDatabase } from './test-database.js';

/** Jest global setup of every project: migrate the template database once per change of the migrations. */
export default async function globalSetup(): Promise<void> {
  await ensureTemplateDatabase();
}
