import { once } from 'node:events';
import type { Writable } from 'node:stream';
import { finished } from 'node:stream/promises';
import { encodeText, type GdvEncoding } from './encoding.js';
import {
  ADRESSTEIL_1,
  ADRESSTEIL_2,
  ADRESSTEIL_3,
  KEY,
  lineOfBusinessPremiumSpan,
  NACHSATZ,
  RECORD_LENGTH,
  type Span,
  SPARTENTEIL_1,
  VERTRAGSTEIL_1,
  VERTRAGSTEIL_2,
  VORSATZ,
} from './layout.js';
import { partNumberPosition } from './part-number.js';
import { type RecordKeyInput, RecordLine } from './record-line.js';

export type { RecordKeyInput } from './record-line.js';

export interface GdvWriterOptions {
  /** Default `cp1252`. */
  encoding?: GdvEncoding;
  /** Default `lf`. */
  lineEnding?: 'lf' | 'crlf';
  /** Whether the last line ends with a line break; default true. */
  finalNewline?: boolean;
  /** Teildatensätze of the Vorsatz: 2 (before 2009) or 3; default 3. */
  vorsatzParts?: 2 | 3;
}

export interface VorsatzInput {
  vuNumber: string;
  sender: string;
  recipient: string;
  /** YYYY-MM-DD */
  periodFrom: string;
  periodTo: string;
  broker: string;
}

export interface ContactInput {
  /** Kommunikationstyp, e.g. `10` Telefon privat, `50` E-Mail. */
  typeCode: string;
  value: string;
}

export interface CustomerInput extends RecordKeyInput {
  salutationCode: string;
  /** Surname or company name. */
  name1: string;
  /** Name continuation. */
  name2?: string;
  /** First name of a natural person. */
  name3?: string;
  title?: string;
  countryCode?: string;
  postalCode?: string;
  city?: string;
  street?: string;
  /** YYYY-MM-DD */
  birthDate?: string | null;
  /** Adresskennzeichen; `01` (Versicherungsnehmer) when omitted. */
  roleCode?: string;
  genderCode?: string;
  insurerCustomerNumber?: string;
  brokerCustomerNumber?: string;
  /** Four fit into part 2, three more into part 3, which is written only for them or a Rechtsform. */
  contacts?: ContactInput[];
  legalFormCode?: string;
}

export interface LineOfBusinessInput {
  sparte: string;
  statusCode?: string;
  /** YYYY-MM-DD */
  startDate?: string;
  /** Only for the Sparten with a known premium position (040, 130). */
  premiumCents?: number;
}

export interface ContractInput extends RecordKeyInput {
  statusCode: string;
  /** YYYY-MM-DD */
  startDate: string;
  endDate?: string | null;
  mainDueDate?: string | null;
  paymentModeCode: string;
  /** Default EUR. */
  currency?: string;
  netPremiumCents: number;
  grossPremiumCents?: number;
  insurerCustomerNumber?: string;
  /** One 0210 record each. */
  lineOfBusinessParts?: LineOfBusinessInput[];
}

/** Values for a Nachsatz that deliberately disagrees with the package (negative tests). */
export interface NachsatzOverrides {
  recordCount?: number;
  totalPremiumCents?: number;
}

const FLUSH_CHARACTERS = 64 * 1024;
const RELEASE_VERSIONS = { vorsatz: '2.5', adressteil: '2.3', vertragsteil: '2.5', nachsatz: '1.1' };

interface OpenPackage {
  broker: string;
  partCount: number;
  netPremiumCents: number;
}

/**
 * Writes GDV files (Vorsatz, 0100, 0200, 0210, Nachsatz with matching count and sum) to a Writable. It
 * streams: lines go out in batches of about 64 Ki characters, waiting for `drain` when the stream asks to.
 */
export class GdvWriter {
  private readonly encoding: GdvEncoding;
  private readonly lineBreak: string;
  private readonly finalNewline: boolean;
  private readonly vorsatzParts: 2 | 3;
  private batch: string[] = [];
  private batchLength = 0;
  private linesWritten = 0;
  private open: OpenPackage | null = null;

  constructor(
    private readonly out: Writable,
    options: GdvWriterOptions = {},
  ) {
    this.encoding = options.encoding ?? 'cp1252';
    this.lineBreak = options.lineEnding === 'crlf' ? '\r\n' : '\n';
    this.finalNewline = options.finalNewline ?? true;
    this.vorsatzParts = options.vorsatzParts ?? 3;
  }

  async startPackage(vorsatz: VorsatzInput): Promise<void> {
    if (this.open) throw new Error('the previous package has no Nachsatz yet');
    for (let part = 1; part <= this.vorsatzParts; part++) this.appendLine(vorsatzLine(vorsatz, part));
    this.open = { broker: vorsatz.broker, partCount: 0, netPremiumCents: 0 };
    await this.flushWhenFull();
  }

