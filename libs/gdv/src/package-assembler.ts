import { type GdvEvent, type Vorsatz, warning } from './events.js';
import { decodeCents } from './fields.js';
import { field, KEY, VERTRAGSTEIL_1 } from './layout.js';
import {
  checkNachsatz,
  nachsatzWarnings,
  type PackageTotals,
  parseNachsatz,
  parseVorsatz,
  vorsatzWarnings,
} from './package-frame.js';
import { type GdvRecord, linesOf, partOf, type Teildatensatz, TeildatensatzGrouper } from './records.js';

interface OpenPackage {
  vorsatz: Vorsatz;
  totals: PackageTotals;
}

/**
 * Turns Teildatensätze into package and record events: groups them into records, opens a package at each
 * Vorsatz, closes it at the Nachsatz with its checks, and tallies what the checks compare.
 */
export class PackageAssembler {
  private readonly grouper = new TeildatensatzGrouper();
  private open: OpenPackage | null = null;
  private warnedOutsidePackage = false;

  *acceptPart(part: Teildatensatz): Generator<GdvEvent> {
    if (field(part.text, KEY.satzart) === '9999') {
      yield* this.complete(this.grouper.flush());
      yield* this.close(part);
      return;
    }
    yield* this.complete(this.grouper.add(part));
  }

  *finish(): Generator<GdvEvent> {
    yield* this.complete(this.grouper.flush());
    yield* this.abandonOpenPackage();
  }

  private *complete(record: GdvRecord | null): Generator<GdvEvent> {
    if (!record) return;
    if (record.satzart === '0001') {
      yield* this.start(record);
      return;
    }
    if (this.open) tally(this.open.totals, record);
    else yield* this.warnOutsidePackage(record);
    if (!record.standard) {
      const message = `Satzart ${record.satzart} is not a GDV standard Satzart (insurer-specific?); kept raw`;
      yield warning('non-standard-satzart', linesOf(record), message);
    }
    yield { kind: 'record', record };
  }

  private *start(record: GdvRecord): Generator<GdvEvent> {
    yield* this.abandonOpenPackage();
    const vorsatz = parseVorsatz(record);
    this.open = { vorsatz, totals: { partCount: 0, netPremiumCents: 0 } };
    this.warnedOutsidePackage = false;
    yield { kind: 'package-start', vorsatz };
    yield* vorsatzWarnings(vorsatz);
  }

  private *close(part: Teildatensatz): Generator<GdvEvent> {
    if (!this.open) {
      yield warning('nachsatz-without-vorsatz', [part.line], 'Nachsatz without a Vorsatz before it; ignored');
      return;
    }
    const nachsatz = parseNachsatz(part);
    const checks = checkNachsatz(nachsatz, this.open.totals);
    this.open = null;
    this.warnedOutsidePackage = false;
    yield* nachsatzWarnings(nachsatz, checks);
    yield { kind: 'package-end', nachsatz, checks };
  }

  private *abandonOpenPackage(): Generator<GdvEvent> {
    if (!this.open) return;
    const { lines } = this.open.vorsatz;
    this.open = null;
    yield warning(
      'missing-nachsatz',
      lines,
      'the package that starts here has no Nachsatz; totals not checked',
    );
    yield { kind: 'package-end', nachsatz: null, checks: [] };
  }

  private *warnOutsidePackage(record: GdvRecord): Generator<GdvEvent> {
    if (this.warnedOutsidePackage) return;
    this.warnedOutsidePackage = true;
    const message = 'records from here on stand outside a package (no Vorsatz before them); imported anyway';
    yield warning('outside-package', linesOf(record), message);
  }
}

function tally(totals: PackageTotals, record: GdvRecord): void {
  totals.partCount += record.parts.length;
  if (record.satzart !== '0200') return;
  const first = partOf(record, 1);
  const netPremium = first ? decodeCents(field(first.text, VERTRAGSTEIL_1.netPremium)) : null;
  if (typeof netPremium === 'number') totals.netPremiumCents += netPremium;
}
