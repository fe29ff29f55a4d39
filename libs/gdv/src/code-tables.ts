/** GDV value tables (facts §4, release 2009 values) translated into the values the import writes. */

export type Salutation = 'herr' | 'frau' | 'firma' | 'herr_und_frau' | 'fraeulein' | 'vereinigung';

/** Anredeschlüssel (0100 byte 43). `0` "ohne Anrede" has no value: null. */
export const SALUTATIONS: ReadonlyMap<string, Salutation | null> = new Map([
  ['0', null],
  ['1', 'herr'],
  ['2', 'frau'],
  ['3', 'firma'],
  ['4', 'herr_und_frau'],
  ['5', 'fraeulein'],
  ['6', 'vereinigung'],
]);

export type Gender = 'maennlich' | 'weiblich';

/** Geschlecht (0100 byte 255). `0` "juristische Person" is no gender: null, and makes the person legal. */
export const GENDERS: ReadonlyMap<string, Gender | null> = new Map([
  ['0', null],
  ['1', 'maennlich'],
  ['2', 'weiblich'],
]);

export type PaymentMode =
  'jaehrlich' | 'halbjaehrlich' | 'vierteljaehrlich' | 'monatlich' | 'einmalig' | 'sonstige' | 'beitragsfrei';

/** Zahlungsweise (0200 byte 68). */
export const PAYMENT_MODES: ReadonlyMap<string, PaymentMode> = new Map([
  ['1', 'jaehrlich'],
  ['2', 'halbjaehrlich'],
  ['4', 'vierteljaehrlich'],
  ['5', 'sonstige'],
  ['6', 'einmalig'],
  ['8', 'monatlich'],
  ['9', 'beitragsfrei'],
]);

export type ContractStatus =
  | 'aktiv'
  | 'aktiv_unterjaehrig'
  | 'ruhend'
  | 'storniert'
  | 'ruhend_beitragsfrei'
  | 'beitragsfrei'
  | 'beitragsfrei_durch_leistung'
  | 'beitragsstundung'
  | 'sonstiger';

/** Vertragsstatus, Anlage 24 (0200 byte 69, 0210 byte 43). */
export const CONTRACT_STATUSES: ReadonlyMap<string, ContractStatus> = new Map([
  ['1', 'aktiv'],
  ['2', 'aktiv_unterjaehrig'],
  ['3', 'ruhend'],
  ['4', 'storniert'],
  ['5', 'ruhend_beitragsfrei'],
  ['6', 'beitragsfrei'],
  ['7', 'beitragsfrei_durch_leistung'],
  ['8', 'beitragsstundung'],
  ['9', 'sonstiger'],
]);

export type PartnerRole =
  | 'versicherungsnehmer'
  | 'sicherungsglaeubiger'
  | 'beitragszahler'
  | 'zustellungsbevollmaechtigter'
  | 'leistungsempfaenger'
  | 'korrespondenzpartner'
  | 'gv_partner'
  | 'empfaenger_beitragsrueckerstattung'
  | 'versicherte_person'
  | 'sfr_berechtigter'
  | 'fahrzeughalter'
  | 'fahrer'
  | 'vermittler'
  | 'sonstige';

/** Adresskennzeichen (0100 bytes 237–238), the VUVM subset 01–14 (facts §4.7). */
export const PARTNER_ROLES: ReadonlyMap<string, PartnerRole> = new Map([
  ['01', 'versicherungsnehmer'],
  ['02', 'sicherungsglaeubiger'],
  ['03', 'beitragszahler'],
  ['04', 'zustellungsbevollmaechtigter'],
  ['05', 'leistungsempfaenger'],
  ['06', 'korrespondenzpartner'],
  ['07', 'gv_partner'],
  ['08', 'empfaenger_beitragsrueckerstattung'],
  ['09', 'versicherte_person'],
  ['10', 'sfr_berechtigter'],
  ['11', 'fahrzeughalter'],
  ['12', 'fahrer'],
  ['14', 'vermittler'],
]);

export type ContactType = 'telefon' | 'mobil' | 'telefax' | 'email';
export type ContactContext = 'privat' | 'geschaeftlich';

