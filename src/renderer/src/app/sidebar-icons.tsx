/**
 * The sidebar's icons: what a collapsed sidebar shows of each entry (the entry's words stay its accessible name and
 * its tooltip). Drawn with currentColor, so they follow the theme and the entry's state.
 */
const PATHS = {
  chat: 'M3 4.5h14v9H8l-4 3v-3H3z',
  rules: 'M4 5h12M4 10h12M4 15h8M15 13.5l1.5 1.5 2.5-3',
  hooks: 'M10 3v7a3.5 3.5 0 1 1-7 0M10 3l-2 2M10 3l2 2M13 10h4M15 8v4',
  mcp: 'M7 3v4M13 3v4M5 7h10v3a5 5 0 0 1-10 0zM10 15v3',
  trust: 'M10 2.5l6 2.5v4.5c0 4-2.7 6.8-6 8-3.3-1.2-6-4-6-8V5zM7.5 10l2 2 3.5-4',
  audit: 'M5 3h10v14H5zM7.5 7h5M7.5 10h5M7.5 13h3',
  settings:
    'M10 7a3 3 0 1 0 0 6 3 3 0 0 0 0-6zM10 2v2.5M10 15.5V18M2 10h2.5M15.5 10H18M4.3 4.3l1.8 1.8M13.9 13.9l1.8 1.8M4.3 15.7l1.8-1.8M13.9 6.1l1.8-1.8',
  help: 'M10 18a8 8 0 1 0 0-16 8 8 0 0 0 0 16zM7.8 7.8a2.3 2.3 0 1 1 3.2 2.1c-.6.3-1 .8-1 1.5v.6M10 14.5v.5',
  new: 'M10 4v12M4 10h12',
  project: 'M2.5 5.5v10h15v-8H9.5l-2-2z',
  collapse: 'M12.5 5l-5 5 5 5',
  expand: 'M7.5 5l5 5-5 5',
  generic: 'M4 4h12v12H4z',
} as const;

export type SidebarIconName = keyof typeof PATHS;

export function SidebarIcon({ name }: { name: SidebarIconName }) {
  return (
    <svg
      className="sidebar-icon"
      aria-hidden="true"
      focusable="false"
      width="20"
      height="20"
      viewBox="0 0 20 20"
      fill="none"
      stroke="currentColor"
      strokeWidth="1.6"
      strokeLinecap="round"
      strokeLinejoin="round"
    >
      <path d={PATHS[name]} />
    </svg>
  );
}

/** The icon of a view; a view added later without one of its own gets the plain square. */
export function viewIcon(view: string): SidebarIconName {
  return view in PATHS ? (view as SidebarIconName) : 'generic';
}
