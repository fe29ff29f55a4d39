/**
 * The occupations a service-liability (Diensthaftpflicht) add-on can be asked for: the values of the request
 * field `civil_service_occupation` and of the OpenAPI schema component `CivilServiceOccuption`. Catalogs group
 * them into occupation groups that products price; an occupation a product does not price is not insurable
 * there.
 */
export const CIVIL_SERVICE_OCCUPATIONS = [
  'lehrer',
  'erzieher',
  'hochschule',
  'polizei',
  'justiz',
  'zoll',
  'feuerwehr',
  'rettungsdienst',
  'bundeswehr',
  'verwaltung',
  'finanzverwaltung',
  'richter',
  'technischer_dienst',
  'arzt',
  'sonstige',
] as const;

export type CivilServiceOccupation = (typeof CIVIL_SERVICE_OCCUPATIONS)[number];

/** German display texts of the occupations. */
export const CIVIL_SERVICE_OCCUPATION_LABELS: Readonly<Record<CivilServiceOccupation, string>> = {
  lehrer: 'Lehrer/in',
  erzieher: 'Erzieher/in im öffentlichen Dienst',
  hochschule: 'Hochschullehrer/in, wissenschaftliches Personal',
  polizei: 'Polizeivollzugsdienst',
  justiz: 'Justizdienst, Justizvollzug',
  zoll: 'Zoll',
  feuerwehr: 'Berufsfeuerwehr',
  rettungsdienst: 'Rettungsdienst',
  bundeswehr: 'Soldat/in (Bundeswehr)',
  verwaltung: 'Allgemeine Verwaltung',
  finanzverwaltung: 'Finanzverwaltung',
  richter: 'Richter/in, Staatsanwalt/-anwältin',
  technischer_dienst: 'Technischer Dienst',
  arzt: 'Arzt/Ärztin im öffentlichen Dienst',
  sonstige: 'Sonstige Beamte und Angestellte im öffentlichen Dienst',
};

const OCCUPATION_SET: ReadonlySet<string> = new Set(CIVIL_SERVICE_OCCUPATIONS);

export function isCivilServiceOccupation(value: unknown): value is CivilServiceOccupation {
  return typeof value === 'string' && OCCUPATION_SET.has(value);
}
