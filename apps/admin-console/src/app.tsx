import { useQuery } from '@tanstack/react-query';
import { Navigate, Route, Routes } from 'react-router';
import { fetchSession, type Session } from './api';
import { Layout } from './layout';
import { AuditPage } from './pages/audit-page';
import { BrokerPage } from './pages/broker-page';
import { BrokersPage } from './pages/brokers-page';
import { CalcUsersPage } from './pages/calc-users-page';
import { CompaniesPage } from './pages/companies-page';
import { ImportPage } from './pages/import-page';
import { ImportsPage } from './pages/imports-page';
import { MasterDataPage } from './pages/master-data-page';
import { MessagesPage } from './pages/messages-page';
import { TenantsPage } from './pages/tenants-page';
import { WebhookPage } from './pages/webhook-page';
import { WebhooksPage } from './pages/webhooks-page';
import { SessionContext } from './session';

/** The console's pages, once the session is known (the server sends a browser without one to the login). */
export function App() {
  const session = useQuery({ queryKey: ['session'], queryFn: fetchSession, staleTime: Infinity });
  if (session.isPending) return <p className="loading">Sitzung wird geladen …</p>;
  if (session.isError) return <p role="alert">Die Sitzung kann nicht gelesen werden.</p>;
  if (!session.data) {
    location.reload();
    return null;
  }
  return (
    <SessionContext.Provider value={session.data}>
      <Routes>
        <Route element={<Layout />}>
          <Route index element={<Navigate to={homeOf(session.data)} replace />} />
          <Route path="tenants" element={<TenantsPage />} />
          <Route path="t/:tenant/brokers" element={<BrokersPage />} />
          <Route path="t/:tenant/brokers/:broker" element={<BrokerPage />} />
          <Route path="t/:tenant/calc-users" element={<CalcUsersPage />} />
          <Route path="t/:tenant/companies" element={<CompaniesPage />} />
          <Route path="t/:tenant/master-data" element={<MasterDataPage />} />
          <Route path="t/:tenant/audit" element={<AuditPage />} />
          <Route path="t/:tenant/imports" element={<ImportsPage />} />
          <Route path="t/:tenant/imports/:processId" element={<ImportPage />} />
          <Route path="t/:tenant/webhooks" element={<WebhooksPage />} />
          <Route path="t/:tenant/webhooks/:endpointId" element={<WebhookPage />} />
          <Route path="t/:tenant/messages" element={<MessagesPage />} />
          <Route path="*" element={<NotFound />} />
        </Route>
      </Routes>
    </SessionContext.Provider>
  );
}

/** An operator starts at the tenants, a tenant's administrator at the tenant's brokers. */
function homeOf(session: Session): string {
  return session.role === 'operator' ? '/tenants' : `/t/${encodeURIComponent(session.tenant ?? '')}/brokers`;
}

function NotFound() {
  return (
    <>
      <h1>Seite nicht gefunden</h1>
      <p>Diese Seite gibt es in der Konsole nicht.</p>
    </>
  );
}
