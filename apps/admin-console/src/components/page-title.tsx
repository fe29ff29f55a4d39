import type { ReactNode } from 'react';

/** The page's heading: focused after navigation (tabIndex -1), so a screen reader announces the new page. */
export function PageTitle({ children }: { children: ReactNode }) {
  return <h1 tabIndex={-1}>{children}</h1>;
}
