/**
 * A text field of an update: absent keeps the stored value; null or an empty (blank) string clears it;
 * anything else is stored trimmed. A record read can so be sent back unchanged.
 */
export function updatedText(given: string | null | undefined, stored: string | null): string | null {
  if (given === undefined) return stored;
  const trimmed = given?.trim() ?? '';
  return trimmed === '' ? null : trimmed;
}
