export type View = 'ask' | 'library' | 'evaluate' | 'settings';

const ITEMS: Array<{ view: View; label: string }> = [
  { view: 'ask', label: 'Ask' },
  { view: 'library', label: 'Library' },
  { view: 'evaluate', label: 'Evaluate' },
  { view: 'settings', label: 'Settings' },
];

interface NavProps {
  view: View;
  onChange: (view: View) => void;
}

/** The sidebar: the four views, the current one marked for assistive technology. */
export function Nav({ view, onChange }: NavProps) {
  return (
    <nav className="nav" aria-label="Main">
      <p className="nav__brand" aria-hidden="true">
        Quire
      </p>
      <ul>
        {ITEMS.map((item) => (
          <li key={item.view}>
            <button
              type="button"
              className={item.view === view ? 'nav__item nav__item--current' : 'nav__item'}
              aria-current={item.view === view ? 'page' : undefined}
              data-testid={`nav-${item.view}`}
              onClick={() => onChange(item.view)}
            >
              {item.label}
            </button>
          </li>
        ))}
      </ul>
    </nav>
  );
}
