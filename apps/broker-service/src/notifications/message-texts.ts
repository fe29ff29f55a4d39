/** The texts of the messages to customers (German, as the customers are). */

export interface Addressee {
  salutation: string | null;
  firstName: string | null;
  lastName: string | null;
  companyName: string | null;
}

export interface BrokerCard {
  name: string;
  street: string | null;
  postalCode: string | null;
  city: string | null;
  email: string | null;
  phone: string | null;
  imprint: string | null;
}

export interface MessageText {
  subject: string;
  body: string;
}

function greeting(to: Addressee): string {
  if (to.salutation === 'herr' && to.lastName) return `Sehr geehrter Herr ${to.lastName},`;
  if (to.salutation === 'frau' && to.lastName) return `Sehr geehrte Frau ${to.lastName},`;
  const name = to.companyName ?? [to.firstName, to.lastName].filter(Boolean).join(' ');
  return name ? `Guten Tag ${name},` : 'Guten Tag,';
}

const signature = (broker: BrokerCard) => `\n\nMit freundlichen Grüßen\n${broker.name}`;

export function userNameText(to: Addressee, broker: BrokerCard, userName: string): MessageText {
  return {
    subject: `Ihr Zugang bei ${broker.name}`,
    body: `${greeting(to)}\n\nIhr Benutzername für das Kundenportal lautet: ${userName}${signature(broker)}`,
  };
}

export function passwordLinkText(to: Addressee, broker: BrokerCard, link: string): MessageText {
  return {
    subject: `Passwort für Ihren Zugang bei ${broker.name} festlegen`,
    body:
      `${greeting(to)}\n\nüber den folgenden Link legen Sie Ihr Passwort für das Kundenportal fest ` +
      `(gültig 72 Stunden, nur einmal verwendbar):\n${link}${signature(broker)}`,
  };
}

/** The initial information a broker owes a new customer (§ 15 VersVermV). */
export function initialInformationText(to: Addressee, broker: BrokerCard): MessageText {
  const address = [broker.street, [broker.postalCode, broker.city].filter(Boolean).join(' ')]
    .filter(Boolean)
    .join(', ');
  const lines = [
    `Name: ${broker.name}`,
    address && `Anschrift: ${address}`,
    broker.email && `E-Mail: ${broker.email}`,
    broker.phone && `Telefon: ${broker.phone}`,
    'Tätigkeit: Versicherungsmakler mit Erlaubnis nach § 34d Abs. 1 GewO',
    'Registrierung: Vermittlerregister (www.vermittlerregister.info)',
    'Schlichtungsstellen: Versicherungsombudsmann e.V., Ombudsmann für die private Kranken- und Pflegeversicherung',
    broker.imprint,
  ].filter(Boolean);
  return {
    subject: `Erstinformation von ${broker.name}`,
    body: `${greeting(to)}\n\nwir freuen uns über Ihr Vertrauen. Hier unsere Erstinformation:\n\n${lines.join('\n')}${signature(broker)}`,
  };
}

export function signatureLinkText(
  to: Addressee,
  broker: BrokerCard,
  link: string,
  channel: 'email' | 'sms',
): MessageText {
  if (channel === 'sms') {
    return { subject: '', body: `${broker.name}: Bitte unterschreiben Sie Ihre Maklervollmacht: ${link}` };
  }
  return {
    subject: `Ihre Maklervollmacht für ${broker.name}`,
    body:
      `${greeting(to)}\n\nbitte unterschreiben Sie Ihre Maklervollmacht über den folgenden Link ` +
      `(gültig 14 Tage, nur einmal verwendbar):\n${link}${signature(broker)}`,
  };
}
