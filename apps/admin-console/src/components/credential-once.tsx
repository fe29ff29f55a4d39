import QRCode from 'qrcode';
import { useEffect, useRef, useState } from 'react';

/**
 * A credential shown once (a new or rotated API key): the key with a copy button, and the QR code of its OTP URI
 * for an authenticator app. Focus moves here so it is not missed; it is gone once dismissed.
 */
export function CredentialOnce({
  title,
  apiId,
  apiKey,
  otpUri,
  onDismiss,
}: {
  title: string;
  apiId: string;
  apiKey: string;
  otpUri: string;
  onDismiss: () => void;
}) {
  const [qr, setQr] = useState<string | null>(null);
  const [copied, setCopied] = useState('');
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    heading.current?.focus();
    void QRCode.toDataURL(otpUri, { margin: 1, width: 192 }).then(setQr);
  }, [otpUri]);
  const copy = () =>
    navigator.clipboard.writeText(apiKey).then(
      () => setCopied('Schlüssel kopiert.'),
      () => setCopied('Kopieren nicht möglich: bitte den Schlüssel markieren und kopieren.'),
    );
  return (
    <section className="credential" aria-labelledby="credential-title">
      <h2 id="credential-title" tabIndex={-1} ref={heading}>
        {title}
      </h2>
      <p>Der Schlüssel wird nur dieses eine Mal angezeigt. Bewahren Sie ihn sicher auf.</p>
      <dl>
        <dt>API-ID</dt>
        <dd>
          <code data-testid="api-id">{apiId}</code>
        </dd>
        <dt>API-Schlüssel</dt>
        <dd>
          <code data-testid="api-key">{apiKey}</code>{' '}
          <button type="button" onClick={() => void copy()}>
            Schlüssel kopieren
          </button>
        </dd>
      </dl>
      <p role="status" aria-live="polite">
        {copied}
      </p>
      {qr && <img src={qr} alt="QR-Code des Einmalpasswort-Zugangs (otpauth) für eine Authenticator-App" />}
      <p>
        <button type="button" onClick={onDismiss}>
          Schlüssel gesichert, schließen
        </button>
      </p>
    </section>
  );
}
