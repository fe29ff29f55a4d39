/**
 * Byte positions of the fields this library reads or writes, 1-based and inclusive as the GDV manual writes
 * them (see ../../shared/reference/gdv-format.md). After decoding, a position counts characters, not bytes.
 */
export type Span = readonly [from: number, to: number];

export const RECORD_LENGTH = 256;

/** Bytes 1–42: identical in every Teildatensatz of a Datensatz (§2.3). */
export const KEY = {
  satzart: [1, 4],
  vuNumber: [5, 9],
  bundled: [10, 10],
  sparte: [11, 13],
  policyNumber: [14, 30],
  sequenceNumber: [31, 32],
  broker: [33, 42],
  whole: [1, 42],
} as const satisfies Record<string, Span>;

/** Satzart 0001, §3.1. Bytes 1–95 repeat in every Teildatensatz. */
export const VORSATZ = {
  vuNumber: [5, 9],
  sender: [10, 39],
  recipient: [40, 69],
  periodFrom: [70, 77],
  periodTo: [78, 85],
  broker: [86, 95],
  versionVorsatz: [96, 98],
  versionAdressteil: [99, 101],
  versionVertragsteil: [102, 104],
  versionNachsatz: [225, 227],
} as const satisfies Record<string, Span>;

/** Satzart 9999, §3.4. */
export const NACHSATZ = {
  recordCount: [5, 14],
  broker: [15, 24],
  totalPremium: [25, 39],
  totalGrossPremium: [40, 53],
  totalGrossPremiumSign: [54, 54],
  totalCommission: [55, 68],
  totalCommissionSign: [69, 69],
  claimsPaid: [70, 83],
  claimsPaidSign: [84, 84],
  claimsCosts: [85, 98],
  claimsCostsSign: [99, 99],
} as const satisfies Record<string, Span>;

/** Satzart 0100, §3.2. */
export const ADRESSTEIL_1 = {
  salutation: [43, 43],
  name1: [44, 73],
  name2: [74, 103],
  name3: [104, 133],
  title: [134, 153],
  country: [154, 156],
  postalCode: [157, 162],
  city: [163, 187],
  street: [188, 217],
  postOfficeBox: [218, 225],
  birthDate: [226, 233],
  nationality: [234, 236],
  role: [237, 238],
  gender: [255, 255],
} as const satisfies Record<string, Span>;

/** Kommunikationstyp/-nummer pairs: four in part 2 (20-character numbers), three in part 3 (60 characters). */
const COMMUNICATION_SLOTS_2: readonly (readonly [type: Span, value: Span])[] = [
  [
    [157, 158],
    [159, 178],
  ],
  [
    [179, 180],
    [181, 200],
  ],
  [
    [201, 202],
    [203, 222],
  ],
  [
    [223, 224],
    [225, 244],
  ],
];
const COMMUNICATION_SLOTS_3: readonly (readonly [type: Span, value: Span])[] = [
  [
    [43, 44],
    [45, 104],
  ],
  [
    [105, 106],
    [107, 166],
  ],
  [
    [167, 168],
    [169, 228],
  ],
];

export const ADRESSTEIL_2 = {
  insurerCustomerNumber: [43, 59],
  brokerCustomerNumber: [60, 76],
  communication: COMMUNICATION_SLOTS_2,
} as const;

export const ADRESSTEIL_3 = {
  communication: COMMUNICATION_SLOTS_3,
  legalForm: [229, 230],
} as const;

/** Satzart 0200, §3.3. */
export const VERTRAGSTEIL_1 = {
  collection: [43, 43],
  start: [44, 51],
  end: [52, 59],
  mainDueDate: [60, 67],
  paymentMode: [68, 68],
  status: [69, 69],
  currency: [113, 115],
  netPremium: [116, 127],
  insurerCustomerNumber: [159, 175],
  brokerCustomerNumber: [176, 192],
} as const satisfies Record<string, Span>;

export const VERTRAGSTEIL_2 = {
  grossPremium: [72, 83],
} as const satisfies Record<string, Span>;

/** Satzart 0210 part 1 (line-of-business contract part), §3.3. */
export const SPARTENTEIL_1 = {
  status: [43, 43],
  start: [44, 51],
} as const satisfies Record<string, Span>;

/** Gesamtbeitrag of 0210 part 1, F(2): the facts spot-checked these two Sparten only. */
const LINE_OF_BUSINESS_PREMIUM: ReadonlyMap<string, Span> = new Map<string, Span>([
  ['040', [154, 165]],
  ['130', [181, 192]],
]);

export function lineOfBusinessPremiumSpan(sparte: string): Span | undefined {
  return LINE_OF_BUSINESS_PREMIUM.get(sparte);
}

/** The characters at a span of a decoded 256-character line. */
export function field(text: string, [from, to]: Span): string {
  return text.slice(from - 1, to);
}

/** An alphanumeric field without its padding blanks. */
export function trimmedField(text: string, span: Span): string {
  return field(text, span).trim();
}
