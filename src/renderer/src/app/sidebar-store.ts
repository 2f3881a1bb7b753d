import { useEffect } from 'react';
import { create } from 'zustand';

/** Where the person's choice is kept (this origin's localStorage), so the next start shows the sidebar the same way. */
const STORAGE_KEY = 'gatehouse.sidebar';
/** Until the person chooses, a window this narrow shows the sidebar as icons: the main area keeps its room. */
const NARROW_QUERY = '(max-width: 960px)';

type Choice = 'collapsed' | 'expanded';

interface SidebarState {
  /** What the person chose with the toggle; null: the window's width decides. */
  choice: Choice | null;
  /** Whether the window is narrow (NARROW_QUERY), live. */
  narrow: boolean;
  /** The project switcher's list of recent projects and folder box is open. */
  projectList: boolean;
}

function storedChoice(): Choice | null {
  try {
    const value = window.localStorage.getItem(STORAGE_KEY);
    return value === 'collapsed' || value === 'expanded' ? value : null;
  } catch {
    return null;
  }
}

function narrowNow(): boolean {
  return typeof window.matchMedia === 'function' && window.matchMedia(NARROW_QUERY).matches;
}

export const useSidebar = create<SidebarState>(() => ({
  choice: storedChoice(),
  narrow: narrowNow(),
  projectList: false,
}));

/** Whether the sidebar shows icons only: the person's choice, else the window's width. */
export function isCollapsed(s: SidebarState): boolean {
  return s.choice ? s.choice === 'collapsed' : s.narrow;
}

/** Collapses an expanded sidebar and expands a collapsed one; the choice is remembered. */
export function toggleSidebar(): void {
  const choice: Choice = isCollapsed(useSidebar.getState()) ? 'expanded' : 'collapsed';
  useSidebar.setState({ choice });
  try {
    window.localStorage.setItem(STORAGE_KEY, choice);
  } catch {
    // storage unavailable: the choice holds until the page is loaded again
  }
}

export function setProjectListOpen(projectList: boolean): void {
  useSidebar.setState({ projectList });
}

/** Ctrl+B (Cmd+B on macOS), as in most editors; not while a dialog is open. */
export const SIDEBAR_KEYS = 'Control+B Meta+B';

function isSidebarShortcut(event: KeyboardEvent): boolean {
  return (
    (event.ctrlKey || event.metaKey) &&
    !event.altKey &&
    !event.shiftKey &&
    event.key.toLowerCase() === 'b' &&
    !event.isComposing
  );
}

/** Follows the window's width, and toggles the sidebar on its shortcut. */
export function useSidebarControls(): void {
  useEffect(() => {
    if (typeof window.matchMedia !== 'function') return;
    const media = window.matchMedia(NARROW_QUERY);
    const onChange = (): void => useSidebar.setState({ narrow: media.matches });
    onChange();
    media.addEventListener('change', onChange);
    return () => media.removeEventListener('change', onChange);
  }, []);
  useEffect(() => {
    const onKey = (event: KeyboardEvent): void => {
      if (!isSidebarShortcut(event) || document.querySelector('dialog[open]')) return;
      event.preventDefault();
      toggleSidebar();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
}
