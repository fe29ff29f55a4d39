/** Vertrag as getKundenVertraege answers it: amounts as decimal strings with two places, dates YYYY-MM-DD. */
export interface VertragView {
  Id: string;
  Vertragsnummer: string;
  /** The number of the broker holding the contract. */
  Vermittler: string;
  /** The insurer: VU number and name. */
  Gesellschaft: GesellschaftView;
  Sparte: string;
  Status: string;
  Beginn: string | null;
  Ablauf: string | null;
  Hauptfaelligkeit: string | null;
  Zahlweise: string | null;
  Nettobeitrag: string | null;
  Bruttobeitrag: string | null;
  Waehrung: string;
}

/** An insurance company: its VU number and name (getGesellschaften, Vertrag.Gesellschaft). */
export interface GesellschaftView {
  Id: string;
  Name: string;
}

/** Archiveintrag as getKundenArchiveintraege and getKundenDokumente answer it. */
export interface ArchiveintragView {
  Uri: string;
  Id: string;
  Typ: string;
  Titel: string;
  /** YYYY-MM-DDTHH:mm:ss in Europe/Berlin. */
  Datum: string;
  /** The document of the entry; its Uri (the download) only when this service stores the file. */
  Dokument: { Dateiname: string; MimeType: string; Groesse: number; Uri?: string } | null;
}

/** The answer of addKunde: the new customer's id and user name only (spec). */
export interface KundeAngelegt {
  Id: string;
  Benutzername: string;
}

/** A list of messages: the answer of sendUnterschrifftenlink, and area C's error body. */
export interface Meldungen {
  Meldungen: string[];
}
