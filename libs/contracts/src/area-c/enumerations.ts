import countries from 'i18n-iso-countries';
import germanCountryNames from 'i18n-iso-countries/langs/de.json';

/** Area C: one entry of an enumeration (getAnreden, getLaender, ...): `Value` is the key clients send back. */
export interface EnumerationItem {
  Value: string;
  Text: string;
}

const items = (entries: Record<string, string>): readonly EnumerationItem[] =>
  Object.entries(entries).map(([Value, Text]) => ({ Value, Text }));

const SALUTATION_TEXTS = {
  herr: 'Herr',
  frau: 'Frau',
  divers: 'Divers',
  herr_und_frau: 'Herr und Frau',
  familie: 'Familie',
  fraeulein: 'Fräulein',
  firma: 'Firma',
  vereinigung: 'Vereinigung',
} as const;
export type Salutation = keyof typeof SALUTATION_TEXTS;

/** getAnreden. The keys the GDV import writes (Anredeschlüssel) are among them. */
export const SALUTATIONS = items(SALUTATION_TEXTS);

const CONTACT_KIND_TEXTS = {
  telefon: 'Telefon',
  mobil: 'Mobiltelefon',
  email: 'E-Mail',
  fax: 'Fax',
  website: 'Website',
} as const;
export type ContactKind = keyof typeof CONTACT_KIND_TEXTS;

/** getKundenKontaktarten. */
export const CONTACT_KINDS = items(CONTACT_KIND_TEXTS);

/** The context of a contact entry (Kontaktdatensatz.Kontext). */
export const CONTACT_CONTEXTS = ['privat', 'geschaeftlich'] as const;
export type ContactContext = (typeof CONTACT_CONTEXTS)[number];

const NOTE_TYPE_TEXTS = {
  allgemein: 'Allgemeine Notiz',
  telefonat: 'Telefonat',
  termin: 'Termin',
  beratung: 'Beratungsprotokoll',
  wiedervorlage: 'Wiedervorlage',
  beschwerde: 'Beschwerde',
} as const;
export type NoteType = keyof typeof NOTE_TYPE_TEXTS;

/** getKundenNotizTypen. */
export const NOTE_TYPES = items(NOTE_TYPE_TEXTS);

/** getAdresstypen. `hauptwohnsitz` is the main residence, always address 0 of a customer. */
export const ADDRESS_TYPES = items({
  hauptwohnsitz: 'Hauptwohnsitz',
  nebenwohnsitz: 'Nebenwohnsitz',
  postanschrift: 'Postanschrift',
  rechnungsanschrift: 'Rechnungsanschrift',
  arbeitsstaette: 'Arbeitsstätte',
  sonstige: 'Sonstige Adresse',
});

export const MAIN_RESIDENCE = 'hauptwohnsitz';

countries.registerLocale(germanCountryNames);

/** getLaender: every ISO 3166-1 alpha-2 country with its German name, sorted by name. */
export const COUNTRIES: readonly EnumerationItem[] = Object.keys(countries.getAlpha2Codes())
  .map((code) => ({ Value: code, Text: countries.getName(code, 'de') ?? code }))
  .sort((a, b) => a.Text.localeCompare(b.Text, 'de'));

/** Every enumeration list, for clients that cache them. */
export const ENUMERATIONS = {
  anreden: SALUTATIONS,
  kontaktarten: CONTACT_KINDS,
  notiztypen: NOTE_TYPES,
  adresstypen: ADDRESS_TYPES,
  laender: COUNTRIES,
} as const;

/**
 * When the enumeration lists last changed: their Last-Modified. A unit test holds a digest of the lists and
 * fails when they change and this date does not move along (so no client keeps an outdated list).
 */
export const ENUMERATIONS_LAST_MODIFIED = new Date('2026-11-21T00:00:00Z');

export const keysOf = (enumeration: readonly EnumerationItem[]): string[] =>
  enumeration.map((item) => item.Value);
