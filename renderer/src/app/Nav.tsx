export type View = 'ask' | 'library' | 'evaluate' | 'settings';

// The icon is all a narrow window shows (layout.css); the label stays the button's name.
const ITEMS: Array<{ view: View; label: string; icon: string }> = [
  { view: 'ask', label: 'Ask', icon: '?' },
  { view: 'library', label: 'Library', icon: '▤' },
  { view: 'evaluate', label: 'Evaluate', icon: '✓' },
  { view: 'settings', label: 'Settings', icon: '⚙' },
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
              title={item.label}
              aria-label={item.label}
            >
              <span className="nav__icon" aria-hidden="true">
                {item.icon}
              </span>
              <span className="nav__label">{item.label}</span>
            </button>
          </li>
        ))}
      </ul>
    </nav>
  );
}
