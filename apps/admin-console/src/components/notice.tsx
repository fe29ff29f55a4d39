import { useState } from 'react';
import { ApiFailure } from '../api';

export type Notice = { kind: 'success' | 'error'; text: string } | null;

/** What the last action did, announced to screen readers (a live region) and shown beside the form. */
export function NoticeLine({ notice }: { notice: Notice }) {
  return (
    <p className={notice ? `notice ${notice.kind}` : 'notice'} role="status" aria-live="polite">
      {notice?.text ?? ''}
    </p>
  );
}

/** A notice and how to set it from a finished or failed action. */
export function useNotice() {
  const [notice, setNotice] = useState<Notice>(null);
  return {
    notice,
    success: (text: string) => setNotice({ kind: 'success', text }),
    failure: (error: unknown) =>
      setNotice({
        kind: 'error',
        text: error instanceof ApiFailure ? `Fehler: ${error.message}` : 'Fehler: keine Antwort des Dienstes',
      }),
    clear: () => setNotice(null),
  };
}