  async writeCustomer(customer: CustomerInput): Promise<void> {
    this.appendRecordLines(customerLines(customer));
    await this.flushWhenFull();
  }

  async writeContract(contract: ContractInput): Promise<void> {
    this.appendRecordLines(contractLines(contract));
    this.requireOpen().netPremiumCents += contract.netPremiumCents;
    await this.flushWhenFull();
  }

  /** A record line as given, padded to 256 characters; it counts towards the Nachsatz record count. */
  async writeLine(text: string): Promise<void> {
    this.appendRecordLines([text.padEnd(RECORD_LENGTH, ' ')]);
    await this.flushWhenFull();
  }

  async endPackage(overrides: NachsatzOverrides = {}): Promise<void> {
    const open = this.requireOpen();
    this.open = null;
    const recordCount = overrides.recordCount ?? open.partCount;
    this.appendLine(
      nachsatzLine(open.broker, recordCount, overrides.totalPremiumCents ?? open.netPremiumCents),
    );
    await this.flushWhenFull();
  }

  /** Writes what is left, ends the stream and waits until it has taken everything. */
  async end(): Promise<void> {
    if (this.open) throw new Error('the last package has no Nachsatz');
    if (this.finalNewline && this.linesWritten > 0) this.append(this.lineBreak);
    await this.flush();
    this.out.end();
    await finished(this.out, { readable: false });
  }

  private requireOpen(): OpenPackage {
    if (!this.open) throw new Error('write a Vorsatz (startPackage) first');
    return this.open;
  }

  private appendRecordLines(lines: string[]): void {
    const open = this.requireOpen();
    for (const line of lines) this.appendLine(line);
    open.partCount += lines.length;
  }

  /** The line break goes before every line but the first, so the last one can go without. */
  private appendLine(line: string): void {
    this.append(this.linesWritten > 0 ? this.lineBreak + line : line);
    this.linesWritten++;
  }

  private append(text: string): void {
    this.batch.push(text);
    this.batchLength += text.length;
  }

  private async flushWhenFull(): Promise<void> {
    if (this.batchLength >= FLUSH_CHARACTERS) await this.flush();
  }

  private async flush(): Promise<void> {
    if (this.batchLength === 0) return;
    const chunk = encodeText(this.batch.join(''), this.encoding);
    this.batch = [];
    this.batchLength = 0;
    if (!this.out.write(chunk)) await once(this.out, 'drain');
  }
}

function vorsatzLine(vorsatz: VorsatzInput, part: number): string {
  const line = new RecordLine()
    .digits(KEY.satzart, 1)
    .alpha(VORSATZ.vuNumber, vorsatz.vuNumber)
    .alpha(VORSATZ.sender, vorsatz.sender)
    .alpha(VORSATZ.recipient, vorsatz.recipient)
    .date(VORSATZ.periodFrom, vorsatz.periodFrom)
    .date(VORSATZ.periodTo, vorsatz.periodTo)
    .alpha(VORSATZ.broker, vorsatz.broker)
    .digits([RECORD_LENGTH, RECORD_LENGTH], part);
  if (part === 1) {
    line
      .alpha(VORSATZ.versionVorsatz, RELEASE_VERSIONS.vorsatz)
      .alpha(VORSATZ.versionAdressteil, RELEASE_VERSIONS.adressteil)
      .alpha(VORSATZ.versionVertragsteil, RELEASE_VERSIONS.vertragsteil)
      .alpha(VORSATZ.versionNachsatz, RELEASE_VERSIONS.nachsatz);
  }
  return line.toString();
}

function nachsatzLine(broker: string, recordCount: number, totalPremiumCents: number): string {
  const line = new RecordLine()
    .digits(KEY.satzart, 9999)
    .digits(NACHSATZ.recordCount, recordCount)
    .alpha(NACHSATZ.broker, broker)
    .digits(NACHSATZ.totalPremium, totalPremiumCents);
  const signedZeros: [amount: Span, sign: Span][] = [
    [NACHSATZ.totalGrossPremium, NACHSATZ.totalGrossPremiumSign],
    [NACHSATZ.totalCommission, NACHSATZ.totalCommissionSign],
    [NACHSATZ.claimsPaid, NACHSATZ.claimsPaidSign],
    [NACHSATZ.claimsCosts, NACHSATZ.claimsCostsSign],
  ];
  for (const [amount, sign] of signedZeros) line.digits(amount, 0).alpha(sign, '+');
  return line.toString();
}

function withPartNumber(line: RecordLine, number: number): string {
  return line.digits([RECORD_LENGTH, RECORD_LENGTH], number).toString();
}

