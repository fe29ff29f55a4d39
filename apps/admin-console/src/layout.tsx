import { useEffect, useRef } from 'react';
import { NavLink, Outlet, useLocation, useParams } from 'react-router';
import { logout } from './api';
import { useSession } from './session';

/** The pages of a tenant, in the navigation's order. */
const tenantPages = [
  ['imports', 'Importe'],
  ['webhooks', 'Webhooks'],
  ['messages', 'Nachrichten'],
  ['brokers', 'Makler'],
  ['calc-users', 'Rechner-Zugänge'],
  ['companies', 'Versicherer'],
  ['master-data', 'Stammdaten-Upload'],
  ['audit', 'Protokoll'],
] as const;

/** Header with the navigation and the person, and the page; focus moves to the page's heading on navigation. */
export function Layout() {
  const session = useSession();
  const { tenant } = useParams();
  const location = useLocation();
  const main = useRef<HTMLElement>(null);
  useEffect(() => {
    main.current?.querySelector('h1')?.focus();
  }, [location.pathname]);
  const currentTenant = tenant ?? session.tenant;
  return (
    <>
      <a className="skip-link" href="#inhalt">
        Zum Inhalt springen
      </a>
      <header className="top">
        <p className="brand">Broker-Konsole{currentTenant ? ` · ${currentTenant}` : ''}</p>
        <nav aria-label="Hauptnavigation">
          <ul>
            {session.role === 'operator' && (
              <li>
                <NavLink to="/tenants">Mandanten</NavLink>
              </li>
            )}
            {currentTenant &&
              tenantPages.map(([page, label]) => (
                <li key={page}>
                  <NavLink to={`/t/${encodeURIComponent(currentTenant)}/${page}`} end>
                    {label}
                  </NavLink>
                </li>
              ))}
            {session.role === 'operator' && (
              <li>
                <a href="/admin/console/queues/">Warteschlangen</a>
              </li>
            )}
          </ul>
        </nav>
        <p className="who">
          {session.name} · {session.role === 'operator' ? 'Betreiber' : `Verwaltung ${session.tenant}`}
        </p>
        <button type="button" className="secondary" onClick={() => void logout()}>
          Abmelden
        </button>
      </header>
      <main id="inhalt" ref={main}>
        <Outlet />
      </main>
    </>
  );
}
