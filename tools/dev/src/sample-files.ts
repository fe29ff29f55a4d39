import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { Writable } from 'node:stream';
import { findWorkspaceRoot } from '@broker/local-services';
import { writeGdvPortfolio } from '@broker/testing';

/**
 * The sample import files of examples/ (README, "Try an import"): synthetic, made by the project's own GDV writer
 * and from the CSV import format's columns, never from real insurer files. `pnpm samples` writes them; a test
 * fails when they are not what this gives.
 */
export const SAMPLES_DIR = path.join(findWorkspaceRoot(__dirname), 'examples');

/** Twelve contracts of six customers of insurer 9999 (a demo company), as an insurer's GDV delivery. */
export async function sampleGdv(): Promise<Buffer> {
  const chunks: Buffer[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      chunks.push(chunk);
      done();
    },
  });
  await writeGdvPortfolio(sink, { contracts: 12, vuNumber: '9999', policyPrefix: 'BEISPIEL-' });
  return Buffer.concat(chunks);
}

const CSV_LINES = [
  'kundennummer;anrede;vorname;nachname;geburtsdatum;strasse;plz;ort;email;vu_nummer;sparte;vertragsnummer;beginn;zahlweise;nettobeitrag',
  'K-1001;frau;Erika;Beispiel;1980-04-12;Domstraße 1;50667;Köln;erika.beispiel@example.com;9999;040;CSV-PH-1001;2026-01-01;jaehrlich;59.90',
  'K-1001;frau;Erika;Beispiel;1980-04-12;Domstraße 1;50667;Köln;erika.beispiel@example.com;9999;130;CSV-HR-1001;2026-02-01;monatlich;8.25',
  'K-1002;herr;Jürgen;Muster;1975-09-30;Hafenweg 7;20095;Hamburg;;9999;040;CSV-PH-1002;2025-07-01;jaehrlich;64.50',
];

/** Two customers with three contracts in the CSV import format (docs/csv-import-format.md of the import service). */
export function sampleCsv(): Buffer {
  return Buffer.from(`${CSV_LINES.join('\n')}\n`, 'utf8');
}

export const SAMPLE_FILES = { 'bestand.gdv': sampleGdv, 'kunden.csv': () => Promise.resolve(sampleCsv()) };

async function main(): Promise<void> {
  for (const [name, make] of Object.entries(SAMPLE_FILES)) {
    writeFileSync(path.join(SAMPLES_DIR, name), await make());
    process.stdout.write(`examples/${name}\n`);
  }
}

if (require.main === module) void main();