function customerLines(customer: CustomerInput): string[] {
  const contacts = customer.contacts ?? [];
  const lines = [
    withPartNumber(customerFirstPart(customer), 1),
    withPartNumber(customerSecondPart(customer, contacts), 2),
  ];
  if (contacts.length > ADRESSTEIL_2.communication.length || customer.legalFormCode) {
    lines.push(
      withPartNumber(customerThirdPart(customer, contacts.slice(ADRESSTEIL_2.communication.length)), 3),
    );
  }
  return lines;
}

function customerFirstPart(customer: CustomerInput): RecordLine {
  return RecordLine.withKey('0100', customer)
    .alpha(ADRESSTEIL_1.salutation, customer.salutationCode)
    .alpha(ADRESSTEIL_1.name1, customer.name1)
    .alpha(ADRESSTEIL_1.name2, customer.name2 ?? '')
    .alpha(ADRESSTEIL_1.name3, customer.name3 ?? '')
    .alpha(ADRESSTEIL_1.title, customer.title ?? '')
    .alpha(ADRESSTEIL_1.country, customer.countryCode ?? '')
    .alpha(ADRESSTEIL_1.postalCode, customer.postalCode ?? '')
    .alpha(ADRESSTEIL_1.city, customer.city ?? '')
    .alpha(ADRESSTEIL_1.street, customer.street ?? '')
    .date(ADRESSTEIL_1.birthDate, customer.birthDate)
    .alpha(ADRESSTEIL_1.role, customer.roleCode ?? '01')
    .alpha(ADRESSTEIL_1.gender, customer.genderCode ?? ' ');
}

function customerSecondPart(customer: CustomerInput, contacts: ContactInput[]): RecordLine {
  const line = RecordLine.withKey('0100', customer)
    .right(ADRESSTEIL_2.insurerCustomerNumber, customer.insurerCustomerNumber ?? '')
    .right(ADRESSTEIL_2.brokerCustomerNumber, customer.brokerCustomerNumber ?? '');
  return withContacts(line, ADRESSTEIL_2.communication, contacts);
}

function customerThirdPart(customer: CustomerInput, contacts: ContactInput[]): RecordLine {
  const line = RecordLine.withKey('0100', customer).alpha(
    ADRESSTEIL_3.legalForm,
    customer.legalFormCode ?? '',
  );
  return withContacts(line, ADRESSTEIL_3.communication, contacts);
}

function withContacts(
  line: RecordLine,
  slots: readonly (readonly [type: Span, value: Span])[],
  contacts: ContactInput[],
): RecordLine {
  slots.forEach(([typeSpan, valueSpan], index) => {
    const contact = contacts[index];
    if (contact) line.alpha(typeSpan, contact.typeCode).alpha(valueSpan, contact.value);
  });
  return line;
}

function contractLines(contract: ContractInput): string[] {
  const first = RecordLine.withKey('0200', contract)
    .date(VERTRAGSTEIL_1.start, contract.startDate)
    .date(VERTRAGSTEIL_1.end, contract.endDate)
    .date(VERTRAGSTEIL_1.mainDueDate, contract.mainDueDate)
    .alpha(VERTRAGSTEIL_1.paymentMode, contract.paymentModeCode)
    .alpha(VERTRAGSTEIL_1.status, contract.statusCode)
    .alpha(VERTRAGSTEIL_1.currency, contract.currency ?? 'EUR')
    .digits(VERTRAGSTEIL_1.netPremium, contract.netPremiumCents)
    .right(VERTRAGSTEIL_1.insurerCustomerNumber, contract.insurerCustomerNumber ?? '');
  const second = RecordLine.withKey('0200', contract);
  if (contract.grossPremiumCents !== undefined)
    second.digits(VERTRAGSTEIL_2.grossPremium, contract.grossPremiumCents);
  const parts = (contract.lineOfBusinessParts ?? []).map((part) => lineOfBusinessLine(contract, part));
  return [withPartNumber(first, 1), withPartNumber(second, 2), ...parts];
}

/** 0210 part 1, for Sparten whose part number is at byte 251 or 256 (elsewhere byte 43 is no Vertragsstatus). */
function lineOfBusinessLine(contract: ContractInput, part: LineOfBusinessInput): string {
  const position = partNumberPosition('0210', part.sparte);
  if (position !== RECORD_LENGTH && position !== 251) {
    throw new RangeError(`the writer has no 0210 layout for Sparte ${part.sparte}`);
  }
  const line = RecordLine.withKey('0210', { ...contract, sparte: part.sparte })
    .alpha(SPARTENTEIL_1.status, part.statusCode ?? contract.statusCode)
    .date(SPARTENTEIL_1.start, part.startDate ?? contract.startDate);
  if (part.premiumCents !== undefined) {
    const premiumSpan = lineOfBusinessPremiumSpan(part.sparte);
    if (!premiumSpan) throw new RangeError(`no known premium position in 0210 for Sparte ${part.sparte}`);
    line.digits(premiumSpan, part.premiumCents);
  }
  return line.digits([position, position], 1).toString();
}
