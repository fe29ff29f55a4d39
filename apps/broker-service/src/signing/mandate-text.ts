/** A tenant's mandate template as stored in broker.mandate_template. */
export interface MandateTemplate {
  title: string;
  /** Paragraphs separated by blank lines; a single line break stays a line break. */
  body: string;
}

/** One side of the mandate: the customer granting it, or the broker receiving it. */
export interface Party {
  name: string;
  /** Street, postal code and city, as far as known; empty when nothing is. */
  address: string;
}

/** The mandate as shown and signed: its title and paragraphs, each a list of lines. */
export interface MandateText {
  title: string;
  paragraphs: string[][];
}

/** The text of a tenant without a template of its own. */
const DEFAULT_MANDATE_TEMPLATE: MandateTemplate = {
  title: 'Maklervollmacht',
  body: [
    'Ich, {{kunde}}, beauftrage und bevollmächtige als meinen Versicherungsmakler {{makler}}, meine ' +
      'Versicherungsverträge zu betreuen und mich dabei gegenüber Versicherern zu vertreten.',
    'Die Vollmacht umfasst insbesondere:\n' +
      '1. Versicherungsverträge abzuschließen, zu ändern, zu verlängern und zu kündigen,\n' +
      '2. Willenserklärungen und Anzeigen abzugeben und entgegenzunehmen,\n' +
      '3. Auskünfte und Unterlagen zu meinen Verträgen bei Versicherern einzuholen,\n' +
      '4. mich bei der Regulierung von Schäden und Leistungsfällen zu unterstützen und zu vertreten,\n' +
      '5. Untervollmacht zu erteilen, soweit die Betreuung es erfordert.',
    'Ich willige ein, dass der Makler die für die Betreuung erforderlichen personenbezogenen Daten verarbeitet ' +
      'und an Versicherer weitergibt, soweit Abschluss und Durchführung der Verträge es erfordern.',
    'Die Vollmacht gilt bis auf Widerruf. Ich kann sie jederzeit ohne Angabe von Gründen in Textform gegenüber ' +
      'dem Makler widerrufen.',
  ].join('\n\n'),
};

/** `{{kunde}}`: the customer's name; `{{makler}}`: the broker's name with its address when known. */
export function mandateText(template: MandateTemplate | null, customer: Party, broker: Party): MandateText {
  const { title, body } = template ?? DEFAULT_MANDATE_TEMPLATE;
  const values: Record<string, string> = {
    kunde: customer.name,
    makler: broker.address ? `${broker.name}, ${broker.address}` : broker.name,
  };
  const filled = body.replace(/\{\{\s*(kunde|makler)\s*\}\}/g, (_match, name: string) => values[name]);
  const paragraphs = filled
    .replace(/\r\n?/g, '\n')
    .split(/\n[ \t]*\n/)
    .map((paragraph) =>
      paragraph
        .split('\n')
        .map((line) => line.trim())
        .filter(Boolean),
    )
    .filter((lines) => lines.length > 0);
  return { title: title.trim(), paragraphs };
}
