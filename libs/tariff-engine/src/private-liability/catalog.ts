import { CatalogError, type CatalogIssue, issuesFromZod, readJsonCatalogFile } from '../catalog-error.js';
import { privateLiabilityCatalogSchema } from './catalog-schema.js';
import type { AgeBand, PrivateLiabilityCatalog, PrivateLiabilityProduct } from './catalog-types.js';
import { PAYMENT_MODES } from './payment-mode.js';
import { HOUSEHOLD_TYPES } from './request.js';

/**
 * Validates a private-liability catalog (already parsed from JSON) and returns it deeply frozen. Throws a
 * `CatalogError` listing every problem as `path: message`: first the schema (types, ranges, unknown keys),
 * then, when the shape is right, the rules across fields.
 */
export function parsePrivateLiabilityCatalog(
  data: unknown,
  source = 'private-liability catalog',
): PrivateLiabilityCatalog {
  const parsed = privateLiabilityCatalogSchema.safeParse(data, { reportInput: true });
  if (!parsed.success) throw new CatalogError(source, issuesFromZod(parsed.error));
  const catalog: PrivateLiabilityCatalog = parsed.data;
  const issues = crossFieldIssues(catalog);
  if (issues.length > 0) throw new CatalogError(source, issues);
  return deepFreeze(catalog);
}

/**
 * Reads, parses and validates a catalog file (JSON, UTF-8). This is what a service calls at boot with the path
 * its operator configured; any problem is a `CatalogError` naming the file.
 */
export function loadPrivateLiabilityCatalog(path: string): PrivateLiabilityCatalog {
  return parsePrivateLiabilityCatalog(readJsonCatalogFile(path), path);
}

function crossFieldIssues(catalog: PrivateLiabilityCatalog): CatalogIssue[] {
  const issues: CatalogIssue[] = [];
  const groupIndex = new Map<string, number>();
  const groupOfOccupation = new Map<string, string>();
  catalog.occupation_groups.forEach((group, g) => {
    const at = `occupation_groups[${g}]`;
    const earlier = groupIndex.get(group.id);
    if (earlier !== undefined) {
      issues.push({
        path: `${at}.id`,
        message: `duplicate occupation group id "${group.id}" (also occupation_groups[${earlier}])`,
      });
    } else {
      groupIndex.set(group.id, g);
    }
    group.occupations.forEach((occupation, o) => {
      const other = groupOfOccupation.get(occupation);
      if (other !== undefined) {
        issues.push({
          path: `${at}.occupations[${o}]`,
          message: `occupation "${occupation}" is already in group "${other}"; an occupation belongs to one group`,
        });
      } else {
        groupOfOccupation.set(occupation, group.id);
      }
    });
  });

  const providerIndex = new Map<string, number>();
  const productIndex = new Map<string, string>();
  catalog.providers.forEach((provider, p) => {
    const at = `providers[${p}]`;
    const earlier = providerIndex.get(provider.id);
    if (earlier !== undefined) {
      issues.push({
        path: `${at}.id`,
        message: `duplicate provider id "${provider.id}" (also providers[${earlier}])`,
      });
    } else {
      providerIndex.set(provider.id, p);
    }
    provider.products.forEach((product, i) => {
      const productAt = `${at}.products[${i}]`;
      const other = productIndex.get(product.id);
      if (other !== undefined) {
        issues.push({
          path: `${productAt}.id`,
          message: `duplicate product id "${product.id}" (also ${other})`,
        });
      } else {
        productIndex.set(product.id, productAt);
      }
      issues.push(...productIssues(catalog, product, productAt));
    });
  });
  return issues;
}

function productIssues(
  catalog: PrivateLiabilityCatalog,
  product: PrivateLiabilityProduct,
  at: string,
): CatalogIssue[] {
  const issues: CatalogIssue[] = [];
  issues.push(...ageBandIssues(product.age_bands, `${at}.age_bands`));

  const offersHousehold = product.age_bands.some((band) =>
    HOUSEHOLD_TYPES.some((household) => band.premiums_net_cents[household] !== null),
  );
  if (!offersHousehold) {
    issues.push({ path: `${at}.age_bands`, message: 'no age band has a premium for any household type' });
  }

  if (!PAYMENT_MODES.some((mode) => product.payment_mode_surcharges_bp[mode] !== undefined)) {
    issues.push({
      path: `${at}.payment_mode_surcharges_bp`,
      message: 'must offer at least one payment mode',
    });
  }

  const terms = product.civil_service_liability;
  if (terms !== null) {
    const seen = new Set<string>();
    terms.groups.forEach((price, g) => {
      const priceAt = `${at}.civil_service_liability.groups[${g}]`;
      const group = catalog.occupation_groups.find((candidate) => candidate.id === price.group);
      if (group === undefined) {
        const known =
          [...new Set(catalog.occupation_groups.map((candidate) => candidate.id))].join(', ') || 'none';
        issues.push({
          path: `${priceAt}.group`,
          message: `unknown occupation group "${price.group}" (known: ${known})`,
        });
        return;
      }
      if (seen.has(price.group)) {
        issues.push({
          path: `${priceAt}.group`,
          message: `occupation group "${price.group}" is priced twice`,
        });
        return;
      }
      seen.add(price.group);
      const keySum = price.school_key_loss_sum_eur ?? null;
      if (group.school_key_loss && keySum === null) {
        issues.push({
          path: `${priceAt}.school_key_loss_sum_eur`,
          message: `required: group "${group.id}" includes school-key loss (Schlüsselverlust)`,
        });
      } else if (!group.school_key_loss && keySum !== null) {
        issues.push({
          path: `${priceAt}.school_key_loss_sum_eur`,
          message: `must be null or absent: group "${group.id}" does not include school-key loss`,
        });
      }
    });
  }
  return issues;
}

function ageBandIssues(bands: readonly AgeBand[], at: string): CatalogIssue[] {
  const issues: CatalogIssue[] = [];
  bands.forEach((band, b) => {
    if (band.max_age < band.min_age) {
      issues.push({ path: `${at}[${b}].max_age`, message: `must be >= min_age (${band.min_age})` });
    }
    const previous = b > 0 ? bands[b - 1] : undefined;
    if (previous !== undefined && band.min_age !== previous.max_age + 1) {
      issues.push({
        path: `${at}[${b}].min_age`,
        message: `must be ${previous.max_age + 1}, right after the previous band's max_age ${previous.max_age} (age bands are ascending, contiguous and non-overlapping)`,
      });
    }
  });
  return issues;
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}