/** Kommunikationstyp (0100 part 2 and 3). */
export const CONTACT_TYPES: ReadonlyMap<string, { type: ContactType; context: ContactContext | null }> =
  new Map([
    ['10', { type: 'telefon', context: 'privat' }],
    ['20', { type: 'telefon', context: 'geschaeftlich' }],
    ['30', { type: 'mobil', context: null }],
    ['40', { type: 'telefax', context: null }],
    ['41', { type: 'telefax', context: 'privat' }],
    ['42', { type: 'telefax', context: 'geschaeftlich' }],
    ['50', { type: 'email', context: null }],
    ['51', { type: 'email', context: 'privat' }],
    ['52', { type: 'email', context: 'geschaeftlich' }],
  ] as const);

/** Rechtsform (0100 part 3 bytes 229–230): `01` natürliche Person; 02–13 and 99 are legal forms. */
export const NATURAL_PERSON_LEGAL_FORM = '01';

/**
 * Vehicle-style Länderkennzeichen (0100 bytes 154–156; the distinguishing signs of the 1949 and 1968 road traffic
 * conventions) to ISO 3166-1 alpha-2: Europe's, and the other countries' most often met. UK is the sign of the
 * United Kingdom since 2021, GB before.
 */
export const COUNTRY_CODES: ReadonlyMap<string, string> = new Map([
  ['D', 'DE'],
  ['A', 'AT'],
  ['CH', 'CH'],
  ['FL', 'LI'],
  ['F', 'FR'],
  ['NL', 'NL'],
  ['B', 'BE'],
  ['L', 'LU'],
  ['DK', 'DK'],
  ['PL', 'PL'],
  ['CZ', 'CZ'],
  ['I', 'IT'],
  ['E', 'ES'],
  ['P', 'PT'],
  ['GB', 'GB'],
  ['UK', 'GB'],
  ['GBZ', 'GI'],
  ['GBJ', 'JE'],
  ['GBG', 'GG'],
  ['GBM', 'IM'],
  ['IRL', 'IE'],
  ['S', 'SE'],
  ['N', 'NO'],
  ['FIN', 'FI'],
  ['IS', 'IS'],
  ['H', 'HU'],
  ['SK', 'SK'],
  ['SLO', 'SI'],
  ['HR', 'HR'],
  ['GR', 'GR'],
  ['TR', 'TR'],
  ['BG', 'BG'],
  ['RO', 'RO'],
  ['LT', 'LT'],
  ['LV', 'LV'],
  ['EST', 'EE'],
  ['M', 'MT'],
  ['CY', 'CY'],
  ['MC', 'MC'],
  ['AND', 'AD'],
  ['RSM', 'SM'],
  ['V', 'VA'],
  ['SRB', 'RS'],
  ['BIH', 'BA'],
  ['MNE', 'ME'],
  ['NMK', 'MK'],
  ['AL', 'AL'],
  ['MD', 'MD'],
  ['UA', 'UA'],
  ['BY', 'BY'],
  ['RUS', 'RU'],
  ['GE', 'GE'],
  ['AM', 'AM'],
  ['AZ', 'AZ'],
  ['KZ', 'KZ'],
  ['USA', 'US'],
  ['CDN', 'CA'],
  ['MEX', 'MX'],
  ['BR', 'BR'],
  ['RA', 'AR'],
  ['RCH', 'CL'],
  ['CO', 'CO'],
  ['PE', 'PE'],
  ['ROU', 'UY'],
  ['AUS', 'AU'],
  ['NZ', 'NZ'],
  ['J', 'JP'],
  ['ROK', 'KR'],
  ['IND', 'IN'],
  ['PK', 'PK'],
  ['T', 'TH'],
  ['VN', 'VN'],
  ['RI', 'ID'],
  ['SGP', 'SG'],
  ['IL', 'IL'],
  ['RL', 'LB'],
  ['SYR', 'SY'],
  ['IRQ', 'IQ'],
  ['IR', 'IR'],
  ['ET', 'EG'],
  ['MA', 'MA'],
  ['TN', 'TN'],
  ['DZ', 'DZ'],
  ['ZA', 'ZA'],
]);
