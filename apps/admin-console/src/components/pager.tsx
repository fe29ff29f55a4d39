export const PAGE_SIZE = 25;

/** Pages of a server-side list: where this page starts, how many there are, previous and next. */
export function Pager({
  label,
  offset,
  total,
  onOffset,
}: {
  label: string;
  offset: number;
  total: number;
  onOffset: (offset: number) => void;
}) {
  if (total <= PAGE_SIZE) return null;
  const last = Math.min(offset + PAGE_SIZE, total);
  return (
    <nav className="pager" aria-label={`Seiten: ${label}`}>
      <button type="button" disabled={offset === 0} onClick={() => onOffset(Math.max(0, offset - PAGE_SIZE))}>
        Vorherige Seite
      </button>
      <span>
        {offset + 1}–{last} von {total}
      </span>
      <button type="button" disabled={last >= total} onClick={() => onOffset(offset + PAGE_SIZE)}>
        Nächste Seite
      </button>
    </nav>
  );
}
