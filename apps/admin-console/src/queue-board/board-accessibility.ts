/**
 * Loaded into the queue board's page (bull-board, a third-party app the console mounts) to mend what bull-board 9
 * leaves short of WCAG AA: buttons with nothing but an icon get a name, a button's name starts with the text it
 * shows, and the grey of empty values in job data gets enough contrast. The board renders with React and re-renders
 * as its data polls, so buttons are mended as they appear.
 */

/** Names of the icons (lucide) bull-board puts on buttons, in German like the console. */
const ICON_NAMES: Record<string, string> = {
  maximize: 'Vollbild',
  minimize: 'Vollbild beenden',
  settings: 'Einstellungen',
  'ellipsis-vertical': 'Aktionen',
  'panel-left': 'Seitenleiste',
  'rotate-ccw': 'Wiederholen',
  'refresh-cw': 'Aktualisieren',
  trash: 'Löschen',
  'trash-2': 'Löschen',
  copy: 'Kopieren',
  x: 'Schließen',
};

function hasName(button: HTMLButtonElement): boolean {
  return Boolean(
    button.textContent?.trim() ||
    button.getAttribute('aria-label') ||
    button.getAttribute('aria-labelledby') ||
    button.title,
  );
}

/** The button's icon's name; for a queue's menu, with the queue's name (its card's title link). */
function nameFor(button: HTMLButtonElement): string | null {
  const icon = [...(button.querySelector('svg')?.classList ?? [])]
    .find((name) => name.startsWith('lucide-'))
    ?.slice('lucide-'.length);
  if (!icon) return null;
  const name = ICON_NAMES[icon] ?? icon.replaceAll('-', ' ');
  const queue = button.parentElement?.parentElement?.querySelector<HTMLAnchorElement>('a[title]')?.title;
  return queue ? `${name}: ${queue}` : name;
}

/** A label that leaves out the text the button shows (a speech user says what they see): the text first. */
function startWithVisibleText(button: HTMLButtonElement): void {
  const text = button.textContent?.trim();
  const label = button.getAttribute('aria-label');
  if (text && label && !label.toLowerCase().includes(text.toLowerCase()))
    button.setAttribute('aria-label', `${text}: ${label}`);
}

function mendButtons(): void {
  for (const button of document.querySelectorAll<HTMLButtonElement>('button')) {
    if (!hasName(button)) {
      const name = nameFor(button);
      if (name) button.setAttribute('aria-label', name);
    } else startWithVisibleText(button);
  }
}

// bull-board's own colour of null and undefined in job data (its theme does not reach it): #8a95a3 on white.
document.documentElement.style.setProperty('--hl-meta', '#5f6b76');
new MutationObserver(mendButtons).observe(document.body, { childList: true, subtree: true });
mendButtons();
