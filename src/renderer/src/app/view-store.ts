import { create } from 'zustand';

/** The main area's views, in the sidebar's order. */
export type View = 'chat' | 'rules' | 'hooks' | 'mcp' | 'skills' | 'trust' | 'audit' | 'settings';

export const VIEW_LABELS: Record<View, string> = {
  chat: 'Chat',
  rules: 'Rules',
  hooks: 'Hooks',
  mcp: 'MCP servers',
  skills: 'Skills & sub-agents',
  trust: 'Trusted folders',
  audit: 'Audit log',
  settings: 'Settings',
};

interface ViewState {
  view: View;
  /** Help › About (the worker's diagnostics) is open. */
  about: boolean;
}

export const useView = create<ViewState>(() => ({ view: 'chat', about: false }));

export function showView(view: View): void {
  useView.setState({ view });
}

export function setAboutOpen(about: boolean): void {
  useView.setState({ about });
}
